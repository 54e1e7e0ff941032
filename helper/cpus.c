/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpus.c - CPU lists such as "0-3,5,7-8": the online CPUs, from
 * SYSFS/devices/system/cpu/online, and a PMU's cpumask; and written.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"

static int cpu_number(const char **p, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	*p = end;
	return errno || *v >= PC_CPUS_MAX ? -EINVAL : 0;
}

/* Parses the list; with cpus NULL only counts. */
static int list_parse(const char *s, int *cpus)
{
	unsigned long lo, hi, last = 0;
	int n = 0;

	for (;;) {
		if (cpu_number(&s, &lo))
			return -EINVAL;
		hi = lo;
		if (*s == '-') {
			s++;
			if (cpu_number(&s, &hi))
				return -EINVAL;
		}
		if (hi < lo || (n && lo <= last))
			return -EINVAL;
		for (last = hi; lo <= hi; lo++, n++)
			if (cpus)
				cpus[n] = lo;
		if (*s != ',')
			return *s ? -EINVAL : n;
		s++;
	}
}

int perfctr_cpus__parse(const char *list, int **cpus)
{
	int n = list_parse(list, NULL);

	*cpus = NULL;
	if (n <= 0)
		return -EINVAL;
	*cpus = malloc(n * sizeof(**cpus));
	if (!*cpus)
		return -ENOMEM;
	list_parse(list, *cpus);
	return n;
}

int perfctr_cpus__format(const int *cpus, int n, char *buf, size_t len)
{
	int i = 0, j, ranges = 0, k;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	while (i < n) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		k = j > i ? snprintf(buf + used, len - used, "%s%d-%d",
				     ranges ? "," : "", cpus[i], cpus[j]) :
			    snprintf(buf + used, len - used, "%s%d",
				     ranges ? "," : "", cpus[i]);
		if (k < 0 || (size_t)k >= len - used)
			return -ENOSPC;
		used += k;
		ranges++;
		i = j + 1;
	}
	return ranges;
}

int perfctr_cpus__has(const char *list, int cpu)
{
	int *cpus, n = perfctr_cpus__parse(list, &cpus), i, found = 0;

	for (i = 0; i < n && !found; i++)
		found = cpus[i] == cpu;
	free(cpus);
	return n < 0 ? n : found;
}

int perfctr_cpus__online(const char *sysfs_root, int **cpus)
{
	char buf[8192];
	int dfd, n;

	*cpus = NULL;
	dfd = open(sysfs_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	n = pc_sysfs_read(dfd, "devices/system/cpu/online", buf, sizeof(buf));
	close(dfd);
	if (n < 0)
		return n == -EFBIG ? -EINVAL : n;
	return perfctr_cpus__parse(buf, cpus);
}
