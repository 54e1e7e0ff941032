/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-pfm.c - libpfm4 names for CPUs we do not have (LIBPFM_FORCE_PMU).
 * The oracle is independent of libpfm4: the event codes the kernel
 * publishes in perf's JSON tables (tools/perf/pmu-events/arch/x86/<cpu>/)
 * and Intel's architectural events (SDM vol. 3B, "Architectural
 * Performance Monitoring"), laid out as the kernel's format files say:
 * Intel event:0-7 umask:8-15 cmask:24-31, AMD event:0-7,32-35.
 * Then perfctr_resolver__check with this machine's libpfm4: a name any
 * PMU of its tables has is known, present or not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/wait.h>
#include "internal.h"
#include "tap.h"
#include "util.h"

#define RAW PERF_TYPE_RAW
#define EU PERFCTR_F_EXCLUDE_USER
#define EK PERFCTR_F_EXCLUDE_KERNEL
#define EH PERFCTR_F_EXCLUDE_HV
#define EG PERFCTR_F_EXCLUDE_GUEST
#define U PERFCTR_PLM_USER
#define K PERFCTR_PLM_KERNEL

struct row {
	const char *name;
	unsigned int plm;
	int ret;
	uint32_t type;
	uint64_t config;
	uint32_t flags;
	const char *msg;
};
#define GOOD(name, plm, type, config, flags) \
	{ name, plm, 0, type, config, flags, NULL }
#define BAD(name, plm, ret, msg) { name, plm, ret, 0, 0, 0, msg }
#define END { NULL, 0, 0, 0, 0, 0, NULL }

/* Skylake, Ice Lake and Sapphire Rapids agree on these (skylake/,
 * icelake/, sapphirerapids/ JSON): INST_RETIRED.ANY_P EventCode 0xc0
 * UMask 0x0; MEM_LOAD_RETIRED.L3_MISS EventCode 0xd1 UMask 0x20;
 * CPU_CLK_UNHALTED.THREAD_P EventCode 0x3c UMask 0x0.  UnHalted Core
 * Cycles is architectural event 3CH, umask 00H. */
#define INTEL_COMMON(pmu)						\
	GOOD("INST_RETIRED:ANY_P", 0, RAW, 0xc0, EG),			\
	GOOD("INST_RETIRED.ANY_P", 0, RAW, 0xc0, EG),			\
	GOOD("inst_retired.any_p", 0, RAW, 0xc0, EG),			\
	GOOD(pmu "::INST_RETIRED:ANY_P", 0, RAW, 0xc0, EG),		\
	GOOD("MEM_LOAD_RETIRED:L3_MISS", 0, RAW, 0x20d1, EG),		\
	GOOD("mem_load_retired.l3_miss", 0, RAW, 0x20d1, EG),		\
	GOOD("MEM_LOAD_RETIRED:L3_MISS:c=2", 0, RAW, 0x20020d1, EG),	\
	GOOD("CPU_CLK_UNHALTED:THREAD_P", 0, RAW, 0x3c, EG),		\
	GOOD("UNHALTED_CORE_CYCLES", 0, RAW, 0x3c, EG),			\
	GOOD("INST_RETIRED:ANY_P:u", 0, RAW, 0xc0, EK | EH | EG),		\
	GOOD("INST_RETIRED:ANY_P:k", 0, RAW, 0xc0, EU | EH),		\
	GOOD("INST_RETIRED:ANY_P", U, RAW, 0xc0, EK | EH | EG),		\
	GOOD("INST_RETIRED:ANY_P:k", K, RAW, 0xc0, EU | EH),		\
	GOOD("cycles", 0, PERF_TYPE_HARDWARE, 0, EG),			\
	BAD("INST_RETIRED:ANY_P:u", K, -EINVAL, "contradict the request's .kernel"), \
	BAD("INST_RETIRED:ANY_P:u=0:k=1", U, -EINVAL,			\
	    "event \"INST_RETIRED:ANY_P:u=0:k=1\" counts at .kernel, which contradicts the request's .user"), \
	BAD("INST_RETIRED:ANY_P:u=0", U, -EINVAL, "counts at no level"), \
	BAD("INST_RETIRED:ANY_PP", 0, -EINVAL, "libpfm4 cannot encode \"INST_RETIRED:ANY_PP\""), \
	BAD("INST_RETIRD:ANY_P", 0, -ENOENT,				\
	    "unknown event \"INST_RETIRD:ANY_P\"; did you mean \"INST_RETIRED:ANY_P\""), \
	BAD("INST_RETIRD:ANY_P:u", 0, -ENOENT, "did you mean \"INST_RETIRED:ANY_P:u\""), \
	BAD("RETIRED_INSTRUCTIONS", 0, -ENOENT, "unknown event")

