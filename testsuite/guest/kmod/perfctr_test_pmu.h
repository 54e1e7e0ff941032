/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr_test_pmu.h - the counting callbacks of the test PMUs: an event
 * counts what test_pmu_now() reads (a count the test drives), from its
 * start, brought into the event at each read as a hardware counter's is.
 * The including driver defines test_pmu_now() before it includes this;
 * it runs on the event's CPU, in any context.
 */
#ifndef PERFCTR_TEST_PMU_H
#define PERFCTR_TEST_PMU_H

#include <linux/perf_event.h>

static u64 test_pmu_now(struct perf_event *event);

/* A cmpxchg on prev_count, as x86_perf_event_update(): a read nested in
 * another (an NMI) adds nothing twice. */
static void test_pmu_read(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	do {
		prev = local64_read(&hwc->prev_count);
		now = test_pmu_now(event);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);
	local64_add(now - prev, &event->count);
}

static void test_pmu_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, test_pmu_now(event));
	event->hw.state = 0;
}

static void test_pmu_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED) && (flags & PERF_EF_UPDATE))
		test_pmu_read(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int test_pmu_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		test_pmu_start(event, flags);
	return 0;
}

static void test_pmu_del(struct perf_event *event, int flags)
{
	test_pmu_stop(event, PERF_EF_UPDATE);
}

#endif
