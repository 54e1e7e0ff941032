/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-generic.c - perf's generic names against perf's encodings, with
 * <linux/perf_event.h> as the oracle; raw names; privilege levels.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include "internal.h"
#include "tap.h"
#include "util.h"

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE
#define HWC PERF_TYPE_HW_CACHE
#define C(cache, op, res) (PERF_COUNT_HW_CACHE_##cache | \
			   PERF_COUNT_HW_CACHE_OP_##op << 8 | \
			   PERF_COUNT_HW_CACHE_RESULT_##res << 16)

/* What perf list shows and perf stat -e accepts, in perf's words. */
static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
	int listed;		/* in perf list (else an alias) */
} oracle[] = {
	{ "cpu-cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 1 },
	{ "cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 1 },
	{ "instructions", HW, PERF_COUNT_HW_INSTRUCTIONS, 1 },
	{ "cache-references", HW, PERF_COUNT_HW_CACHE_REFERENCES, 1 },
	{ "cache-misses", HW, PERF_COUNT_HW_CACHE_MISSES, 1 },
	{ "branch-instructions", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1 },
	{ "branches", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1 },
	{ "branch-misses", HW, PERF_COUNT_HW_BRANCH_MISSES, 1 },
	{ "bus-cycles", HW, PERF_COUNT_HW_BUS_CYCLES, 1 },
	{ "stalled-cycles-frontend", HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1 },
	{ "idle-cycles-frontend", HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1 },
	{ "stalled-cycles-backend", HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1 },
	{ "idle-cycles-backend", HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1 },
	{ "ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES, 1 },
	{ "cpu-clock", SW, PERF_COUNT_SW_CPU_CLOCK, 1 },
	{ "task-clock", SW, PERF_COUNT_SW_TASK_CLOCK, 1 },
	{ "page-faults", SW, PERF_COUNT_SW_PAGE_FAULTS, 1 },
	{ "faults", SW, PERF_COUNT_SW_PAGE_FAULTS, 1 },
	{ "minor-faults", SW, PERF_COUNT_SW_PAGE_FAULTS_MIN, 1 },
	{ "major-faults", SW, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1 },
	{ "context-switches", SW, PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	{ "cs", SW, PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	{ "cpu-migrations", SW, PERF_COUNT_SW_CPU_MIGRATIONS, 1 },
	{ "migrations", SW, PERF_COUNT_SW_CPU_MIGRATIONS, 1 },
	{ "alignment-faults", SW, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1 },
	{ "emulation-faults", SW, PERF_COUNT_SW_EMULATION_FAULTS, 1 },

	{ "L1-dcache-loads", HWC, C(L1D, READ, ACCESS), 1 },
	{ "L1-dcache-load-misses", HWC, C(L1D, READ, MISS), 1 },
	{ "L1-dcache-stores", HWC, C(L1D, WRITE, ACCESS), 1 },
	{ "L1-dcache-store-misses", HWC, C(L1D, WRITE, MISS), 1 },
	{ "L1-dcache-prefetches", HWC, C(L1D, PREFETCH, ACCESS), 1 },
	{ "L1-dcache-prefetch-misses", HWC, C(L1D, PREFETCH, MISS), 1 },
	{ "L1-icache-loads", HWC, C(L1I, READ, ACCESS), 1 },
	{ "L1-icache-load-misses", HWC, C(L1I, READ, MISS), 1 },
	{ "L1-icache-prefetches", HWC, C(L1I, PREFETCH, ACCESS), 1 },
	{ "L1-icache-prefetch-misses", HWC, C(L1I, PREFETCH, MISS), 1 },
	{ "LLC-loads", HWC, C(LL, READ, ACCESS), 1 },
	{ "LLC-load-misses", HWC, C(LL, READ, MISS), 1 },
	{ "LLC-stores", HWC, C(LL, WRITE, ACCESS), 1 },
	{ "LLC-store-misses", HWC, C(LL, WRITE, MISS), 1 },
	{ "LLC-prefetches", HWC, C(LL, PREFETCH, ACCESS), 1 },
	{ "LLC-prefetch-misses", HWC, C(LL, PREFETCH, MISS), 1 },
	{ "dTLB-loads", HWC, C(DTLB, READ, ACCESS), 1 },
	{ "dTLB-load-misses", HWC, C(DTLB, READ, MISS), 1 },
	{ "dTLB-stores", HWC, C(DTLB, WRITE, ACCESS), 1 },
	{ "dTLB-store-misses", HWC, C(DTLB, WRITE, MISS), 1 },
	{ "dTLB-prefetches", HWC, C(DTLB, PREFETCH, ACCESS), 1 },
	{ "dTLB-prefetch-misses", HWC, C(DTLB, PREFETCH, MISS), 1 },
	{ "iTLB-loads", HWC, C(ITLB, READ, ACCESS), 1 },
	{ "iTLB-load-misses", HWC, C(ITLB, READ, MISS), 1 },
	{ "branch-loads", HWC, C(BPU, READ, ACCESS), 1 },
	{ "branch-load-misses", HWC, C(BPU, READ, MISS), 1 },
	{ "node-loads", HWC, C(NODE, READ, ACCESS), 1 },
	{ "node-load-misses", HWC, C(NODE, READ, MISS), 1 },
	{ "node-stores", HWC, C(NODE, WRITE, ACCESS), 1 },
	{ "node-store-misses", HWC, C(NODE, WRITE, MISS), 1 },
	{ "node-prefetches", HWC, C(NODE, PREFETCH, ACCESS), 1 },
	{ "node-prefetch-misses", HWC, C(NODE, PREFETCH, MISS), 1 },

	/* perf's aliases for caches, operations and results */
	{ "L1-dcache", HWC, C(L1D, READ, ACCESS), 0 },
	{ "L1-dcache-misses", HWC, C(L1D, READ, MISS), 0 },
	{ "l1d-load-miss", HWC, C(L1D, READ, MISS), 0 },
	{ "L1-data-write-access", HWC, C(L1D, WRITE, ACCESS), 0 },
	{ "l1i-speculative-read-misses", HWC, C(L1I, PREFETCH, MISS), 0 },
	{ "L2-loads", HWC, C(LL, READ, ACCESS), 0 },
	{ "llc-misses-store", HWC, C(LL, WRITE, MISS), 0 },
	{ "Data-TLB-speculative-load", HWC, C(DTLB, PREFETCH, ACCESS), 0 },
	{ "i-tlb-read-misses", HWC, C(ITLB, READ, MISS), 0 },
	{ "btb-misses", HWC, C(BPU, READ, MISS), 0 },
	{ "node-write-Reference", HWC, C(NODE, WRITE, ACCESS), 0 },

	{ "r1c0", PERF_TYPE_RAW, 0x1c0, 0 },
	{ "rFFFFFFFFFFFFFFFF", PERF_TYPE_RAW, ~0ull, 0 },
};
#define NORACLE (sizeof(oracle) / sizeof(oracle[0]))

static int listed_seen[NORACLE], unlisted;

static void on_name(const char *name, void *ctx)
{
	size_t i;

	for (i = 0; i < NORACLE; i++)
		if (!strcmp(name, oracle[i].name) && oracle[i].listed) {
			listed_seen[i]++;
			return;
		}
	printf("# listed but not in perf's list: %s\n", name);
	unlisted++;
}

static struct perfctr_resolver *resolver(void)
{
	struct perfctr_resolver_opts o = {
		.sz = sizeof(o), .sysfs_root = test_dir, .no_libpfm = 1,
	};
	struct perfctr_resolver *r;

	if (perfctr_resolver__new(&o, &r))
		test_die("resolver");
	return r;
}

static void all_names(struct perfctr_resolver *r)
{
	struct perfctr_encoding e;
	char err[512];
	size_t i;
	int ret;

	for (i = 0; i < NORACLE; i++) {
		err[0] = '\0';
		ret = perfctr_resolver__resolve(r, oracle[i].name, 0, &e, err, sizeof(err));
		ok(ret == 0 && e.type == oracle[i].type &&
		   e.config == oracle[i].config && e.config1 == 0 &&
		   e.config2 == 0 && e.flags == PERFCTR_F_EXCLUDE_GUEST,
		   "%s -> type %u config %#llx", oracle[i].name,
		   oracle[i].type, (unsigned long long)oracle[i].config);
		if (ret || e.type != oracle[i].type || e.config != oracle[i].config)
			printf("#   got %d type %u config %#llx: %s\n", ret, e.type,
			       (unsigned long long)e.config, err);
	}
	pc_generic_names(on_name, NULL);
	for (i = 0; i < NORACLE; i++)
		if (oracle[i].listed)
			is_int(listed_seen[i], 1, "%s listed once", oracle[i].name);
	is_int(unlisted, 0, "no name listed that perf does not list");
}

/* Levels: the request's, the name's, and perf's exclude_* rules (perf
 * 6.1: perf stat -vv -e NAME prints them; testsuite/unit/helper/
 * test-perf-modifiers compares every combination with this machine's
 * perf). */
static const struct {
	const char *name;
	unsigned int plm;
	int ret;
	uint32_t flags;
	const char *msg;
} levels[] = {
#define EU PERFCTR_F_EXCLUDE_USER
#define EK PERFCTR_F_EXCLUDE_KERNEL
#define EH PERFCTR_F_EXCLUDE_HV
#define EG PERFCTR_F_EXCLUDE_GUEST
#define EHO PERFCTR_F_EXCLUDE_HOST
	{ "cycles", 0, 0, EG, NULL },
	{ "cycles", PERFCTR_PLM_ALL, 0, EG, NULL },
	{ "cycles", PERFCTR_PLM_USER, 0, EK | EH | EG, NULL },
	{ "cycles", PERFCTR_PLM_KERNEL, 0, EU | EH, NULL },
	{ "cycles:u", 0, 0, EK | EH | EG, NULL },
	{ "cycles:k", 0, 0, EU | EH, NULL },
	{ "cycles:uk", 0, 0, EH | EG, NULL },
	{ "cycles:ukh", 0, 0, EG, NULL },
	{ "cycles:h", 0, 0, EU | EK, NULL },
	{ "cycles:u", PERFCTR_PLM_USER, 0, EK | EH | EG, NULL },
	{ "cycles:uh", PERFCTR_PLM_USER, 0, EK | EG, NULL },
	{ "task-clock:k", PERFCTR_PLM_KERNEL, 0, EU | EH, NULL },
	{ "r1c0:u", 0, 0, EK | EH | EG, NULL },
	{ "cycles:G", 0, 0, EHO, NULL },
	{ "cycles:H", PERFCTR_PLM_ALL, 0, EG, NULL },
	{ "cycles:GH", 0, 0, 0, NULL },
	{ "cycles:HG", 0, 0, 0, NULL },
	{ "cycles:uG", 0, 0, EK | EH | EHO, NULL },
	{ "cycles:Gu", 0, 0, EK | EH | EHO, NULL },
	{ "cycles:G", PERFCTR_PLM_USER, 0, EK | EH | EHO, NULL },
	{ "cycles:H", PERFCTR_PLM_KERNEL, 0, EU | EH | EG, NULL },
	{ "cycles:kG", 0, 0, EU | EH | EHO, NULL },
	{ "cycles:h", PERFCTR_PLM_USER, 0, EK | EG, NULL },
	{ "cycles:hG", PERFCTR_PLM_KERNEL, 0, EU | EHO, NULL },
	{ "cycles:uu", 0, -EINVAL, 0,
	  "modifier 'u' given twice in \"cycles:uu\"" },
	{ "cycles:GkG", 0, -EINVAL, 0, "modifier 'G' given twice" },
	{ "cycles:u", PERFCTR_PLM_KERNEL, -EINVAL, 0,
	  "the modifiers of \"cycles:u\" contradict the request's .kernel" },
	{ "cycles:k", PERFCTR_PLM_USER, -EINVAL, 0,
	  "the modifiers of \"cycles:k\" contradict the request's .user" },
	{ "cycles:u", PERFCTR_PLM_ALL, -EINVAL, 0,
	  "contradict the request's user and kernel level" },
	{ "cycles:h", PERFCTR_PLM_ALL, -EINVAL, 0, "contradict" },
	{ "cycles", 8, -EINVAL, 0, "bad request level 0x8" },
	{ "cycles:p", 0, -EINVAL, 0,
	  "modifier 'p' in \"cycles:p\": precision is for sampling" },
	{ "L1-icache-stores", 0, -EINVAL, 0,
	  "\"L1-icache-stores\": perf has no store events for L1-icache" },
	{ "iTLB-prefetches", 0, -EINVAL, 0, "no prefetch events for iTLB" },
	{ "r12345678901234567", 0, -EINVAL, 0, "more than 16 hex digits" },
	{ "L1-dcache-load-misses-stores", 0, -ENOENT, 0, "unknown event" },
	{ "CYCLES", 0, -ENOENT, 0, "unknown event \"CYCLES\"; did you mean \"cycles\"" },
};

static void all_levels(struct perfctr_resolver *r)
{
	struct perfctr_encoding e;
	char err[512];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		err[0] = '\0';
		ret = perfctr_resolver__resolve(r, levels[i].name, levels[i].plm,
						&e, err, sizeof(err));
		is_int(ret, levels[i].ret, "%s with plm %u: %s", levels[i].name,
		       levels[i].plm, levels[i].ret ? "refused" : "resolves");
		if (levels[i].msg)
			like(err, levels[i].msg, "%s: message", levels[i].name);
		else
			is_int(e.flags, levels[i].flags, "%s with plm %u: flags",
			       levels[i].name, levels[i].plm);
	}
}

/* A module's request: its :G/:H must be the name's, .precise is perf's
 * 'p' (which excludes the guest when :G/:H do not say). */
static const struct {
	const char *name;
	unsigned int plm, gh, precise;
	int ret;
	uint32_t flags;
	const char *msg;
} requests[] = {
	{ "cycles", PERFCTR_PLM_KERNEL, 0, 0, 0, EU | EH, NULL },
	{ "cycles", PERFCTR_PLM_KERNEL, 0, 1, 0, EU | EH | EG, NULL },
	{ "cycles", PERFCTR_PLM_ALL, 0, 2, 0, EG, NULL },
	{ "cycles:G", PERFCTR_PLM_KERNEL, PERFCTR_GH_GUEST, 1, 0,
	  EU | EH | EHO, NULL },
	{ "cycles:GH", PERFCTR_PLM_ALL, PERFCTR_GH_GUEST | PERFCTR_GH_HOST, 0, 0,
	  0, NULL },
	{ "cycles:G", PERFCTR_PLM_ALL, 0, 0, -EINVAL, 0,
	  "the modifiers of \"cycles:G\" contradict the request's no :G or :H" },
	{ "cycles:H", PERFCTR_PLM_ALL, PERFCTR_GH_GUEST, 0, -EINVAL, 0,
	  "contradict the request's :G" },
	{ "cycles", PERFCTR_PLM_ALL, PERFCTR_GH_HOST, 0, -EINVAL, 0,
	  "contradict the request's :H" },
};

static void all_requests(struct perfctr_resolver *r)
{
	struct perfctr_request req;
	struct perfctr_encoding e;
	char err[512];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
		memset(&req, 0, sizeof(req));
		snprintf(req.event, sizeof(req.event), "%s", requests[i].name);
		req.plm = requests[i].plm;
		req.gh = requests[i].gh;
		req.precise = requests[i].precise;
		err[0] = '\0';
		ret = perfctr_resolver__resolve_request(r, &req, &e, err,
							sizeof(err));
		is_int(ret, requests[i].ret, "request %s plm %u gh %u precise %u",
		       req.event, req.plm, req.gh, req.precise);
		if (requests[i].msg)
			like(err, requests[i].msg, "  message");
		else
			is_int(e.flags, requests[i].flags, "  flags");
	}
}

int main(void)
{
	struct perfctr_resolver *r;

	test_mkdtemp();		/* an empty sysfs: generic names only */
	r = resolver();
	all_names(r);
	all_levels(r);
	all_requests(r);
	perfctr_resolver__free(r);
	test_cleanup();
	return tap_done();
}
