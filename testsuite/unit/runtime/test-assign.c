// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-assign.c - the module's perfctr_assign parser (runtime/
 * perfctr_assign.c) against good and hostile values.
 */
#include "kcompat.h"	/* the kernel helpers perfctr_assign.c uses */
#include "perfctr_assign.c"
#include "tap.h"

#define HASH "0123456789abcdef"

/* Two counters present (all levels; user only), index 1 absent, index 3
 * multiplexed. */
static const struct perfctr_request_desc reqs[4] = {
	{ .id = "cyc", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .src = "t.stp:1:1" },
	{ .id = NULL },
	{ .id = "ins", .event = "instructions:u", .plm = PERFCTR_PLM_USER,
	  .src = "t.stp:2:1" },
	{ .id = "mx", .event = "cycles", .plm = PERFCTR_PLM_ALL, .mux = 1,
	  .src = "t.stp:3:1" },
};

static const struct perfctr_table table = { .hash = HASH, .reqs = reqs,
					    .n = 4, .max_cpus = 8 };

static int parse(const char *value, struct perfctr_slot *slots, char *err)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", value);
	err[0] = '\0';
	return perfctr_assign_parse(buf, &table, slots, NULL, err, 200);
}

static void good(void)
{
	struct perfctr_slot s[4];
	char err[200];
	int rc = parse(HASH ";0,0,0,0,0,0;2,4,c0,1,ff,2;3,0,0,0,0,8", s, err);

	is_int(rc, 0, "well-formed assignment accepted (%s)", err);
	ok(s[0].assigned && s[0].type == 0 && s[0].config == 0,
	   "counter 0: hardware cycles");
	ok(!s[1].assigned, "absent counter stays unassigned");
	ok(s[3].assigned && s[3].flags == PERFCTR_F_MULTIPLEX,
	   "counter 3: multiplexed");
	ok(s[2].type == 4 && s[2].config == 0xc0 && s[2].config1 == 1 &&
	   s[2].config2 == 0xff && s[2].flags == 2,
	   "counter 2: raw 0xc0, config1, config2, exclude_kernel");
}

struct bad_case {
	const char *value;
	const char *why;
};

/* OK stands for the good records of counters 2 and 3. */
#define OK ";2,4,c0,0,0,2;3,0,0,0,0,8"

static const struct bad_case bad[] = {
	{ "", "another module" },
	{ "ffffffffffffffff;0,0,0,0,0,0" OK, "another module" },
	{ HASH ";0,0,0,0,0,0", "\"ins\" has no assignment" },
	{ HASH ";0,0,0,0,0,0" OK ";0,0,0,0,0,0", "assigned twice" },
	{ HASH ";0,0,0,0,0,0;1,0,0,0,0,0" OK, "unknown counter 1" },
	{ HASH ";0,0,0,0,0,0" OK ";4,0,0,0,0,0", "unknown counter 4" },
	{ HASH ";0,0,0,0,0" OK, "malformed" },
	{ HASH ";0,0,0,0,0,0,0" OK, "malformed" },
	{ HASH ";0,0,0x,0,0,0" OK, "malformed" },
	{ HASH ";0,0,-1,0,0,0" OK, "malformed" },
	{ HASH ";0,0,0,0,0,0;2,4,10000000000000000,0,0,2;3,0,0,0,0,8",
	  "malformed" },
	{ HASH ";0,0,0,0,0,0;" OK, "malformed" },
	{ HASH ";0,2,0,0,0,0" OK, "type 2 is not a counter" },
	{ HASH ";0,5,0,0,0,0" OK, "type 5 is not a counter" },
	{ HASH ";0,0,0,0,0,2" OK, "flags 0x2 contradict" },
	{ HASH ";0,0,0,0,0,0;2,4,c0,0,0,0;3,0,0,0,0,8", "flags 0 contradict" },
	{ HASH ";0,0,0,0,0,40" OK, "flags 0x40 contradict" },
	{ HASH ";0,0,0,0,0,20" OK, "flags 0x20 contradict" },
	{ HASH ";0,0,0,0,0,0;2,4,c0,0,0,3;3,0,0,0,0,8", "flags 0x3 contradict" },
	{ HASH ";0,0,0,0,0,8" OK, "flags 0x8 contradict" },
	{ HASH ";0,0,0,0,0,0;2,4,c0,0,0,2;3,0,0,0,0,0", "flags 0 contradict" },
};

