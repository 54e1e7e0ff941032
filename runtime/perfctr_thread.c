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
 * after the module started).  Time a thread spends on a CPU whose counter
 * cannot be read at its switch-in (not re-created yet after CPU hotplug,
 * or not counting) is not in its count, and its reads fail until its
 * next switch-in finds the counter counting.
 *
 * Records live in a table allocated at start (PERFCTR_THREADS entries,
 * stap -D PERFCTR_THREADS=N), found through perfctr_tidmap.c; only the CPU
 * a thread runs on touches its record.  Each CPU remembers the slot of
 * the thread it switched in last (or that read last), so a read finds
 * the current thread's record with one compare instead of a lookup: the
 * slot's id in the table must be the current thread's, which also keeps
 * out a slot freed and taken by another thread meanwhile.  A thread that finds no slot is not
 * counted and its reads raise an error; a thread's last switch (it has
 * exited) frees its slot, so reads in its exit probes still see it.
 *
 * Readers run in any context, NMI included, and one can interrupt the
 * switch that is taking its own thread out.  So the outgoing thread's
 * record is updated by filling the half cur does not name and flipping
 * cur (as struct perfctr_pair in perfctr.h): a nested reader sees the
 * record before the switch or after it, never half of it.  Readers never
 * write a record that exists; a record is zeroed before its slot is
 * freed, so one just claimed reads as zero until its creator has filled
 * it.
 */
#ifdef PERFCTR_NTHREAD

#include <linux/tracepoint.h>
#include <linux/version.h>

#include "perfctr_tidmap.c"

#ifndef PERFCTR_THREADS
#define PERFCTR_THREADS 4096
#endif

/* start[k] when counter k could not be read at the switch-in */
#define PERFCTR_NO_START	U64_MAX

struct perfctr_thread_half {
	u64 acc[PERFCTR_NTHREAD];
	u64 start[PERFCTR_NTHREAD];
	unsigned int on;	/* running: start[] is its switch-in */
};

struct perfctr_thread {
	unsigned int cur;	/* the half that holds */
	struct perfctr_thread_half h[2];
};

static struct perfctr_tidmap perfctr_thread_ids;
static struct perfctr_thread *perfctr_threads;
static unsigned int perfctr_thread_req[PERFCTR_NTHREAD];	/* slot -> idx */
static struct tracepoint *perfctr_tp_switch;
static int perfctr_tp_registered;

/* This CPU remembers t (NULL: none) as its current thread's record.
 * IRQs off, on this CPU: a nested reader sees the slot before or after,
 * one int, and checks it against its own thread anyway. */
static void perfctr_thread_remember(const struct perfctr_thread *t)
{
	WRITE_ONCE(this_cpu_ptr(perfctr_cpus)->thr_slot,
		   t ? (int)(t - perfctr_threads) + 1 : 0);
}

/* The record of tid, claiming one when create is set (*fresh: claimed
 * now, all zero); NULL when there is none (or no room). */
static struct perfctr_thread *perfctr_thread_find(int tid, int create,
						  int *fresh)
{
	int s = perfctr_tidmap_get(&perfctr_thread_ids, tid, create, fresh);

	return s < 0 ? NULL : &perfctr_threads[s];
}

/* The record of tid, the thread running here, if this CPU remembers
 * it: the slot's id is still tid (a record going away is marked held
 * before it is zeroed, so its id no longer matches).  IRQs off. */
static __always_inline struct perfctr_thread *
perfctr_thread_remembered(int tid)
{
	int s = READ_ONCE(this_cpu_ptr(perfctr_cpus)->thr_slot) - 1;
	const int *ids = READ_ONCE(perfctr_thread_ids.tid);

	if (s < 0 || !ids || tid <= 0 || READ_ONCE(ids[s]) != tid)
		return NULL;
	return &perfctr_threads[s];
}

static struct perfctr_thread_half *perfctr_thread_now(struct perfctr_thread *t)
{
	unsigned int c = READ_ONCE(t->cur);

	barrier();	/* the half was written before cur, on this CPU */
	return &t->h[c & 1];
}

/* Counter slot k's count on this CPU, or PERFCTR_NO_START.  IRQs off. */
static u64 perfctr_thread_count(unsigned int k)
{
	u64 v;

	return perfctr_read_here(perfctr_thread_req[k], &v) ?
	       PERFCTR_NO_START : v;
}

/* Thread t comes in on this CPU (or is first seen there): it counts from
 * now.  Its own record, not read by anyone meanwhile. */
static void perfctr_thread_in(struct perfctr_thread *t)
{
	struct perfctr_thread_half *h = perfctr_thread_now(t);
	unsigned int k;

	for (k = 0; k < PERFCTR_NTHREAD; k++)
		h->start[k] = perfctr_thread_count(k);
	barrier();
	WRITE_ONCE(h->on, 1);
}

/*
 * A switch on this CPU: the outgoing thread's record (op, the current
 * thread's) gets what it counted since it came in, in the half cur does
 * not name, then cur flips; the incoming one's (np) notes where it
 * starts.  Each counter is read once.  IRQs off.
 */
