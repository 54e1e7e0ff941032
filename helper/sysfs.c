/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs.c - the kernel's PMUs under SYSFS/bus/event_source/devices:
 * "pmu/terms/" names, bare event names found in some PMU's events/
 * directory ("inst_retired"), and the list of all such names.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "internal.h"

#define PMU_NAME_MAX 128

/* Files in events/ that describe another file rather than an event. */
static const char *const meta_suffixes[] = {
	".scale", ".unit", ".per-pkg", ".snapshot",
};

int pc_sysfs_name_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (n == 0 || n >= PMU_NAME_MAX || name[0] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", name[i]))
			return 0;
	return 1;
}

static int is_event_file(const char *name)
{
	size_t n = strlen(name), i, l;

	if (!pc_sysfs_name_ok(name))
		return 0;
	for (i = 0; i < ARRAY_SIZE(meta_suffixes); i++) {
		l = strlen(meta_suffixes[i]);
		if (n > l && !strcmp(name + n - l, meta_suffixes[i]))
			return 0;
	}
	return 1;
}

int pc_sysfs_pmu_open(const char *root, const char *pmu)
{
	char path[4096];
	int fd;

	if (!pc_sysfs_name_ok(pmu))
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/" PC_SYSFS_DEVICES "/%s", root, pmu) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Reads a small file below dirfd, without its trailing white space.
 * Returns its length, or a negative errno (-EFBIG: does not fit). */
int pc_sysfs_read(int dirfd, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len);
	close(fd);
	if (n < 0)
		return -errno;
	if ((size_t)n == len)
		return -EFBIG;
	while (n > 0 && strchr(" \t\n", buf[n - 1]))
		n--;
	buf[n] = '\0';
	return (int)n;
}

