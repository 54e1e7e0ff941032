// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_thread.c - .thread counters: every thread's own count, made from
 * the per-CPU counters by bookkeeping at each context switch.
 *
 * At sched_switch (this CPU, IRQs off) the CPU's counts are read once: the
 * outgoing thread adds what it counted since it came in, the incoming one
 * notes where it starts.  A read in a probe is the current thread's sum
 * plus what this CPU counted since it came in, so migrations do not matter:
 * a thread always comes in through a switch on its new CPU.  A thread's
 * count starts when it is first seen (its first switch, or first read,
 * after the module started).
 *
 * Records live in a table allocated at start (PERFCTR_THREADS entries,
 * stap -D PERFCTR_THREADS=N), found through perfctr_tidmap.c; only the CPU
 * a thread runs on touches its record.  A thread that finds no slot is not
 * counted and its reads raise an error; a thread's last switch (it has
 * exited) frees its slot, so reads in its exit probes still see it.
 */
#ifdef PERFCTR_NTHREAD

#include <linux/tracepoint.h>
#include <linux/version.h>

#include "perfctr_tidmap.c"

#ifndef PERFCTR_THREADS
#define PERFCTR_THREADS 4096
#endif

struct perfctr_thread {
	int on;				/* running: start[] is valid */
	int broken;			/* a switch could not read its CPU */
	u64 acc[PERFCTR_NTHREAD];
	u64 start[PERFCTR_NTHREAD];
};

static struct perfctr_tidmap perfctr_thread_ids;
static struct perfctr_thread *perfctr_threads;
static struct tracepoint *perfctr_tp_switch;
static int perfctr_tp_registered;

/* The record of tid, claiming one when create is set; NULL when there is
 * none (or no room). */
static struct perfctr_thread *perfctr_thread_find(int tid, int create)
{
	int fresh, s = perfctr_tidmap_get(&perfctr_thread_ids, tid, create,
					  &fresh);
	struct perfctr_thread *t;

	if (s < 0)
		return NULL;
	t = &perfctr_threads[s];
	if (fresh)
		memset(t, 0, sizeof(*t));
	return t;
}

/* This CPU's count of every .thread counter, in slot order.  IRQs off. */
static int perfctr_thread_counts(u64 *v)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (perfctr_requests[i].id &&
		    perfctr_requests[i].scope == PERFCTR_SCOPE_THREAD &&
		    perfctr_read_local(i, &v[perfctr_requests[i].tslot]))
			rc = -EIO;
	return rc;
}

static void perfctr_thread_in(struct perfctr_thread *t, const u64 *v, int ok)
{
	memcpy(t->start, v, sizeof(t->start));
	t->on = 1;
	t->broken |= !ok;
}

static void perfctr_thread_out(struct perfctr_thread *t, const u64 *v, int ok)
{
	unsigned int k;

	if (t->on)
		for (k = 0; k < PERFCTR_NTHREAD; k++)
			t->acc[k] += v[k] - t->start[k];
	t->on = 0;
	t->broken |= !ok;
}

static void perfctr_thread_gone(int tid)
{
	int fresh, s = perfctr_tidmap_get(&perfctr_thread_ids, tid, 0, &fresh);

	if (s >= 0)
		perfctr_tidmap_put(&perfctr_thread_ids, s, 0);
}

/* sched_switch, on this CPU, IRQs off; the idle tasks (pid 0) are not
 * threads anyone asks about. */
static void perfctr_on_switch(void *data, bool preempt,
			      struct task_struct *prev,
			      struct task_struct *next
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
			      , unsigned int prev_state
#endif
			      )
{
	u64 v[PERFCTR_NTHREAD];
	int ok = perfctr_thread_counts(v) == 0;
	struct perfctr_thread *t;

	/* no record for prev: not counted since we started */
	if (prev->pid && (t = perfctr_thread_find(prev->pid, 0))) {
		perfctr_thread_out(t, v, ok);
		if (prev->exit_state)	/* its last switch: the record goes */
			perfctr_thread_gone(prev->pid);
	}
	if (next->pid && (t = perfctr_thread_find(next->pid, 1)))
		perfctr_thread_in(t, v, ok);
}


/*
 * The current thread's count of .thread counter idx.  Any probe context.
 * Returns 0, -ENOSPC (no room for the thread), -EIO (a switch could not
 * read its counters, or none on this CPU now).
 */
static int perfctr_read_thread(unsigned int idx, u64 *val)
{
	unsigned int k = perfctr_requests[idx].tslot;
	struct perfctr_thread *t;
	unsigned long flags;
	u64 v[PERFCTR_NTHREAD];
	int rc;

	local_irq_save(flags);
	rc = perfctr_thread_counts(v);
	t = rc ? NULL : perfctr_thread_find(current->pid, 1);
	if (!rc && !t)
		rc = -ENOSPC;
	if (!rc) {
		if (!t->on)	/* first seen: its count starts now */
			perfctr_thread_in(t, v, 1);
		rc = t->broken ? -EIO : 0;
		*val = t->acc[k] + v[k] - t->start[k];
	}
	local_irq_restore(flags);
	return rc;
}

static void perfctr_tp_lookup(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		perfctr_tp_switch = tp;
}

/* Sleepable; after the per-CPU counters exist. */
static int perfctr_threads_start(void)
{
	int rc;

	perfctr_threads = vzalloc(array_size(PERFCTR_THREADS,
					     sizeof(*perfctr_threads)));
	if (!perfctr_threads ||
	    perfctr_tidmap_alloc(&perfctr_thread_ids, PERFCTR_THREADS))
		return -ENOMEM;	/* perfctr_threads_stop() frees */
	for_each_kernel_tracepoint(perfctr_tp_lookup, NULL);
	if (!perfctr_tp_switch) {
		_stp_error("perfctr: .thread counters need the sched_switch "
			   "tracepoint\n");
		return -ENOENT;
	}
	rc = tracepoint_probe_register(perfctr_tp_switch, perfctr_on_switch,
				       NULL);
	perfctr_tp_registered = !rc;
	return rc;
}

/* Sleepable; idempotent; before the per-CPU counters go. */
static void perfctr_threads_stop(void)
{
	if (perfctr_tp_registered) {
		tracepoint_probe_unregister(perfctr_tp_switch,
					    perfctr_on_switch, NULL);
		tracepoint_synchronize_unregister();
	}
	perfctr_tp_registered = 0;
	perfctr_tp_switch = NULL;
	perfctr_tidmap_free(&perfctr_thread_ids);
	vfree(perfctr_threads);
	perfctr_threads = NULL;
}

#else /* !PERFCTR_NTHREAD */
static int perfctr_threads_start(void) { return 0; }
static void perfctr_threads_stop(void) { }
static int perfctr_read_thread(unsigned int idx, u64 *val) { return -ENODEV; }
#endif
