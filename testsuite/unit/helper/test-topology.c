/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-topology.c - each PMU's CPUs and span from the fixtures of three
 * machines (fixtures/README.md), and the counters that cannot be
 * created per CPU or per task there: per-socket PMUs in any scope; on
 * a hybrid machine one core type's events per CPU, and core events per
 * task.  Generic and software events pass.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "internal.h"
#include "tap.h"

#define CPU PERFCTR_SCOPE_CPU
#define THREAD PERFCTR_SCOPE_THREAD
#define PROCESS PERFCTR_SCOPE_PROCESS
#define CGROUP PERFCTR_SCOPE_CGROUP
#define SOCKET PERFCTR_SCOPE_SOCKET

struct machine {
	struct perfctr_topology *t;
	struct perfctr_resolver *r;
	const char *root;
};

static void machine_open(struct machine *m, const char *name)
{
	static char roots[3][1024];
	static int k;
	struct perfctr_resolver_opts o = { .sz = sizeof(o), .no_libpfm = 1 };
	char *root = roots[k++ % 3];

	snprintf(root, sizeof(roots[0]), "%s/%s/sys", FIXTURES, name);
	m->root = o.sysfs_root = root;
	if (perfctr_topology__read(root, &m->t) ||
	    perfctr_resolver__new(&o, &m->r)) {
		printf("Bail out! %s\n", root);
		exit(99);
	}
}

static void machine_close(struct machine *m)
{
	perfctr_topology__free(m->t);
	perfctr_resolver__free(m->r);
}

static const struct perfctr_topo_pmu *pmu(const struct machine *m,
					  const char *name)
{
	unsigned int i;

	for (i = 0; i < m->t->n; i++)
		if (!strcmp(m->t->pmus[i].name, name))
			return &m->t->pmus[i];
	return NULL;
}

static void expect_pmu(const struct machine *m, const char *name, int type,
		       unsigned int span, const char *file, const char *cpus)
{
	const struct perfctr_topo_pmu *p = pmu(m, name);

	ok(p, "%s: PMU %s read", m->root, name);
	if (!p)
		return;
	is_int(p->type, type, "%s: type", name);
	is_str(perfctr_span__name(p->span), perfctr_span__name(span),
	       "%s: span", name);
	is_str(p->cpus_file ? p->cpus_file : "(none)", file ? file : "(none)",
	       "%s: CPUs from", name);
	is_str(p->cpus ? p->cpus : "(none)", cpus ? cpus : "(none)",
	       "%s: CPUs", name);
}

/* Resolves event for a request of this scope (sampling when sample is
 * set) and checks it; want NULL: allowed, else a part of the refusal. */
static void expect(const struct machine *m, const char *event,
		   unsigned int scope, unsigned int mux, unsigned int sample,
		   const char *want)
{
	struct perfctr_request req = { .scope = scope, .mux = mux,
				       .sample = sample };
	struct perfctr_encoding enc;
	char err[1024] = "";
	int ret;

	snprintf(req.event, sizeof(req.event), "%s", event);
	if (perfctr_resolver__resolve_request(m->r, &req, &enc, err,
					      sizeof(err))) {
		ok(0, "%s resolves: %s", event, err);
		return;
	}
	err[0] = '\0';
	ret = perfctr_topology__check(m->t, &req, &enc, err, sizeof(err));
	if (!want) {
		is_int(ret, 0, "%s, scope %u%s%s: allowed", event, scope,
		       mux ? " .multiplex" : "", sample ? " sampling" : "");
		if (ret)
			printf("#   %s\n", err);
		return;
	}
	is_int(ret, -EOPNOTSUPP, "%s, scope %u%s%s: refused", event, scope,
	       mux ? " .multiplex" : "", sample ? " sampling" : "");
	like(err, want, "%s: says why", event);
}

/* An encoding as libpfm4 gives it, or a generic event with an extended
 * type (PERF_PMU_CAP_EXTENDED_HW_TYPE). */
