/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * assign-table.h - a module's table with a request of every kind, as
 * perfctr_assign_parse() checks an assignment against it: a group of
 * two, a .socket counter, a .thread counter restricted to some CPUs, a
 * .multiplex one, one absent from the module, a .user one, a .cgroup one
 * on one CPU, a .kernel one, a :G one and a .process one.  For the
 * assignment fuzzer (fuzz/assign.c) and the round trip of the helper's
 * records (test-assign-roundtrip.c); after perfctr_assign.c.
 */
#ifndef ASSIGN_TABLE_H
#define ASSIGN_TABLE_H

#define MAX_CPUS 8

static const struct perfctr_request_desc reqs[] = {
	{ .id = "cyc", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .group_no = 1, .gslot = 0 },
	{ .id = "ins", .event = "instructions", .plm = PERFCTR_PLM_ALL,
	  .group_no = 1, .gslot = 1 },
	{ .id = "dram", .event = "uncore_imc_0/cas_count_read/",
	  .plm = PERFCTR_PLM_ALL, .scope = PERFCTR_SCOPE_SOCKET },
	{ .id = "tcyc", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .scope = PERFCTR_SCOPE_THREAD, .cpus = "2-5" },
	{ .id = "mx", .event = "cycles", .plm = PERFCTR_PLM_ALL, .mux = 1 },
	{ .id = NULL },
	{ .id = "iu", .event = "instructions:u", .plm = PERFCTR_PLM_USER },
	{ .id = "tc", .event = "task-clock", .plm = PERFCTR_PLM_ALL,
	  .scope = PERFCTR_SCOPE_CGROUP, .target = "/a", .cpus = "3" },
	{ .id = "ck", .event = "cycles:k", .plm = PERFCTR_PLM_KERNEL },
	{ .id = "cg", .event = "cycles:G", .plm = PERFCTR_PLM_ALL,
	  .gh = PERFCTR_GH_GUEST },
	{ .id = "pi", .event = "instructions", .plm = PERFCTR_PLM_ALL,
	  .scope = PERFCTR_SCOPE_PROCESS, .target = "" },
};
#define NREQS (sizeof(reqs) / sizeof(reqs[0]))

static const struct perfctr_group_desc groups[] = {
	{ .name = "ipc", .leader = 0, .first = 0, .n = 2 },
};

static const struct perfctr_table table = {
	.hash = "0123456789abcdef", .reqs = reqs, .n = NREQS,
	.groups = groups, .ngroups = 1, .max_cpus = MAX_CPUS,
};

#endif /* ASSIGN_TABLE_H */
