// SPDX-License-Identifier: GPL-2.0-only
/*
 * assign.c - libFuzzer harness: any bytes (up to the first NUL) as the
 * module's perfctr_assign parameter, through the module's own parser
 * (runtime/perfctr_assign.c, built for userspace as the unit tests build
 * it), against a table with a request of every kind (assign-table.h).
 * Anyone who may load a module may pass this value, so
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

#include "../testsuite/unit/runtime/assign-table.h"

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
