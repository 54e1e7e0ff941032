// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-iface-module.c - the module's side of test-iface-field: the
 * initializer the translator emitted (iface-table.h, written by
 * test-iface-field --table) compiles with the module's struct
 * perfctr_request_desc, built with -DPERFCTR_TEST_FIELD, carries the
 * field, and the module's parser takes an assignment for that table.
 */
#include "kcompat.h"		/* the kernel helpers perfctr_assign.c uses */
#include "perfctr_assign.c"
#include "tap.h"
#include "iface-table.h"

#ifndef PERFCTR_TEST_FIELD
#error "built with -DPERFCTR_TEST_FIELD only"
#endif

int main(void)
{
	static const struct perfctr_table table = {
		.hash = PERFCTR_TABLE_HASH, .reqs = perfctr_requests,
		.n = PERFCTR_NDECLARED, .max_cpus = 4,
	};
	struct perfctr_slot slots[PERFCTR_NDECLARED];
	char buf[256], err[200] = "";

	is_int(PERFCTR_NDECLARED, 2, "two requests");
	is_int(perfctr_requests[0].test_field, 7, "the first's field");
	is_int(perfctr_requests[1].test_field, 0, "the second's");
	is_str(perfctr_requests[1].event, "cycles:u", "the other fields in "
	       "place");
	ok(perfctr_requests[1].scope == PERFCTR_SCOPE_THREAD &&
	   perfctr_requests[1].plm == PERFCTR_PLM_USER, "its scope and levels");

	/* page-faults on every CPU, user cycles per thread */
	snprintf(buf, sizeof(buf), "%s;0,1,2,0,0,0;1,0,0,0,0,2",
		 PERFCTR_TABLE_HASH);
	is_int(perfctr_assign_parse(buf, &table, slots, NULL, err,
				    sizeof(err)), 0,
	       "the module's parser takes an assignment for it (%s)", err);
	ok(slots[0].assigned && slots[0].type == 1 && slots[0].config == 2 &&
	   slots[1].assigned && slots[1].flags == PERFCTR_F_EXCLUDE_KERNEL,
	   "each request assigned");
	return tap_done();
}
