/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf_matrix - what perf_event_open(2) answers the user running it, for
 * each request named on the command line: the other side of the
 * privilege tests' comparison with the module (priv-diff.sh).
 *
 *   perf_matrix ID:TYPE:CONFIG:MODE:WHERE:SAMPLE ...
 *
 *   TYPE     a number, or a PMU's name (its sysfs type)
 *   CONFIG   a number (0x for hex)
 *   MODE     u (exclude_kernel, exclude_hv), k (exclude_user), - (both)
 *   WHERE    task (this process, any CPU), cpu (CPU 0, every task),
 *            group (CPU 0, a leader and a member of the same attr),
 *            pid=N (process N, any CPU: perf stat -p N)
 *   SAMPLE   - (counting), or a sampling event (period 1000) recording
 *            ip, addr or phys (PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR)
 *
 * Prints "ID allowed", "ID refused" (EACCES or EPERM: perf's privilege
 * answer) or "ID error ERRNO" (anything else: not a privilege answer,
 * e.g. a PMU that does not take such an event), one line each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_event(struct perf_event_attr *a, pid_t pid, int cpu, int leader,
		      unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, leader, flags);
}

static long pmu_type(const char *s)
{
	char path[256];
	long t;
	FILE *f;

	if (s[0] >= '0' && s[0] <= '9')
		return strtol(s, NULL, 0);
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 s);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &t) != 1) {
		fprintf(stderr, "perf_matrix: no PMU %s\n", s);
		exit(2);
	}
	fclose(f);
	return t;
}

/* Sets a from MODE and SAMPLE; 0 or -1 (a bad word). */
static int attr_from(struct perf_event_attr *a, const char *mode,
		     const char *sample)
{
	if (!strcmp(mode, "u"))
		a->exclude_kernel = a->exclude_hv = 1;
	else if (!strcmp(mode, "k"))
		a->exclude_user = 1;
	else if (strcmp(mode, "-"))
		return -1;
	if (!strcmp(sample, "-"))
		return 0;
	a->sample_period = 1000;
	a->sample_type = PERF_SAMPLE_IP;
	if (!strcmp(sample, "addr"))
		a->sample_type |= PERF_SAMPLE_ADDR;
	else if (!strcmp(sample, "phys"))
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR;
	else if (strcmp(sample, "ip"))
		return -1;
	return 0;
}

/* The answer for one request: 0 allowed, else the errno. */
static int try_one(struct perf_event_attr *a, const char *where)
{
	int fd, fd2 = -1, err = 0;

	if (!strcmp(where, "task")) {
		fd = open_event(a, 0, -1, -1, 0);
	} else if (!strncmp(where, "pid=", 4)) {
		fd = open_event(a, atoi(where + 4), -1, -1, 0);
	} else if (!strcmp(where, "cpu")) {
		fd = open_event(a, -1, 0, -1, 0);
	} else if (!strcmp(where, "group")) {
		fd = open_event(a, -1, 0, -1, 0);
		if (fd >= 0) {
			fd2 = open_event(a, -1, 0, fd, 0);
			if (fd2 < 0)
				err = errno;
		}
	} else {
		return EINVAL;
	}
	if (fd < 0 && !err)
		err = errno;
	if (fd2 >= 0)
		close(fd2);
	if (fd >= 0)
		close(fd);
	return err;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		struct perf_event_attr a = { .size = sizeof(a) };
		char *w[6], *s = argv[i];
		int n, err;

		for (n = 0; n < 6 && s; n++)
			w[n] = strsep(&s, ":");
		if (n < 6 || s) {
			fprintf(stderr, "perf_matrix: not ID:TYPE:CONFIG:MODE:"
				"WHERE:SAMPLE: %s\n", argv[i]);
			return 2;
		}
		a.type = pmu_type(w[1]);
		a.config = strtoull(w[2], NULL, 0);
		if (attr_from(&a, w[3], w[5])) {
			fprintf(stderr, "perf_matrix: bad MODE or SAMPLE in "
				"%s\n", w[0]);
			return 2;
		}
		err = try_one(&a, w[4]);
		if (!err)
			printf("%s allowed\n", w[0]);
		else if (err == EACCES || err == EPERM)
			printf("%s refused\n", w[0]);
		else
			printf("%s error %d\n", w[0], err);
	}
	return 0;
}
