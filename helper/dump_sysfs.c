/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_sysfs.c - the kernel's PMUs as the dump shows them: for each
 * directory under SYSFS/bus/event_source/devices its type, the CPUs it
 * covers (from which file, and the span that makes: topology.c), its
 * caps/ and format/ files, and its events/ files (with
 * their .unit and .scale).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dump.h"

#define SMALL_MAX 8192

/* PMUs of kernel software events: they take no hardware counter. */
static const char *const software_pmus[] = {
	"software", "tracepoint", "kprobe", "uprobe",
};

struct walk {
	struct perfctr_dump *d;
	int err;
};

/* A small file's contents, "(unreadable)" when it cannot be read;
 * NULL only when out of memory. */
static char *read_small(int fd, const char *path)
{
	char buf[SMALL_MAX];

	return strdup(pc_sysfs_read(fd, path, buf, sizeof(buf)) < 0 ?
		      "(unreadable)" : buf);
}

/* Adds one attr per file of subdirectory sub: name, desc = contents. */
static int read_files(int fd, const char *sub, unsigned int kind,
		      struct perfctr_dump_attr **attrs, unsigned int *n)
{
	char path[PATH_MAX];
	struct perfctr_dump_attr *a;
	struct dirent *e;
	DIR *dir;
	int dfd = openat(fd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (dfd < 0)
		return 0;
	dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return -ENOMEM;
	}
	while (!ret && (e = readdir(dir))) {
		if (!pc_sysfs_name_ok(e->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", sub, e->d_name) >=
		    (int)sizeof(path))
			continue;
		a = PC_PUSH(*attrs, *n);
		if (!a)
			ret = -ENOMEM;
		else if (!(a->name = strdup(e->d_name)) ||
			 !(a->desc = read_small(fd, path)))
			ret = -ENOMEM;
		else
			a->kind = kind;
	}
	closedir(dir);
	return ret;
}

static int is_software(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(software_pmus); i++)
		if (!strcmp(name, software_pmus[i]))
			return 1;
	return 0;
}

static int read_pmu(struct perfctr_dump_pmu *p, const char *root)
{
	int fd = pc_sysfs_pmu_open(root, p->name), ret;

	if (fd < 0)
		return 0;
	p->software = is_software(p->name);
	ret = pc_topo_read(fd, &p->type, &p->cpus_file, &p->cpus);
	if (!ret)
		ret = read_files(fd, "caps", 0, &p->caps, &p->n_caps);
	if (!ret)
		ret = read_files(fd, "format", PERFCTR_ATTR_TERM, &p->terms,
				 &p->n_terms);
	close(fd);
	return ret;
}

static void add_pmu(const char *name, void *ctx)
{
	struct walk *w = ctx;

	if (!w->err && !pc_dump_add_pmu(w->d, name))
		w->err = -ENOMEM;
}

static struct perfctr_dump_pmu *find_pmu(struct perfctr_dump *d,
					 const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < d->n_pmus; i++)
		if (strlen(d->pmus[i].name) == len &&
		    !strncmp(d->pmus[i].name, name, len))
			return &d->pmus[i];
	return NULL;
}

/* The file's terms, and its unit and scale when it has them:
 * "event=0x02 (unit Joules, scale 2.3283064365386962890625e-10)". */
static char *event_desc(int fd, const char *event)
{
	char path[PATH_MAX], terms[SMALL_MAX], unit[64], scale[64], *desc;

	snprintf(path, sizeof(path), "events/%s", event);
	if (pc_sysfs_read(fd, path, terms, sizeof(terms)) < 0)
		strcpy(terms, "(unreadable)");
	snprintf(path, sizeof(path), "events/%s.unit", event);
	if (pc_sysfs_read(fd, path, unit, sizeof(unit)) < 0)
		unit[0] = '\0';
	snprintf(path, sizeof(path), "events/%s.scale", event);
	if (pc_sysfs_read(fd, path, scale, sizeof(scale)) < 0)
		scale[0] = '\0';
	if (!unit[0] && !scale[0])
		return strdup(terms);
	if (asprintf(&desc, "%s (%s%s%s%s%s)", terms,
		     unit[0] ? "unit " : "", unit,
		     unit[0] && scale[0] ? ", " : "",
		     scale[0] ? "scale " : "", scale) < 0)
		return NULL;
	return desc;
}

static int add_event(struct perfctr_dump *d, const char *root,
		     const char *pmu_event)
{
	const char *slash = strchr(pmu_event, '/');
	struct perfctr_dump_event *e;
	struct perfctr_dump_pmu *p;
	char event[PERFCTR_NAME_MAX];
	int fd;

	p = find_pmu(d, pmu_event, slash - pmu_event);
	if (!p || strlen(slash + 1) >= sizeof(event))
		return 0;
	snprintf(event, sizeof(event), "%.*s", (int)strlen(slash + 1) - 1,
		 slash + 1);
	fd = pc_sysfs_pmu_open(root, p->name);
	if (fd < 0)
		return 0;
	e = PC_PUSH(p->events, p->n_events);
	if (e) {
		e->source = PERFCTR_SRC_SYSFS;
		e->name = strdup(pmu_event);
		e->desc = event_desc(fd, event);
	}
	close(fd);
	return e && e->name && e->desc ? 0 : -ENOMEM;
}

struct events_walk {
	struct perfctr_dump *d;
	const char *root;
	int err;
};

/* pc_sysfs_names gives each event bare and as "pmu/event/": keep the
 * second. */
static void take_event(const char *name, void *ctx)
{
	struct events_walk *w = ctx;

	if (!w->err && strchr(name, '/'))
		w->err = add_event(w->d, w->root, name);
}

/* Each PMU's span: a `cpus` file is a hybrid core PMU's when another
 * PMU has one too (topology.c). */
static void set_spans(struct perfctr_dump *d)
{
	unsigned int i, n_core = 0;

	for (i = 0; i < d->n_pmus; i++)
		n_core += d->pmus[i].cpus_file == pc_topo_cpu_files[0];
	for (i = 0; i < d->n_pmus; i++)
		d->pmus[i].span = pc_topo_span(d->pmus[i].cpus_file, n_core);
}

int pc_dump_sysfs(struct perfctr_dump *d, const char *root)
{
	struct walk w = { .d = d };
	struct events_walk ew = { .d = d, .root = root };
	unsigned int i;

	pc_sysfs_pmu_names(root, add_pmu, &w);
	for (i = 0; !w.err && i < d->n_pmus; i++)
		w.err = read_pmu(&d->pmus[i], root);
	if (w.err)
		return w.err;
	set_spans(d);
	pc_sysfs_names(root, take_event, &ew);
	return ew.err;
}