static void perfctr_thread_switch(struct perfctr_thread *op,
				  struct perfctr_thread *np)
{
	const struct perfctr_thread_half *o = op ? perfctr_thread_now(op) : NULL;
	struct perfctr_thread_half *out = op ? &op->h[!(op->cur & 1)] : NULL;
	struct perfctr_thread_half *in = np ? perfctr_thread_now(np) : NULL;
	unsigned int k;
	u64 v;

	for (k = 0; k < PERFCTR_NTHREAD; k++) {
		v = perfctr_thread_count(k);
		if (out) {
			out->acc[k] = o->acc[k];
			if (o->on && v != PERFCTR_NO_START &&
			    o->start[k] != PERFCTR_NO_START)
				out->acc[k] += v - o->start[k];
		}
		if (in)
			in->start[k] = v;
	}
	if (out) {
		out->on = 0;
		PERFCTR_RACE(SWITCH_OUT);
		barrier();	/* a nested reader flips to the new half whole */
		WRITE_ONCE(op->cur, !(op->cur & 1));
	}
	if (in) {
		PERFCTR_RACE(SWITCH_IN);
		barrier();
		WRITE_ONCE(in->on, 1);
	}
}

/* Is t in its last switch?  do_task_dead() sets TASK_DEAD just before
 * it.  (exit_state is set earlier, and an exiting task can still block,
 * be switched out and run again after that: on PREEMPT_RT it does.) */
static bool perfctr_task_dead(const struct task_struct *t)
{
	return READ_ONCE(t->__state) == TASK_DEAD;
}

/* Its last switch: the record is zeroed while no one can find it, then
 * free for others. */
static void perfctr_thread_gone(int tid)
{
	int fresh, s = perfctr_tidmap_get(&perfctr_thread_ids, tid, 0, &fresh);

	if (s < 0)
		return;
	perfctr_tidmap_put(&perfctr_thread_ids, s, 1);
	PERFCTR_RACE(THREAD_GONE);
	memset(&perfctr_threads[s], 0, sizeof(perfctr_threads[s]));
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
	struct perfctr_thread *op = NULL, *np = NULL;
	int fresh;

	if (unlikely(!READ_ONCE(perfctr_cpus)))
		return;
	/* no record for prev: not counted since we started */
	op = perfctr_thread_remembered(prev->pid);
	if (!op && prev->pid)
		op = perfctr_thread_find(prev->pid, 0, &fresh);
	if (next->pid)
		np = perfctr_thread_find(next->pid, 1, &fresh);
	perfctr_thread_switch(op, np);
	perfctr_thread_remember(np);
	if (op && perfctr_task_dead(prev))	/* its last switch */
		perfctr_thread_gone(prev->pid);
}

/*
 * The current thread's count of .thread counter idx.  Any probe context,
 * NMI included.  Returns 0, -ENOSPC (no room for the thread), -ESRCH (an
 * idle task: not a thread anyone counts), -EIO (its counter could not be
 * read at its switch-in, or cannot be now).
 */
static int perfctr_read_thread(unsigned int idx, u64 *val)
{
	unsigned int k = perfctr_requests[idx].tslot;
	const struct perfctr_thread_half *h;
	struct perfctr_thread *t;
	unsigned long flags;
	int fresh, rc = 0;
	u64 v = 0;

	if (unlikely(!READ_ONCE(perfctr_cpus)))
		return -ENODEV;
	local_irq_save(flags);
	t = perfctr_thread_remembered(current->pid);
	if (!t) {
		/* a thread in its last switch makes no new record */
		t = perfctr_thread_find(current->pid,
					!perfctr_task_dead(current), &fresh);
		if (t && fresh) {	/* first seen: it counts from now */
			PERFCTR_RACE(THREAD_NEW);
			perfctr_thread_in(t);
		}
		if (t)
			perfctr_thread_remember(t);
	}
	if (!t)
		rc = !current->pid ? -ESRCH :
		     perfctr_task_dead(current) ? -EIO : -ENOSPC;
	else if (!(h = perfctr_thread_now(t))->on)
		*val = h->acc[k];	/* inside its own switch-out */
	else if (h->start[k] == PERFCTR_NO_START ||
		 perfctr_read_here(idx, &v))
		rc = -EIO;
	else
		*val = h->acc[k] + v - h->start[k];
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
	unsigned int i;
	int rc;

	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (perfctr_requests[i].id &&
		    perfctr_requests[i].scope == PERFCTR_SCOPE_THREAD)
			perfctr_thread_req[perfctr_requests[i].tslot] = i;
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
	/* After the script's own sched_switch probes (default priority): a
	 * probe there reads the outgoing thread before its record moves on,
	 * and a dying thread's before its record goes. */
	rc = tracepoint_probe_register_prio(perfctr_tp_switch,
					    perfctr_on_switch, NULL,
					    TRACEPOINT_DEFAULT_PRIO - 1);
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
