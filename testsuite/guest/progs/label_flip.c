/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * label_flip SECS - patch a kernel jump label for SECS seconds while another CPU runs
 * through it: a child pinned to CPU 0 takes page faults without end (a
 * fresh page touched, then given back), while this process, on CPU 1,
 * opens and closes a page-faults software event, again and again.  Each open is
 * the first such event (nothing else may hold one: see hold_event) and
 * enables the page fault path's label, each close disables it, both by
 * text_poke_bp while CPU 0 runs the patched instruction.  No module is
 * involved: a guest that dies here dies of the kernel's own patching and
 * the emulator that runs it (docs/reliability.md).  Prints "flipped N"
 * (N open and close pairs).
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include "common.h"

static const char prog[] = "label_flip";

static void fault_forever(void)
{
	char *p;

	guest_pin_cpu(0);
	for (;;) {
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			guest_fail(prog, "mmap");
		p[0] = 1;
		munmap(p, 4096);
	}
}

int main(int argc, char **argv)
{
	long secs, n;
	pid_t child;
	time_t end;
	int fd;

	secs = guest_count_arg(prog, "SECS", argc > 1 ? argv[1] : NULL, 1);
	child = fork();
	if (child < 0)
		guest_fail(prog, "fork");
	if (child == 0)
		fault_forever();
	guest_pin_cpu(1);
	end = time(NULL) + secs;
	for (n = 0; time(NULL) < end; n++) {
		fd = guest_sw_event(PERF_COUNT_SW_PAGE_FAULTS);
		if (fd < 0)
			guest_fail(prog, "perf_event_open");
		close(fd);
		if (n % 100 == 99)
			fprintf(stderr, "%s: %ld\n", prog, n + 1);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("flipped %ld\n", n);
	return 0;
}
