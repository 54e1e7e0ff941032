// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_task.c - .process counters: a counter of its own for every
 * task of the target's tree (stap's -c/-x target, or every process that
 * runs a .process("PATH")), threads and children as they appear; the
 * kernel saves and restores them at each context switch, so a task's
 * count is exact wherever it runs.  On a hybrid machine a counter is a
 * task event per core PMU (its CPU records, "cIDX"), as perf stat opens
 * cpu_core/cycles/ and cpu_atom/cycles/: each counts the task's time on
 * its own PMU's CPUs, and a read sums them.
 *
 * Roots: stap's task finder finds the tasks that carry no event of a
 * request yet (-c's target, -x's threads at the start, a process that
 * runs a .process("PATH") from outside any followed tree): one finder
 * target per distinct .process path (or stap's -c/-x target), registered
 * before stap's own init starts the finder.  Its callback runs in the
 * found task, where it may sleep: there the task's root events are made,
 * with attr.inherit.  Every task a followed task forks inherits them,
 * before it first runs: perfctr_inherit.c.  A .process("PATH") counter
 * rides latent in the trees of other targets, so that an exec of PATH
 * there counts from the exec: perfctr_latent.c.  Events stay across an
 * exec, as perf's do.
 *
 * Records: PERFCTR_TASKS of them (stap -D PERFCTR_TASKS=N), allocated at
 * start, found by task through perfctr_taskmap.c: a thread that calls
 * execve() from a thread other than the leader takes the leader's id.
 * Only a task's fork, its found callback and its exec check write its
 * record, and its free takes it out.  Totals are read without locks: a
 * sequence count tells a reader that a task's count moved to the totals
 * under it.  The slots of the tasks followed now are also kept packed at
 * the front of perfctr_task_live[], so that a total walks those, not the
 * table.
 *
 * Reads: perfctr_read_process() the current thread's own count (its
 * final one in its exit probes); perfctr_read_total() every followed
 * task, live and gone, from any context (a thread running on another
 * CPU right now counts as of its last switch or tick).
 *
 * stap -c CMD: stapio forks the command's task and holds it in stapio's
 * image until the module has started (start_cmd() waits for SIGUSR1,
 * sent once the start is answered); only then does it exec CMD.  The
 * finder finds it at the start, before the exec, so its counters are made
 * disabled with enable_on_exec, as perf stat -- CMD makes them: perf
 * enables them in the task's own exec (perf_event_exec()), and nothing
 * stapio's child does before it is counted.  A task it forks before that
 * exec inherits them off, and is counted from its own exec, if any.
 */
#ifdef PERFCTR_HAVE_PROCESS

#include <linux/pid_namespace.h>
#include "perfctr_taskmap.c"

#ifndef PERFCTR_TASKS
#define PERFCTR_TASKS 1024
#endif

/* A task's perf contexts: one per kind of PMU in 6.1 (hardware,
 * software), one in all from 6.2 (the front-end's kernel probe decides). */
#ifdef PERFCTR_HAVE_TASK_CTX_ARRAY
#define PERFCTR_TASK_NCTX	perf_nr_task_contexts
#define PERFCTR_TASK_CTX(t, n)	rcu_dereference_raw((t)->perf_event_ctxp[n])
#else
#define PERFCTR_TASK_NCTX	1
#define PERFCTR_TASK_CTX(t, n)	rcu_dereference_raw((t)->perf_event_ctxp)
#endif

