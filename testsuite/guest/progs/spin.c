/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spin MS - busy-loop on CPU 0 for MS milliseconds of CLOCK_MONOTONIC.
 *
 * Marker 0, then spin reading the clock (vDSO: no system call) until MS ms
 * have passed, then marker 1.  Task-clock between the markers is about MS
 * ms when the task had the CPU to itself.  Prints "spin: MS ms, L loops".
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "common.h"

int main(int argc, char **argv)
{
	long ms = guest_count_arg("spin", "MS", argv[1], 0);
	long long end;
	long loops = 0;

	(void)argc;
	guest_pin_cpu(0);
	guest_marker(MARK_START);
	end = guest_now_ns() + ms * 1000000LL;
	while (guest_now_ns() < end)
		loops++;
	guest_marker(MARK_END);

	printf("spin: %ld ms, %ld loops\n", ms, loops);
	return 0;
}
