/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_priv_rule.h - what perf_event_open(2) asks of a user without
 * CAP_PERFMON before it opens one counter, under kernel.perf_event_paranoid
 * (kernel/events/core.c, include/linux/perf_event.h, Debian's level 3).
 * One rule, compiled from here by the module, which enforces it for a
 * stapsys or stapusr module's user (runtime/perfctr_priv.c), and by
 * perfctr-run, which says it first (helper/priv.c).  Pure C.
 *
 *   paranoid > 2   no counter at all (Debian)
 *   paranoid > 1   perf_allow_kernel: no counting in kernel mode (and so
 *                  no kernel branch records: the module asks for those
 *                  only where it counts in kernel mode), no physical
 *                  address in a sample (PERF_SAMPLE_PHYS_ADDR, whatever
 *                  the levels)
 *   paranoid > 0   perf_allow_cpu: no CPU-wide counter (all but
 *                  .process), and on x86 no AnyThread bit (config bit
 *                  21, ARCH_PERFMON_EVENTSEL_ANY: intel_pmu_hw_config()
 *                  asks perf_allow_cpu, since it counts the sibling
 *                  hyperthread's work, another user's)
 *
 * The AnyThread test looks at config whatever the event's type: a
 * generic or cache event never has bit 21 set (perf refuses it), AMD's
 * raw events reserve it, and every PMU but the core's is CPU-wide only.
 * Stricter than perf at worst, never looser.
 */
#ifndef PERFCTR_PRIV_RULE_H
#define PERFCTR_PRIV_RULE_H

#include "perfctr_flags.h"
#include "perfctr_payload.h"

#if defined(__x86_64__) || defined(__i386__)
#define PERFCTR_ANY_THREAD	(1ULL << 21)
#else
#define PERFCTR_ANY_THREAD	0ULL
#endif

/* Why a counter is refused, as perfctr-run (before load) and the module
 * (at start) both say it: the paranoid level, the rule it breaks, the
 * level that rule needs, the user, the module's privilege; each side
 * closes the parenthesis. */
#define PERFCTR_PRIV_REFUSAL						\
	"refused: kernel.perf_event_paranoid is %d, and %s needs %d or "	\
	"less for user %u (a %s module counts only what perf_event_open "	\
	"allows its user"

/* One counter, as the rule sees it. */
struct perfctr_priv_what {
	unsigned int flags;		/* PERFCTR_F_* */
	unsigned long long config;
	unsigned int payload;		/* a sampling clause's PERFCTR_PL_* */
	int per_task;			/* .process: in the user's own tasks */
	int grouped;			/* in a .group (CPU-wide) */
};

/* What perf would refuse w, and the paranoid level that allows it
 * (*need); NULL when perf allows it at this level. */
static inline const char *perfctr_priv_rule(const struct perfctr_priv_what *w,
					    int paranoid, int *need)
{
	if (paranoid > 2) {
		*need = 2;
		return "any counter";
	}
	if (paranoid > 1) {
		*need = 1;
		if (!(w->flags & PERFCTR_F_EXCLUDE_KERNEL))
			return "counting in kernel mode";
		if (w->payload & PERFCTR_PL_PHYS)
			return "a sample's physical address";
	}
	if (paranoid > 0) {
		*need = 0;
		if (!w->per_task)
			return w->grouped ? "a group's counter (CPU-wide: "
					    "perfctr-run opens it on each CPU)" :
			       "a CPU-wide counter (.cpu, .thread, .cgroup, "
			       ".multiplex)";
		if (w->config & PERFCTR_ANY_THREAD)
			return "the AnyThread bit (config bit 21: it counts "
			       "the sibling hyperthread's work too)";
	}
	return NULL;
}

#endif /* PERFCTR_PRIV_RULE_H */
