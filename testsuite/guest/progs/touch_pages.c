/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * touch_pages N [CPU] - fault in N new pages between two markers.
 *
 * Pins itself to CPU 0 (or CPU), maps N fresh anonymous pages
 * (transparent huge pages off, so each page faults on its own), then:
 * marker 0, one write per page, marker 1.  Between the markers the task
 * takes N page faults (minor), and makes no system call.  Prints
 * "touch_pages: touched N pages".
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "common.h"

int main(int argc, char **argv)
{
	long n = guest_count_arg("touch_pages", "N [CPU]", argv[1], 1);
	long cpu = argc > 2 ? guest_count_arg("touch_pages", "N [CPU]",
					      argv[2], 0) : 0;
	volatile char *mem;
	long i;

	guest_pin_cpu(cpu);
	mem = guest_fresh_pages("touch_pages", n);

	guest_marker(MARK_START);
	for (i = 0; i < n; i++)
		mem[i * 4096] = 1;
	guest_marker(MARK_END);

	printf("touch_pages: touched %ld pages\n", n);
	return 0;
}
