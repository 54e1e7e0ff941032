/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reuse_tid N PAGES - a new thread gets the id of one that has just
 * exited: an autoreaped thread frees its id in exit_notify(), before its
 * last context switch, and a busy process can be given it again at once
 * (with a small pid_max, as on containers and small systems, ids come
 * back fast).
 *
 * A thread named "reuse_old", on CPU 0, makes its measured stretch
 * (between two markers: with PAGES 0 guest_marked_loop(N), else a touch
 * of PAGES fresh pages) and exits.  The main thread, on CPU 1, then
 * creates threads on CPU 1 one after another (each exits at once), until
 * one gets the old thread's id (at most 100000 tries): that one makes
 * the same measured stretch.  Prints "reuse_tid: id TID taken again
 * after K threads" (or "reuse_tid: id TID not taken again"), having told
 * perfctr_test_slow_exit, where it holds the old thread's exit, that its
 * id was taken and given back.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

#define PROG "reuse_tid"
#define USAGE "N PAGES"
#define GIVEN_BACK "/sys/module/perfctr_test_slow_exit/parameters/given_back"

static long n, pages;
static pid_t old_tid;
static int reused;

static pid_t gettid_now(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void *old(void *arg __attribute__((unused)))
{
	guest_pin_cpu(0);
	prctl(PR_SET_NAME, "reuse_old");
	old_tid = gettid_now();
	guest_marked_work(PROG, n, pages);
	return NULL;
}

static void *candidate(void *arg __attribute__((unused)))
{
	if (gettid_now() != old_tid)
		return NULL;
	reused = 1;
	guest_marked_work(PROG, n, pages);
	return NULL;
}

/* The held old thread may go now: its id was taken and given back (the
 * thread that took it has been joined).  Where perfctr_test_slow_exit
 * is loaded; nothing otherwise. */
static void tell_given_back(void)
{
	FILE *f = fopen(GIVEN_BACK, "w");

	if (!f)
		return;
	fputs("1\n", f);
	fclose(f);
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	cpu_set_t cpu1;
	pthread_t t;
	long k;

	n = guest_count_arg(PROG, USAGE, argv[1], 1);
	pages = guest_count_arg(PROG, USAGE, argc > 2 ? argv[2] : NULL, 0);
	guest_pin_cpu(1);
	if (pthread_create(&t, NULL, old, NULL) || pthread_join(t, NULL))
		guest_fail(PROG, "the first thread");
	CPU_ZERO(&cpu1);
	CPU_SET(1, &cpu1);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(cpu1), &cpu1);
	for (k = 1; k <= 100000 && !reused; k++)
		if (pthread_create(&t, &attr, candidate, NULL) ||
		    pthread_join(t, NULL))
			guest_fail(PROG, "a candidate thread");
	if (reused) {
		tell_given_back();
		printf(PROG ": id %d taken again after %ld threads\n",
		       (int)old_tid, k - 1);
	}
	else
		printf(PROG ": id %d not taken again\n", (int)old_tid);
	return !reused;
}