static void expect_enc(const struct machine *m, const char *what,
		       uint32_t type, uint64_t config, unsigned int scope,
		       const char *want)
{
	struct perfctr_request req = { .scope = scope };
	struct perfctr_encoding enc = { .type = type, .config = config };
	char err[1024] = "";
	int ret;

	snprintf(req.event, sizeof(req.event), "%s", what);
	ret = perfctr_topology__check(m->t, &req, &enc, err, sizeof(err));
	if (want) {
		is_int(ret, -EOPNOTSUPP, "%s: refused", what);
		like(err, want, "%s: says why", what);
	} else {
		is_int(ret, 0, "%s: allowed", what);
	}
}

/* The CPUs a .socket counter of event is opened on: n (or an error),
 * the first two. */
static void socket_cpus(const struct machine *m, const char *event, int n,
			int c0, int c1)
{
	struct perfctr_request req = { .scope = PERFCTR_SCOPE_SOCKET };
	struct perfctr_encoding enc;
	char err[1024];
	int *cpus, got;

	snprintf(req.event, sizeof(req.event), "%s", event);
	if (perfctr_resolver__resolve_request(m->r, &req, &enc, err,
					      sizeof(err))) {
		ok(0, "%s resolves: %s", event, err);
		return;
	}
	got = perfctr_topology__socket_cpus(m->t, &enc, &cpus);
	is_int(got, n, "%s: %d socket CPUs", event, n);
	if (got == 2 && n == 2)
		ok(cpus[0] == c0 && cpus[1] == c1, "%s: CPUs %d and %d", event,
		   c0, c1);
	free(cpus);
}

/* The core PMU encodings of event counted in scope (group: in a group;
 * sample: a sampling probe): n of them, each "PMU:CPUS:TYPE:CONFIG"
 * (hex) in want[], or a refusal that says why. */
static void core_encs(const struct machine *m, const char *event,
		      unsigned int scope, int group, unsigned int sample,
		      int n, const char *const *want, const char *why)
{
	struct perfctr_request req = { .scope = scope, .sample = sample };
	struct perfctr_core_enc out[PERFCTR_CORE_PMUS];
	struct perfctr_encoding enc;
	char err[1024] = "", got[256];
	int ret, i;

	snprintf(req.event, sizeof(req.event), "%s", event);
	if (group)
		snprintf(req.group, sizeof(req.group), "g");
	if (perfctr_resolver__resolve_request(m->r, &req, &enc, err,
					      sizeof(err))) {
		ok(0, "%s resolves: %s", event, err);
		return;
	}
	ret = perfctr_topology__core_encodings(m->t, &req, &enc, out, err,
					       sizeof(err));
	if (why) {
		is_int(ret, -EOPNOTSUPP, "%s, scope %u: no core encodings",
		       event, scope);
		like(err, why, "%s: says why", event);
		return;
	}
	is_int(ret, n, "%s, scope %u%s%s: %d core PMU encodings", event, scope,
	       group ? " grouped" : "", sample ? " sampling" : "", n);
	for (i = 0; i < n && i < ret; i++) {
		snprintf(got, sizeof(got), "%s:%s:%u:%llx", out[i].pmu,
			 out[i].cpus, out[i].enc.type,
			 (unsigned long long)out[i].enc.config);
		is_str(got, want[i], "%s: encoding %d", event, i);
	}
}

/* The module's CPU records for a .cpu counter 5 of cycles. */
static void assign_cpu_records(const struct machine *m)
{
	struct perfctr_request req = { .scope = CPU, .event = "cycles" };
	struct perfctr_core_enc out[PERFCTR_CORE_PMUS];
	struct perfctr_encoding enc = { .type = PERF_TYPE_HARDWARE,
					.flags = 0x16 };
	char buf[256] = "H", err[256];
	int n = perfctr_topology__core_encodings(m->t, &req, &enc, out, err,
						 sizeof(err)), i, rc = 0;

	for (i = 0; i < n; i++)
		rc |= perfctr_assign__append_cpu(buf, sizeof(buf), 5, &out[i]);
	is_int(rc, 0, "CPU records appended");
	is_str(buf, "H;c5,0,a00000000,0,0,16-23;c5,0,400000000,0,0,0-15",
	       "cycles: a record for cpu_atom's CPUs and one for cpu_core's");
	buf[0] = 'H';
	buf[1] = '\0';
	is_int(perfctr_assign__append_cpu(buf, 20, 5, &out[0]), -ENOSPC,
	       "a record that does not fit: -ENOSPC");
	is_str(buf, "H", "  and nothing appended");
}

