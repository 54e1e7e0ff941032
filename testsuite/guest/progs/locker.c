/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * locker T N WORK - T threads take one pthread mutex N times each and,
 * holding it, run a loop of WORK iterations (guest_marked_loop's loop,
 * without markers).  For lock examples: the time a lock is held is the
 * loop's.  Prints "locker: T threads x N holds of WORK iterations".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long n, work;

static void spin(long iterations)
{
	long left = iterations;

#ifdef __aarch64__
	__asm__ volatile("1:\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(left) : : "cc");
#else
	__asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(left) : : "cc");
#endif
}

static void *worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&lock);
		spin(work);
		pthread_mutex_unlock(&lock);
		spin(work / 4);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long t = guest_count_arg("locker", "T N WORK", argv[1], 1);
	pthread_t tid[16];
	long i;

	n = guest_count_arg("locker", "T N WORK", argc > 2 ? argv[2] : NULL, 1);
	work = guest_count_arg("locker", "T N WORK", argc > 3 ? argv[3] : NULL, 1);
	if (t > 16)
		t = 16;
	for (i = 0; i < t; i++)
		if (pthread_create(&tid[i], NULL, worker, NULL))
			guest_fail("locker", "pthread_create");
	for (i = 0; i < t; i++)
		pthread_join(tid[i], NULL);
	printf("locker: %ld threads x %ld holds of %ld iterations\n", t, n,
	       work);
	return 0;
}
