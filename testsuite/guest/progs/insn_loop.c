/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * insn_loop N - retire an exactly known number of user instructions
 * between the two markers.
 *
 * Pins itself to CPU 0, then (aarch64) one asm block makes marker 0, runs a
 * loop of two instructions (subs, b.ne) N times and makes marker 1, so
 * nothing the compiler chooses lies between the markers.  Counted at EL0
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#ifdef __aarch64__

#define A64_SVC0 0xd4000001u
#define A64_RET 0xd65f03c0u
/* brk #imm: a breakpoint (a uprobe) planted in place of one instruction */
#define A64_IS_BRK(i) (((i) & 0xffe0001fu) == 0xd4200000u)
/* hints (nop, bti, paciasp...): system class, but they do not branch */
#define A64_IS_HINT(i) (((i) & 0xfffff01fu) == 0xd503201fu)
/* branches, exception generation and system instructions: op0 = x101 */
#define A64_IS_BRANCH_CLASS(i) (((i) & 0x1c000000u) == 0x14000000u)

/* marker_shape: guest_marker's instructions up to its svc (inclusive) and
 * after it (up to its ret, inclusive), read from its code.  A breakpoint
 * stands for the one instruction it replaced (never svc: uprobes refuse
 * exception-generating instructions). */
static void marker_shape(long *head, long *tail)
{
	const uint32_t *code = (const uint32_t *)(uintptr_t)guest_marker;
	int i, svc = -1;

	for (i = 0; i < 64; i++) {
		uint32_t insn = code[i];

		if (insn == A64_RET && svc >= 0)
			break;
		if (insn == A64_SVC0 && svc < 0) {
			svc = i;
			continue;
		}
		if (A64_IS_BRANCH_CLASS(insn) && !A64_IS_HINT(insn) &&
		    !A64_IS_BRK(insn))
			break;
	}
	if (svc < 0 || i == 64 || code[i] != A64_RET) {
		fprintf(stderr, "FAIL: insn_loop: guest_marker is not straight-line"
			" code around one svc (instruction %d: %08x)\n",
			i, i < 64 ? code[i] : 0);
		exit(1);
	}
	*head = svc + 1;
	*tail = i - svc;
}

/* The markers and the loop; every register a call may change is
 * clobbered, so the count lives in a callee-saved one. */
static long measured(long n)
{
	long head, tail;

	marker_shape(&head, &tail);
	__asm__ volatile("mov	w0, #0\n\t"
			 "bl	guest_marker\n\t"
			 "mov	x9, %[n]\n"
			 "1:\n\t"
			 "subs	x9, x9, #1\n\t"
			 "b.ne	1b\n\t"
			 "mov	w0, #1\n\t"
			 "bl	guest_marker"
			 :
			 : [n] "r"(n)
			 : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
			   "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
			   "x17", "x18", "x30", "v0", "v1", "v2", "v3", "v4",
			   "v5", "v6", "v7", "v16", "v17", "v18", "v19", "v20",
			   "v21", "v22", "v23", "v24", "v25", "v26", "v27",
			   "v28", "v29", "v30", "v31", "cc", "memory");
	return tail + 3 + 2 * n + head;
}

#else

/* No PMU to check against: the loop alone is counted (about 2N). */
static long measured(long n)
{
	long left = n;

	guest_marker(MARK_START);
	__asm__ volatile("1:\n\t"
			 "dec	%0\n\t"
			 "jnz	1b"
			 : "+r"(left)
			 :
			 : "cc");
	guest_marker(MARK_END);
	return 2 * n;
}

#endif

int main(int argc, char **argv)
{
	long n = guest_count_arg("insn_loop", "N", argv[1], 1);
	long e;

	(void)argc;
	guest_pin_cpu(0);
	e = measured(n);
	printf("insn_loop: %ld iterations, %ld instructions\n", n, e);
	return 0;
}