static void alder_lake(void)
{
	struct machine m;

	machine_open(&m, "adl");
	is_int(m.t->n, 9, "adl: every PMU");
	ok(perfctr_topology__hybrid(m.t), "adl: hybrid");
	expect_pmu(&m, "cpu_core", 4, PERFCTR_SPAN_HYBRID, "cpus", "0-15");
	expect_pmu(&m, "cpu_atom", 10, PERFCTR_SPAN_HYBRID, "cpus", "16-23");
	expect_pmu(&m, "power", 12, PERFCTR_SPAN_SOCKET, "cpumask", "0");
	expect_pmu(&m, "cstate_core", 13, PERFCTR_SPAN_SOCKET, "cpumask",
		   "0,2,4,6,8,10,12,14,16-23");
	expect_pmu(&m, "msr", 11, PERFCTR_SPAN_ALL, NULL, NULL);
	expect_pmu(&m, "software", 1, PERFCTR_SPAN_ALL, NULL, NULL);

	/* Generic events per CPU: each CPU's core PMU takes them. */
	expect(&m, "cycles", CPU, 0, 0, NULL);
	expect(&m, "instructions", THREAD, 0, 0, NULL);
	expect(&m, "branch-misses", CGROUP, 1, 0, NULL);
	expect(&m, "cycles", CPU, 0, 100000, NULL);
	expect(&m, "task-clock", PROCESS, 0, 0, NULL);
	expect(&m, "page-faults", PROCESS, 0, 1000, NULL);
	expect(&m, "msr/tsc/", CPU, 0, 0, NULL);

	/* One core type's events per CPU. */
	expect(&m, "cpu_core/event=0xc0/", CPU, 0, 0,
	       "event \"cpu_core/event=0xc0/\" is of core PMU \"cpu_core\" "
	       "(CPUs 0-15) only, and this machine is hybrid: .cpu needs a "
	       "copy on every CPU, and the kernel cannot create it on CPUs "
	       "16-23 (\"cpu_atom\"); restrict it to its PMU's CPUs with "
	       ".cpus(\"cpu_core\"), or count a generic event");
	expect(&m, "cpu_atom/instructions/", THREAD, 0, 0,
	       "(CPUs 16-23) only, and this machine is hybrid: .thread needs "
	       "a copy on every CPU, and the kernel cannot create it on CPUs "
	       "0-15 (\"cpu_core\")");
	expect(&m, "slots", CGROUP, 0, 0, ".cgroup needs a copy");
	expect(&m, "r00c0", CPU, 1, 0, "core PMU \"cpu_core\" (CPUs 0-15)");
	expect(&m, "cpu_core/cpu-cycles/", CPU, 0, 10000,
	       "a sampling probe per CPU needs a copy on every CPU");
	expect_enc(&m, "INST_RETIRED:ANY (libpfm4 adl_grt)", 10, 0xc0, CPU,
		   "cannot create it on CPUs 0-15 (\"cpu_core\")");
	expect_enc(&m, "cycles with cpu_atom's extended type",
		   PERF_TYPE_HARDWARE, 10ull << 32, CPU,
		   "core PMU \"cpu_atom\"");

	/* Generic events per CPU: perf's, each core PMU's type in config
	 * bits 32-63; cache events too.  Not per task, not sampling, not
	 * in a group (perfctr-run opens those), nor one PMU's event. */
	core_encs(&m, "cycles", CPU, 0, 0, 2, (const char *const[]){
		  "cpu_atom:16-23:0:a00000000", "cpu_core:0-15:0:400000000" },
		  NULL);
	core_encs(&m, "instructions", THREAD, 0, 0, 2, (const char *const[]){
		  "cpu_atom:16-23:0:a00000001", "cpu_core:0-15:0:400000001" },
		  NULL);
	core_encs(&m, "L1-dcache-load-misses", CGROUP, 0, 0, 2,
		  (const char *const[]){ "cpu_atom:16-23:3:a00010000",
		  "cpu_core:0-15:3:400010000" }, NULL);
	assign_cpu_records(&m);
	core_encs(&m, "cycles", PROCESS, 0, 0, 2, (const char *const[]){
		  "cpu_atom:16-23:0:a00000000", "cpu_core:0-15:0:400000000" },
		  NULL);
	core_encs(&m, "L1-dcache-load-misses", PROCESS, 0, 0, 2,
		  (const char *const[]){ "cpu_atom:16-23:3:a00010000",
		  "cpu_core:0-15:3:400010000" }, NULL);
	core_encs(&m, "cycles", PROCESS, 0, 100000, 2, (const char *const[]){
		  "cpu_atom:16-23:0:a00000000", "cpu_core:0-15:0:400000000" },
		  NULL);
	core_encs(&m, "cycles", CPU, 0, 100000, 0, NULL, NULL);
	core_encs(&m, "cycles", CPU, 1, 0, 0, NULL, NULL);
	core_encs(&m, "cpu_core/event=0xc0/", CPU, 0, 0, 0, NULL, NULL);
	core_encs(&m, "task-clock", CPU, 0, 0, 0, NULL, NULL);
	core_encs(&m, "msr/tsc/", CPU, 0, 0, 0, NULL, NULL);

	/* Per task: a generic event is a task event per core PMU; anything
	 * else one core PMU, the task's time on the other missed. */
	expect(&m, "cycles", PROCESS, 0, 0, NULL);
	expect(&m, "L1-dcache-load-misses", PROCESS, 0, 0, NULL);
	expect(&m, "cycles", PROCESS, 0, 100000, NULL);
	expect(&m, "r00c0", PROCESS, 0, 100000,
	       "a sampling probe per task of \"r00c0\" on a hybrid machine: "
	       "a per-task event binds to one core PMU (\"cpu_core\", CPUs "
	       "0-15) and would miss the task's time on CPUs 16-23 "
	       "(\"cpu_atom\"); count a generic event (\"cycles\", "
	       "\"instructions\"...): a task event per core PMU, summed, or "
	       "sample .cpu");
	expect(&m, "cpu_core/event=0xc0/", PROCESS, 0, 0,
	       "binds to one core PMU (\"cpu_core\", CPUs 0-15) and would "
	       "miss the task's time on CPUs 16-23 (\"cpu_atom\"); count a "
	       "generic event (\"cycles\", \"instructions\"...): a task "
	       "event per core PMU, summed");
	expect(&m, "r00c0", PROCESS, 0, 0, "binds to one core PMU "
	       "(\"cpu_core\", CPUs 0-15)");

	/* Per socket: in .socket only. */
	expect(&m, "power/energy-pkg/", CPU, 0, 0,
	       "event \"power/energy-pkg/\" is of PMU \"power\", whose "
	       "cpumask \"0\" names the one CPU per socket (or die, or core) "
	       "that reads its counters: each counts for the whole socket, "
	       "once, and a copy per CPU would be wrong; count it .socket "
	       "(one counter per socket, read from any CPU of it)");
	expect(&m, "power/energy-cores/", PROCESS, 0, 0,
	       "a copy per task would be wrong; count it .socket");
	expect(&m, "power/energy-pkg/", CPU, 0, 1000, "sampling it would be "
	       "wrong");
	expect(&m, "cstate_pkg/c6-residency/", THREAD, 0, 0, "\"cstate_pkg\"");
	expect(&m, "cstate_core/c6-residency/", CPU, 0, 0,
	       "cpumask \"0,2,4,6,8,10,12,14,16-23\"");
	expect(&m, "power/energy-pkg/", SOCKET, 0, 0, NULL);
	expect(&m, "cstate_pkg/c6-residency/", SOCKET, 0, 0, NULL);
	/* cstate_core's mask is a CPU per core: two in package 0 */
	expect(&m, "cstate_core/c6-residency/", SOCKET, 0, 0,
	       "event \"cstate_core/c6-residency/\" is of PMU "
	       "\"cstate_core\", whose cpumask \"0,2,4,6,8,10,12,14,16-23\" "
	       "names CPUs 0 and 2 of one socket (package 0): its counters "
	       "are per core, and .socket counts once per socket");
	expect(&m, "cycles", SOCKET, 0, 0, "event \"cycles\" is of no PMU "
	       "with a cpumask: .socket counts the counters a socket shares "
	       "(uncore, RAPL's power, C-state residency: a PMU with a "
	       "cpumask); count it .cpu");
	expect(&m, "cpu_atom/cpu-cycles/", SOCKET, 0, 0, "event "
	       "\"cpu_atom/cpu-cycles/\" is of PMU \"cpu_atom\", which has "
	       "no cpumask");
	machine_close(&m);
}