struct perfctr_task {
	/* a request's events: ev[i][0], or on a hybrid machine one per
	 * core PMU, in the order of its CPU records; ev[i][0] is written
	 * last, so a reader that sees it sees the others.  A root (made
	 * here, ev->parent NULL) or inherited (the module holds a
	 * reference on it, and its context is pinned once for it). */
	struct perf_event *ev[PERFCTR_NDECLARED][PERFCTR_CORE_PMUS];
	/* a request's direct read (perfctr_task_direct_of()): written
	 * before ev[i][0], toggled by the task's own kernel reads */
	unsigned char direct[PERFCTR_NDECLARED];
	int release;		/* the work releases it after this grace period */
	int rearm;		/* a read found one in ERROR state */
	unsigned int live;	/* 1 + its place in perfctr_task_live[], 0 */
	/* A .process("PATH") counter's latent events (a task of another
	 * followed tree carries them, off, inherited off): an exec turns
	 * them on (enable_on_exec); they are kept only where it is PATH,
	 * else turned off again, and what they counted meanwhile is bias.
	 * armed: latent and not kept yet; counts nothing for the task. */
	unsigned char latent[PERFCTR_NDECLARED], armed[PERFCTR_NDECLARED];
	u64 bias[PERFCTR_NDECLARED][PERFCTR_CORE_PMUS];
	struct task_work exec_work;	/* the exec's check, in the task */
	int exec_queued;
};

static struct perfctr_taskmap perfctr_task_ids;
static struct perfctr_task *perfctr_tasks;
static atomic64_t perfctr_task_done[PERFCTR_NDECLARED];
static unsigned int perfctr_task_seq;	/* odd: totals moving */
static int perfctr_task_seq_cpu;	/* where, while it is odd */
static DEFINE_RAW_SPINLOCK(perfctr_task_lock);	/* perfctr_task_seq */
static atomic_t perfctr_task_lost;	/* tasks not counted, or in part */
/* The slots of the tasks followed now, packed: added to at the end under
 * perfctr_task_lock (readers see the count only after the slot), taken
 * out, the last moved into the hole, under the lock and an odd seq. */
static unsigned int *perfctr_task_live;
static unsigned int perfctr_task_nlive;
static struct stap_task_finder_target perfctr_tgts[PERFCTR_NDECLARED + 1];
static unsigned int perfctr_ntgts;
static unsigned char perfctr_req_tgt[PERFCTR_NDECLARED];
static void perfctr_task_work_fn(struct work_struct *work);
static DECLARE_WORK(perfctr_task_work, perfctr_task_work_fn);
/* The target is -c's, held before its exec at the start: tasks whose
 * self_exec_id is still perfctr_cmd_exec_id have not exec'd since. */
static bool perfctr_cmd_held;
static u64 perfctr_cmd_exec_id;
/* What marks a root's events, and so every event the kernel inherits
 * from one, as request i's k-th, latent or not (its
 * overflow_handler_context, which inherit_event() copies): the address
 * of perfctr_task_tag[i][k][latent]. */
static char perfctr_task_tag[PERFCTR_NDECLARED][PERFCTR_CORE_PMUS][2];
static struct tracepoint *perfctr_tp_fork, *perfctr_tp_free;	/* hooked */
static struct tracepoint *perfctr_tp_exec;

/* Request i's events per task: one per core PMU on a hybrid machine. */
static unsigned int perfctr_task_nev(unsigned int i)
{
	return perfctr_slots[i].nenc ?: 1;
}

/*
 * A record's direct read of request i, whose event ev is: ABLE | DIRECT
 * where a read may take its count from the PMU (perfctr_direct.h), DIRECT
 * off while the task's own kernel read updates the count; UNCHECKED
 * until the module's start-up check has passed (perfctr_direct_checked(),
 * at the first kernel read that finds it counting here); 0 never.  Only
 * a request with one event (not a hybrid machine's several) whose record
 * is not latent (its count less a bias): the direct way is one event's
 * count alone.
 */
#define PERFCTR_TASK_DIRECT	1
#define PERFCTR_TASK_ABLE	2
#define PERFCTR_TASK_UNCHECKED	4

static unsigned char perfctr_task_direct_of(unsigned int i, bool latent,
					    const struct perf_event *ev)
{
	return perfctr_task_nev(i) == 1 && !latent &&
	       perfctr_direct_able(ev) ? PERFCTR_TASK_UNCHECKED : 0;
}

/* The kernel's read of record t's event ev of request idx, counting here:
 * where it may be read direct, guarded (perfctr_event_read_alone()) from a
 * nested read, which would take a torn count; an unchecked one checked
 * first.  IRQs off. */
