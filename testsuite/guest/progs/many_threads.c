/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * many_threads N PAGES ROUNDS - ROUNDS rounds of N live threads.
 *
 * Each round starts N threads that wait until all are alive, then each
 * makes a start marker (getppid), touches PAGES fresh pages of its own
 * (one page fault each), makes an end marker (getpgid) and waits until
 * all have done so before it exits.  After joining them the main thread
 * waits 200 ms (their last context switches) and makes a round marker
 * (getsid).
 *
 * Pages are handed out in the order the threads start (a slot each), and
 * the last of each GROUP slots to make its end marker gives their pages
 * back in one madvise(), so that few are held at once and few calls are
 * made: each is a TLB shootdown of the other CPU, which a TCG guest on a
 * busy host serves slowly (both vCPU threads must run at once), and one
 * per thread kept both vCPUs in smp_call_function_many_cond for minutes
 * (docs/reliability.md).  The threads run on stacks of ours, mapped
 * once: glibc maps one for each new thread, and unmaps (another
 * shootdown) those its stack cache (40 MiB) cannot keep.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define USAGE "N PAGES ROUNDS"

#define GROUP	64		/* threads whose pages go back at once */
#define STACK	(32 * 1024)	/* each thread's stack */

static pthread_barrier_t alive, done;
static char *mem;
static long pages, threads;
static long next_slot;		/* the next thread's pages, in this round */
static long *group_left;	/* slots of each group yet to end */

/* give_back SLOT: SLOT's thread made its end marker; the group's last
 * gives the group's pages back */
static void give_back(long slot)
{
	long g = slot / GROUP, first = g * GROUP;
	long count = threads - first < GROUP ? threads - first : GROUP;

	if (__atomic_sub_fetch(&group_left[g], 1, __ATOMIC_ACQ_REL) == 0)
		madvise(mem + first * pages * 4096, count * pages * 4096,
			MADV_DONTNEED);
}

static void *work(void *unused __attribute__((unused)))
{
	long slot, i;
	char *p;

	pthread_barrier_wait(&alive);
	syscall(SYS_getppid);
	slot = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED);
	p = mem + slot * pages * 4096;
	for (i = 0; i < pages; i++)
		p[i * 4096] = 1;
	syscall(SYS_getpgid, 0);
	give_back(slot);
	pthread_barrier_wait(&done);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = guest_count_arg("many_threads", USAGE, argv[1], 1);
	long rounds, r, i, groups;
	struct timespec pause = { 0, 200000000 };
	pthread_attr_t attr;
	pthread_t *tid;
	char *stacks;

	pages = guest_count_arg("many_threads", USAGE,
				argc > 2 ? argv[2] : NULL, 1);
	rounds = guest_count_arg("many_threads", USAGE,
				 argc > 3 ? argv[3] : NULL, 1);
	threads = n;
	groups = (n + GROUP - 1) / GROUP;
	tid = calloc(n, sizeof(*tid));
	group_left = calloc(groups, sizeof(*group_left));
	mem = mmap(NULL, n * pages * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	stacks = mmap(NULL, n * STACK, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!tid || !group_left || mem == MAP_FAILED || stacks == MAP_FAILED ||
	    sysconf(_SC_THREAD_STACK_MIN) > STACK)
		guest_fail("many_threads", "memory");
	/* a huge page would make one fault of some thread's 8, and hold
	 * 2 MB of stacks where the threads touch a page or two each */
	madvise(mem, n * pages * 4096, MADV_NOHUGEPAGE);
	madvise(stacks, n * STACK, MADV_NOHUGEPAGE);
	pthread_attr_init(&attr);
	for (r = 0; r < rounds; r++) {
		pthread_barrier_init(&alive, NULL, n);
		pthread_barrier_init(&done, NULL, n);
		next_slot = 0;
		for (i = 0; i < groups; i++)
			group_left[i] = n - i * GROUP < GROUP ? n - i * GROUP : GROUP;
		for (i = 0; i < n; i++) {
			pthread_attr_setstack(&attr, stacks + i * STACK, STACK);
			if (pthread_create(&tid[i], &attr, work, NULL))
				guest_fail("many_threads", "pthread_create");
		}
		for (i = 0; i < n; i++)
			pthread_join(tid[i], NULL);
		pthread_barrier_destroy(&alive);
		pthread_barrier_destroy(&done);
		nanosleep(&pause, NULL);
		syscall(SYS_getsid, 0);
	}
	printf("many_threads: %ld rounds of %ld threads, %ld pages each\n",
	       rounds, n, pages);
	return 0;
}