static void server(void)
{
	struct machine m;

	machine_open(&m, "skx2s");
	ok(!perfctr_topology__hybrid(m.t), "skx2s: not hybrid");
	expect_pmu(&m, "cpu", 4, PERFCTR_SPAN_ALL, NULL, NULL);
	expect_pmu(&m, "uncore_imc_3", 18, PERFCTR_SPAN_SOCKET, "cpumask",
		   "0,28");
	expect_pmu(&m, "power", 20, PERFCTR_SPAN_SOCKET, "cpumask", "0,28");
	expect(&m, "cycles", PROCESS, 0, 0, NULL);
	expect(&m, "r00c0", CPU, 0, 0, NULL);
	expect(&m, "cpu/event=0xc0/", PROCESS, 0, 0, NULL);
	expect(&m, "uncore_imc_0/cas_count_read/", CPU, 0, 0,
	       "PMU \"uncore_imc_0\", whose cpumask \"0,28\" names the one "
	       "CPU per socket (or die, or core) that reads its counters: "
	       "each counts for the whole socket, once, and a copy per CPU "
	       "would be wrong; count it .socket");
	expect(&m, "uncore_cha_0/event=0x0/", CPU, 1, 0, "\"uncore_cha_0\"");
	expect(&m, "power/energy-ram/", PROCESS, 0, 0, "cpumask \"0,28\"");
	expect(&m, "uncore_imc_0/cas_count_read/", THREAD, 0, 0,
	       "a copy per CPU would be wrong; count it .socket");
	expect(&m, "uncore_imc_0/cas_count_read/", CGROUP, 0, 0,
	       "count it .socket");
	/* one CPU per package: the assignment's CPUs */
	expect(&m, "uncore_imc_0/cas_count_read/", SOCKET, 0, 0, NULL);
	expect(&m, "power/energy-ram/", SOCKET, 0, 0, NULL);
	expect(&m, "uncore_cha_0/event=0x0/", SOCKET, 0, 0, NULL);
	expect(&m, "r00c0", SOCKET, 0, 0, "event \"r00c0\" is of PMU "
	       "\"cpu\", which has no cpumask");
	expect(&m, "page-faults", SOCKET, 0, 0, "has no cpumask");
	socket_cpus(&m, "uncore_imc_2/cas_count_write/", 2, 0, 28);
	socket_cpus(&m, "power/energy-pkg/", 2, 0, 28);
	socket_cpus(&m, "cycles", -ENOENT, 0, 0);
	machine_close(&m);
}

