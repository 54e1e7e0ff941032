// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_thrpool.c - where .thread records live: segments, each a block
 * of records with its own table of tasks (perfctr_taskmap.c), that only
 * grow.
 *
 * Records are claimed and given back in any context (a read in an NMI, a
 * last switch), so nothing here allocates there: the claim that finds
 * half of all records in use queues an irq_work (NMI-safe), once until
 * the growth it asks for is done, and that wakes a kthread worker that
 * adds the next segment, twice the size of the one before
 * (PERFCTR_THR_SEG0, 2 x, 4 x ...; at most PERFCTR_THREADS records in
 * all), while the other half still takes claims.  The worker is
 * SCHED_FIFO: a work item on a system workqueue is a CFS task, and a
 * burst of freshly woken threads (a barrier releasing thousands, each
 * reading once) all sit before it in vruntime, so it would run only
 * after the burst, when every claim past the first segment has been
 * refused.  A record given back is free for the next thread in its
 * segment.  A task has at most one record: a claim looks in every
 * segment before it takes a free slot in the first that has one.
 *
 * A filter says which tasks may have a record, so that a context switch
 * of a thread that has none (most of them) looks up nothing: a count per
 * bucket of the tasks' hash, raised by a claim and lowered by a give-back
 * (atomic: the tasks of one bucket claim and give back on any CPUs).  A
 * task that shares a bucket with one that has a record pays a lookup
 * that finds nothing.
 */
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/sched.h>

#include "perfctr_taskmap.c"

#ifndef PERFCTR_THREADS
#define PERFCTR_THREADS		1048576	/* records at most */
#endif
#define PERFCTR_THR_SEG0	1024	/* the first segment's records */
#define PERFCTR_THR_SEGS	24
/* the filter's buckets: 2^bits counts (512 KiB) */
#define PERFCTR_THR_FILTER_BITS	17

struct perfctr_thr_seg {
	struct perfctr_taskmap ids;
	struct perfctr_thread *rec;
};

static struct perfctr_thr_seg perfctr_thr_seg[PERFCTR_THR_SEGS];
static unsigned int perfctr_thr_nseg;	/* seg[0..nseg) are whole */
static unsigned int perfctr_thr_cap;	/* records in them */
static atomic_t *perfctr_thr_has;	/* tasks with a record, per bucket */
static bool perfctr_thr_stopping;
/* bit 0: growth asked for and not done yet; bit 1: no more can be had */
static unsigned long perfctr_thr_kick;
#define PERFCTR_THR_ASKED	0
#define PERFCTR_THR_FULL	1
/* claims and give-backs on every CPU write it: a line of its own */
static atomic_t perfctr_thr_used ____cacheline_aligned_in_smp;
/* What growth did, for the tests to see without a log: worker runs,
 * segments it added, its failed allocations. */
static struct {
	unsigned int runs, grown, failed;
} perfctr_thr_stat;

/* Sleepable: the worker, or the start.  Adds one segment. */
static int perfctr_thr_grow(void)
{
	unsigned int n = perfctr_thr_nseg;
	struct perfctr_thr_seg *g = &perfctr_thr_seg[n];
	unsigned long size = PERFCTR_THREADS - perfctr_thr_cap;

	if (n == PERFCTR_THR_SEGS || !size)
		return -ENOSPC;
	size = min((unsigned long)PERFCTR_THR_SEG0 << n, size);
	g->rec = vzalloc(array_size(size, sizeof(*g->rec)));
	if (!g->rec || perfctr_taskmap_alloc(&g->ids, size)) {
		vfree(g->rec);
		g->rec = NULL;
		return -ENOMEM;
	}
	WRITE_ONCE(perfctr_thr_cap, perfctr_thr_cap + size);
	smp_store_release(&perfctr_thr_nseg, n + 1);	/* after its tables */
	return 0;
}

/* Half of the records in use, or more: time for another segment. */
static bool perfctr_thr_low(void)
{
	return (unsigned int)atomic_read(&perfctr_thr_used) * 2 >=
	       READ_ONCE(perfctr_thr_cap);
}

