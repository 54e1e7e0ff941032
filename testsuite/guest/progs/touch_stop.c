/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * touch_stop N M [nodump] - fault in N new pages, stop, then M more.
 *
 * Pinned to CPU 0; maps N + M fresh anonymous pages, then: marker 0, one
 * write to each of the first N pages, marker 1; stops itself (SIGSTOP:
 * whoever watches may move it, to another cgroup say, while it is off
 * the CPU); once continued, marker 0, one write to each of the other M,
 * marker 1.  Each bracket holds exactly its page faults (minor), no
 * system call.  Prints "touch_stop: touched N and M pages".  nodump:
 * first prctl(PR_SET_DUMPABLE, 0), as ssh-agent does (then only a
 * capable user may ptrace it, or perf_event_open it).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "common.h"

static void touch(volatile char *mem, long from, long to)
{
	long i;

	guest_marker(MARK_START);
	for (i = from; i < to; i++)
		mem[i * 4096] = 1;
	guest_marker(MARK_END);
}

int main(int argc, char **argv)
{
	long n = guest_count_arg("touch_stop", "N M", argv[1], 1);
	long m = guest_count_arg("touch_stop", "N M", argc > 2 ? argv[2] : NULL,
				 1);
	volatile char *mem;

	if (argc > 3 && !strcmp(argv[3], "nodump") &&
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		guest_fail("touch_stop", "prctl");
	guest_pin_cpu(0);
	mem = guest_fresh_pages("touch_stop", n + m);
	touch(mem, 0, n);
	raise(SIGSTOP);
	touch(mem, n, n + m);
	printf("touch_stop: touched %ld and %ld pages\n", n, m);
	return 0;
}
