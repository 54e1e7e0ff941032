/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core_ticks CPU:N... - for the hybrid tests with the test core PMUs
 * (testsuite/guest/kmod/perfctr_test_core.c): for each argument in turn,
 * move to CPU and make N ticks there (a write of N to the driver's tick
 * parameter, which adds N to the writing CPU's count), all between the
 * two markers.  So the thread's ticks on each core PMU's CPUs are known:
 * prints "core_ticks: T ticks, A on CPU 0, B elsewhere".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define TICK "/sys/module/perfctr_test_core/parameters/tick"
#define USAGE "CPU:N..."

static void tick_on(int fd, int cpu, long n)
{
	char buf[32];
	cpu_set_t set;
	int len;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		guest_fail("core_ticks", "sched_setaffinity");
	len = snprintf(buf, sizeof(buf), "%ld", n);
	if (pwrite(fd, buf, len, 0) != len)
		guest_fail("core_ticks", "write " TICK);
}

int main(int argc, char **argv)
{
	long n[64], on0 = 0, other = 0;
	int cpu[64], i, fd;
	char *colon;

	if (argc < 2 || argc > 65) {
		fprintf(stderr, "usage: core_ticks " USAGE "\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		colon = strchr(argv[i], ':');
		if (!colon) {
			fprintf(stderr, "usage: core_ticks " USAGE "\n");
			return 2;
		}
		*colon = 0;
		cpu[i - 1] = (int)guest_count_arg("core_ticks", USAGE, argv[i], 0);
		n[i - 1] = guest_count_arg("core_ticks", USAGE, colon + 1, 1);
	}
	fd = open(TICK, O_WRONLY);
	if (fd < 0)
		guest_fail("core_ticks", "open " TICK);
	guest_marker(MARK_START);
	for (i = 0; i < argc - 1; i++)
		tick_on(fd, cpu[i], n[i]);
	guest_marker(MARK_END);
	for (i = 0; i < argc - 1; i++)
		*(cpu[i] ? &other : &on0) += n[i];
	printf("core_ticks: %ld ticks, %ld on CPU 0, %ld elsewhere\n",
	       on0 + other, on0, other);
	return 0;
}