static void perfctr_thr_work_fn(struct kthread_work *w)
{
	int rc = 0;

	WRITE_ONCE(perfctr_thr_stat.runs, perfctr_thr_stat.runs + 1);
	while (perfctr_thr_low() && !(rc = perfctr_thr_grow()))
		WRITE_ONCE(perfctr_thr_stat.grown, perfctr_thr_stat.grown + 1);
	if (rc == -ENOMEM)
		WRITE_ONCE(perfctr_thr_stat.failed, perfctr_thr_stat.failed + 1);
	if (rc == -ENOSPC) {	/* at PERFCTR_THREADS: claims stop asking */
		set_bit(PERFCTR_THR_FULL, &perfctr_thr_kick);
		return;
	}
	/* The next claim at half use asks again (after a failed
	 * allocation too: memory may be back by then). */
	clear_bit_unlock(PERFCTR_THR_ASKED, &perfctr_thr_kick);
}

static struct kthread_worker *perfctr_thr_worker;
static DEFINE_KTHREAD_WORK(perfctr_thr_work, perfctr_thr_work_fn);

static void perfctr_thr_kick_fn(struct irq_work *iw)
{
	if (!READ_ONCE(perfctr_thr_stopping))
		kthread_queue_work(perfctr_thr_worker, &perfctr_thr_work);
}

static struct irq_work perfctr_thr_iw = IRQ_WORK_INIT(perfctr_thr_kick_fn);

/* Half of the records in use: ask for a segment, once until the worker
 * has run (claims in a burst would raise an IPI each).  Any context. */
static void perfctr_thr_ask(void)
{
	if (perfctr_thr_low() &&
	    !test_bit(PERFCTR_THR_FULL, &perfctr_thr_kick) &&
	    !test_and_set_bit_lock(PERFCTR_THR_ASKED, &perfctr_thr_kick))
		irq_work_queue(&perfctr_thr_iw);
}

/* tsk's count in the filter. */
static __always_inline atomic_t *perfctr_thr_bucket(const struct task_struct *tsk)
{
	return &perfctr_thr_has[hash_ptr(tsk, PERFCTR_THR_FILTER_BITS)];
}

/* May tsk have a record?  Any context. */
static __always_inline bool perfctr_thr_tracked(const struct task_struct *tsk)
{
	return atomic_read(perfctr_thr_bucket(tsk)) != 0;
}

/* tsk's record (*g, *s: where), NULL if it has none.  Any context.
 * Inline, so that *g and *s are its callers' registers. */
static __always_inline struct perfctr_thread *
perfctr_thr_find(const struct task_struct *tsk, struct perfctr_thr_seg **g,
		 int *s)
{
	unsigned int i, n = smp_load_acquire(&perfctr_thr_nseg);

	for (i = 0; i < n; i++) {
		*g = &perfctr_thr_seg[i];
		*s = perfctr_taskmap_scan(&(*g)->ids, tsk, NULL);
		if (*s >= 0)
			return &(*g)->rec[*s];
	}
	return NULL;
}

/*
 * A fresh record of tsk in segment g, slot s: but an NMI that came while
 * this claim went from a full segment to the next (its reader's claim
 * for the same current thread) may have won a slot in another segment,
 * freed meanwhile.  Then that record is tsk's, and the fresh one goes
 * back unused (all zero, never named but in its map).
 */
static noinline struct perfctr_thread *
perfctr_thr_one(struct task_struct *tsk, struct perfctr_thr_seg *g, int s,
		struct perfctr_thread *t, int *fresh)
{
	unsigned int i, n = smp_load_acquire(&perfctr_thr_nseg);
	int o;

	for (i = 0; i < n; i++) {
		if (&perfctr_thr_seg[i] == g)
			continue;
		o = perfctr_taskmap_scan(&perfctr_thr_seg[i].ids, tsk, NULL);
		if (o >= 0) {
			perfctr_taskmap_put(&g->ids, s, 0);
			*fresh = 0;
			return &perfctr_thr_seg[i].rec[o];
		}
	}
	return t;
}

