// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_thread.c - .thread counters: every thread's own count, made from
 * the per-CPU counters by bookkeeping at each context switch.
 *
 * At sched_switch (this CPU, IRQs off) the CPU's counts are read once: the
 * outgoing thread adds what it counted since it came in, the incoming one
 * notes where it starts.  A read in a probe is the current thread's sum
 * plus what this CPU counted since it came in, so migrations do not matter:
 * a thread always comes in through a switch on its new CPU.  Time a thread spends on a CPU whose counter
 * cannot be read at its switch-in (not re-created yet after CPU hotplug,
 * or not counting) is not in its count, and its reads fail until its
 * next switch-in finds the counter counting.
 *
 * A thread has a record only once the script needs it: its first .thread
 * read claims one (perfctr_thrpool.c) and starts its count there, so
 * that read returns 0 and later ones what it counted since (the
 * switches of a thread without a record skip the bookkeeping), unless
 * the script reads .thread counters at context switches: then the count
 * starts at the thread's switch-in (PERFCTR_THREAD_NOTE).  Its last
 * switch (it has exited) gives the record back, so reads in its exit
 * probes still see it.  Each CPU remembers the record of the thread it
 * switched in last (or that read last), so a read finds the current
 * thread's record with one compare instead of a lookup: the record's task
 * must be the current one, which also keeps out a record given back and
 * claimed by another thread meanwhile.  A thread that finds no room is
 * not counted and its reads raise an error.
 *
 * Records are the task's, not its thread id's (perfctr_taskmap.c): a
 * thread that calls execve() from a thread other than the leader keeps
 * its record and its count under the leader's id, and the zombie
 * leader's last switch, which may come after the ids were swapped, gives
 * back the leader's own; a thread id freed at exit and taken by a new
 * thread before the old one's last switch names two records, one each.
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

#include <linux/version.h>

/*
 * The translator defines PERFCTR_THREAD_SWITCH_READS when the script may
 * read .thread counters in probes that run at a context switch, in the
 * outgoing thread (sched_switch probes and the functions they call).
 * Then a thread's first read counts from its switch-in on this CPU, so
 * that a script that charges each thread at its switch-outs counts its
 * first stretch whole: each CPU notes where the counters stood when a
 * thread without a record came in.  Other scripts need no note (a first
 * read counts from the read), and their switches skip it.
 */
#ifdef PERFCTR_THREAD_SWITCH_READS
#define PERFCTR_THREAD_NOTE	1
#else
#define PERFCTR_THREAD_NOTE	0
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
	const struct task_struct *task;	/* its thread; NULL while free or
					 * going */
	struct perfctr_thread_half h[2];
};

#include "perfctr_thrpool.c"

static unsigned int perfctr_thread_req[PERFCTR_NTHREAD];	/* slot -> idx */
static struct tracepoint *perfctr_tp_switch;	/* while hooked */

/* This CPU (pc) remembers t (NULL: none) as its current thread's record.
 * IRQs off, on this CPU: a nested reader sees the pointer before or
 * after, and checks it against its own thread anyway. */
static void perfctr_thread_remember(struct perfctr_cpu *pc,
				    struct perfctr_thread *t)
{
	WRITE_ONCE(pc->thr, t);
}

/* The record of tsk, the thread running here, if this CPU (pc) remembers
 * it and it is still tsk's (one going away has its task cleared before
 * it is zeroed).  IRQs off. */
static __always_inline struct perfctr_thread *
perfctr_thread_remembered(const struct perfctr_cpu *pc,
			  const struct task_struct *tsk)
{
	struct perfctr_thread *t = READ_ONCE(pc->thr);

	if (!t || READ_ONCE(t->task) != tsk)
		return NULL;
	return t;
}

/* The record of tsk, which may have one (perfctr_thr_tracked()).  IRQs
 * off. */
static __always_inline struct perfctr_thread *
perfctr_thread_find(const struct task_struct *tsk)
{
	struct perfctr_thr_seg *g;
	int s;

	return perfctr_thr_find(tsk, &g, &s);
}