static int perfctr_task_read_kernel(struct perfctr_task *t, unsigned int idx,
				    struct perf_event *ev, u64 *val)
{
	unsigned char *d = &t->direct[idx];

	if (READ_ONCE(*d) == PERFCTR_TASK_UNCHECKED) {
		bool ok = perfctr_direct_checked(ev);

		if (ok || perfctr_direct_decided())	/* else: later */
			WRITE_ONCE(*d, ok ? PERFCTR_TASK_ABLE |
					    PERFCTR_TASK_DIRECT : 0);
	}
	if (!(READ_ONCE(*d) & PERFCTR_TASK_ABLE))
		return perfctr_event_read(ev, val);
	return perfctr_event_read_alone(this_cpu_ptr(perfctr_cpus), d,
					PERFCTR_TASK_DIRECT, ev, val);
}

/* The current task's record, looked up and remembered by this CPU (pc);
 * NULL: none.  Out of line: a read on this CPU that follows a read by
 * another task, or by none.  IRQs off. */
static noinline struct perfctr_task *perfctr_task_lookup(struct perfctr_cpu *pc)
{
	int fresh, s;

	s = perfctr_taskmap_get(&perfctr_task_ids, current, 0, &fresh);
	if (s < 0)
		return NULL;
	smp_rmb();	/* the record after its key */
	WRITE_ONCE(pc->task, s);
	return &perfctr_tasks[s];
}

/*
 * The current task's record, NULL: none.  Most reads follow a read by
 * the same task on the same CPU: its slot is the one this CPU remembers,
 * while that slot's key is still the task.  A record's slot is keyed on
 * its task until the task is freed, and a freed task runs nowhere, so
 * the key names the record; acquired, so that the record read after it
 * is the key's (a slot reused after a free is zeroed, then keyed anew).
 * IRQs off: a nested read may remember another slot, which is checked
 * by its key the same way.
 */
static __always_inline struct perfctr_task *perfctr_task_current(void)
{
	unsigned long *key = READ_ONCE(perfctr_task_ids.key);
	struct perfctr_cpu *pc;
	unsigned int s;

	if (unlikely(!key))	/* perfctr_cpus: made before, freed after */
		return NULL;
	pc = this_cpu_ptr(perfctr_cpus);
	s = READ_ONCE(pc->task);
	if (likely(smp_load_acquire(&key[s]) == perfctr_task_key(current)))
		return &perfctr_tasks[s];
	return perfctr_task_lookup(pc);
}

/*
 * The current thread's count of request idx, on record t, by the
 * kernel's read: the sum of its events, the one of this CPU's core PMU
 * counting here, the others (a hybrid machine's other core PMUs) as the
 * thread's last time on their CPUs left them, less a latent record's
 * bias.  Out of line: the direct read's fallback.  IRQs off.  -EIO when
 * the one here is not counting (no room on the PMU), or one lost the PMU
 * (it is re-armed); PERFCTR_RE_REPROGRAM, PERFCTR_RE_UPDATING.
 */
static noinline int perfctr_task_count(unsigned int idx,
				       struct perfctr_task *t, u64 *val)
{
	const struct perfctr_slot *sl = &perfctr_slots[idx];
	const struct perfctr_cpu_enc *e;
	unsigned int here = 0, k, n = perfctr_task_nev(idx);
	u64 sum = 0;

