// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-x86width.c - the width x86's direct read takes a count's delta at
 * (runtime/perfctr_width.h), built in userspace as the module includes
 * it: the mask chosen from what perf_get_x86_pmu_capability() reports
 * (Intel's 48 and Core 2's 40 bits, AMD's 48 without fixed counters on
 * 7.2, the narrowest the kernel knows, a zeroed report, a hybrid CPU,
 * Xen PV, widths no kernel reports), and the delta against the kernel's
 * own arithmetic (x86_perf_event_update()'s shifts) from the start of a
 * period (prev_count sign-extended, as x86_perf_event_set_period()
 * leaves it) and across the register's wrap.
 */
#include "perfctr_width.h"
#include "tap.h"

static const struct {
	const char *what;
	int gp, fixed, hybrid, xen_pv;
	unsigned long long mask;
} masks[] = {
	{ "Intel, 48 bits", 48, 48, 0, 0, 0xffffffffffffULL },
	{ "AMD on 7.2: no fixed counters, their width 0", 48, 0, 0, 0,
	  0xffffffffffffULL },
	{ "Core 2, 40 bits", 40, 40, 0, 0, 0xffffffffffULL },
	{ "the narrowest the kernel knows (P6), 32 bits", 32, 32, 0, 0,
	  0xffffffffULL },
	{ "64 bits, all of them", 64, 64, 0, 0, ~0ULL },
	{ "a zeroed report (no PMU initialised): no direct read", 0, 0, 0, 0,
	  0 },
	{ "a hybrid CPU: no direct read", 48, 48, 1, 0, 0 },
	{ "a hybrid CPU's zeroed report: no direct read", 0, 0, 1, 0, 0 },
	{ "Xen PV: no direct read", 48, 48, 0, 1, 0 },
	{ "31 bits: no direct read", 31, 31, 0, 0, 0 },
	{ "65 bits: no direct read", 65, 65, 0, 0, 0 },
	{ "a negative width: no direct read", -48, -48, 0, 0, 0 },
	{ "fixed counters alone: no direct read", 0, 48, 0, 0, 0 },
	{ "two widths: no direct read", 48, 40, 0, 0, 0 },
};
#define NMASKS (sizeof(masks) / sizeof(masks[0]))

/* x86_perf_event_update(): the delta by shifts at cntval_bits. */
static unsigned long long kernel_delta(unsigned long long raw,
				       unsigned long long prev, int bits)
{
	int shift = 64 - bits;

	return ((raw << shift) - (prev << shift)) >> shift;
}

static const int widths[] = { 32, 40, 48, 64 };
#define NWIDTHS (sizeof(widths) / sizeof(widths[0]))

int main(void)
{
	unsigned long long mask, left, prev, raw, n = 123456789;
	unsigned int i;
	int w;

	for (i = 0; i < NMASKS; i++)
		is_int(perfctr_x86_direct_mask(masks[i].gp, masks[i].fixed,
					       masks[i].hybrid,
					       masks[i].xen_pv),
		       masks[i].mask, "%s", masks[i].what);

	for (i = 0; i < NWIDTHS; i++) {
		w = widths[i];
		mask = perfctr_x86_direct_mask(w, w, 0, 0);
		/* a counting event's period: max_period, 2^(w-1) - 1 */
		left = (1ULL << (w - 1)) - 1;
		prev = -left;		/* all 64 bits, as perf keeps it */
		raw = (prev + n) & mask;	/* the register: its w bits */
		is_int(perfctr_width_delta(raw, prev, mask), n,
		       "%d bits: n events into a period, prev_count "
		       "sign-extended", w);
		is_int(perfctr_width_delta(raw, prev, mask),
		       kernel_delta(raw, prev, w),
		       "%d bits: as x86_perf_event_update() computes it", w);
		prev = mask - 5;	/* the register near its top */
		raw = 10;		/* and past it: raw below prev */
		is_int(perfctr_width_delta(raw, prev, mask), 16,
		       "%d bits: a wrap of the register (%#llx to %#llx)", w,
		       prev, raw);
		is_int(perfctr_width_delta(raw, prev, mask),
		       kernel_delta(raw, prev, w),
		       "%d bits: the wrap as the kernel computes it", w);
	}

	/* why the width is the kernel's: one bit too wide is off at once */
	mask = perfctr_x86_direct_mask(48, 48, 0, 0);
	left = (1ULL << 39) - 1;
	prev = -left;
	raw = (prev + n) & 0xffffffffffULL;	/* a 40-bit register */
	is_int(perfctr_width_delta(raw, prev, mask), n + (1ULL << 40),
	       "a 48-bit mask on a 40-bit counter is 2^40 off at once");
	is_int(perfctr_width_delta(raw, prev,
				   perfctr_x86_direct_mask(40, 40, 0, 0)), n,
	       "the 40-bit mask is not");
	return tap_done();
}