static const struct row skl[] = {
	INTEL_COMMON("skl"),
	BAD("icl::INST_RETIRED:ANY_P", 0, -ENODEV,
	    "libpfm4 PMU \"icl\" is not present on this machine (present: skl)"),
	BAD("skl::NO_SUCH_EVENT", 0, -ENOENT, "unknown event \"skl::NO_SUCH_EVENT\""),
	END,
};
static const struct row icl[] = {
	INTEL_COMMON("icl"),
	BAD("skl::INST_RETIRED:ANY_P", 0, -ENODEV, "libpfm4 PMU \"skl\""),
	END,
};
static const struct row spr[] = {
	INTEL_COMMON("spr"),
	END,
};
/* amdzen3/ JSON: ex_ret_instr 0xc0, ex_ret_brn 0xc2,
 * ex_ret_mmx_fp_instr.sse_instr 0xcb umask 0x04, ls_not_halted_cyc 0x76,
 * ex_ret_msprd_brnch_instr_dir_msmtch 0x1c7 (bits 8-11 go to 32-35). */
static const struct row zen3[] = {
	GOOD("RETIRED_INSTRUCTIONS", 0, RAW, 0xc0, EG),
	GOOD("amd64_fam19h_zen3::RETIRED_INSTRUCTIONS", 0, RAW, 0xc0, EG),
	GOOD("RETIRED_BRANCH_INSTRUCTIONS", 0, RAW, 0xc2, EG),
	GOOD("RETIRED_MMX_FP_INSTRUCTIONS:SSE_INSTR", 0, RAW, 0x4cb, EG),
	GOOD("CYCLES_NOT_IN_HALT", 0, RAW, 0x76, EG),
	GOOD("RETIRED_BRANCH_MISPREDICTED_DIRECTION_MISMATCH", 0, RAW, 0x1000000c7, EG),
	GOOD("RETIRED_INSTRUCTIONS:u", 0, RAW, 0xc0, EK | EH | EG),
	GOOD("RETIRED_INSTRUCTIONS", K, RAW, 0xc0, EU | EH),
	BAD("INST_RETIRED:ANY_P", 0, -ENOENT, "unknown event \"INST_RETIRED:ANY_P\""),
	BAD("RETIRED_INSTRUCTION", 0, -ENOENT, "did you mean \"RETIRED_INSTRUCTIONS\""),
	END,
};

/* An uncore PMU libpfm4 knows (from CPUID, or forced) while the kernel
 * has no PMU for it (power/: RAPL): refused as absent, saying why. */
static const struct row rapl[] = {
	BAD("amd64_rapl::RAPL_ENERGY_PKG", 0, -ENODEV,
	    "libpfm4 PMU \"amd64_rapl\" (AMD64 RAPL) is an uncore PMU that the "
	    "kernel does not have here"),
	BAD("RAPL_ENERGY_PKG", 0, -ENODEV, "no entry for it in /sys/bus/event_source/devices"),
	END,
};

static const struct {
	const char *pmu;
	const struct row *rows;
} cpus[] = {
	{ "skl", skl }, { "icl", icl }, { "spr", spr },
	{ "amd64_fam19h_zen3", zen3 },
};

/* What a resolution gave, sent back from the child that made it. */
struct result {
	int ret;
	struct perfctr_encoding e;
	char err[1024];
};

static void check(const char *pmu, const struct row *row,
		  const struct result *res)
{
	const struct perfctr_encoding *e = &res->e;

	is_int(res->ret, row->ret, "%s: %s (plm %u) %s", pmu, row->name,
	       row->plm, row->ret ? "refused" : "resolves");
	if (row->msg) {
		like(res->err, row->msg, "%s: %s: message", pmu, row->name);
		return;
	}
	if (res->ret)
		printf("#   %s\n", res->err);
	ok(e->type == row->type && e->config == row->config && !e->config1 &&
	   !e->config2 && e->flags == row->flags,
	   "%s: %s -> type %u config %#llx flags %#x", pmu, row->name,
	   row->type, (unsigned long long)row->config, row->flags);
	if (e->config != row->config || e->flags != row->flags)
		printf("#   got type %u config %#llx flags %#x\n", e->type,
		       (unsigned long long)e->config, e->flags);
}

static struct perfctr_resolver *resolver(int no_libpfm)
{
	struct perfctr_resolver_opts o = {
		.sz = sizeof(o), .sysfs_root = test_dir, .no_libpfm = no_libpfm,
	};
	struct perfctr_resolver *r;

	if (perfctr_resolver__new(&o, &r))
		test_die("resolver");
	return r;
}

/* libpfm4 reads LIBPFM_FORCE_PMU once per process (pfm_terminate does
 * not forget the PMUs it activated), so each CPU gets a child. */