static void big_little(void)
{
	struct machine m;

	machine_open(&m, "biglittle");
	ok(perfctr_topology__hybrid(m.t), "biglittle: hybrid");
	expect_pmu(&m, "armv8_cortex_a55", 8, PERFCTR_SPAN_HYBRID, "cpus",
		   "0-3");
	expect_pmu(&m, "armv8_cortex_a76", 9, PERFCTR_SPAN_HYBRID, "cpus",
		   "4-7");
	expect(&m, "cycles", CPU, 0, 0, NULL);
	/* No PMU of type 4: each CPU's core PMU takes a raw event. */
	expect(&m, "r0011", THREAD, 0, 0, NULL);
	expect(&m, "r0011", PROCESS, 0, 0, "binds to one of the core PMUs "
	       "(CPUs 0-3 (\"armv8_cortex_a55\") and 4-7 "
	       "(\"armv8_cortex_a76\")) and would miss the task's time on the "
	       "others' CPUs (only a generic hardware event is a task event "
	       "per core PMU here)");
	expect(&m, "armv8_cortex_a76/cpu_cycles/", CPU, 0, 0,
	       "core PMU \"armv8_cortex_a76\" (CPUs 4-7) only, and this "
	       "machine is hybrid: .cpu needs a copy on every CPU, and the "
	       "kernel cannot create it on CPUs 0-3 (\"armv8_cortex_a55\")");
	expect(&m, "instructions", PROCESS, 0, 0, NULL);
	expect(&m, "L1-dcache-load-misses", PROCESS, 0, 0,
	       "only a generic hardware event is a task event per core PMU");

	/* Generic hardware events per CPU: each cluster's PMU type and the
	 * event number of its sysfs alias; cache events are the kernel's
	 * to map, and an event no alias names is refused. */
	core_encs(&m, "cycles", CPU, 0, 0, 2, (const char *const[]){
		  "armv8_cortex_a55:0-3:8:11", "armv8_cortex_a76:4-7:9:11" },
		  NULL);
	core_encs(&m, "instructions", THREAD, 0, 0, 2, (const char *const[]){
		  "armv8_cortex_a55:0-3:8:8", "armv8_cortex_a76:4-7:9:8" },
		  NULL);
	core_encs(&m, "branch-misses", CPU, 0, 0, 2, (const char *const[]){
		  "armv8_cortex_a55:0-3:8:10", "armv8_cortex_a76:4-7:9:10" },
		  NULL);
	core_encs(&m, "instructions", PROCESS, 0, 0, 2, (const char *const[]){
		  "armv8_cortex_a55:0-3:8:8", "armv8_cortex_a76:4-7:9:8" },
		  NULL);
	core_encs(&m, "L1-dcache-load-misses", CPU, 0, 0, 0, NULL, NULL);
	core_encs(&m, "r0011", CPU, 0, 0, 0, NULL, NULL);
	core_encs(&m, "cache-misses", CPU, 0, 0, 0, NULL,
		  "event \"cache-misses\" on core PMU \"armv8_cortex_a55\" "
		  "(CPUs 0-3): it has no sysfs event \"l1d_cache_refill\"");
	core_encs(&m, "ref-cycles", CPU, 0, 0, 0, NULL,
		  "event \"ref-cycles\" (generic hardware event 9) on a hybrid "
		  "Arm machine: its core PMUs' event number for it is not "
		  "known");
	machine_close(&m);
}