/* The guest/host exclusions: exact for a name with :G or :H (gh), else
 * exclude_host clear and exclude_guest free. */
static const struct perfctr_request_desc gh_reqs[3] = {
	{ .id = "c", .event = "cycles", .plm = PERFCTR_PLM_ALL },
	{ .id = "g", .event = "cycles:G", .plm = PERFCTR_PLM_ALL,
	  .gh = PERFCTR_GH_GUEST },
	{ .id = "gh", .event = "cycles:GH", .plm = PERFCTR_PLM_ALL,
	  .gh = PERFCTR_GH_GUEST | PERFCTR_GH_HOST },
};

static const struct {
	const char *value;
	int ok;
} gh_cases[] = {
	{ HASH ";0,0,0,0,0,0;1,0,0,0,0,20;2,0,0,0,0,0", 1 },
	{ HASH ";0,0,0,0,0,10;1,0,0,0,0,20;2,0,0,0,0,0", 1 },
	{ HASH ";0,0,0,0,0,30;1,0,0,0,0,20;2,0,0,0,0,0", 0 },
	{ HASH ";0,0,0,0,0,20;1,0,0,0,0,20;2,0,0,0,0,0", 0 },
	{ HASH ";0,0,0,0,0,0;1,0,0,0,0,0;2,0,0,0,0,0", 0 },
	{ HASH ";0,0,0,0,0,0;1,0,0,0,0,30;2,0,0,0,0,0", 0 },
	{ HASH ";0,0,0,0,0,0;1,0,0,0,0,10;2,0,0,0,0,0", 0 },
	{ HASH ";0,0,0,0,0,0;1,0,0,0,0,20;2,0,0,0,0,10", 0 },
	{ HASH ";0,0,0,0,0,0;1,0,0,0,0,20;2,0,0,0,0,20", 0 },
};

static const struct perfctr_table gh_table = { .hash = HASH,
	.reqs = gh_reqs, .n = 3, .max_cpus = 8 };

