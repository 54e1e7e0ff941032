/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop.c - work with a known count: a loop whose every iteration
 * retires exactly two user instructions (asm, so the compiler chooses
 * nothing inside it), and page touches.  A separate file, built without
 * inlining into the caller, so that runs of N and 2N iterations take the
 * same path around the loop and their difference is the loop alone.
 */
#include "hwcheck.h"

#if defined(__x86_64__)
const unsigned int hw_loop_insns = 2;

__attribute__((noinline)) void hw_loop_run(long n)
{
	/* dec, jnz: macro-fused into one uop, retired as two instructions */
	__asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}
#elif defined(__aarch64__)
const unsigned int hw_loop_insns = 2;

__attribute__((noinline)) void hw_loop_run(long n)
{
	__asm__ volatile("1:\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}
#else
const unsigned int hw_loop_insns = 0;

__attribute__((noinline)) void hw_loop_run(long n)
{
	/* no known count here: work for the other checks only */
	while (n-- > 0)
		__asm__ volatile("" : : : "memory");
}
#endif

__attribute__((noinline)) void hw_loop_touch(volatile char *p, long n,
					     long page)
{
	long i;

	for (i = 0; i < n; i++)
		p[i * page] = 1;
}