	if (unlikely(t->latent[idx]) && READ_ONCE(t->armed[idx]))
		return -ESRCH;	/* not in its target (yet) */
	if (n > 1) {
		e = perfctr_slot_cpu_enc(sl, smp_processor_id());
		here = e ? e - sl->enc : 0;
	}
	for (k = 0; k < n; k++) {
		struct perf_event *ev = READ_ONCE(t->ev[idx][k]);
		int state;

		if (likely(perfctr_counting_here(ev))) {
			u64 v;
			int rc = perfctr_task_read_kernel(t, idx, ev, &v);

			if (unlikely(rc))
				return rc;
			sum += v;
			continue;
		}
		state = READ_ONCE(ev->state);
		/* OFF: waits for the task's exec (enable_on_exec, the only
		 * way ours are off), and has counted nothing; EXIT: the
		 * task's exit (or an exec into a program it may not be
		 * counted in) took it off for good, and its count is final */
		if (state == PERF_EVENT_STATE_OFF ||
		    state == PERF_EVENT_STATE_EXIT) {
			sum += local64_read(&ev->count);
			continue;
		}
		if (state == PERF_EVENT_STATE_ERROR) {
			WRITE_ONCE(t->rearm, 1);	/* perfctr_rearm.c */
			perfctr_rearm_request(PERFCTR_REARM_TASKS);
			return -EIO;
		}
		if (k == here)
			return -EIO;
		sum += local64_read(&ev->count);
	}
	if (unlikely(t->latent[idx]))
		for (k = 0; k < n; k++)
			sum -= READ_ONCE(t->bias[idx][k]);
	*val = sum;
	return 0;
}

/* What record t's events of request idx counted for its task, as a total
 * takes it (an armed latent one: nothing).  Any context, IRQs off. */
static u64 perfctr_task_sum(const struct perfctr_task *t, unsigned int idx)
{
	unsigned int k;
	u64 sum = 0;

	if (unlikely(t->latent[idx]) && READ_ONCE(t->armed[idx]))
		return 0;
	for (k = 0; k < perfctr_task_nev(idx); k++)
		sum += perfctr_event_count(READ_ONCE(t->ev[idx][k])) -
		       READ_ONCE(t->bias[idx][k]);
	return sum;
}

/*
 * The current thread's count of .process counter idx.  Any probe context,
 * the thread's own exit probes included (its final count).  Inline: the
 * record this CPU remembers, and its event straight from the PMU where
 * it counts here and may be read so (direct: the caller allows it; the
 * selftest's kernel read does not), else perfctr_task_count().
 * Returns 0, -ESRCH (not a followed thread, or not counted by this
 * counter's target), -ENOSPC (that, and some task found no record),
 * -EIO (not counting: no room on the PMU), PERFCTR_RE_REPROGRAM,
 * PERFCTR_RE_UPDATING.
 */
static __always_inline int perfctr_read_process_as(unsigned int idx,
						    u64 *val, bool direct)
{
	struct perfctr_task *t;
	struct perf_event *ev;
	unsigned long flags;
	int rc = 0;

	local_irq_save(flags);
	t = perfctr_task_current();
	ev = t ? smp_load_acquire(&t->ev[idx][0]) : NULL;
	if (unlikely(!ev))	/* not followed, or no room when found */
		rc = atomic_read(&perfctr_task_lost) ? -ENOSPC : -ESRCH;
	else if (!(direct &&
		   (READ_ONCE(t->direct[idx]) & PERFCTR_TASK_DIRECT) &&
		   perfctr_counting_here(ev) && perfctr_direct_read(ev, val)))
		rc = perfctr_task_count(idx, t, val);
	local_irq_restore(flags);
	return rc;
}

static int perfctr_read_process(unsigned int idx, u64 *val)
{
	return perfctr_read_process_as(idx, val, true);
}

/* One pass over the records: the sum, or -EAGAIN when it raced with a
 * task's free, -EBUSY when that free is the code this read interrupted
 * (an NMI or interrupt on the same CPU: waiting would never end). */
static int perfctr_total_once(unsigned int idx, u64 *val)
{
	unsigned int seq = READ_ONCE(perfctr_task_seq), i, n;
	u64 sum;

	smp_rmb();
	if (seq & 1)
		return READ_ONCE(perfctr_task_seq_cpu) == smp_processor_id() ?
		       -EBUSY : -EAGAIN;
	sum = atomic64_read(&perfctr_task_done[idx]);
	n = READ_ONCE(perfctr_task_nlive);
	smp_rmb();	/* the slots up to n were written before it */
	for (i = 0; i < n; i++) {
		const struct perfctr_task *t;

		t = &perfctr_tasks[READ_ONCE(perfctr_task_live[i])];
		if (smp_load_acquire(&t->ev[idx][0]))
			sum += perfctr_task_sum(t, idx);
	}
	smp_rmb();
	if (READ_ONCE(perfctr_task_seq) != seq)
		return -EAGAIN;
	*val = sum;
	return 0;
}

