/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threads T N PAGES - T threads and one child process, each measured on
 * its own: the -c target for a .process counter that must follow every
 * thread and child as it appears, not just the first task.
 *
 * Each of the T threads (created after the script started), and a child
 * the main thread forks, makes two markers: with PAGES 0 around
 * guest_marked_loop(N) (E user instructions between them, exact on
 * aarch64), else around touching PAGES fresh pages (one page fault each).
 * The main thread makes none; it waits for all and prints "threads: T
 * threads + 1 child, E instructions, PAGES pages each".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static long n, pages;

static void *work(void *arg)
{
	char *mem = arg;
	long p;

	if (!pages)
		return (void *)guest_marked_loop(n);
	guest_marker(MARK_START);
	for (p = 0; p < pages; p++)
		mem[p * 4096] = 1;
	guest_marker(MARK_END);
	return NULL;
}

static char *fresh_pages(void)
{
	return pages ? guest_fresh_pages("threads", pages) : NULL;
}

int main(int argc, char **argv)
{
	long t = guest_count_arg("threads", "T N PAGES", argv[1], 1);
	pthread_t tid[64];
	void *e = NULL;	/* E, as the last thread returned it */
	long i;
	pid_t child;
	int status;

	n = guest_count_arg("threads", "T N PAGES", argc > 2 ? argv[2] : NULL, 1);
	pages = guest_count_arg("threads", "T N PAGES", argc > 3 ? argv[3] : NULL, 0);
	if (t > 64)
		t = 64;
	child = fork();
	if (child < 0)
		guest_fail("threads", "fork");
	if (child == 0) {
		work(fresh_pages());
		_exit(0);
	}
	for (i = 0; i < t; i++)
		if (pthread_create(&tid[i], NULL, work, fresh_pages()))
			guest_fail("threads", "pthread_create");
	for (i = 0; i < t; i++)
		pthread_join(tid[i], &e);
	if (waitpid(child, &status, 0) != child || status)
		guest_fail("threads", "child");
	printf("threads: %ld threads + 1 child, %ld instructions, %ld pages "
	       "each\n", t, (long)e, pages);
	return 0;
}
