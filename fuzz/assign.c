// SPDX-License-Identifier: GPL-2.0-only
/*
 * assign.c - libFuzzer harness: any bytes (up to the first NUL) as the
 * module's perfctr_assign parameter, through the module's own parser
 * (runtime/perfctr_assign.c, built for userspace as the unit tests build
 * it), against a table with a request of every kind: a group of two, a
 * .socket counter, a .thread counter restricted to some CPUs, a
 * .multiplex one, one absent from the module, a .user one, a .cgroup
 * one on one CPU, a .kernel one, a :G one and a .process one.  Anyone who may load a module may pass this value, so
 * what it promises: -EINVAL with a message, or 0 with every present
 * request assigned a counter type, every CPU it names below the kernel's
 * count and in order, every group's fds in range; and the same slots when
 * the same value is parsed again.
 */
#include <stdint.h>

#include "../testsuite/unit/runtime/kcompat.h"
#include "perfctr_assign.c"

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "assign: %s:%d: %s\n", __FILE__,	\
			__LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

#define MAX_CPUS 8

static const struct perfctr_request_desc reqs[] = {
	{ .id = "cyc", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .group = 1, .gslot = 0 },
	{ .id = "ins", .event = "instructions", .plm = PERFCTR_PLM_ALL,
	  .group = 1, .gslot = 1 },
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

static void check_slot(const struct perfctr_slot *s,
		       const struct perfctr_request_desc *r)
{
	unsigned int k, j;

	CHECK(!!s->assigned == !!r->id);
	if (!r->id)
		return;
	CHECK(perfctr_type_allowed(s->type));
	CHECK(s->nsock <= PERFCTR_SOCKETS);
	CHECK(!s->nsock || r->scope == PERFCTR_SCOPE_SOCKET);
	for (k = 0; k < s->nsock; k++)
		CHECK(s->sock_cpu[k] < MAX_CPUS &&
		      (!k || s->sock_cpu[k] > s->sock_cpu[k - 1]));
	CHECK(s->nenc <= PERFCTR_CORE_PMUS);
	for (k = 0; k < s->nenc; k++) {
		CHECK(s->enc[k].nrange <= PERFCTR_CPU_RANGES);
		for (j = 0; j < s->enc[k].nrange; j++)
			CHECK(s->enc[k].lo[j] <= s->enc[k].hi[j] &&
			      s->enc[k].hi[j] < MAX_CPUS);
	}
	CHECK(memchr(s->unit, '\0', sizeof(s->unit)));
}

/* Parses a copy of value; 0 or -EINVAL, and a message on failure. */
static int parse(const char *value, size_t len, struct perfctr_slot *slots,
		 struct perfctr_group_slot *gslots)
{
	char *copy = malloc(len + 1), err[256];
	int rc;

	if (!copy)
		abort();
	memcpy(copy, value, len);
	copy[len] = '\0';
	err[0] = '\0';
	rc = perfctr_assign_parse(copy, &table, slots, gslots, err,
				  sizeof(err));
	CHECK(rc == 0 || (rc == -EINVAL && err[0]));
	free(copy);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfctr_slot slots[NREQS], again[NREQS];
	struct perfctr_group_slot gslots[1], gagain[1];
	const char *value = (const char *)data;
	size_t len = strnlen(value, size), i;

	if (parse(value, len, slots, gslots))
		return 0;
	for (i = 0; i < NREQS; i++)
		check_slot(&slots[i], &reqs[i]);
	CHECK(gslots[0].assigned && gslots[0].ncpu >= 1 &&
	      gslots[0].ncpu <= MAX_CPUS);
	CHECK(parse(value, len, again, gagain) == 0);
	CHECK(!memcmp(slots, again, sizeof(slots)));
	CHECK(!memcmp(gslots, gagain, sizeof(gslots)));
	return 0;
}
