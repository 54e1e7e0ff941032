/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_attr.h - the perf_event_attr of every event the module opens,
 * built in one place for the module (runtime/) and for perfctr-run's
 * trial opens (helper/trial.c), so that a trial opens what the module
 * will open.  Pure C over the uapi struct; any context.
 *
 * The flags are the assignment's (perfctr_flags.h).
 */
#ifndef PERFCTR_ATTR_H
#define PERFCTR_ATTR_H

#ifdef __KERNEL__
#include <linux/perf_event.h>
#include <linux/string.h>
#else
#include <string.h>
#include <linux/perf_event.h>
#endif

#include "perfctr_flags.h"
#include "perfctr_payload.h"

/* A counter: exact counts (pinned) unless multiplexed, at the levels the
 * flags leave in. */
static inline void perfctr_attr_counter(struct perf_event_attr *a,
					unsigned int type,
					unsigned long long config,
					unsigned long long config1,
					unsigned long long config2,
					unsigned int flags)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->config1 = config1;
	a->config2 = config2;
	a->pinned = !(flags & PERFCTR_F_MULTIPLEX);
	a->exclude_user = !!(flags & PERFCTR_F_EXCLUDE_USER);
	a->exclude_kernel = !!(flags & PERFCTR_F_EXCLUDE_KERNEL);
	a->exclude_hv = !!(flags & PERFCTR_F_EXCLUDE_HV);
	a->exclude_guest = !!(flags & PERFCTR_F_EXCLUDE_GUEST);
	a->exclude_host = !!(flags & PERFCTR_F_EXCLUDE_HOST);
}

/* The sample_type bits that record payload (PERFCTR_PL_*). */
static inline unsigned long long perfctr_payload_sample_type(unsigned int pl)
{
	return (pl & PERFCTR_PL_ADDR ? PERF_SAMPLE_ADDR : 0) |
	       (pl & PERFCTR_PL_PHYS ? PERF_SAMPLE_PHYS_ADDR : 0) |
	       (pl & PERFCTR_PL_WEIGHT ? PERF_SAMPLE_WEIGHT_STRUCT : 0) |
	       (pl & PERFCTR_PL_SRC ? PERF_SAMPLE_DATA_SRC : 0) |
	       (pl & PERFCTR_PL_BRANCH ? PERF_SAMPLE_BRANCH_STACK : 0) |
	       (pl & PERFCTR_PL_CALLCHAIN ? PERF_SAMPLE_CALLCHAIN : 0);
}

/*
 * A counter's attr (above) turned into a sampling clause's: flexible, as
 * stap's perf probes are (a sampling event that does not fit waits its
 * turn), overflowing every period events or freq times a second, at the
 * .precise level, with a wakeup per sample: on x86 this keeps PEBS from
 * batching samples (large PEBS), whose handler would run at buffer
 * drain, out of the context it sampled.  The payload (PERFCTR_PL_*)
 * asks the PMU for what it records only when asked: a data address,
 * weight and data source (PEBS, IBS), the branch stack (LBR, BRBE:
 * every branch taken, at the levels the event counts, as perf record
 * -b), the call chain (PERFCTR_MAX_STACK frames, which the kernel
 * refuses where perf_event_max_stack is lower; a driver that records
 * the chain itself, x86's PEBS, then records as many).
 */
static inline void perfctr_attr_sample(struct perf_event_attr *a,
				       unsigned int period, unsigned int freq,
				       unsigned int precise, unsigned int pl)
{
	a->pinned = 0;
	a->freq = !!freq;
	if (freq)
		a->sample_freq = freq;
	else
		a->sample_period = period;
	a->precise_ip = precise;
	a->wakeup_events = 1;
	a->sample_type |= perfctr_payload_sample_type(pl);
	/* perf_event_open(2) would add the levels to branch_sample_type
	 * from the exclude bits; perf_event_create_kernel_counter() takes
	 * the attr as it is */
	if (pl & PERFCTR_PL_CALLCHAIN)
		a->sample_max_stack = PERFCTR_MAX_STACK;
	if (pl & PERFCTR_PL_BRANCH)
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
			(a->exclude_user ? 0 : PERF_SAMPLE_BRANCH_USER) |
			(a->exclude_kernel ? 0 : PERF_SAMPLE_BRANCH_KERNEL) |
			(a->exclude_hv ? 0 : PERF_SAMPLE_BRANCH_HV);
}

#endif /* PERFCTR_ATTR_H */
