/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hold_event - keep one page-faults software event of its own open until
 * killed, so that the kernel's jump label for that event stays enabled
 * while tests make and release theirs.
 *
 * The first page-faults event anywhere enables the label in the fault
 * path and the last one's release disables it, each time by patching the
 * running kernel's text (text_poke_bp).  Under TCG with a loaded host a
 * vCPU has been seen to run that breakpoint after the patch had ended
 * (docs/reliability.md); with this holder the tests' counters never
 * patch.  Prints "holding" once the event is open.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(void)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		perror("hold_event: perf_event_open");
		return 1;
	}
	printf("holding\n");
	fflush(stdout);
	for (;;)
		pause();
}