/* The record of tsk, a thread switching here, if it has one: most have
 * none, and pay the filter's test inline; the idle tasks never have one.
 * IRQs off. */
static __always_inline struct perfctr_thread *
perfctr_thread_lookup(const struct task_struct *tsk)
{
	if (!tsk->pid || !perfctr_thr_tracked(tsk))
		return NULL;
	return perfctr_thread_find(tsk);
}

static struct perfctr_thread_half *perfctr_thread_now(struct perfctr_thread *t)
{
	unsigned int c = READ_ONCE(t->cur);

	barrier();	/* the half was written before cur, on this CPU */
	return &t->h[c & 1];
}

/* Counter slot k's count on this CPU, or PERFCTR_NO_START; a .cpus
 * counter's constant base on a CPU it does not count on (the thread's
 * time there adds nothing).  IRQs off. */
static __always_inline u64 perfctr_thread_count(unsigned int k)
{
	u64 v;
	int rc = perfctr_read_here(perfctr_thread_req[k], &v);

	return rc && rc != PERFCTR_RE_NOT_HERE ? PERFCTR_NO_START : v;
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
 * An incoming thread without a record: this CPU notes where its counters
 * stand, so that its first read, if it comes in this stretch, counts the
 * whole stretch (a script that reads at each switch-out charges every
 * stretch).  The half cur does not name is filled, then cur flips: a
 * reader nested here finds the outgoing thread's own whole, or a task
 * that is not its own.  IRQs off.
 */
static void perfctr_thread_note_in(const struct task_struct *tsk)
{
	struct perfctr_cpu *pc = this_cpu_ptr(perfctr_cpus);
	unsigned int c = !(pc->thr_in_cur & 1), k;

	pc->thr_in[c].task = tsk;
	for (k = 0; k < PERFCTR_NTHREAD; k++)
		pc->thr_in[c].start[k] = perfctr_thread_count(k);
	barrier();
	WRITE_ONCE(pc->thr_in_cur, c);
}

/* The outgoing thread's stretch ends here (the script's own sched_switch
 * probes have run): a first read from now on, by a reader nested in
 * this switch, counts from now, for the switch below may already have
 * passed its record by.  IRQs off. */
static void perfctr_thread_note_out(void)
{
	struct perfctr_cpu *pc = this_cpu_ptr(perfctr_cpus);

	WRITE_ONCE(pc->thr_in[pc->thr_in_cur & 1].task, NULL);
}

/* A first read: thread t (the current one, tsk) counts from its switch-in
 * here when this CPU noted it, else from now.  Its own record. */
static void perfctr_thread_first(struct perfctr_thread *t,
				 const struct task_struct *tsk)
{
	const struct perfctr_cpu *pc = this_cpu_ptr(perfctr_cpus);
	unsigned int c = READ_ONCE(pc->thr_in_cur) & 1, k;
	struct perfctr_thread_half *h;

	barrier();	/* the half was written before cur, on this CPU */
	if (!PERFCTR_THREAD_NOTE || pc->thr_in[c].task != tsk) {
		perfctr_thread_in(t);
		return;
	}
	h = perfctr_thread_now(t);
	for (k = 0; k < PERFCTR_NTHREAD; k++)
		h->start[k] = pc->thr_in[c].start[k];
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

/* sched_switch, on this CPU, IRQs off; the idle tasks (pid 0) are not
 * threads anyone asks about. */
static void perfctr_on_switch(void *data, bool preempt,
			      struct task_struct *prev,
			      struct task_struct *next,
			      unsigned int prev_state)
{
	struct perfctr_thread *op, *np;
	struct perfctr_cpu *pc;

	if (unlikely(!READ_ONCE(perfctr_cpus)))
		return;
	pc = this_cpu_ptr(perfctr_cpus);
	if (PERFCTR_THREAD_NOTE)
		perfctr_thread_note_out();
	/* no record: the script has not read the thread */
	op = perfctr_thread_remembered(pc, prev);
	if (!op)
		op = perfctr_thread_lookup(prev);
	np = perfctr_thread_lookup(next);
	if (op || np)
		perfctr_thread_switch(op, np);
	if (PERFCTR_THREAD_NOTE && !np && next->pid)
		perfctr_thread_note_in(next);
	perfctr_thread_remember(pc, np);
	if (op && perfctr_task_dead(prev))	/* its last switch */
		perfctr_thr_give_back(prev);
}

/*
 * The current thread's record when this CPU does not remember it: its
 * first read since its switch-in here (looked up), or its first read at
 * all (claimed).  IRQs off, any context.  NULL, with *rc, when it has
 * none: -ENOSPC (no room for it), -ESRCH (an idle task: not a thread
 * anyone counts), -EIO (in its last switch, without one).
 */
static noinline struct perfctr_thread *perfctr_thread_current(int *rc)
{
	struct task_struct *tsk = current;
	bool dead = perfctr_task_dead(tsk);
	struct perfctr_thread *t = NULL;
	int fresh = 0;

	/* a thread in its last switch makes no new record */
	if (tsk->pid)
		t = dead ? perfctr_thread_lookup(tsk) :
		    perfctr_thr_claim(tsk, &fresh);
	if (!t) {
		*rc = !tsk->pid ? -ESRCH : dead ? -EIO : -ENOSPC;
		return NULL;
	}
	if (fresh) {
		PERFCTR_RACE(THREAD_NEW);
		perfctr_thread_first(t, tsk);
	}
	perfctr_thread_remember(this_cpu_ptr(perfctr_cpus), t);
	return t;
}

/*
 * The current thread's count of .thread counter idx.  Any probe context,
 * NMI included.  Inline: the read is the record this CPU remembers, one
 * compare of its task, its half and this CPU's counter idx (with a
 * constant idx, its slot k is a constant too).  Returns 0, -ENOSPC,
 * -ESRCH, -EIO (as perfctr_thread_current(); or its counter could not
 * be read at its switch-in, or cannot be now).
 */
static __always_inline int perfctr_read_thread(unsigned int idx, u64 *val)
{
	const unsigned int k = perfctr_requests[idx].tslot;
	const struct perfctr_thread_half *h;
	struct perfctr_cpu *pc;
	struct perfctr_thread *t;
	unsigned long flags;
	int rc = 0;
	u64 v;

	if (unlikely(!READ_ONCE(perfctr_cpus)))
		return -ENODEV;
	local_irq_save(flags);
	pc = this_cpu_ptr(perfctr_cpus);
	t = perfctr_thread_remembered(pc, current);
	if (unlikely(!t))
		t = perfctr_thread_current(&rc);
	if (likely(t)) {
		h = perfctr_thread_now(t);
		if (!h->on)
			*val = h->acc[k];	/* inside its own switch-out */
		else if (h->start[k] == PERFCTR_NO_START ||
			 ((rc = perfctr_read_on(pc, idx, &v)) &&
			  rc != PERFCTR_RE_NOT_HERE))	/* .cpus: not here */
			rc = -EIO;
		else {
			*val = h->acc[k] + v - h->start[k];
			rc = 0;
		}
	}
	local_irq_restore(flags);
	return rc;
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
	rc = perfctr_thr_pool_start();
	if (rc)
		return rc;	/* perfctr_threads_stop() frees */
	/* a script's sched_switch probe reads the outgoing thread before
	 * its record moves on, and a dying thread's before its record goes */
	return perfctr_switch_hook(&perfctr_tp_switch, perfctr_on_switch,
				   ".thread");
}

/* Sleepable; idempotent; before the per-CPU counters go. */
static void perfctr_threads_stop(void)
{
	unsigned int cpu;

	perfctr_tp_unhook(&perfctr_tp_switch, perfctr_on_switch);
	for_each_possible_cpu(cpu)	/* the records go */
		if (perfctr_cpus)
			per_cpu_ptr(perfctr_cpus, cpu)->thr = NULL;
	perfctr_thr_pool_stop();
}

#else /* !PERFCTR_NTHREAD */
static int perfctr_threads_start(void) { return 0; }
static void perfctr_threads_stop(void) { }
static int perfctr_read_thread(unsigned int idx, u64 *val) { return -ENODEV; }
#endif
