// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_thrpool.c - where .thread records live: segments, each a block
 * of records with its own id table (perfctr_tidmap.c), that only grow.
 *
 * Records are claimed and given back in any context (a read in an NMI, a
 * last switch), so nothing here allocates there: a work item adds the
 * next segment, twice the size of the one before (PERFCTR_THR_SEG0,
 * 2 x, 4 x ...; at most PERFCTR_THREADS records in all), when half of all
 * records are in use, so claims keep finding room while it runs.  A
 * record given back is free for the next thread in its segment.  A tid
 * has at most one record: a claim looks in every segment before it takes
 * a free slot in the first that has one.
 *
 * A bit per thread id says whether it has a record, so that a context
 * switch of a thread that has none (most of them) looks up nothing; only
 * the thread's own CPU sets or clears its bit.
 */
#include <linux/irq_work.h>
#include <linux/threads.h>
#include <linux/workqueue.h>

#include "perfctr_tidmap.c"

#ifndef PERFCTR_THREADS
#define PERFCTR_THREADS		1048576	/* records at most */
#endif
#define PERFCTR_THR_SEG0	1024	/* the first segment's records */
#define PERFCTR_THR_SEGS	24

struct perfctr_thr_seg {
	struct perfctr_tidmap ids;
	struct perfctr_thread *rec;
};

static struct perfctr_thr_seg perfctr_thr_seg[PERFCTR_THR_SEGS];
static unsigned int perfctr_thr_nseg;	/* seg[0..nseg) are whole */
static unsigned int perfctr_thr_cap;	/* records in them */
static unsigned long *perfctr_thr_has;	/* bit per tid: has a record */
static bool perfctr_thr_stopping;
/* claims and give-backs on every CPU write it: a line of its own */
static atomic_t perfctr_thr_used ____cacheline_aligned_in_smp;

/* Sleepable: the work item, or the start.  Adds one segment. */
static int perfctr_thr_grow(void)
{
	unsigned int n = perfctr_thr_nseg;
	struct perfctr_thr_seg *g = &perfctr_thr_seg[n];
	unsigned long size = PERFCTR_THREADS - perfctr_thr_cap;

	if (n == PERFCTR_THR_SEGS || !size)
		return -ENOSPC;
	size = min((unsigned long)PERFCTR_THR_SEG0 << n, size);
	g->rec = vzalloc(array_size(size, sizeof(*g->rec)));
	if (!g->rec || perfctr_tidmap_alloc(&g->ids, size)) {
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

static void perfctr_thr_work_fn(struct work_struct *w)
{
	while (perfctr_thr_low() && !perfctr_thr_grow())
		;
}

static DECLARE_WORK(perfctr_thr_work, perfctr_thr_work_fn);

static void perfctr_thr_kick_fn(struct irq_work *iw)
{
	if (!READ_ONCE(perfctr_thr_stopping))
		schedule_work(&perfctr_thr_work);
}

static struct irq_work perfctr_thr_iw = IRQ_WORK_INIT(perfctr_thr_kick_fn);

/* Does tid have a record?  Any context; tid > 0. */
static __always_inline bool perfctr_thr_tracked(int tid)
{
	return (unsigned int)tid < PID_MAX_LIMIT &&
	       test_bit(tid, perfctr_thr_has);
}

/* tid's record (*g, *s: where), NULL if it has none.  Any context. */
static struct perfctr_thread *perfctr_thr_find(int tid,
					       struct perfctr_thr_seg **g,
					       int *s)
{
	unsigned int i, n = smp_load_acquire(&perfctr_thr_nseg);
	int fresh;

	for (i = 0; i < n; i++) {
		*g = &perfctr_thr_seg[i];
		*s = perfctr_tidmap_get(&(*g)->ids, tid, 0, &fresh);
		if (*s >= 0)
			return &(*g)->rec[*s];
	}
	return NULL;
}

/*
 * tid's record, claimed now if it has none (*fresh: all zero, the
 * caller's to fill); NULL when there is no room.  The running thread's
 * own, on its CPU, IRQs off; any context.
 */
static struct perfctr_thread *perfctr_thr_claim(int tid, int *fresh)
{
	unsigned int i, n = smp_load_acquire(&perfctr_thr_nseg);
	struct perfctr_thread *t = NULL;
	struct perfctr_thr_seg *g;
	int s;

	*fresh = 0;
	if (!n || tid <= 0 || tid >= PID_MAX_LIMIT)	/* stopped; idle */
		return NULL;
	t = perfctr_thr_find(tid, &g, &s);
	for (i = 0; !t && i < n; i++) {
		g = &perfctr_thr_seg[i];
		s = perfctr_tidmap_get(&g->ids, tid, 1, fresh);
		if (s >= 0)
			t = &g->rec[s];
	}
	if (t && *fresh) {
		WRITE_ONCE(t->tid, tid);
		set_bit(tid, perfctr_thr_has);
		atomic_inc(&perfctr_thr_used);
	}
	if ((!t || *fresh) && perfctr_thr_low())
		irq_work_queue(&perfctr_thr_iw);
	return t;
}

/* tid's last switch: its record is zeroed while no one can find it (its
 * id held, its tid no longer its own), then free.  IRQs off. */
static void perfctr_thr_give_back(int tid)
{
	struct perfctr_thr_seg *g;
	struct perfctr_thread *t;
	int s;

	if (!perfctr_thr_tracked(tid))
		return;
	t = perfctr_thr_find(tid, &g, &s);
	if (!t)
		return;
	perfctr_tidmap_put(&g->ids, s, 1);
	WRITE_ONCE(t->tid, 0);
	PERFCTR_RACE(THREAD_GONE);
	barrier();
	memset(t, 0, sizeof(*t));
	perfctr_tidmap_put(&g->ids, s, 0);
	clear_bit(tid, perfctr_thr_has);
	atomic_dec(&perfctr_thr_used);
}

/* Sleepable. */
static int perfctr_thr_pool_start(void)
{
	perfctr_thr_stopping = false;
	atomic_set(&perfctr_thr_used, 0);
	perfctr_thr_has = vzalloc(BITS_TO_LONGS(PID_MAX_LIMIT) *
				  sizeof(long));
	if (!perfctr_thr_has)
		return -ENOMEM;
	return perfctr_thr_grow();
}

/* Sleepable; idempotent; once no reader or switch runs. */
static void perfctr_thr_pool_stop(void)
{
	unsigned int i;

	WRITE_ONCE(perfctr_thr_stopping, true);
	irq_work_sync(&perfctr_thr_iw);
	cancel_work_sync(&perfctr_thr_work);
	for (i = 0; i < perfctr_thr_nseg; i++) {
		perfctr_tidmap_free(&perfctr_thr_seg[i].ids);
		vfree(perfctr_thr_seg[i].rec);
		perfctr_thr_seg[i].rec = NULL;
	}
	perfctr_thr_nseg = 0;
	perfctr_thr_cap = 0;
	vfree(perfctr_thr_has);
	perfctr_thr_has = NULL;
}
