/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * callchain SPINS WRITES - a known call chain for sampling tests:
 * main -> chain_a -> chain_b -> chain_leaf, where chain_leaf spins SPINS
 * iterations of a loop, then chain_a -> chain_write makes WRITES one-byte
 * write()s to /dev/null.  Every function keeps a frame pointer (the
 * pragma below: the rest of the program is -O2), so a frame-pointer walk
 * from a sample in chain_leaf gives chain_leaf, chain_b, chain_a, main;
 * none returns by a tail call, and chain_leaf calls a function after its
 * loop so that aarch64 keeps its frame record too (GCC omits a leaf
 * function's).  On aarch64 its return addresses are signed (pac-ret).
 * Prints "callchain: SPINS spins, WRITES writes, depth 4".
 */
#pragma GCC optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")
#ifdef __aarch64__
/* return addresses signed in the frame records, as Debian's and Fedora's
 * arm64 packages build (a hint: a NOP where the CPU has no pointer
 * authentication) */
#pragma GCC target("branch-protection=pac-ret")
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

volatile long sink;

__attribute__((noipa)) void chain_done(long n)
{
	sink += n;
}

__attribute__((noipa)) long chain_leaf(long spins)
{
	long i;

	for (i = 0; i < spins; i++)
		__asm__ volatile("" : : "r"(i) : "memory");
	chain_done(i);
	return i;
}

__attribute__((noipa)) long chain_b(long spins)
{
	return chain_leaf(spins) + 1;
}

__attribute__((noipa)) long chain_write(long writes)
{
	int fd = open("/dev/null", O_WRONLY);
	long i;

	if (fd < 0) {
		perror("callchain: /dev/null");
		exit(1);
	}
	for (i = 0; i < writes; i++)
		if (write(fd, "x", 1) != 1)
			break;
	close(fd);
	return i;
}

__attribute__((noipa)) long chain_a(long spins, long writes)
{
	return chain_b(spins) + chain_write(writes);
}

int main(int argc, char **argv)
{
	long spins = argc > 1 ? atol(argv[1]) : 100000000;
	long writes = argc > 2 ? atol(argv[2]) : 100000;

	chain_a(spins, writes);
	printf("callchain: %ld spins, %ld writes, depth 4\n", spins, writes);
	return 0;
}
