/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * many_threads N PAGES ROUNDS - ROUNDS rounds of N live threads.
 *
 * Each round starts N threads (small stacks) that wait until all are
 * alive, then each makes a start marker (getppid), touches PAGES fresh
 * pages of its own (one page fault each), makes an end marker (getpgid),
 * gives its pages back and waits until all have done so before it exits.
 * After joining them the main thread waits 200 ms (their last context
 * switches) and makes a round marker (getsid).
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

static pthread_barrier_t alive, done;
static char *mem;
static long pages;

static void *work(void *arg)
{
	char *p = mem + (long)arg * pages * 4096;
	long i;

	pthread_barrier_wait(&alive);
	syscall(SYS_getppid);
	for (i = 0; i < pages; i++)
		p[i * 4096] = 1;
	syscall(SYS_getpgid, 0);
	madvise(p, pages * 4096, MADV_DONTNEED);
	pthread_barrier_wait(&done);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = guest_count_arg("many_threads", USAGE, argv[1], 1);
	long rounds, r, i;
	struct timespec pause = { 0, 200000000 };
	pthread_attr_t attr;
	pthread_t *tid;

	pages = guest_count_arg("many_threads", USAGE,
				argc > 2 ? argv[2] : NULL, 1);
	rounds = guest_count_arg("many_threads", USAGE,
				 argc > 3 ? argv[3] : NULL, 1);
	tid = calloc(n, sizeof(*tid));
	mem = mmap(NULL, n * pages * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!tid || mem == MAP_FAILED)
		guest_fail("many_threads", "memory");
	/* a huge page would make one fault of some thread's 8 */
	madvise(mem, n * pages * 4096, MADV_NOHUGEPAGE);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
	for (r = 0; r < rounds; r++) {
		pthread_barrier_init(&alive, NULL, n);
		pthread_barrier_init(&done, NULL, n);
		for (i = 0; i < n; i++)
			if (pthread_create(&tid[i], &attr, work, (void *)i))
				guest_fail("many_threads", "pthread_create");
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
