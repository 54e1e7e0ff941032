// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_rearm.c - pinned counters that could not be scheduled, given
 * another chance.
 *
 * A pinned event that finds no free hardware counter when it is
 * scheduled in goes to ERROR state, and perf leaves it there until it is
 * enabled again: a .process counter that once lost the PMU to a CPU-wide
 * one (another module, the NMI watchdog) would count nothing for the
 * rest of the run.  A reader that finds a counter in ERROR (any context,
 * NMI included) asks for a re-arm; an irq_work (safe from NMI) wakes the
 * work that owns such counters, which calls perf_event_enable() on them,
 * at most once every PERFCTR_REARM_GAP: if the PMU is still full the
 * counter is back in ERROR at its next schedule-in, and the next read
 * asks again.  Reads keep failing until it counts again.
 */
#include <linux/irq_work.h>
#include <linux/jiffies.h>

#define PERFCTR_REARM_GAP	(HZ / 50)

static unsigned long perfctr_rearm_asked;	/* PERFCTR_REARM_* bits */
static unsigned long perfctr_rearm_last[2];	/* jiffies, per owner */

static void perfctr_rearm_kick(struct irq_work *iw)
{
	if (test_bit(PERFCTR_REARM_CPUS, &perfctr_rearm_asked))
		schedule_work(&perfctr_hp_work);
	if (test_bit(PERFCTR_REARM_TASKS, &perfctr_rearm_asked))
		perfctr_tasks_kick();
}

static struct irq_work perfctr_rearm_iw = IRQ_WORK_INIT(perfctr_rearm_kick);

/* Any context. */
static void perfctr_rearm_request(unsigned int owner)
{
	if (!test_and_set_bit(owner, &perfctr_rearm_asked))
		irq_work_queue(&perfctr_rearm_iw);
}

/* From the owner's work: should it re-arm its counters now?  A request
 * inside the gap is dropped; the next failing read asks again. */
static bool perfctr_rearm_due(unsigned int owner)
{
	if (!test_and_clear_bit(owner, &perfctr_rearm_asked) ||
	    time_before(jiffies, perfctr_rearm_last[owner] + PERFCTR_REARM_GAP))
		return false;
	perfctr_rearm_last[owner] = jiffies;
	return true;
}

/* Sleepable; once no reader runs. */
static void perfctr_rearm_stop(void)
{
	irq_work_sync(&perfctr_rearm_iw);
}