/*
 * Every followed task's count of .process counter idx, live and gone.
 * Any context; costs a pass over the tasks followed now.
 * Returns 0, -EAGAIN (raced with frees every time), -EBUSY (interrupted
 * a free on this CPU), -ENOSPC (some task could not be counted: the
 * total would be short).
 */
static int perfctr_read_total(unsigned int idx, u64 *val)
{
	unsigned long flags;
	int tries, rc = -EAGAIN;

	if (!perfctr_tasks || perfctr_requests[idx].scope !=
	    PERFCTR_SCOPE_PROCESS)
		return -EINVAL;
	local_irq_save(flags);
	for (tries = 0; tries < 8 && rc == -EAGAIN; tries++)
		rc = perfctr_total_once(idx, val);
	local_irq_restore(flags);
	if (!rc && atomic_read(&perfctr_task_lost))
		rc = -ENOSPC;
	return rc;
}

/* A counter's overflow handler: never called (it has no period), there
 * only so that the kernel keeps the tag beside it, and copies both into
 * every event it inherits from it. */
static void perfctr_task_untouched(struct perf_event *ev,
				   struct perf_sample_data *data,
				   struct pt_regs *regs)
{
}

/* Task tsk's k-th root event for request i: a counter (on core PMU k's
 * encoding, or the one), or a sampling clause's event with stap's
 * handler (perfctr_sample.c); inherited by every task it forks; off
 * until tsk's exec when on_exec (always when latent); NULL when there is
 * none to make. */
static struct perf_event *perfctr_task_event(unsigned int i, unsigned int k,
					     struct task_struct *tsk,
					     bool on_exec, bool latent)
{
	const struct perfctr_slot *s = &perfctr_slots[i];
	void *tag = &perfctr_task_tag[i][k][latent];
	struct perf_event_attr attr;

	if (perfctr_samples(i))
		return perfctr_sample_task_event(i, k, tsk, on_exec, tag);
	perfctr_attr_enc(s, s->nenc ? &s->enc[k] : NULL, &attr);
	attr.disabled = attr.enable_on_exec = on_exec;
	attr.inherit = 1;
	return perfctr_priv_create(&attr, -1, tsk, perfctr_task_untouched,
				   tag);
}

/* Task tsk's root events for request i into evs, evs[0] written last,
 * after their direct read (*direct).  Returns 0; 1 when there is none to
 * make; or the error of the one that could not be made (those made
 * before it released). */
static long perfctr_task_events(unsigned int i, struct task_struct *tsk,
				bool on_exec, bool latent,
				struct perf_event **evs, unsigned char *direct)
{
	struct perf_event *ev[PERFCTR_CORE_PMUS];
	unsigned int n = perfctr_task_nev(i), k;
	long rc;

	for (k = 0; k < n; k++) {
		ev[k] = perfctr_task_event(i, k, tsk, on_exec || latent,
					   latent);
		if (IS_ERR_OR_NULL(ev[k])) {
			rc = ev[k] ? PTR_ERR(ev[k]) : 1;
			while (k--)
				perfctr_release_event(ev[k]);
			return rc;
		}
		atomic_inc(&perfctr_created);
	}
	WRITE_ONCE(*direct, perfctr_task_direct_of(i, latent, ev[0]));
	while (--k)
		WRITE_ONCE(evs[k], ev[k]);
	smp_store_release(&evs[0], ev[0]);
	return 0;
}

/* Slot s is followed: at the end of the live slots, once.  A reader
 * that read the count before it does not sum it (its count is ~0). */