/*
 * tsk's record, claimed now if it has none (*fresh: all zero, the
 * caller's to fill); NULL when there is no room.  The running thread's
 * own, on its CPU, IRQs off; any context; not an idle task.
 */
static struct perfctr_thread *perfctr_thr_claim(struct task_struct *tsk,
						int *fresh)
{
	unsigned int i, n = smp_load_acquire(&perfctr_thr_nseg);
	struct perfctr_thread *t = NULL;
	struct perfctr_thr_seg *g;
	int s;

	*fresh = 0;
	if (!n)		/* stopped */
		return NULL;
	t = perfctr_thr_find(tsk, &g, &s);
	for (i = 0; !t && i < n; i++) {
		g = &perfctr_thr_seg[i];
		s = perfctr_taskmap_get(&g->ids, tsk, 1, fresh);
		if (s >= 0)
			t = &g->rec[s];
	}
	if (t && *fresh && n > 1)
		t = perfctr_thr_one(tsk, g, s, t, fresh);
	if (t && *fresh) {
		WRITE_ONCE(t->task, tsk);
		atomic_inc(perfctr_thr_bucket(tsk));
		atomic_inc(&perfctr_thr_used);
	}
	if (!t || *fresh)
		perfctr_thr_ask();
	return t;
}

/* tsk's last switch: its record is zeroed while no one can find it (its
 * slot held, its task no longer named in it), then free.  IRQs off; out
 * of line, out of the way of every other switch. */
static noinline void perfctr_thr_give_back(const struct task_struct *tsk)
{
	struct perfctr_thr_seg *g;
	struct perfctr_thread *t;
	int s;

	if (!perfctr_thr_tracked(tsk))
		return;
	t = perfctr_thr_find(tsk, &g, &s);
	if (!t)
		return;
	perfctr_taskmap_put(&g->ids, s, 1);
	WRITE_ONCE(t->task, NULL);
	PERFCTR_RACE(THREAD_GONE);
	barrier();
	memset(t, 0, sizeof(*t));
	perfctr_taskmap_put(&g->ids, s, 0);
	atomic_dec(perfctr_thr_bucket(tsk));
	atomic_dec(&perfctr_thr_used);
}

/* Sleepable. */
static int perfctr_thr_pool_start(void)
{
	struct kthread_worker *w;

	perfctr_thr_stopping = false;
	perfctr_thr_kick = 0;
	memset(&perfctr_thr_stat, 0, sizeof(perfctr_thr_stat));
	atomic_set(&perfctr_thr_used, 0);
	perfctr_thr_has = vzalloc(array_size(1UL << PERFCTR_THR_FILTER_BITS,
					     sizeof(*perfctr_thr_has)));
	if (!perfctr_thr_has)
		return -ENOMEM;
	w = kthread_create_worker(0, "perfctr_thr");
	if (IS_ERR(w))
		return PTR_ERR(w);
	perfctr_thr_worker = w;
	sched_set_fifo_low(w->task);	/* before the CFS tasks: see above */
	return perfctr_thr_grow();
}

/* Sleepable; idempotent; once no reader or switch runs. */
static void perfctr_thr_pool_stop(void)
{
	unsigned int i;

	WRITE_ONCE(perfctr_thr_stopping, true);
	irq_work_sync(&perfctr_thr_iw);
	if (perfctr_thr_worker) {
		kthread_cancel_work_sync(&perfctr_thr_work);
		kthread_destroy_worker(perfctr_thr_worker);
		perfctr_thr_worker = NULL;
	}
	for (i = 0; i < perfctr_thr_nseg; i++) {
		perfctr_taskmap_free(&perfctr_thr_seg[i].ids);
		vfree(perfctr_thr_seg[i].rec);
		perfctr_thr_seg[i].rec = NULL;
	}
	perfctr_thr_nseg = 0;
	perfctr_thr_cap = 0;
	vfree(perfctr_thr_has);
	perfctr_thr_has = NULL;
}
