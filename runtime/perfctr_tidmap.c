// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_tidmap.c - thread id to record slot, for .thread and .process
 * records: a table of ids allocated at start, open addressing on the id,
 * looked up from any context without locks.  A free slot is claimed with
 * cmpxchg, so two CPUs may claim at once; a record that goes is marked with
 * a tombstone so that the ids behind it stay reachable.
 *
 * Ids: > 0 a thread; PERFCTR_TID_FREE never used (ends a search);
 * PERFCTR_TID_GONE reusable; PERFCTR_TID_HELD gone, but its record is not
 * free yet (the owner says when: perfctr_task.c releases counters first).
 */
#ifndef PERFCTR_TIDMAP_C
#define PERFCTR_TIDMAP_C

#include <linux/vmalloc.h>

#define PERFCTR_TID_FREE	0
#define PERFCTR_TID_GONE	(-1)
#define PERFCTR_TID_HELD	(-2)
#define PERFCTR_TIDMAP_PROBES	64	/* slots looked at per lookup */

struct perfctr_tidmap {
	int *tid;
	unsigned int size;
};

static int perfctr_tidmap_alloc(struct perfctr_tidmap *m, unsigned int size)
{
	m->tid = vzalloc(array_size(size, sizeof(*m->tid)));
	m->size = m->tid ? size : 0;
	return m->tid ? 0 : -ENOMEM;
}

static void perfctr_tidmap_free(struct perfctr_tidmap *m)
{
	vfree(m->tid);
	m->tid = NULL;
	m->size = 0;
}

/*
 * tid's slot, or -1; *free, unless free is NULL (a lookup only: the
 * switches and reads, inline), gets the first slot a new record could
 * take.  Open addressing from tid's hash, one slot after another.
 */
static __always_inline int perfctr_tidmap_scan(const struct perfctr_tidmap *m,
					       int tid, int *free)
{
	unsigned int i, s, size = m->size;

	if (free)
		*free = -1;
	if (!size)
		return -1;
	s = ((u32)tid * 2654435761u) % size;
	for (i = 0; i < PERFCTR_TIDMAP_PROBES && i < size; i++) {
		int cur = READ_ONCE(m->tid[s]);

		if (cur == tid)
			return s;
		if (free && cur == PERFCTR_TID_GONE && *free < 0)
			*free = s;
		if (cur == PERFCTR_TID_FREE) {
			if (free && *free < 0)
				*free = s;
			break;
		}
		if (++s == size)
			s = 0;
	}
	return -1;
}

/*
 * tid's slot, claiming one when create is set (*fresh then says whether it
 * is new: its record is the caller's to reset); -1 when there is none, or
 * no room.  Any context.
 */
static int perfctr_tidmap_get(struct perfctr_tidmap *m, int tid, int create,
			      int *fresh)
{
	int tries, s, free, old;

	*fresh = 0;
	if (!m->tid || tid <= 0)	/* the idle tasks are nobody's */
		return -1;
	for (tries = 0; tries < 4; tries++) {
		s = perfctr_tidmap_scan(m, tid, &free);
		if (s >= 0 || !create || free < 0)
			return s;
		old = READ_ONCE(m->tid[free]);
		if ((old == PERFCTR_TID_FREE || old == PERFCTR_TID_GONE) &&
		    cmpxchg(&m->tid[free], old, tid) == old) {
			*fresh = 1;
			return free;
		}
	}
	return -1;
}

/* The record in slot s is gone (PERFCTR_TID_GONE) or still held. */
static void perfctr_tidmap_put(struct perfctr_tidmap *m, int s, int held)
{
	smp_store_release(&m->tid[s], held ? PERFCTR_TID_HELD :
			  PERFCTR_TID_GONE);
}

#endif /* PERFCTR_TIDMAP_C */