static void perfctr_task_live_add(unsigned int s)
{
	unsigned long flags;
	unsigned int n;

	raw_spin_lock_irqsave(&perfctr_task_lock, flags);
	if (!perfctr_tasks[s].live) {
		n = perfctr_task_nlive;
		WRITE_ONCE(perfctr_task_live[n], s);
		perfctr_tasks[s].live = n + 1;
		smp_wmb();	/* the slot before the count that shows it */
		WRITE_ONCE(perfctr_task_nlive, n + 1);
	}
	raw_spin_unlock_irqrestore(&perfctr_task_lock, flags);
}

/* Slot s is gone: the last live slot takes its place.  Under
 * perfctr_task_lock with perfctr_task_seq odd: a reader that overlaps
 * retries. */
static void perfctr_task_live_del(unsigned int s)
{
	unsigned int at = perfctr_tasks[s].live, last;

	if (!at)
		return;
	last = perfctr_task_live[perfctr_task_nlive - 1];
	WRITE_ONCE(perfctr_task_live[at - 1], last);
	perfctr_tasks[last].live = at;
	WRITE_ONCE(perfctr_task_nlive, perfctr_task_nlive - 1);
	perfctr_tasks[s].live = 0;
}

#include "perfctr_inherit.c"
#include "perfctr_latent.c"

/* Is tsk -c's target, or a task it forked, before the target's exec (a
 * task of target tgt)?  Its counters wait for its own exec.  An exec
 * adds 1 to self_exec_id, and a fork copies it. */
static bool perfctr_cmd_before_exec(unsigned int tgt, struct task_struct *tsk)
{
	return perfctr_cmd_held && !perfctr_tgts[tgt].procname &&
	       READ_ONCE(tsk->self_exec_id) == perfctr_cmd_exec_id;
}

/* Found (sleepable, usually in tsk itself): root events for the requests
 * of this target that tsk did not inherit (a task forked by a followed
 * one has them all, and already counts), and latent ones for the
 * .process("PATH") counters of other targets; the latent events of this
 * target's own, which tsk inherited or was given elsewhere, count from
 * here on. */
static void perfctr_task_found(unsigned int tgt, struct task_struct *tsk)
{
	bool on_exec = perfctr_cmd_before_exec(tgt, tsk);
	struct perfctr_task *t;
	unsigned int i;
	int fresh, s;
	long rc;

	s = perfctr_taskmap_get(&perfctr_task_ids, tsk, 0, &fresh);
	if (!perfctr_task_wants(tgt, s < 0 ? NULL : &perfctr_tasks[s]))
		return;
	if (!perfctr_priv_task(tsk))
		return;		/* not the user's: perfctr_priv.c */
	s = perfctr_taskmap_get(&perfctr_task_ids, tsk, 1, &fresh);
	if (s < 0) {
		atomic_inc(&perfctr_task_lost);
		return;
	}
	t = &perfctr_tasks[s];
	perfctr_task_live_add(s);
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		bool latent = !perfctr_task_mine(tgt, i);

		if (latent && !perfctr_task_latent_for(tgt, i))
			continue;
		if (t->ev[i][0]) {
			if (!latent && t->armed[i])
				perfctr_task_keep(t, i);
			continue;
		}
		t->latent[i] = t->armed[i] = latent;
		rc = perfctr_task_events(i, tsk, on_exec, latent, t->ev[i],
					 &t->direct[i]);
		if (rc < 0 && atomic_inc_return(&perfctr_task_lost) == 1)
			_stp_warn("perfctr: %s: counter \"%s\" (%s): cannot "
				  "create it for thread %d: error %ld\n",
				  perfctr_requests[i].src,
				  perfctr_requests[i].id,
				  perfctr_requests[i].event, tsk->pid, rc);
	}
}

/* Enables again the counters reads found in ERROR state. */
static void perfctr_tasks_rearm(void)
{
	unsigned int s, i, k;

	for (s = 0; s < perfctr_task_ids.size; s++) {
		struct perfctr_task *t = &perfctr_tasks[s];

		if (!xchg(&t->rearm, 0) || !perfctr_taskmap_live(&perfctr_task_ids, s))
			continue;
		for (i = 0; i < PERFCTR_NDECLARED; i++)
			for (k = 0; k < PERFCTR_CORE_PMUS && t->ev[i][k]; k++)
				if (READ_ONCE(t->ev[i][k]->state) ==
				    PERF_EVENT_STATE_ERROR)
					perf_event_enable(t->ev[i][k]);
	}
}