/* Opens a subdirectory of dirfd as a DIR stream, or NULL. */
static DIR *subdir(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

/* Finds an events/ file by name, ignoring case as perf does. */
int pc_sysfs_find_event(int pmufd, const char *name, char *found, size_t len)
{
	DIR *d = subdir(pmufd, "events");
	struct dirent *e;
	int ret = -ENOENT;

	if (!d)
		return -ENOENT;
	while ((e = readdir(d)))
		if (is_event_file(e->d_name) && !strcasecmp(e->d_name, name) &&
		    strlen(e->d_name) < len) {
			strcpy(found, e->d_name);
			ret = 0;
			break;
		}
	closedir(d);
	return ret;
}

static int dirent_pmu(const struct dirent *e)
{
	return pc_sysfs_name_ok(e->d_name);
}

/* The PMUs, sorted by name.  Returns their number (list to free), or 0. */
static int pmus_list(const char *root, struct dirent ***list)
{
	char path[4096];
	int n;

	*list = NULL;
	if (snprintf(path, sizeof(path), "%s/" PC_SYSFS_DEVICES, root) >= (int)sizeof(path))
		return 0;
	n = scandir(path, list, dirent_pmu, alphasort);
	return n < 0 ? 0 : n;
}

static void pmus_free(struct dirent **list, int n)
{
	while (n-- > 0)
		free(list[n]);
	free(list);
}

/* The PMU whose type file says type (for the generic types 0 hardware
 * and 3 cache: the core PMU, which has type 4 where it takes raw events;
 * elsewhere, as on arm64, a dynamic one: not found).  Returns 0 with its
 * name, or -ENOENT. */
int pc_sysfs_pmu_of_type(const char *root, uint32_t type, char *pmu,
			 size_t len)
{
	struct dirent **list;
	char buf[32];
	int n, i, fd, found = -ENOENT;

	n = pmus_list(root, &list);
	for (i = 0; i < n && found; i++) {
		fd = pc_sysfs_pmu_open(root, list[i]->d_name);
		if (fd < 0)
			continue;
		if (pc_sysfs_read(fd, "type", buf, sizeof(buf)) > 0 &&
		    strtoul(buf, NULL, 10) ==
		    (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE ?
		     PERF_TYPE_RAW : type)) {
			snprintf(pmu, len, "%s", list[i]->d_name);
			found = 0;
		}
		close(fd);
	}
	pmus_free(list, n);
	return found;
}

/* Which PMUs have an event file of this name.  Keeps the first in
 * pmu/event and lists them all in names. */
static int bare_find(const char *root, const char *base, char *pmu,
		     char *event, char *names, size_t len)
{
	char other[PERFCTR_NAME_MAX];
	struct dirent **list;
	int n, i, fd, hits = 0;

	names[0] = '\0';
	n = pmus_list(root, &list);
	for (i = 0; i < n; i++) {
		fd = pc_sysfs_pmu_open(root, list[i]->d_name);
		if (fd < 0)
			continue;
		if (!pc_sysfs_find_event(fd, base, hits ? other : event,
					 PERFCTR_NAME_MAX)) {
			if (!hits++)
				strcpy(pmu, list[i]->d_name);
			pc_err_append(names, len, "%s\"%s\"", hits > 1 ? ", " : "",
				      list[i]->d_name);
		}
		close(fd);
	}
	pmus_free(list, n);
	return hits;
}

static int bare_resolve(const char *root, const char *base,
			struct perfctr_encoding *enc, char *err, size_t len)
{
	char pmu[PMU_NAME_MAX], event[PERFCTR_NAME_MAX];
	char names[512];
	int hits;

	if (!pc_sysfs_name_ok(base))
		return -ENOENT;
	hits = bare_find(root, base, pmu, event, names, sizeof(names));
	if (hits == 0)
		return -ENOENT;
	if (hits > 1)
		return pc_err(err, len, -EINVAL,
			      "event \"%s\" exists in several PMUs (%s); name one, as in \"%s/%s/\"",
			      base, names, pmu, event);
	return pc_pmu_encode(root, pmu, event, enc, err, len);
}

int pc_sysfs_resolve(const char *root, const char *base,
		     struct perfctr_encoding *enc, char *err, size_t len)
{
	char pmu[PMU_NAME_MAX], terms[PERFCTR_NAME_MAX];
	const char *slash = strchr(base, '/');
	size_t n = strlen(base);

	if (!slash)
		return bare_resolve(root, base, enc, err, len);
	if ((size_t)(slash - base) >= sizeof(pmu) || slash == base ||
	    n < 2 || base[n - 1] != '/' || slash == base + n - 1)
		return pc_err(err, len, -EINVAL,
			      "malformed PMU event \"%s\": expected PMU/TERM,TERM.../",
			      base);
	memcpy(pmu, base, slash - base);
	pmu[slash - base] = '\0';
	memcpy(terms, slash + 1, n - (slash - base) - 2);
	terms[n - (slash - base) - 2] = '\0';
	return pc_pmu_encode(root, pmu, terms, enc, err, len);
}

static void pmu_names(int fd, const char *pmu, pc_name_fn *fn, void *ctx)
{
	char name[PERFCTR_NAME_MAX];
	DIR *d = subdir(fd, "events");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!is_event_file(e->d_name))
			continue;
		fn(e->d_name, ctx);
		if (snprintf(name, sizeof(name), "%s/%s/", pmu, e->d_name) <
		    (int)sizeof(name))
			fn(name, ctx);
	}
	closedir(d);
}

void pc_sysfs_names(const char *root, pc_name_fn *fn, void *ctx)
{
	struct dirent **list;
	int n, i, fd;

	n = pmus_list(root, &list);
	for (i = 0; i < n; i++) {
		fd = pc_sysfs_pmu_open(root, list[i]->d_name);
		if (fd < 0)
			continue;
		pmu_names(fd, list[i]->d_name, fn, ctx);
		close(fd);
	}
	pmus_free(list, n);
}

/* For "unknown PMU" messages. */
void pc_sysfs_pmu_names(const char *root, pc_name_fn *fn, void *ctx)
{
	struct dirent **list;
	int n, i;

	n = pmus_list(root, &list);
	for (i = 0; i < n; i++)
		fn(list[i]->d_name, ctx);
	pmus_free(list, n);
}
