/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec_thread N PAGES - a thread other than the leader calls execve(), as
 * Go's syscall.Exec does from any thread: the kernel kills the leader,
 * waits until it is a zombie, and swaps the two threads' ids
 * (de_thread()), so that the exec'ing thread goes on under the process's
 * id and the zombie leader dies under the thread's.
 *
 * Three measured stretches, each between two markers, with PAGES 0
 * guest_marked_loop(N) (E user instructions between them, exact on
 * aarch64), else a touch of PAGES fresh pages:
 *   the leader, named "exec_lead", on CPU 0;
 *   the second thread, on CPU 1, after the leader's;
 *   the second thread again, after its execve() of this program (the
 *   process's id now; its name the program's).
 * Before its stretch the leader makes CPU 0's counts large (it touches
 * 20000 pages and loops 10^7 times, no marker), so that a count taken on
 * CPU 0 and one taken on CPU 1 never pass for one thread's.  The leader
 * then waits for the second thread, which kills it by its execve().
 * Prints "exec_thread: exec'd from thread TID as PID" after the exec.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

#define PROG "exec_thread"
#define USAGE "N PAGES"

static long n, pages;
static char *self;
static volatile int leader_done;

static void *second(void *arg __attribute__((unused)))
{
	char tid[32], nb[32], pb[32];

	guest_pin_cpu(1);
	while (!__atomic_load_n(&leader_done, __ATOMIC_ACQUIRE))
		usleep(1000);
	guest_marked_work(PROG, n, pages);
	snprintf(tid, sizeof(tid), "%ld", (long)syscall(SYS_gettid));
	snprintf(nb, sizeof(nb), "%ld", n);
	snprintf(pb, sizeof(pb), "%ld", pages);
	execl(self, PROG, nb, pb, tid, (char *)NULL);
	guest_fail(PROG, "execl");
	return NULL;
}

/* CPU 0's counts made large, with no marker. */
static void warm_cpu0(void)
{
	char *mem = guest_fresh_pages(PROG, 20000);
	volatile long i;
	long p;

	for (p = 0; p < 20000; p++)
		mem[p * 4096] = 1;
	for (i = 0; i < 10000000; i++)
		;
}

int main(int argc, char **argv)
{
	pthread_t t;

	n = guest_count_arg(PROG, USAGE, argv[1], 1);
	pages = guest_count_arg(PROG, USAGE, argc > 2 ? argv[2] : NULL, 0);
	if (argc > 3) {		/* the second thread, after its exec */
		guest_marked_work(PROG, n, pages);
		printf(PROG ": exec'd from thread %s as %d\n", argv[3],
		       (int)getpid());
		return 0;
	}
	self = realpath("/proc/self/exe", NULL);
	if (!self)
		guest_fail(PROG, "realpath");
	guest_pin_cpu(0);
	if (pthread_create(&t, NULL, second, NULL))
		guest_fail(PROG, "pthread_create");
	prctl(PR_SET_NAME, "exec_lead");	/* this thread's name only */
	warm_cpu0();
	guest_marked_work(PROG, n, pages);
	__atomic_store_n(&leader_done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);	/* the exec kills this thread */
	guest_fail(PROG, "pthread_join returned");
	return 1;
}