/* Releases the events of freed tasks once no reader can hold them, and
 * re-arms.  The only place that releases a task's events while the
 * module runs, so those it enables stay. */
static void perfctr_task_work_fn(struct work_struct *work)
{
	unsigned int s, n = 0;

	if (perfctr_rearm_due(PERFCTR_REARM_TASKS))
		perfctr_tasks_rearm();

	for (s = 0; s < perfctr_task_ids.size; s++) {
		if (READ_ONCE(perfctr_task_ids.key[s]) != PERFCTR_KEY_HELD)
			continue;
		perfctr_tasks[s].release = 1;
		n++;
	}
	if (!n)
		return;
	synchronize_rcu();	/* probe handlers run with preemption off */
	for (s = 0; s < perfctr_task_ids.size; s++) {
		struct perfctr_task *t = &perfctr_tasks[s];

		if (!t->release || perfctr_task_let_go(t, false))
			continue;	/* a root's children live on */
		memset(t, 0, sizeof(*t));
		perfctr_taskmap_put(&perfctr_task_ids, s, 0);
	}
}

/* perfctr_rearm.c: reads found a counter in ERROR.  Any context but NMI. */
static void perfctr_tasks_kick(void)
{
	schedule_work(&perfctr_task_work);
}

/* The finder's callbacks: found makes roots; its exit and exec reports
 * change nothing (events stay across an exec, as perf's do, and a
 * task's exit is counted at its free). */
static int perfctr_task_callback(struct stap_task_finder_target *tgt,
				 struct task_struct *tsk, int register_p,
				 int process_p)
{
	if (register_p)
		perfctr_task_found(tgt - perfctr_tgts, tsk);
	return 0;
}

/* The task finder target for path ("": stap's -c/-x target), made
 * once. */
static unsigned int perfctr_task_target(const char *path)
{
	unsigned int k;

	for (k = 0; k < perfctr_ntgts; k++)
		if (!strcmp(perfctr_tgts[k].procname ?: "", path))
			return k;
	perfctr_tgts[k].procname = path[0] ? path : NULL;
	perfctr_tgts[k].purpose = "perfctr .process counters";
	perfctr_tgts[k].callback = perfctr_task_callback;
	perfctr_ntgts++;
	return k;
}

/* The task finder target of each .process request: one per distinct
 * path, "" (procname NULL) for stap's -c/-x target.  With a target, a
 * .process("PATH") counter alone follows it too: its tasks carry the
 * latent events that count an exec of PATH from the exec. */
static void perfctr_tasks_targets(void)
{
	bool paths = false;
	unsigned int i;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_requests[i].id || !perfctr_per_task(i))
			continue;
		perfctr_req_tgt[i] = perfctr_task_target(perfctr_requests[i].target);
		paths |= perfctr_requests[i].target[0] && !perfctr_samples(i);
	}
	if (paths && _stp_target)
		perfctr_task_target("");
}

/*
 * Is the target -c's, held before its exec?  In stapio, answering the
 * start: -c's task is the child stapio forked, still in stapio's image
 * (its self_exec_id is its parent's at the fork, parent_exec_id); -x
 * PID names a task stapio never forked.  _stp_target is an id in the
 * initial namespace (transport.c translates it).  Sleepable.
 */
static void perfctr_cmd_find(void)
{
	struct task_struct *tsk;

	perfctr_cmd_held = false;
	if (!_stp_target)
		return;
	rcu_read_lock();
	tsk = pid_task(find_pid_ns(_stp_target, &init_pid_ns), PIDTYPE_PID);
	if (tsk && rcu_dereference(tsk->real_parent)->tgid == current->tgid &&
	    READ_ONCE(tsk->self_exec_id) == READ_ONCE(tsk->parent_exec_id)) {
		perfctr_cmd_exec_id = READ_ONCE(tsk->self_exec_id);
		perfctr_cmd_held = true;
	}
	rcu_read_unlock();
}

