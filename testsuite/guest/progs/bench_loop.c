/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_loop MODE N - time N iterations of one thing, for bench/: under
 * QEMU -icount shift=0 one nanosecond of guest time is one instruction.
 *
 *   syscalls  N getppid() system calls (what a kprobe on it costs)
 *   calls     N calls of bench_call(), an empty function (what a uprobe
 *             on it costs: process("bench_loop").function("bench_call"))
 *   switches  N pipe round trips with a child on the same CPU: two
 *             context switches each (what bookkeeping at a switch costs)
 *   threads   N pthread_create() and pthread_join() of a thread that
 *             returns at once (what following a new thread costs)
 *
 * Pinned to CPU 0 (the child too).  Three repetitions; prints
 * "bench_loop: MODE N: R ns per iteration" for each, where R has two
 * decimals.  Makes no markers.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

/* Not inlined, not cloned: a uprobe's target. */
__attribute__((noinline, noclone)) void bench_call(void)
{
	__asm__ __volatile__("" ::: "memory");
}

static void calls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		bench_call();
}

static void *nothing(void *arg)
{
	return arg;
}

static void threads(long n)
{
	pthread_t t;
	long i;

	for (i = 0; i < n; i++)
		if (pthread_create(&t, NULL, nothing, NULL) ||
		    pthread_join(t, NULL))
			guest_fail("bench_loop", "pthread");
}

static int to_child[2], to_parent[2];

static void switches(long n)
{
	char c = 'x';
	long i;

	for (i = 0; i < n; i++)
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1)
			guest_fail("bench_loop", "pipe");
}

/*
 * Both tasks SCHED_FIFO at one priority (the child inherits it): a
 * wakeup never preempts the waker, so every round trip is the same two
 * switches, each at a read() that blocks.  Under CFS a wakeup preempts
 * the waker or not by the tasks' vruntimes, and which of the two the
 * loop settles into follows the instruction counts of everything in the
 * switch: a module that adds nothing at a switch read from -70 to +50
 * per switch over none.
 */
static void fifo(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		guest_fail("bench_loop", "sched_setscheduler");
}

/* The child answers each byte until the pipe closes. */
static pid_t answerer(void)
{
	pid_t pid;
	char c;

	if (pipe(to_child) || pipe(to_parent))
		guest_fail("bench_loop", "pipe");
	pid = fork();
	if (pid < 0)
		guest_fail("bench_loop", "fork");
	if (pid == 0) {
		while (read(to_child[0], &c, 1) == 1)
			if (write(to_parent[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	return pid;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long n = guest_count_arg("bench_loop", "syscalls|calls|switches|threads N",
				 argc > 2 ? argv[2] : NULL, 1);
	void (*run)(long) = !strcmp(mode, "syscalls") ? guest_getppid_calls :
			    !strcmp(mode, "calls") ? calls :
			    !strcmp(mode, "switches") ? switches :
			    !strcmp(mode, "threads") ? threads : NULL;
	pid_t child = -1;

	if (!run) {
		fprintf(stderr,
			"usage: bench_loop syscalls|calls|switches|threads N\n");
		return 2;
	}
	guest_pin_cpu(0);
	if (run == switches) {
		fifo();
		child = answerer();
	}
	guest_bench(mode, n, run);
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	return 0;
}
