/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pingpong N - two processes on CPU 0 pass a byte back and forth N times.
 *
 * The parent pins itself to CPU 0 and forks (the child inherits the
 * affinity); over two pipes the parent writes a byte and reads the answer,
 * the child reads and answers, N times.  Each process makes marker 0 just
 * before its first exchange and marker 1 just after its last, so each sees
 * about 2N context switches between its markers.  The parent (the -c
 * target) waits for the child and prints "pingpong: N round trips".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static void xfer(int fd, int out, char *c)
{
	if (out ? write(fd, c, 1) != 1 : read(fd, c, 1) != 1)
		guest_fail("pingpong", out ? "write" : "read");
}

/* ping: write first, then wait for the answer; pong: the other way. */
static void exchange(long n, int rd, int wr, int ping)
{
	char c = 'x';
	long i;

	guest_marker(MARK_START);
	for (i = 0; i < n; i++) {
		xfer(ping ? wr : rd, ping, &c);
		xfer(ping ? rd : wr, !ping, &c);
	}
	guest_marker(MARK_END);
}

int main(int argc, char **argv)
{
	long n = guest_count_arg("pingpong", "N", argv[1], 1);
	int to_child[2], to_parent[2], status;
	pid_t pid;

	(void)argc;
	guest_pin_cpu(0);
	if (pipe(to_child) || pipe(to_parent))
		guest_fail("pingpong", "pipe");
	pid = fork();
	if (pid < 0)
		guest_fail("pingpong", "fork");
	if (pid == 0) {
		exchange(n, to_child[0], to_parent[1], 0);
		_exit(0);
	}
	exchange(n, to_parent[0], to_child[1], 1);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pingpong: the child failed\n");
		return 1;
	}
	printf("pingpong: %ld round trips\n", n);
	return 0;
}
