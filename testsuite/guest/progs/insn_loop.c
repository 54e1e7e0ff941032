/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * insn_loop N [CPU] - retire an exactly known number of user instructions
 * between the two markers.
 *
 * Pins itself to CPU (default 0), then (aarch64) one asm block makes
 * marker 0, runs a loop of two instructions (subs, b.ne) N times and makes
 * marker 1, so nothing the compiler chooses lies between the markers.  Counted at EL0
 * from the first marker's svc (exclusive) to the second's (inclusive), the
 * task retires exactly
 *
 *   E = tail + 3 + 2N + head
 *
 * tail: guest_marker's instructions after its svc (ret); 3: mov (the count),
 * mov w0 #1, bl; head: guest_marker's instructions up to its svc, inclusive
 * (mov x8, svc).  The program reads head and tail from its own code and
 * fails if guest_marker is not straight-line code; with the code common.c
 * gives (common.h), E = 2N + 6.  Nothing between the
 * markers touches memory, so no page fault either.  (A uprobe on
 * guest_marker adds its own: the breakpoint, the out-of-line step.)  So a .user
 * INST_RETIRED delta read at the two markers' system calls (kprobe on
 * __arm64_sys_getppid) is E; a count that includes the kernel adds the
 * kernel's own work (the system calls' ends, interrupts).
 *
 * Elsewhere (no PMU to check it against) E is the loop's own instructions.
 * Prints "insn_loop: N iterations, E instructions".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

int main(int argc, char **argv)
{
	long n = guest_count_arg("insn_loop", "N", argv[1], 1);
	long cpu = argc > 2 ? guest_count_arg("insn_loop", "N [CPU]", argv[2],
					      0) : 0;
	long e;

	guest_pin_cpu((int)cpu);
	e = guest_marked_loop(n);
	printf("insn_loop: %ld iterations, %ld instructions\n", n, e);
	return 0;
}