/* event counted in scope with .cpus(cpus): allowed (want NULL) or
 * refused saying want (ret: the error); then its CPU records: n, each
 * "PMU:CPUS:TYPE:CONFIG" (hex) in recs[]. */
static void expect_cpus(const struct machine *m, const char *event,
			unsigned int scope, const char *cpus, int ret_want,
			const char *want, int n, const char *const *recs)
{
	struct perfctr_request req = { .scope = scope };
	struct perfctr_core_enc out[PERFCTR_CORE_PMUS];
	struct perfctr_encoding enc;
	char err[1024] = "", got[256];
	int ret, i;

	snprintf(req.event, sizeof(req.event), "%s", event);
	snprintf(req.cpus, sizeof(req.cpus), "%s", cpus);
	if (perfctr_resolver__resolve_request(m->r, &req, &enc, err,
					      sizeof(err))) {
		ok(0, "%s resolves: %s", event, err);
		return;
	}
	ret = perfctr_topology__check(m->t, &req, &enc, err, sizeof(err));
	if (want) {
		is_int(ret, ret_want, "%s, scope %u, .cpus(\"%s\"): refused",
		       event, scope, cpus);
		like(err, want, "%s .cpus(\"%s\"): says why", event, cpus);
		return;
	}
	is_int(ret, 0, "%s, scope %u, .cpus(\"%s\"): allowed", event, scope,
	       cpus);
	if (ret)
		printf("#   %s\n", err);
	ret = perfctr_topology__core_encodings(m->t, &req, &enc, out, err,
					       sizeof(err));
	is_int(ret, n, "%s .cpus(\"%s\"): %d CPU records", event, cpus, n);
	if (ret < 0)
		printf("#   %s\n", err);
	for (i = 0; i < n && i < ret; i++) {
		snprintf(got, sizeof(got), "%s:%s:%u:%llx", out[i].pmu,
			 out[i].cpus, out[i].enc.type,
			 (unsigned long long)out[i].enc.config);
		is_str(got, recs[i], "%s .cpus(\"%s\"): record %d", event,
		       cpus, i);
	}
}

