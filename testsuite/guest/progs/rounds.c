/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rounds K N PAGES MS [CPU] - the same measured work K times in one task,
 * for counters that must keep counting across what happens in between
 * (a CPU going offline and back, another module taking the PMU).
 *
 * Unlike the other programs, this task makes two markers per round:
 * marker 0 and marker 1 around each round's work, so a script pairs them
 * per round (even hits start, odd hits end).  The work is, with PAGES 0,
 * guest_marked_loop(N) (E user instructions between the markers: exact on
 * aarch64), else touching PAGES fresh pages (one page fault each).  After
 * each round it sleeps MS ms (a context switch); with CPU given it first
 * moves to that CPU, retrying every 10 ms while the CPU is offline (at
 * most 10 s).  Prints "rounds: K rounds, E instructions, PAGES pages each,
 * M moves waited".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Moves to cpu; returns how many tries found it offline. */
static long move_to(int cpu)
{
	cpu_set_t set;
	long waited = 0;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	while (sched_setaffinity(0, sizeof(set), &set) != 0) {
		if (errno != EINVAL || ++waited > 1000)
			guest_fail("rounds", "sched_setaffinity");
		sleep_ms(10);
	}
	return waited;
}

int main(int argc, char **argv)
{
	const char *usage = "K N PAGES MS [CPU]";
	long k = guest_count_arg("rounds", usage, argc > 1 ? argv[1] : NULL, 1);
	long n = guest_count_arg("rounds", usage, argc > 2 ? argv[2] : NULL, 1);
	long pages = guest_count_arg("rounds", usage, argc > 3 ? argv[3] : NULL, 0);
	long ms = guest_count_arg("rounds", usage, argc > 4 ? argv[4] : NULL, 0);
	int cpu = argc > 5 ? (int)guest_count_arg("rounds", usage, argv[5], 0) : -1;
	long r, p, e = 0, waited = 0;
	char *mem;

	for (r = 0; r < k; r++) {
		if (cpu >= 0)
			waited += move_to(cpu);
		if (!pages) {
			e = guest_marked_loop(n);
		} else {
			mem = guest_fresh_pages("rounds", pages);
			guest_marker(MARK_START);
			for (p = 0; p < pages; p++)
				mem[p * 4096] = 1;
			guest_marker(MARK_END);
		}
		sleep_ms(ms);
	}
	printf("rounds: %ld rounds, %ld instructions, %ld pages each, %ld moves waited\n",
	       k, e, pages, waited);
	return 0;
}
