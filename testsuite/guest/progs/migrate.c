/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * migrate K N PAGES - move between CPU 0 and CPU 1 K times, working on
 * each: the measured thread's count is its own only if a counter follows
 * it across CPUs.
 *
 * Between its two markers the program makes K sched_setaffinity() calls,
 * alternating the masks {CPU 1}, {CPU 0}, so each one migrates it; after
 * each it runs a loop of N iterations and touches PAGES fresh pages (one
 * page fault each).  On aarch64 the whole stretch is one asm block and
 * its user instructions are known exactly:
 *
 *   E = tail + 1 + K * (2N + 9) + 2 + head     (= K * (2N + 9) + 6)
 *
 * tail, head: guest_marker's instructions after / up to its svc; 1: the
 * mov of K; per move: and, add, mov, mov, mov, svc (6), mov of N (1), the
 * loop (2N), subs and b.ne of the outer loop (2); 2: mov w0 #1, bl.
 * PAGES must be 0 there (the touches are not counted exactly).  Elsewhere
 * E is the loops' own instructions, 2NK.  Prints "migrate: K moves, E
 * instructions, F pages".
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

static cpu_set_t masks[2];

#ifdef __aarch64__

static long measured(long k, long n, long pages, char *mem)
{
	long head, tail;

	(void)mem;
	if (pages)
		guest_fail("migrate", "PAGES must be 0 on aarch64");
	guest_marker_shape(&head, &tail);
	/* masks[k & 1] on each move: K even starts with {CPU 1} */
	__asm__ volatile("mov	w0, #0\n\t"
			 "bl	guest_marker\n\t"
			 "mov	x10, %[k]\n"
			 "1:\n\t"
			 "and	x11, x10, #1\n\t"
			 "add	x2, %[masks], x11, lsl #7\n\t"
			 "mov	x0, #0\n\t"
			 "mov	x1, #128\n\t"
			 "mov	x8, %[nr]\n\t"
			 "svc	#0\n\t"
			 "mov	x9, %[n]\n"
			 "2:\n\t"
			 "subs	x9, x9, #1\n\t"
			 "b.ne	2b\n\t"
			 "subs	x10, x10, #1\n\t"
			 "b.ne	1b\n\t"
			 "mov	w0, #1\n\t"
			 "bl	guest_marker"
			 :
			 : [k] "r"(k), [n] "r"(n), [masks] "r"(masks),
			   [nr] "i"(SYS_sched_setaffinity)
			 : GUEST_CALL_CLOBBERS);
	return tail + 1 + k * (2 * n + 9) + 2 + head;
}

#else

static long measured(long k, long n, long pages, char *mem)
{
	long i, p, left;

	guest_marker(MARK_START);
	for (i = k; i > 0; i--) {
		if (sched_setaffinity(0, sizeof(cpu_set_t), &masks[i & 1]))
			guest_fail("migrate", "sched_setaffinity");
		left = n;
		__asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(left) : : "cc");
		for (p = 0; p < pages; p++)
			mem[((k - i) * pages + p) * 4096] = 1;
	}
	guest_marker(MARK_END);
	return 2 * n * k;
}

#endif

int main(int argc, char **argv)
{
	long k = guest_count_arg("migrate", "K N PAGES", argv[1], 1);
	long n = guest_count_arg("migrate", "K N PAGES", argc > 2 ? argv[2] : NULL, 1);
	long pages = guest_count_arg("migrate", "K N PAGES", argc > 3 ? argv[3] : NULL, 0);
	char *mem = NULL;
	long e;

	CPU_ZERO(&masks[0]);
	CPU_SET(0, &masks[0]);
	CPU_ZERO(&masks[1]);
	CPU_SET(1, &masks[1]);
	if (pages)
		mem = guest_fresh_pages("migrate", k * pages);
	guest_pin_cpu(0);
	e = measured(k, n, pages, mem);
	printf("migrate: %ld moves, %ld instructions, %ld pages\n", k, e,
	       k * pages);
	return 0;
}