/* Sleepable, in stapio answering the start; before stap's init starts
 * the task finder.  The fork hook comes first: a task forked once a
 * root exists is adopted. */
static int perfctr_tasks_start(void)
{
	unsigned int k;
	int rc;

	perfctr_tasks = vzalloc(array_size(PERFCTR_TASKS,
					   sizeof(*perfctr_tasks)));
	perfctr_task_live = vzalloc(array_size(PERFCTR_TASKS,
					       sizeof(*perfctr_task_live)));
	perfctr_task_nlive = 0;
	if (!perfctr_tasks || !perfctr_task_live ||
	    perfctr_taskmap_alloc(&perfctr_task_ids, PERFCTR_TASKS))
		return -ENOMEM;	/* perfctr_tasks_stop() frees */
	rc = perfctr_tp_hook("sched_process_fork", &perfctr_tp_fork,
			     perfctr_task_fork, TRACEPOINT_DEFAULT_PRIO,
			     ".process") ?:
	     perfctr_tp_hook("sched_process_free", &perfctr_tp_free,
			     perfctr_task_free, TRACEPOINT_DEFAULT_PRIO,
			     ".process") ?:
	     perfctr_tp_hook("sched_process_exec", &perfctr_tp_exec,
			     perfctr_task_exec, TRACEPOINT_DEFAULT_PRIO,
			     ".process");
	if (rc)
		return rc;
	perfctr_tasks_targets();
	perfctr_cmd_find();
	for (k = 0; k < perfctr_ntgts; k++) {
		rc = stap_register_task_finder_target(&perfctr_tgts[k]);
		if (rc) {
			_stp_error("perfctr: cannot follow %s: error %d\n",
				   perfctr_tgts[k].procname ?: "the target",
				   rc);
			return rc;
		}
	}
	return 0;
}

/* Sleepable; after stap's exit stopped the task finder (no callback
 * runs), or when its init never started it.  Inherited events go before
 * any root: a root's release takes its children with it. */
static void perfctr_tasks_stop(void)
{
	unsigned int s;

	perfctr_tp_unhook(&perfctr_tp_fork, perfctr_task_fork);
	perfctr_tp_unhook(&perfctr_tp_free, perfctr_task_free);
	perfctr_tp_unhook(&perfctr_tp_exec, perfctr_task_exec);
	stp_task_work_exit();	/* no exec check left to run */
	flush_work(&perfctr_task_work);
	for (s = 0; perfctr_tasks && s < perfctr_task_ids.size; s++)
		perfctr_task_let_go(&perfctr_tasks[s], false);
	for (s = 0; perfctr_tasks && s < perfctr_task_ids.size; s++)
		perfctr_task_let_go(&perfctr_tasks[s], true);
	if (atomic_read(&perfctr_task_lost)) {
		_stp_warn("perfctr: %d threads were not counted, or not in "
			  "full (the task table holds %d: stap -D "
			  "PERFCTR_TASKS=N)\n", atomic_read(&perfctr_task_lost),
			  PERFCTR_TASKS);
		perfctr_report_threads(atomic_read(&perfctr_task_lost),
				       PERFCTR_TASKS);
	}
	perfctr_taskmap_free(&perfctr_task_ids);
	vfree(perfctr_tasks);
	vfree(perfctr_task_live);
	perfctr_task_live = NULL;
	perfctr_tasks = NULL;
}

#else /* !PERFCTR_HAVE_PROCESS */
static void perfctr_tasks_kick(void) { }
static int perfctr_tasks_start(void) { return 0; }
static void perfctr_tasks_stop(void) { }
static int perfctr_read_process(unsigned int idx, u64 *val) { return -ENODEV; }
static int perfctr_read_total(unsigned int idx, u64 *val) { return -EINVAL; }
#endif
