/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hold_event [all] - keep a page-faults software event of its own open
 * until killed (with "all": one of every software event this kernel
 * has), so that the kernel's jump labels for those events stay enabled
 * while tests make and release theirs.
 *
 * The first software event of a kind anywhere enables its label (the
 * page fault path's, the context switch's) and the last one's release
 * disables it; the first and last task event likewise toggle the one in
 * the scheduler that calls perf at each switch: each time by patching
 * the running kernel's text (text_poke_bp).  Under multi-threaded TCG
 * a vCPU can run that breakpoint after the patch has ended and the guest
 * dies (docs/reliability.md, progs/label_flip); with this holder the
 * tests' counters never patch.  Its events are task events of this process, which only
 * sleeps: they count nothing and sit in no CPU's context.  Prints
 * "holding" once the events are open.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	unsigned long long c;

	if (guest_sw_event(PERF_COUNT_SW_PAGE_FAULTS) < 0) {
		perror("hold_event: perf_event_open");
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "all"))
		for (c = 0; c < PERF_COUNT_SW_MAX; c++)
			guest_sw_event(c);	/* one this kernel lacks: not held */
	printf("holding\n");
	fflush(stdout);
	for (;;)
		pause();
}
