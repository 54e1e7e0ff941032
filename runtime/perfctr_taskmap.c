// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_taskmap.c - task to record slot, for .thread and .process
 * records: a table of keys allocated at start, open addressing on the
 * key, looked up from any context without locks.  A free slot is claimed
 * with cmpxchg, so two CPUs may claim at once; a record that goes is
 * marked with a tombstone so that the keys behind it stay reachable.
 *
 * The key is the task (its task_struct), not its thread id.  A thread id
 * moves and comes back while a task still holds a record: a non-leader
 * thread's execve() swaps its id with the zombie leader's (de_thread(),
 * exchange_tids()), and an autoreaped thread frees its id in
 * exit_notify(), before its last context switch, so a new thread can
 * hold the same id while the old one's record is still in use.  A
 * task_struct is freed only after its last switch, when its records are
 * gone (.thread: given back at that switch; .process: taken out by the
 * task finder's exit callback, which runs earlier), so no two tasks that
 * hold a record at once share a key.
 *
 * Keys: a task; PERFCTR_KEY_FREE never used (ends a search);
 * PERFCTR_KEY_GONE reusable; PERFCTR_KEY_HELD gone, but its record is not
 * free yet (the owner says when: perfctr_task.c releases counters first).
 */
#ifndef PERFCTR_TASKMAP_C
#define PERFCTR_TASKMAP_C

#include <linux/hash.h>
#include <linux/vmalloc.h>

#define PERFCTR_KEY_FREE	0UL
#define PERFCTR_KEY_GONE	1UL
#define PERFCTR_KEY_HELD	2UL
#define PERFCTR_TASKMAP_PROBES	64	/* slots looked at per lookup */

struct perfctr_taskmap {
	unsigned long *key;
	unsigned int size;
};

/* The key of task tsk. */
static __always_inline unsigned long
perfctr_task_key(const struct task_struct *tsk)
{
	return (unsigned long)tsk;
}

/* Does slot s hold a task's record (not free, gone or held)? */
static __always_inline bool perfctr_taskmap_live(const struct perfctr_taskmap *m,
						 unsigned int s)
{
	return READ_ONCE(m->key[s]) > PERFCTR_KEY_HELD;
}

static int perfctr_taskmap_alloc(struct perfctr_taskmap *m, unsigned int size)
{
	m->key = vzalloc(array_size(size, sizeof(*m->key)));
	m->size = m->key ? size : 0;
	return m->key ? 0 : -ENOMEM;
}

static void perfctr_taskmap_free(struct perfctr_taskmap *m)
{
	vfree(m->key);
	m->key = NULL;
	m->size = 0;
}

/*
 * tsk's slot, or -1; *free, unless free is NULL (a lookup only: the
 * switches and reads, inline), gets the first slot a new record could
 * take.  Open addressing from the key's hash, one slot after another.
 */
static __always_inline int perfctr_taskmap_scan(const struct perfctr_taskmap *m,
						const struct task_struct *tsk,
						int *free)
{
	unsigned long key = perfctr_task_key(tsk);
	unsigned int i, s, size = m->size;

	if (free)
		*free = -1;
	if (!size)
		return -1;
	s = hash_long(key, 32) % size;
	for (i = 0; i < PERFCTR_TASKMAP_PROBES && i < size; i++) {
		unsigned long cur = READ_ONCE(m->key[s]);

		if (cur == key)
			return s;
		if (free && cur == PERFCTR_KEY_GONE && *free < 0)
			*free = s;
		if (cur == PERFCTR_KEY_FREE) {
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
 * tsk's slot, claiming one when create is set (*fresh then says whether
 * it is new: its record is the caller's to reset); -1 when there is none,
 * or no room.  Any context.
 */
static int perfctr_taskmap_get(struct perfctr_taskmap *m,
			       const struct task_struct *tsk, int create,
			       int *fresh)
{
	unsigned long old;
	int tries, s, free;

	*fresh = 0;
	if (!m->key)
		return -1;
	for (tries = 0; tries < 4; tries++) {
		s = perfctr_taskmap_scan(m, tsk, &free);
		if (s >= 0 || !create || free < 0)
			return s;
		old = READ_ONCE(m->key[free]);
		if ((old == PERFCTR_KEY_FREE || old == PERFCTR_KEY_GONE) &&
		    cmpxchg(&m->key[free], old, perfctr_task_key(tsk)) == old) {
			*fresh = 1;
			return free;
		}
	}
	return -1;
}

/* The record in slot s is gone (PERFCTR_KEY_GONE) or still held. */
static void perfctr_taskmap_put(struct perfctr_taskmap *m, int s, int held)
{
	smp_store_release(&m->key[s], held ? PERFCTR_KEY_HELD :
			  PERFCTR_KEY_GONE);
}

#endif /* PERFCTR_TASKMAP_C */
