/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_width.h - how wide a counter the direct read (perfctr_direct.h)
 * takes a count's delta at, and the delta.  Pure C, any context: the
 * module and the unit test (testsuite/unit/runtime/test-x86width.c)
 * share it.
 *
 * The PMU's register holds the low bits of the count; the kernel's
 * prev_count holds all 64 (on x86 the period's start, -left,
 * sign-extended: x86_perf_event_set_period()).  The delta is their
 * difference modulo the register's width, as x86_perf_event_update()
 * computes it with shifts, which also covers a register that wrapped
 * past its top since prev_count (raw below prev).  A mask wider than the
 * register is wrong at once (the sign-extended bits of prev_count come
 * back as 2^width), one narrower only past 2^width events.
 *
 * x86's width is the kernel's: x86_pmu.cntval_bits, one width for the
 * general and the fixed counters alike, which perf_get_x86_pmu_capability()
 * reports as bit_width_gp and bit_width_fixed (7.2: 0 for a kind the PMU
 * has none of, as AMD has no fixed counters; 6.1: the width all the
 * same).  It reports nothing
 * (all zero, after a WARN_ON_ONCE) on a hybrid CPU or before the PMU is
 * initialised: no direct read there, nor for a width outside 32..64 or
 * two different widths.  Nor under Xen PV, where the kernel reads a
 * counter through the paravirt read_pmc (xen_read_pmc(): the copy Xen
 * keeps while its PMU interrupt is handled, else the MSR) and a raw rdpmc
 * would read past both.
 */
#ifndef PERFCTR_WIDTH_H
#define PERFCTR_WIDTH_H

#define PERFCTR_WIDTH_MIN	32	/* the kernel's narrowest: P6's cntval_bits */
#define PERFCTR_WIDTH_MAX	64

/* The mask of a width in PERFCTR_WIDTH_MIN..PERFCTR_WIDTH_MAX. */
static inline unsigned long long perfctr_width_mask(int bits)
{
	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

/*
 * The mask an x86 direct read takes deltas with, from the capability the
 * kernel reported (gp_bits, fixed_bits; zero where it reported none) and
 * what the CPU is; 0: no direct read.
 */
static inline unsigned long long
perfctr_x86_direct_mask(int gp_bits, int fixed_bits, int hybrid, int xen_pv)
{
	if (hybrid || xen_pv)
		return 0;
	if (gp_bits < PERFCTR_WIDTH_MIN || gp_bits > PERFCTR_WIDTH_MAX)
		return 0;	/* none reported, or nothing we know */
	if (fixed_bits && fixed_bits != gp_bits)
		return 0;	/* the read masks both kinds alike */
	return perfctr_width_mask(gp_bits);
}

/* The events counted since prev, the register now raw, at mask's width. */
static inline unsigned long long
perfctr_width_delta(unsigned long long raw, unsigned long long prev,
		    unsigned long long mask)
{
	return (raw - prev) & mask;
}

#endif	/* PERFCTR_WIDTH_H */
