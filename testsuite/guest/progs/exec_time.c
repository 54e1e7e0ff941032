/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec_time N CMD [ARGS...] - run CMD N times (fork, exec, wait) and print
 * "exec_time: N runs: min A median B ns" of the wall time from fork to
 * exit.  For bench/ (helper start-up): under QEMU -icount shift=0 a guest
 * nanosecond is a guest instruction.  Fails if a run fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define MAX_RUNS 1000

static int by_value(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long run_once(char **cmd)
{
	long long t0 = guest_now_ns();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		guest_fail("exec_time", "fork");
	if (pid == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		guest_fail("exec_time", "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "exec_time: %s failed (status 0x%x)\n", cmd[0],
			status);
		exit(1);
	}
	return guest_now_ns() - t0;
}

int main(int argc, char **argv)
{
	static long long t[MAX_RUNS];
	long n = guest_count_arg("exec_time", "N CMD [ARGS...]",
				 argc > 1 ? argv[1] : NULL, 1);
	long i;

	if (argc < 3 || n > MAX_RUNS) {
		fprintf(stderr, "usage: exec_time N CMD [ARGS...] (N <= %d)\n",
			MAX_RUNS);
		return 2;
	}
	for (i = 0; i < n; i++)
		t[i] = run_once(argv + 2);
	qsort(t, n, sizeof(t[0]), by_value);
	printf("exec_time: %ld runs: min %lld median %lld ns\n", n, t[0],
	       t[n / 2]);
	return 0;
}
