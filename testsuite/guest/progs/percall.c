/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * percall N K1 [K2] - N calls of percall_work(), whose instructions per
 * call are known exactly: calls alternate between K1 and K2 (default K1)
 * iterations.
 *
 * percall_work is written in assembly, so the compiler chooses nothing
 * in it: a copy of the argument, a loop of two instructions K times, the
 * return.  A call of K iterations retires exactly 2K + 2 instructions at
 * EL0 (aarch64: mov, subs and b.ne K times, ret; x86_64: mov, dec and jnz
 * K times, ret).  A uprobe on its entry and its return adds the probes'
 * own (the breakpoints, the out-of-line step: examples/per-call.stp's
 * test).  Prints "percall: N calls of percall_work, A and B instructions
 * each".
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

void percall_work(long k);

#if defined(__aarch64__)
__asm__(".text\n"
	".global percall_work\n"
	".type percall_work, %function\n"
	"percall_work:\n\t"
	"mov	x9, x0\n"
	"1:\n\t"
	"subs	x9, x9, #1\n\t"
	"b.ne	1b\n\t"
	"ret\n"
	".size percall_work, .-percall_work\n");
#elif defined(__x86_64__)
__asm__(".text\n"
	".global percall_work\n"
	".type percall_work, @function\n"
	"percall_work:\n\t"
	"mov	%rdi, %rcx\n"
	"1:\n\t"
	"dec	%rcx\n\t"
	"jnz	1b\n\t"
	"ret\n"
	".size percall_work, .-percall_work\n");
#else
#error "percall_work has no assembly for this architecture"
#endif

int main(int argc, char **argv)
{
	const char *usage = "N K1 [K2]";
	long n = guest_count_arg("percall", usage, argv[1], 1);
	long k1 = guest_count_arg("percall", usage, argc > 2 ? argv[2] : NULL,
				  1);
	long k2 = argc > 3 ? guest_count_arg("percall", usage, argv[3], 1) :
		  k1;
	long i;

	for (i = 0; i < n; i++)
		percall_work(i % 2 ? k2 : k1);
	printf("percall: %ld calls of percall_work, %ld and %ld instructions "
	       "each\n", n, 2 * k1 + 2, 2 * k2 + 2);
	return 0;
}