/* .cpus("LIST") on the Alder Lake: a core PMU's event on its CPUs, a
 * generic one's records for the list's CPUs only, and what is refused. */
static void alder_lake_cpus(void)
{
	struct machine m;
	int *cpus;
	char list[16];

	machine_open(&m, "adl");
	expect_cpus(&m, "cpu_atom/event=0xc0/", CPU, "cpu_atom", 0, NULL, 1,
		    (const char *const[]){ "cpu_atom:16-23:10:c0" });
	expect_cpus(&m, "cpu_atom/event=0xc0/", THREAD, "17,19-20", 0, NULL, 1,
		    (const char *const[]){ "cpu_atom:17,19-20:10:c0" });
	expect_cpus(&m, "r00c0", CGROUP, "cpu_core", 0, NULL, 1,
		    (const char *const[]){ "cpu_core:0-15:4:c0" });
	expect_cpus(&m, "cpu_atom/event=0xc0/", CPU, "15-16", -EOPNOTSUPP,
		    "event \"cpu_atom/event=0xc0/\" is of core PMU "
		    "\"cpu_atom\" (CPUs 16-23) only, and its .cpus(\"15-16\") "
		    "names other CPUs, on which the kernel cannot create it; "
		    "restrict it to its PMU's CPUs with .cpus(\"cpu_atom\")",
		    0, NULL);
	expect_cpus(&m, "cpu_core/event=0xc0/", CPU, "cpu_atom", -EOPNOTSUPP,
		    "with .cpus(\"cpu_core\")", 0, NULL);
	expect_cpus(&m, "cycles", CPU, "14-17", 0, NULL, 2,
		    (const char *const[]){ "cpu_atom:16-17:0:a00000000",
					   "cpu_core:14-15:0:400000000" });
	expect_cpus(&m, "instructions", THREAD, "cpu_atom", 0, NULL, 1,
		    (const char *const[]){ "cpu_atom:16-23:0:a00000001" });
	expect_cpus(&m, "task-clock", CPU, "0,1,2,8", 0, NULL, 1,
		    (const char *const[]){ "software:0-2,8:1:1" });
	expect_cpus(&m, "cycles", CPU, "0,2,4,6,8,10,12,14,16", 0, NULL, 2,
		    (const char *const[]){ "cpu_atom:16:0:a00000000",
		    "cpu_core:0,2,4,6,8,10,12,14:0:400000000" });
	expect_cpus(&m, "cycles", CPU, "24", -EINVAL, ".cpus(\"24\"): this "
		    "machine has no CPU 24 (its CPUs: 0-23)", 0, NULL);
	expect_cpus(&m, "cycles", CPU, "cpu_aton", -EINVAL, ".cpus(\"cpu_aton\"): "
		    "this machine has no core PMU \"cpu_aton\" (its core PMUs, "
		    "those with a `cpus` file: \"cpu_atom\" (CPUs 16-23), "
		    "\"cpu_core\" (CPUs 0-15)); did you mean \"cpu_atom\"?", 0,
		    NULL);
	expect_cpus(&m, "cycles", CPU, "power", -EINVAL, "no core PMU "
		    "\"power\"", 0, NULL);
	expect_cpus(&m, "cycles", PROCESS, "cpu_atom", -EOPNOTSUPP,
		    ".cpus(\"cpu_atom\") restricts a counter made per CPU "
		    "(.cpu, .thread, .cgroup; not sampling, not in a group), "
		    "not .process", 0, NULL);
	{
		struct perfctr_request req = { .scope = CPU, .cpus = "3-5,7" };
		char err[256];

		is_int(perfctr_topology__restrict(m.t, &req, &cpus, err,
						  sizeof(err)), 4,
		       "restrict \"3-5,7\": 4 CPUs");
		ok(cpus && cpus[0] == 3 && cpus[3] == 7, "  3 to 7");
		is_int(perfctr_cpus__format(cpus, 4, list, sizeof(list)), 2,
		       "  written in 2 ranges");
		is_str(list, "3-5,7", "  as \"3-5,7\"");
		is_int(perfctr_cpus__format(cpus, 4, list, 4), -ENOSPC,
		       "  not in 4 bytes");
		free(cpus);
		req.cpus[0] = '\0';
		is_int(perfctr_topology__restrict(m.t, &req, &cpus, err,
						  sizeof(err)), 0,
		       "no .cpus: 0");
	}
	machine_close(&m);
}