static void guest_host(void)
{
	struct perfctr_slot s[3];
	char buf[128], err[200];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(gh_cases) / sizeof(gh_cases[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", gh_cases[i].value);
		err[0] = '\0';
		rc = perfctr_assign_parse(buf, &gh_table, s, NULL, err,
					  sizeof(err));
		is_int(rc, gh_cases[i].ok ? 0 : -EINVAL, "%s: \"%s\" %s",
		       gh_cases[i].ok ? "accepted" : "rejected",
		       gh_cases[i].value, err);
	}
}

/* A group "ipc" of two (cyc leads, ins), and a counter in none. */
static const struct perfctr_request_desc g_reqs[3] = {
	{ .id = "cyc", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .group_no = 1, .gslot = 0 },
	{ .id = "ins", .event = "instructions", .plm = PERFCTR_PLM_ALL,
	  .group_no = 1, .gslot = 1 },
	{ .id = "x", .event = "cpu-clock", .plm = PERFCTR_PLM_ALL },
};
static const struct perfctr_group_desc g_groups[1] = {
	{ .name = "ipc", .leader = 0, .first = 0, .n = 2 },
};
static const struct perfctr_table g_table = { .hash = HASH,
	.reqs = g_reqs, .n = 3, .groups = g_groups, .ngroups = 1,
	.max_cpus = 8 };

#define G_OK ";0,0,0,0,0,0;1,0,1,0,0,0;2,1,0,0,0,0"

static const struct bad_case group_bad[] = {
	{ HASH G_OK, "group \"ipc\" has no events: perfctr-run opens them" },
	{ HASH G_OK ";g1,10,2", "group record for counter 1, which leads no "
	  "group" },
	{ HASH G_OK ";g2,10,2", "counter 2, which leads no group" },
	{ HASH G_OK ";g9,10,2", "counter 9, which leads no group" },
	{ HASH G_OK ";g0,10,2;g0,12,2", "group \"ipc\" assigned twice" },
	{ HASH G_OK ";g0,10", "malformed group record" },
	{ HASH G_OK ";g0,10,2,1", "malformed group record" },
	{ HASH G_OK ";g0,x,2", "malformed group record" },
	{ HASH G_OK ";g0,-1,2", "malformed group record" },
	{ HASH G_OK ";g,10,2", "malformed group record" },
	{ HASH G_OK ";g0,10,0", "group \"ipc\": 0 CPUs from fd 10: out of "
	  "range" },
	{ HASH G_OK ";g0,10,9", "9 CPUs from fd 10: out of range" },
	{ HASH G_OK ";g0,2147483646,2", "out of range" },
};

static void groups(void)
{
	struct perfctr_group_slot gs[1];
	struct perfctr_slot s[4];
	char buf[256], err[200];
	size_t i;
	int rc;

	snprintf(buf, sizeof(buf), HASH G_OK ";g0,10,2");
	rc = perfctr_assign_parse(buf, &g_table, s, gs, err, sizeof(err));
	ok(rc == 0 && gs[0].assigned && gs[0].fd0 == 10 && gs[0].ncpu == 2,
	   "a group's record: its fds from 10 on, on 2 CPUs (%s)", err);
	for (i = 0; i < sizeof(group_bad) / sizeof(group_bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", group_bad[i].value);
		err[0] = '\0';
		rc = perfctr_assign_parse(buf, &g_table, s, gs, err,
					  sizeof(err));
		ok(rc == -EINVAL, "rejected: \"%s\"", group_bad[i].value);
		like(err, group_bad[i].why, "  and says why");
	}
	snprintf(buf, sizeof(buf), HASH ";0,0,0,0,0,0;2,4,c0,0,0,2;"
		 "3,0,0,0,0,8;g0,10,2");
	err[0] = '\0';
	ok(perfctr_assign_parse(buf, &table, s, NULL, err, sizeof(err)) ==
	   -EINVAL && strstr(err, "malformed record"),
	   "a group record in a module without groups: malformed (%s)", err);
}

/* A .socket counter (0) next to a .cpu one (1). */
static const struct perfctr_request_desc s_reqs[2] = {
	{ .id = "dram", .event = "uncore_imc_0/cas_count_read/",
	  .plm = PERFCTR_PLM_ALL, .scope = PERFCTR_SCOPE_SOCKET },
	{ .id = "x", .event = "cpu-clock", .plm = PERFCTR_PLM_ALL },
};
static const struct perfctr_table s_table = { .hash = HASH,
	.reqs = s_reqs, .n = 2, .max_cpus = 64 };

#define S_OK ";0,13,304,0,0,0;1,1,0,0,0,0"

static const struct bad_case socket_bad[] = {
	{ HASH S_OK, "counter \"dram\" has no sockets: perfctr-run names "
	  "their CPUs" },
	{ HASH S_OK ";s1,0", "socket record for counter 1, which is not a "
	  ".socket counter" },
	{ HASH S_OK ";s7,0", "counter 7, which is not a .socket counter" },
	{ HASH S_OK ";s0,0;s0,28", "counter \"dram\": sockets assigned "
	  "twice" },
	{ HASH S_OK ";s0", "malformed socket record" },
	{ HASH S_OK ";s0,", "malformed socket record" },
	{ HASH S_OK ";s0,x", "malformed socket record" },
	{ HASH S_OK ";s,0", "malformed socket record" },
	{ HASH S_OK ";s0,28,0", "socket CPU 0 out of range or order" },
	{ HASH S_OK ";s0,3,3", "socket CPU 3 out of range or order" },
	{ HASH S_OK ";s0,64", "socket CPU 64 out of range or order" },
	{ HASH S_OK ";s0,0,1,2,3,4,5,6,7,8", "more than 8 sockets" },
};

static void sockets(void)
{
	struct perfctr_slot s[2];
	char buf[256], err[200];
	size_t i;
	int rc;

	snprintf(buf, sizeof(buf), HASH ";s0,0,28" S_OK);
	rc = perfctr_assign_parse(buf, &s_table, s, NULL, err, sizeof(err));
	ok(rc == 0 && s[0].assigned && s[0].type == 13 && s[0].nsock == 2 &&
	   s[0].sock_cpu[0] == 0 && s[0].sock_cpu[1] == 28 && !s[1].nsock,
	   "a .socket counter's CPUs 0 and 28, its record after them (%s)",
	   err);
	snprintf(buf, sizeof(buf), HASH S_OK ";s0,0,1,2,3,4,5,6,63");
	rc = perfctr_assign_parse(buf, &s_table, s, NULL, err, sizeof(err));
	ok(rc == 0 && s[0].nsock == 8 && s[0].sock_cpu[7] == 63,
	   "8 sockets, the last on CPU 63 (%s)", err);
	for (i = 0; i < sizeof(socket_bad) / sizeof(socket_bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", socket_bad[i].value);
		err[0] = '\0';
		rc = perfctr_assign_parse(buf, &s_table, s, NULL, err,
					  sizeof(err));
		ok(rc == -EINVAL, "rejected: \"%s\"", socket_bad[i].value);
		like(err, socket_bad[i].why, "  and says why");
	}
}

/* Unit records: RAPL's energy-pkg (2^-32 J, "Joules") and an IMC's
 * cas_count_read (2^-14 MiB, "MiB"), as perfctr-run writes them, before
 * or after their counter's own record; then hostile ones. */
static const struct bad_case unit_bad[] = {
	{ HASH S_OK ";s0,0;u0,1,14", "malformed unit record" },
	{ HASH S_OK ";s0,0;u0,1,14,MiB,x", "malformed unit record" },
	{ HASH S_OK ";s0,0;u0,xyz,14,MiB", "malformed unit record" },
	{ HASH S_OK ";s0,0;u0,-1,14,MiB", "malformed unit record" },
	{ HASH S_OK ";s0,0;u0,1,0x0e,MiB", "malformed unit record" },
	{ HASH S_OK ";s0,0;u0,1,-14,MiB", "malformed unit record" },
	{ HASH S_OK ";s0,0;u,1,14,MiB", "malformed unit record" },
	{ HASH S_OK ";s0,0;u0,10000000000000000,14,MiB",
	  "malformed unit record" },
	{ HASH S_OK ";s0,0;u2,1,14,MiB", "unit record for unknown counter 2" },
	{ HASH S_OK ";s0,0;u0,1,14,MiB;u0,1,14,MiB",
	  "counter \"dram\": unit assigned twice" },
	{ HASH S_OK ";s0,0;u0,0,14,MiB", "counter \"dram\": unit record's "
	  "scale 0 / 2^14: the multiplier must be 1 to 2^53 - 1" },
	{ HASH S_OK ";s0,0;u0,20000000000000,0,MiB", "scale 0x20000000000000 "
	  "/ 2^0: the multiplier must be 1 to 2^53 - 1" },
	{ HASH S_OK ";s0,0;u0,1,97,MiB", "scale 0x1 / 2^97: the shift must "
	  "be at most 96" },
	{ HASH S_OK ";s0,0;u0,1,14,Mi B", "unit record's unit is not at most "
	  "15 characters of [A-Za-z0-9_./-]" },
	{ HASH S_OK ";s0,0;u0,1,14,MiB%", "unit record's unit is not" },
	{ HASH S_OK ";s0,0;u0,1,14,abcdefghijklmnop", "unit record's unit is "
	  "not at most 15" },
};

static void units(void)
{
	struct perfctr_slot s[2];
	char buf[256], err[200];
	size_t i;
	int rc;

	snprintf(buf, sizeof(buf), HASH ";u0,1,32,Joules;s0,0" S_OK);
	rc = perfctr_assign_parse(buf, &s_table, s, NULL, err, sizeof(err));
	ok(rc == 0 && s[0].scale_mult == 1 && s[0].scale_shift == 32 &&
	   !strcmp(s[0].unit, "Joules") && s[0].assigned && s[0].nsock == 1,
	   "a unit record before its counter's: kept (%s)", err);
	snprintf(buf, sizeof(buf), HASH S_OK ";s0,0;u0,1,14,MiB");
	rc = perfctr_assign_parse(buf, &s_table, s, NULL, err, sizeof(err));
	ok(rc == 0 && s[0].scale_mult == 1 && s[0].scale_shift == 14 &&
	   !strcmp(s[0].unit, "MiB") && s[1].scale_mult == 0 && !s[1].unit[0],
	   "an IMC's 2^-14 MiB after its counter's record; the other "
	   "counter has none (%s)", err);
	snprintf(buf, sizeof(buf), HASH S_OK ";s0,0;u0,1fffffffffffff,60,");
	rc = perfctr_assign_parse(buf, &s_table, s, NULL, err, sizeof(err));
	ok(rc == 0 && s[0].scale_mult == 0x1fffffffffffffULL &&
	   s[0].scale_shift == 60 && !s[0].unit[0],
	   "a scale without a unit, the largest multiplier (%s)", err);
	snprintf(buf, sizeof(buf), HASH S_OK ";s0,0;u0,3,96,a.b_c/d-e012345");
	rc = perfctr_assign_parse(buf, &s_table, s, NULL, err, sizeof(err));
	ok(rc == 0 && s[0].scale_shift == 96 &&
	   !strcmp(s[0].unit, "a.b_c/d-e012345"),
	   "shift 96, a unit of 15 characters of every kind allowed (%s)",
	   err);
	for (i = 0; i < sizeof(unit_bad) / sizeof(unit_bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", unit_bad[i].value);
		err[0] = '\0';
		rc = perfctr_assign_parse(buf, &s_table, s, NULL, err,
					  sizeof(err));
		ok(rc == -EINVAL, "rejected: \"%s\"", unit_bad[i].value);
		like(err, unit_bad[i].why, "  and says why");
	}
}

/* What perfctr-run left at a group's fds, against the assignment: the
 * attr the module would open, a sibling never pinned, each CPU's group
 * on one CPU, CPUs ascending. */
static void group_events(void)
{
	struct perfctr_slot s = { .assigned = 1, .type = 0, .config = 1,
				  .flags = PERFCTR_F_EXCLUDE_KERNEL };
	struct perf_event_attr a;
	char err[200];
	int want = -1;

	perfctr_attr_counter(&a, 0, 1, 0, 0, PERFCTR_F_EXCLUDE_KERNEL);
	is_int(perfctr_group_event_check(&s, 0, 0, &a, 0, 1, &want, 0, 8, err,
					 sizeof(err)), 0,
	       "a pinned leader on CPU 1, after CPU 0");
	is_int(want, 1, "  sets its group's CPU");
	a.pinned = 0;
	is_int(perfctr_group_event_check(&s, 0, 1, &a, 0, 1, &want, 0, 8, err,
					 sizeof(err)), 0, "its sibling, not pinned");
	ok(perfctr_group_event_check(&s, 0, 1, &a, 0, 2, &want, 0, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "counts on CPU 2, its leader on CPU 1"),
	   "a sibling on another CPU: %s", err);
	ok(perfctr_group_event_check(&s, 0, 0, &a, 0, 1, &want, 0, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "is not pinned"), "a leader not pinned: %s", err);
	is_int(perfctr_group_event_check(&s, 1, 0, &a, 0, 3, &want, 1, 8, err,
					 sizeof(err)), 0,
	       "a .multiplex group's leader is not pinned");
	a.pinned = 1;
	ok(perfctr_group_event_check(&s, 0, 1, &a, 0, 3, &want, 1, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "is pinned"), "a pinned sibling: %s", err);
	ok(perfctr_group_event_check(&s, 0, 0, &a, 0, 1, &want, 1, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "CPU 1 comes after CPU 1"), "a CPU twice: %s", err);
	ok(perfctr_group_event_check(&s, 0, 0, &a, 0, -1, &want, -1, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "counts a task"), "a task's event: %s", err);
	ok(perfctr_group_event_check(&s, 0, 0, &a, 0, 8, &want, -1, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "on no CPU this kernel has"), "CPU 8 of 8: %s", err);
	a.type = 7;
	is_int(perfctr_group_event_check(&s, 0, 0, &a, 7, 4, &want, 3, 8, err,
					 sizeof(err)), 0, "a generic event on "
	       "the type of the PMU that took it (Linux 6.12's task-clock)");
	ok(perfctr_group_event_check(&s, 0, 0, &a, 9, 4, &want, 3, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "counts another event (type 7 config 0x1"),
	   "  not on another type: %s", err);
	a.type = 0;
	a.config = 2;
	ok(perfctr_group_event_check(&s, 0, 0, &a, 0, 4, &want, 3, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "counts another event"), "another config: %s", err);
	a.config = 1;
	a.exclude_kernel = 0;
	ok(perfctr_group_event_check(&s, 0, 0, &a, 0, 4, &want, 3, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "other privilege levels"), "kernel counted: %s", err);
	a.exclude_kernel = 1;
	a.sample_period = 1000;
	ok(perfctr_group_event_check(&s, 0, 0, &a, 0, 4, &want, 3, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "samples"), "a sampling event: %s", err);
	a.sample_period = 0;
	a.exclusive = 1;
	ok(perfctr_group_event_check(&s, 0, 0, &a, 0, 4, &want, 3, 8, err,
				     sizeof(err)) == -EINVAL &&
	   strstr(err, "exclusive"), "an exclusive one: %s", err);
}

/* Hybrid: a .cpu counter (0) with CPU records, a .process one (1), a
 * sampling one (2), on 24 CPUs (an Alder Lake: cpu_core 0-15, type 4;
 * cpu_atom 16-23, type 10). */
static const struct perfctr_request_desc h_reqs[3] = {
	{ .id = "cyc", .event = "cycles", .plm = PERFCTR_PLM_ALL },
	{ .id = "pc", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .scope = PERFCTR_SCOPE_PROCESS },
	{ .id = "smp", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .sample = 1000 },
};
static const struct perfctr_table h_table = { .hash = HASH,
	.reqs = h_reqs, .n = 3, .max_cpus = 24 };

#define H_OK ";0,0,0,0,0,0;1,0,0,0,0,0;2,0,0,0,0,0"
#define H_CORE ";c0,0,400000000,0,0,0-15"
#define H_ATOM ";c0,0,a00000000,0,0,16-23"

static const struct bad_case cpu_bad[] = {
	{ HASH H_OK H_CORE, "counter \"cyc\": no CPU record names CPU 16" },
	{ HASH H_OK H_ATOM, "counter \"cyc\": no CPU record names CPU 0 " },
	{ HASH H_OK H_CORE ";c0,0,a00000000,0,0,15-23",
	  "counter \"cyc\": several CPU records name CPU 15 " },
	{ HASH H_OK H_CORE ";c0,0,a00000000,0,0,16-24",
	  "CPUs this kernel lacks (it has 24)" },
	{ HASH H_OK H_CORE ";c0,0,a00000000,0,0,17-23,16",
	  "CPUs out of order" },
	{ HASH H_OK H_CORE ";c0,0,a00000000,0,0,16-17,18-23",
	  "CPUs out of order" },	/* ranges that touch: one range */
	{ HASH H_OK H_CORE ";c0,0,a00000000,0,0,23-16", "out of order" },
	{ HASH H_OK H_CORE ";c0,1,0,0,0,16-23", "CPU record of type 1, "
	  "which is no core PMU's" },
	{ HASH H_OK H_CORE ";c0,2,0,0,0,16-23", "type 2, which is no core" },
	{ HASH H_OK H_CORE ";c0,5,0,0,0,16-23", "type 5, which is no core" },
	{ HASH H_OK H_CORE H_ATOM ";c1,0,400000000,0,0,0-15",
	  "counter \"pc\": no CPU record names CPU 16" },
	{ HASH H_OK ";c2,4,c0,0,0,0-23", "CPU record for counter 2, which "
	  "is not one counter per CPU or per task" },
	{ HASH H_OK ";c7,4,c0,0,0,0-23", "counter 7, which is not one" },
	{ HASH H_OK ";c0,0,0,0,0", "malformed CPU record" },
	{ HASH H_OK ";c0,0,0,0,0,", "malformed CPU record" },
	{ HASH H_OK ";c0,0,0,0,0,x", "malformed CPU record" },
	{ HASH H_OK ";c0,0,0,0,0,1-", "malformed CPU record" },
	{ HASH H_OK ";c0,0,0,0,0,-1", "malformed CPU record" },
	{ HASH H_OK ";c0,0,0x,0,0,0-23", "malformed CPU record" },
	{ HASH H_OK ";c0,0,0,0,0,0,1,2,3,4,5,6,7,8-23", "more than 8 CPU "
	  "ranges" },
	{ HASH H_OK ";c0,0,0,0,0,0;c0,0,0,0,0,1;c0,0,0,0,0,2;c0,0,0,0,0,3;"
	  "c0,0,0,0,0,4-23", "counter \"cyc\": more than 4 CPU records" },
};

static void cpu_records(void)
{
	const struct perfctr_cpu_enc *e;
	struct perfctr_slot s[3];
	char buf[512], err[200];
	size_t i;
	int rc;

	snprintf(buf, sizeof(buf), HASH H_ATOM H_OK H_CORE);
	rc = perfctr_assign_parse(buf, &h_table, s, NULL, err, sizeof(err));
	is_int(rc, 0, "a counter with cpu_core's and cpu_atom's encodings, "
	       "before and after its record (%s)", err);
	ok(s[0].assigned && s[0].nenc == 2 && !s[1].nenc && !s[2].nenc,
	   "counter 0 has two CPU records, the others none");
	e = perfctr_slot_cpu_enc(&s[0], 0);
	ok(e && e->type == 0 && e->config == 0x400000000ULL,
	   "CPU 0: cycles of PMU type 4");
	e = perfctr_slot_cpu_enc(&s[0], 15);
	ok(e && e->config == 0x400000000ULL, "CPU 15: cycles of PMU type 4");
	e = perfctr_slot_cpu_enc(&s[0], 16);
	ok(e && e->config == 0xa00000000ULL, "CPU 16: cycles of PMU type 10");
	e = perfctr_slot_cpu_enc(&s[0], 23);
	ok(e && e->config == 0xa00000000ULL, "CPU 23: cycles of PMU type 10");
	ok(!perfctr_slot_cpu_enc(&s[0], 24) && !perfctr_slot_cpu_enc(&s[1], 0),
	   "no encoding past the CPUs, nor for a counter without records");

	snprintf(buf, sizeof(buf), HASH H_OK H_CORE
		 ";c1,0,a00000000,0,0,16-23" H_ATOM ";c1,0,400000000,0,0,0-15");
	rc = perfctr_assign_parse(buf, &h_table, s, NULL, err, sizeof(err));
	is_int(rc, 0, "a .process counter with an encoding per core PMU "
	       "(%s)", err);
	ok(s[1].nenc == 2 && s[1].enc[0].config == 0xa00000000ULL &&
	   s[1].enc[1].config == 0x400000000ULL,
	   "the .process counter's two records, in their order");

	snprintf(buf, sizeof(buf), HASH H_OK
		 ";c0,8,11,0,0,0-3,8,10-11;c0,9,11,0,0,4-7,9,12-23");
	rc = perfctr_assign_parse(buf, &h_table, s, NULL, err, sizeof(err));
	is_int(rc, 0, "interleaved CPU lists of two armv8 PMUs (%s)", err);
	e = perfctr_slot_cpu_enc(&s[0], 9);
	ok(e && e->type == 9 && e->config == 0x11 && e->nrange == 3,
	   "CPU 9: the second PMU's type 9, event 0x11");
	e = perfctr_slot_cpu_enc(&s[0], 10);
	ok(e && e->type == 8, "CPU 10: the first PMU's type 8");

	snprintf(buf, sizeof(buf), HASH H_OK ";c0,0,1,0,0,0;c0,0,0,0,0,1-23");
	rc = perfctr_assign_parse(buf, &h_table, s, NULL, err, sizeof(err));
	ok(rc == 0 && perfctr_slot_cpu_enc(&s[0], 0)->config == 1 &&
	   perfctr_slot_cpu_enc(&s[0], 1)->config == 0,
	   "CPU 0 instructions, the rest cycles (%s)", err);

	for (i = 0; i < sizeof(cpu_bad) / sizeof(cpu_bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", cpu_bad[i].value);
		err[0] = '\0';
		rc = perfctr_assign_parse(buf, &h_table, s, NULL, err,
					  sizeof(err));
		ok(rc == -EINVAL, "rejected: \"%s\"", cpu_bad[i].value);
		like(err, cpu_bad[i].why, "  and says why");
	}
}

/* .cpus("LIST"): a .cpu counter of cpu_atom's (0), a .thread one of
 * cycles restricted to "14-17" (1), a software .cgroup one on CPU 3 (2),
 * an unrestricted .cpu one (3), on the 24 CPUs above. */
static const struct perfctr_request_desc r_reqs[4] = {
	{ .id = "atom", .event = "cpu_atom/event=0xc0/", .plm = PERFCTR_PLM_ALL,
	  .cpus = "cpu_atom" },
	{ .id = "cyc", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .scope = PERFCTR_SCOPE_THREAD, .cpus = "14-17" },
	{ .id = "tc", .event = "task-clock", .plm = PERFCTR_PLM_ALL,
	  .scope = PERFCTR_SCOPE_CGROUP, .target = "/a", .cpus = "3" },
	{ .id = "all", .event = "cycles", .plm = PERFCTR_PLM_ALL },
};
static const struct perfctr_table r_table = { .hash = HASH,
	.reqs = r_reqs, .n = 4, .max_cpus = 24 };

#define R_OK ";0,10,c0,0,0,0;1,0,0,0,0,0;2,1,1,0,0,0;3,0,0,0,0,0"
#define R_ATOM ";c0,10,c0,0,0,16-23"
#define R_CYC ";c1,0,400000000,0,0,14-15;c1,0,a00000000,0,0,16-17"
#define R_TC ";c2,1,1,0,0,3"

static const struct bad_case restricted_bad[] = {
	{ HASH R_OK R_CYC R_TC, "counter \"atom\" has .cpus(\"cpu_atom\") "
	  "and no CPU record: perfctr-run names its CPUs" },
	{ HASH R_OK R_ATOM R_CYC ";c2,1,1,0,0,3;c2,1,1,0,0,2-3",
	  "counter \"tc\": several CPU records name CPU 3 " },
	{ HASH R_OK R_ATOM R_CYC ";c2,1,1,0,0,3-24",
	  "CPUs this kernel lacks (it has 24)" },
	{ HASH R_OK R_ATOM R_CYC R_TC ";c3,1,1,0,0,3",
	  "CPU record of type 1, which is no core PMU's" },
	{ HASH R_OK R_ATOM R_CYC R_TC ";c3,0,0,0,0,3",
	  "counter \"all\": no CPU record names CPU 0 " },
	{ HASH R_OK R_ATOM R_CYC ";c2,2,0,0,0,3",
	  "CPU record of type 2, which is no core PMU's" },
	{ HASH R_OK R_ATOM R_CYC ";c2,1,1,0,0,3,2",
	  "CPUs out of order" },
};

static void restricted(void)
{
	const struct perfctr_cpu_enc *e;
	struct perfctr_slot s[4];
	char buf[512], err[200];
	size_t i;
	int rc;

	snprintf(buf, sizeof(buf), HASH R_OK R_ATOM R_CYC R_TC);
	rc = perfctr_assign_parse(buf, &r_table, s, NULL, err, sizeof(err));
	is_int(rc, 0, ".cpus counters: CPU records for some CPUs only (%s)",
	       err);
	e = perfctr_slot_cpu_enc(&s[0], 16);
	ok(e && e->type == 10 && e->config == 0xc0 &&
	   !perfctr_slot_cpu_enc(&s[0], 15),
	   "cpu_atom's event on CPU 16, nothing on CPU 15");
	ok(perfctr_slot_cpu_enc(&s[1], 15) && perfctr_slot_cpu_enc(&s[1], 16) &&
	   perfctr_slot_cpu_enc(&s[1], 15)->config == 0x400000000ULL &&
	   perfctr_slot_cpu_enc(&s[1], 16)->config == 0xa00000000ULL &&
	   !perfctr_slot_cpu_enc(&s[1], 13) && !perfctr_slot_cpu_enc(&s[1], 18),
	   "cycles on CPUs 14-17, each core PMU's, nothing on 13 or 18");
	e = perfctr_slot_cpu_enc(&s[2], 3);
	ok(e && e->type == 1 && e->config == 1 &&
	   !perfctr_slot_cpu_enc(&s[2], 2),
	   "a software event on CPU 3 alone");
	is_str(s[0].cpus_why, "counts on CPUs 16-23 only (.cpus(\"cpu_atom\")), "
	       "not on this CPU", "the message for a read elsewhere");
	is_str(s[1].cpus_why, "counts on CPUs 14-17 only (.cpus(\"14-17\")), "
	       "not on this CPU", "  its CPUs from two records, one list");
	is_str(s[2].cpus_why, "counts on CPUs 3 only (.cpus(\"3\")), not on "
	       "this CPU", "  one CPU");
	ok(!s[3].cpus_why[0] && !s[3].nenc, "an unrestricted counter: none");
	for (i = 0; i < sizeof(restricted_bad) / sizeof(restricted_bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", restricted_bad[i].value);
		err[0] = '\0';
		rc = perfctr_assign_parse(buf, &r_table, s, NULL, err,
					  sizeof(err));
		ok(rc == -EINVAL, "rejected: \"%s\"", restricted_bad[i].value);
		like(err, restricted_bad[i].why, "  and says why");
	}
}

int main(void)
{
	struct perfctr_slot s[4];
	char err[200];
	size_t i;

	good();
	guest_host();
	groups();
	sockets();
	cpu_records();
	restricted();
	units();
	group_events();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(bad[i].value, s, err);

		ok(rc == -EINVAL, "rejected: \"%s\"", bad[i].value);
		like(err, bad[i].why, "  and says why");
	}
	is_int(parse(HASH ";0,0,0,0,0,4;2,4,c0,0,0,6;3,0,0,0,0,c", s, err), 0,
	       "exclude_hv is free to set (%s)", err);
	is_int(parse(HASH ";0,6,0,0,0,0" OK, s, err), 0,
	       "dynamic PMU type 6 accepted (%s)", err);
	return tap_done();
}
