// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-readerr.c - the module's own read outcomes (runtime/
 * perfctr_readerr.h), built in userspace as the translator would include
 * them: each below every errno, distinct, its row of the table in the
 * enum's order under its own name, and the messages users see (the guest
 * tests match them) as they were.
 */
#include <string.h>

#include "perfctr_readerr.h"
#include "tap.h"

static const struct perfctr_read_err_row rows[] = PERFCTR_READ_ERR_ROWS;

static const struct {
	int rc;
	const char *name, *msg;
} want[] = {
	{ PERFCTR_RE_NOT_HERE, "PERFCTR_RE_NOT_HERE", NULL },
	{ PERFCTR_RE_NOT_SOCKET, "PERFCTR_RE_NOT_SOCKET",
	  "is not a .socket counter: perfctr_age() and perfctr_read_socket() "
	  "read a .socket counter's snapshots (other counters are read live)" },
	{ PERFCTR_RE_LOST, "PERFCTR_RE_LOST",
	  "is in a group that the kernel took off this CPU when the CPU went "
	  "offline: perf does not put a group back, and a module cannot make "
	  "one (run the script again to count on this CPU)" },
	{ PERFCTR_RE_REPROGRAM, "PERFCTR_RE_REPROGRAM",
	  "was read inside perf's reprogramming of this CPU's PMU, where the "
	  "counter and the kernel's copy of it disagree and a read would "
	  "corrupt the count (a probe on perf's or the PMU driver's own code; "
	  "read it elsewhere)" },
	{ PERFCTR_RE_UPDATING, "PERFCTR_RE_UPDATING",
	  "was read inside the kernel's update of its own count on this CPU, "
	  "which the read interrupted (an NMI, or a probe on the PMU driver's "
	  "read): the count is half written there (read it elsewhere)" },
	{ PERFCTR_RE_NOT_TOPDOWN, "PERFCTR_RE_NOT_TOPDOWN",
	  "is not one of Intel's topdown metrics: perfctr_topdown() decodes a "
	  "\"topdown-*\" counter in a group led by \"slots\"" },
};

int main(void)
{
	size_t n = sizeof(rows) / sizeof(rows[0]), i;

	ok(n == sizeof(want) / sizeof(want[0]) &&
	   n == (size_t)(PERFCTR_RE_END - PERFCTR_RE_BASE - 1),
	   "one row per outcome (%zu)", n);
	ok(PERFCTR_RE_END <= -4095 && !perfctr_read_err_is(-4095) &&
	   !perfctr_read_err_is(0) && !perfctr_read_err_is(PERFCTR_RE_BASE) &&
	   !perfctr_read_err_is(PERFCTR_RE_END),
	   "every outcome below -4095 (-MAX_ERRNO): none is an errno");
	for (i = 0; i < n && i < sizeof(want) / sizeof(want[0]); i++) {
		const struct perfctr_read_err_row *r =
			&rows[want[i].rc - PERFCTR_RE_BASE - 1];

		ok(perfctr_read_err_is(want[i].rc) &&
		   !strcmp(r->name, want[i].name) &&
		   (want[i].msg ? r->msg && !strcmp(r->msg, want[i].msg) :
		    !r->msg),
		   "%s: its row, its message %s", want[i].name,
		   want[i].msg ? "as users see it" : "the counter's own");
	}
	return tap_done();
}