static void child(int fd, const char *pmu, const struct row *rows)
{
	struct perfctr_resolver *r;
	struct result res;

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	r = resolver(0);
	for (; rows->name; rows++) {
		memset(&res, 0, sizeof(res));
		res.ret = perfctr_resolver__resolve(r, rows->name, rows->plm,
						    &res.e, res.err, sizeof(res.err));
		if (write(fd, &res, sizeof(res)) != sizeof(res))
			_exit(1);
	}
	perfctr_resolver__free(r);
	_exit(0);
}

static void run_cpu(const char *pmu, const struct row *rows)
{
	struct result res;
	const struct row *row;
	int fd[2], status;
	pid_t pid;
	FILE *in;

	fflush(stdout);
	if (pipe(fd) || (pid = fork()) < 0)
		test_die("fork");
	if (pid == 0) {
		close(fd[0]);
		child(fd[1], pmu, rows);
	}
	close(fd[1]);
	in = fdopen(fd[0], "r");
	for (row = rows; row->name; row++) {
		if (fread(&res, sizeof(res), 1, in) != 1) {
			ok(0, "%s: %s: no result from the child", pmu, row->name);
			continue;
		}
		check(pmu, row, &res);
	}
	fclose(in);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child exits 0", pmu);
}

/* perfctr_resolver__check (perfctr-run --check-events): known on any
 * machine, and here; libpfm4 as this machine has it, all its tables. */
static const struct {
	const char *name;
	int here, ret;
	const char *err;	/* in the message, or NULL */
	const char *what;
} checks[] = {
	{ "page-faults:u", 1, 0, NULL, "a generic name counts here" },
	{ "cylces", 0, -ENOENT, "unknown event \"cylces\"; did you mean "
	  "\"cycles\"", "a typo is known nowhere, with the nearest name" },
	{ "topdown-retiring", 0, 0, NULL, "a kernel's sysfs name is known" },
	{ "cpu_cycles", 0, 0, NULL, "an Arm kernel's sysfs name is known" },
	{ "l1d_cache_refil", 0, -ENOENT, "did you mean \"l1d_cache_refill\"",
	  "a typo of a kernel's sysfs name, with the nearest" },
	{ "nosuch/event=1/", 0, 0, NULL,
	  "PMU/TERMS/ may be another machine's" },
	{ "nosuch/event=1/", 1, -ENODEV, NULL,
	  "here, a PMU the kernel does not have" },
#ifdef __x86_64__
	{ "wsm::INST_RETIRED:ANY_P", 0, 0, NULL,
	  "a libpfm4 PMU's event, present or not, is known" },
	{ "wsm::INST_RETIRED:ANY_P", 1, -ENODEV, "libpfm4 PMU \"wsm\"",
	  "here, not where its PMU is not present" },
	{ "inst_retired.any_p:u", 0, 0, NULL,
	  "perf's JSON form of a libpfm4 name is known" },
	{ "INST_RETIERD:ANY_P", 0, -ENOENT, "did you mean "
	  "\"INST_RETIRED:ANY_P\"", "a typo of a libpfm4 name is known "
	  "nowhere, with the nearest of every PMU's table" },
	{ "INST_RETIRED:NO_SUCH_UMASK", 0, -ENOENT, NULL,
	  "a unit mask the event has nowhere" },
#endif
};

static void check_names(void)
{
	struct perfctr_resolver *r = resolver(0);
	char err[1024];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		err[0] = '\0';
		ret = perfctr_resolver__check(r, checks[i].name, checks[i].here,
					      err, sizeof(err));
		ok(ret == checks[i].ret && (!checks[i].err ||
					    strstr(err, checks[i].err)),
		   "check %s%s: %s", checks[i].name,
		   checks[i].here ? " here" : "", checks[i].what);
	}
	perfctr_resolver__free(r);
}

int main(void)
{
	struct perfctr_encoding e;
	struct perfctr_resolver *r;
	char err[512];
	size_t i;

	test_mkdtemp();		/* an empty sysfs */
	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		run_cpu(cpus[i].pmu, cpus[i].rows);
	/* libpfm4 reads the kernel's own sysfs for an uncore PMU's type */
	if (access("/sys/bus/event_source/devices/power", F_OK) == 0)
		tap_ok(1, "# SKIP this kernel has the RAPL PMU (power/)");
	else
		run_cpu("amd64_rapl", rapl);
	check_names();
	r = resolver(1);
	is_int(perfctr_resolver__resolve(r, "INST_RETIRED:ANY_P", 0, &e, err, sizeof(err)),
	       -ENOENT, "no_libpfm: vendor names are unknown");
	perfctr_resolver__free(r);
	test_cleanup();
	return tap_done();
}
