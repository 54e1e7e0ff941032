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

/* One of an event's files (events/NAME.unit or .scale) into buf,
 * without its trailing white space: 1, or 0 when there is none ("" in
 * buf), or -1 with err set (a file that cannot be read, or too long to
 * be a unit or a scale). */
static int read_attr(int fd, const char *root, const char *pmu,
		     const char *path, char *buf, size_t len, char *err,
		     size_t errlen)
{
	int n;

	buf[0] = '\0';
	n = pc_sysfs_read(fd, path, buf, len);
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return pc_err(err, errlen, -1, "%s/" PC_SYSFS_DEVICES "/%s/%s: "
			      "%s", root, pmu, path, n == -EFBIG ?
			      "too long for a unit or a scale" :
			      strerror(-n));
	buf[strcspn(buf, "\n")] = '\0';
	return 1;
}

int perfctr_unit__read(const char *sysfs_root, const char *event,
		       struct perfctr_unit *u, char *err, size_t errlen)
{
	char pmu[128], name[PERFCTR_NAME_MAX], found[PERFCTR_NAME_MAX + 8];
	char path[PERFCTR_NAME_MAX + 32], buf[128];
	const char *slash = strchr(event, '/'), *last = strrchr(event, '/');
	const char *root = sysfs_root ? sysfs_root : "/sys";
	size_t n;
	int fd, have, ret = 0;

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
	fd = pc_sysfs_pmu_open(root, pmu);
	if (fd < 0)
		return 0;
	if (pc_sysfs_find_event(fd, name, found, PERFCTR_NAME_MAX)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "events/%s.unit", found);
	have = read_attr(fd, root, pmu, path, buf, sizeof(buf), err, errlen);
	if (have < 0) {
		ret = -EINVAL;
	} else if (!unit_ok(buf)) {
		ret = pc_err(err, errlen, -EINVAL, "%s/" PC_SYSFS_DEVICES
			     "/%s/%s: \"%.40s\" is not a unit the module can "
			     "take: at most %d characters of [A-Za-z0-9_./-]",
			     root, pmu, path, buf, PERFCTR_UNIT_MAX - 1);
	} else {
		snprintf(u->unit, sizeof(u->unit), "%s", buf);
	}
	snprintf(path, sizeof(path), "events/%s.scale", found);
	have = ret ? 0 : read_attr(fd, root, pmu, path, buf, sizeof(buf), err,
				   errlen);
	if (have < 0) {
		ret = -EINVAL;
	} else if (have && !buf[0]) {
		ret = pc_err(err, errlen, -EINVAL, "%s/" PC_SYSFS_DEVICES
			     "/%s/%s: empty, not a scale", root, pmu, path);
	} else if (have) {
		snprintf(u->scale, sizeof(u->scale), "%s", buf);
		ret = perfctr_scale__parse(buf, &u->mult, &u->shift);
		if (ret)
			pc_err(err, errlen, ret, "%s/" PC_SYSFS_DEVICES "/%s/%s: "
			       "\"%.40s\" %s", root, pmu, path, buf,
			       ret == -ERANGE ? "is out of range: the module "
			       "takes a scale as m / 2^s, m below 2^53 and s at "
			       "most 96" : "is not a number above 0, as perf "
			       "reads a scale (strtod)");
	}
	close(fd);
	return ret;
}