/* .cpus("LIST") on the big.LITTLE SoC and on a machine of one core type. */
static void other_cpus(void)
{
	struct machine m;

	machine_open(&m, "biglittle");
	expect_cpus(&m, "armv8_cortex_a76/cpu_cycles/", CPU,
		    "armv8_cortex_a76", 0, NULL, 1,
		    (const char *const[]){ "armv8_cortex_a76:4-7:9:11" });
	expect_cpus(&m, "armv8_cortex_a76/cpu_cycles/", THREAD, "3-4",
		    -EOPNOTSUPP, "restrict it to its PMU's CPUs with "
		    ".cpus(\"armv8_cortex_a76\")", 0, NULL);
	expect_cpus(&m, "cycles", CPU, "2-5", 0, NULL, 2,
		    (const char *const[]){ "armv8_cortex_a55:2-3:8:11",
					   "armv8_cortex_a76:4-5:9:11" });
	expect_cpus(&m, "r0011", CPU, "armv8_cortex_a55", 0, NULL, 1,
		    (const char *const[]){ ":0-3:4:11" });
	machine_close(&m);
	machine_open(&m, "skx2s");
	expect_cpus(&m, "cycles", CPU, "0-3", 0, NULL, 1,
		    (const char *const[]){ ":0-3:0:0" });
	expect_cpus(&m, "cycles", CPU, "0,2,4,6,8,10,12,14,16", 0, NULL,
		    -EOPNOTSUPP, NULL);
	expect_cpus(&m, "cycles", CPU, "cpu", -EINVAL, ".cpus(\"cpu\"): this "
		    "machine has no core PMU with a `cpus` file, \"cpu\" or "
		    "another: give a CPU list (\"0-3\")", 0, NULL);
	machine_close(&m);
}

/* One core PMU with a cpus file (an arm64 machine of one core type):
 * not hybrid, nothing refused. */
static void one_cluster(void)
{
	struct perfctr_topology t = { 0 };
	struct perfctr_topo_pmu p = {
		.name = "armv8_pmuv3_0", .type = 8, .cpus_file = "cpus",
		.cpus = "0-7",
	};
	struct perfctr_request req = { .scope = PROCESS };
	struct perfctr_encoding enc = { .type = 8, .config = 0x11 };
	char err[256];

	t.n = 1;
	t.pmus = &p;
	t.n_core = 1;
	p.span = pc_topo_span(p.cpus_file, t.n_core);
	is_str(perfctr_span__name(p.span), "core", "one cluster: a core PMU");
	ok(!perfctr_topology__hybrid(&t), "one cluster: not hybrid");
	is_int(perfctr_topology__check(&t, &req, &enc, err, sizeof(err)), 0,
	       "one cluster: its event per task");
	{
		struct perfctr_request cpu = { .scope = CPU,
					       .cpus = "armv8_pmuv3_0" };
		int *cpus;

		is_int(perfctr_topology__restrict(&t, &cpu, &cpus, err,
						  sizeof(err)), 8,
		       "one cluster: .cpus(\"armv8_pmuv3_0\"), its 8 CPUs");
		ok(cpus && cpus[0] == 0 && cpus[7] == 7, "  0 to 7");
		free(cpus);
	}
}

int main(void)
{
	struct perfctr_topology *t;

	alder_lake();
	server();
	big_little();
	alder_lake_cpus();
	other_cpus();
	one_cluster();
	is_int(perfctr_topology__read("/nonexistent", &t), 0,
	       "no PMU directory: read");
	ok(t && t->n == 0 && !perfctr_topology__hybrid(t), "and empty");
	perfctr_topology__free(t);
	return tap_done();
}
