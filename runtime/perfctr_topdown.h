/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_topdown.h - Intel's topdown metrics (Ice Lake and later: the
 * PERF_METRICS MSR), as the kernel encodes them and perf stat decodes
 * them.  Pure C, any context: the module (perfctr_group.c), perfctr-run
 * (helper/topdown.c) and the unit tests (testsuite/unit/runtime/
 * test-topdown.c, against the kernel's own definitions) share it.
 *
 * On the core PMU ("cpu", "cpu_core"), config's event and umask bytes
 * (INTEL_ARCH_EVENT_MASK) say which: TOPDOWN.SLOTS is umask 0x04 of
 * event 0 (INTEL_TD_SLOTS), metric k is umask 0x80 + k of event 0
 * (INTEL_TD_METRIC_RETIRING ... _MEM_BOUND, arch/x86/include/asm/
 * perf_event.h; is_metric_event() and is_slots_event() in arch/x86/
 * events/perf_event.h).  The kernel accepts a metric only in a group led
 * by slots, and counts it in slots: each read adds slots * byte k of
 * PERF_METRICS / 0xff (icl_get_metrics_event_value()) to the metric's
 * count.  perf stat shows a metric as its share of the level-1 metrics'
 * sum, retiring + bad speculation + frontend bound + backend bound
 * (td_metric_ratio(), tools/perf/util/stat-shadow.c: "Kernel reports
 * metrics multiplied with slots.  To get back the ratios we need to
 * recreate the sum"); a level-2 metric's share is of the same sum.
 */
#ifndef PERFCTR_TOPDOWN_H
#define PERFCTR_TOPDOWN_H

#define PERFCTR_TD_EVENT_MASK	0xffffULL	/* INTEL_ARCH_EVENT_MASK */
#define PERFCTR_TD_SLOTS	0x0400ULL	/* INTEL_TD_SLOTS */
#define PERFCTR_TD_METRIC_FIRST	0x8000ULL	/* INTEL_TD_METRIC_RETIRING */
#define PERFCTR_TD_METRIC_LAST	0x8700ULL	/* INTEL_TD_METRIC_MAX */

/* What a core-PMU event is, by its config. */
enum perfctr_td_kind {
	PERFCTR_TD_NONE = -1,
	PERFCTR_TD_RETIRING,		/* level 1 */
	PERFCTR_TD_BAD_SPEC,
	PERFCTR_TD_FE_BOUND,
	PERFCTR_TD_BE_BOUND,
	PERFCTR_TD_HEAVY_OPS,		/* level 2 (Sapphire Rapids) */
	PERFCTR_TD_BR_MISPREDICT,
	PERFCTR_TD_FETCH_LAT,
	PERFCTR_TD_MEM_BOUND,
	PERFCTR_TD_SLOTS_KIND,		/* the leader */
};
#define PERFCTR_TD_LEVEL1	4	/* kinds below this are level 1 */

/* The kind of a core-PMU event with this config. */
static inline int perfctr_topdown_kind(unsigned long long config)
{
	unsigned long long c = config & PERFCTR_TD_EVENT_MASK;

	if (c == PERFCTR_TD_SLOTS)
		return PERFCTR_TD_SLOTS_KIND;
	if ((c & 0xff) || c < PERFCTR_TD_METRIC_FIRST ||
	    c > PERFCTR_TD_METRIC_LAST)
		return PERFCTR_TD_NONE;
	return (int)((c - PERFCTR_TD_METRIC_FIRST) >> 8);
}

/*
 * A metric's share as perf stat shows it, in parts per thousand: its
 * count over level1, the sum of the level-1 metrics' counts (taken from
 * one snapshot of the group).  0 when level1 is 0.  Without 128-bit
 * arithmetic: both fit 64 bits, and a count beyond 2^54 (years of
 * slots) is scaled down with the sum first.
 */
static inline unsigned int perfctr_topdown_permille(unsigned long long metric,
						    unsigned long long level1)
{
	while (metric > (~0ULL / 1000))
		metric >>= 1, level1 >>= 1;
	if (!level1)
		return 0;
	return (unsigned int)(metric * 1000 / level1);
}

#endif /* PERFCTR_TOPDOWN_H */
