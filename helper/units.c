/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * units.c - what one count of a sysfs event is: its events/NAME.unit
 * ("Joules", "MiB") and events/NAME.scale ("2.3283064365386962890625e-10":
 * joules per count), as perf stat reads them, for a counter named
 * "PMU/NAME/".  The scale goes to the module as mult / 2^shift, exact
 * for the binary fractions the kernel's drivers write.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

/* Characters a unit may have in the assignment (a module argument). */
static int unit_ok(const char *u)
{
	return strlen(u) < PERFCTR_UNIT_MAX &&
	       strspn(u, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789_./-") == strlen(u);
}

int perfctr_scale__parse(const char *s, uint64_t *mult, unsigned int *shift)
{
	char *end;
	double v;
	int e;

	errno = 0;
	v = strtod(s, &end);
	while (*end == '\n' || *end == ' ')
		end++;
	if (errno || end == s || *end || !(v > 0) || isinf(v))
		return -EINVAL;
	/* v = m * 2^e, 0.5 <= m < 1: mult = m * 2^53, odd, and the shift */
	v = frexp(v, &e);
	*mult = (uint64_t)ldexp(v, 53);
	e -= 53;
	while (!(*mult & 1) && e < 0) {
		*mult >>= 1;
		e++;
	}
	if (e > 0 || e < -PERFCTR_SCALE_SHIFT_MAX)
		return -ERANGE;		/* above 2^53, or below 2^-96 */
	*shift = -e;
	return 0;
}

int perfctr_unit__read(const char *sysfs_root, const char *event,
		       struct perfctr_unit *u)
{
	char pmu[128], name[PERFCTR_NAME_MAX], found[PERFCTR_NAME_MAX + 8];
	char path[PERFCTR_NAME_MAX + 32], buf[128];
	const char *slash = strchr(event, '/'), *last = strrchr(event, '/');
	size_t n;
	int fd, ret = 0;

	memset(u, 0, sizeof(*u));
	if (!slash || last == slash || (size_t)(slash - event) >= sizeof(pmu))
		return 0;		/* not PMU/NAME/ */
	n = last - slash - 1;
	if (!n || n >= sizeof(name) || memchr(slash + 1, '=', n) ||
	    memchr(slash + 1, ',', n))
		return 0;		/* terms, not an event's name */
	memcpy(pmu, event, slash - event);
	pmu[slash - event] = '\0';
	memcpy(name, slash + 1, n);
	name[n] = '\0';
	fd = pc_sysfs_pmu_open(sysfs_root, pmu);
	if (fd < 0)
		return 0;
	if (pc_sysfs_find_event(fd, name, found, PERFCTR_NAME_MAX) == 0) {
		snprintf(path, sizeof(path), "events/%s.unit", found);
		if (pc_sysfs_read(fd, path, buf, sizeof(buf)) > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			if (!unit_ok(buf))
				ret = -EINVAL;
			else
				snprintf(u->unit, sizeof(u->unit), "%s", buf);
		}
		snprintf(path, sizeof(path), "events/%s.scale", found);
		if (!ret && pc_sysfs_read(fd, path, buf, sizeof(buf)) > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(u->scale, sizeof(u->scale), "%s", buf);
			ret = perfctr_scale__parse(buf, &u->mult, &u->shift);
		}
	}
	close(fd);
	return ret;
}
