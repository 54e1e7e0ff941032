/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump.c - collect what the machine offers (PMUs, their counters and
 * events, perf's generic events) and who holds counters now, as data;
 * and the small helpers the other dump files share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dump.h"

#define READ_MAX (1 << 20)

/* Does the caller's (maybe older, smaller) opts struct have field? */
#define OPTS_HAS(opts, field)						\
	((opts) && (opts)->sz >= offsetof(struct perfctr_dump_opts, field) + \
			       sizeof((opts)->field))

void *pc_dump_grow(void *arr, unsigned int n, size_t size)
{
	/* capacity 4, then doubled each time n reaches a power of two */
	if (n == 0)
		return realloc(arr, 4 * size);
	if (n >= 4 && !(n & (n - 1)))
		return realloc(arr, (size_t)n * 2 * size);
	return arr;
}

char *pc_dump_strdup(const char *s)
{
	return strdup(s ? s : "");
}

int pc_dump_read(int dirfd, const char *path, char **text)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap + 1), *grown;
	ssize_t n = 0;
	int fd, err = 0;

	*text = NULL;
	if (!buf)
		return -ENOMEM;
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	while (!err && (n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len < cap)
			continue;
		if (cap >= READ_MAX) {
			err = -EFBIG;
		} else if (!(grown = realloc(buf, 2 * cap + 1))) {
			err = -ENOMEM;
		} else {
			buf = grown;
			cap *= 2;
		}
	}
	if (!err && n < 0)
		err = -errno;
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	while (len > 0 && strchr(" \t\n", buf[len - 1]))
		len--;
	buf[len] = '\0';
	*text = buf;
	return (int)len;
}

static int attr_cmp(const void *a, const void *b)
{
	const struct perfctr_dump_attr *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

void pc_dump_sort_attrs(struct perfctr_dump_attr *a, unsigned int n)
{
	if (n)
		qsort(a, n, sizeof(*a), attr_cmp);
}

void pc_dump_attrs_free(struct perfctr_dump_attr *a, unsigned int n)
{
	while (n-- > 0) {
		free(a[n].name);
		free(a[n].desc);
	}
}

struct perfctr_dump_pmu *pc_dump_add_pmu(struct perfctr_dump *d,
					 const char *name)
{
	struct perfctr_dump_pmu *p;
	char *copy = strdup(name);

	if (!copy || !(p = PC_PUSH(d->pmus, d->n_pmus))) {
		free(copy);
		return NULL;
	}
	p->name = copy;
	p->type = PERFCTR_UNKNOWN;
	p->general = p->fixed = PERFCTR_UNKNOWN;
	p->general_bits = p->fixed_bits = PERFCTR_UNKNOWN;
	return p;
}

static int event_cmp(const void *a, const void *b)
{
	return strcmp(((const struct perfctr_dump_event *)a)->name,
		      ((const struct perfctr_dump_event *)b)->name);
}

static int pmu_cmp(const void *a, const void *b)
{
	return strcmp(((const struct perfctr_dump_pmu *)a)->name,
		      ((const struct perfctr_dump_pmu *)b)->name);
}

static void sort_all(struct perfctr_dump *d)
{
	struct perfctr_dump_pmu *p;
	unsigned int i, j;

	if (d->n_pmus)
		qsort(d->pmus, d->n_pmus, sizeof(*d->pmus), pmu_cmp);
	for (i = 0; i < d->n_pmus; i++) {
		p = &d->pmus[i];
		pc_dump_sort_attrs(p->caps, p->n_caps);
		pc_dump_sort_attrs(p->terms, p->n_terms);
		if (p->n_events)
			qsort(p->events, p->n_events, sizeof(*p->events),
			      event_cmp);
		for (j = 0; j < p->n_events; j++)
			pc_dump_sort_attrs(p->events[j].attrs,
					   p->events[j].n_attrs);
	}
}

/* Widths for the CPU PMUs that libpfm4 did not describe: this CPU's. */
static void sysfs_widths(struct perfctr_dump *d)
{
	struct pc_cpuid c;
	unsigned int i;

	pc_cpuid_read(&c);
	for (i = 0; i < d->n_pmus; i++)
		if (!d->pmus[i].pfm_name)
			pc_hw_widths(&d->pmus[i],
				     pc_hw_family(NULL, 0, d->pmus[i].name, &c),
				     &c, 0);
}

static int first_cpu(const char *root)
{
	int *cpus, n = perfctr_cpus__online(root, &cpus), cpu;

	cpu = n > 0 ? cpus[0] : 0;
	free(cpus);
	return cpu;
}

int perfctr_dump__collect(const struct perfctr_dump_opts *opts,
			  struct perfctr_dump **out)
{
	const char *root = "/sys";
	struct perfctr_dump *d;
	int ret, n;

	*out = NULL;
	if (opts && opts->sz < sizeof(opts->sz))
		return -EINVAL;
	if (OPTS_HAS(opts, sysfs_root) && opts->sysfs_root)
		root = opts->sysfs_root;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->trial_cpu = OPTS_HAS(opts, no_trial) && opts->no_trial ?
		       -1 : first_cpu(root);
	ret = pc_dump_sysfs(d, root);
	if (!ret && !(OPTS_HAS(opts, no_libpfm) && opts->no_libpfm))
		ret = pc_dump_pfm(d);
	if (!ret) {
		sysfs_widths(d);
		sort_all(d);
		ret = pc_dump_generic(d, d->trial_cpu);
	}
	if (!ret) {
		d->nmi_watchdog = perfctr_watchdog__holds_counter();
		n = perfctr_holders__read(root, &d->holders);
		ret = n < 0 ? n : 0;
		d->n_holders = n < 0 ? 0 : n;
	}
	if (ret) {
		perfctr_dump__free(d);
		return ret;
	}
	*out = d;
	return 0;
}

static void pmu_free(struct perfctr_dump_pmu *p)
{
	unsigned int i;

	for (i = 0; i < p->n_events; i++) {
		free(p->events[i].name);
		free(p->events[i].desc);
		pc_dump_attrs_free(p->events[i].attrs, p->events[i].n_attrs);
		free(p->events[i].attrs);
	}
	free(p->events);
	pc_dump_attrs_free(p->caps, p->n_caps);
	free(p->caps);
	pc_dump_attrs_free(p->terms, p->n_terms);
	free(p->terms);
	free(p->name);
	free(p->cpus);
	free(p->pfm_name);
	free(p->pfm_desc);
}

void perfctr_dump__free(struct perfctr_dump *d)
{
	unsigned int i;

	if (!d)
		return;
	for (i = 0; i < d->n_pmus; i++)
		pmu_free(&d->pmus[i]);
	free(d->pmus);
	for (i = 0; i < d->n_generic; i++)
		free(d->generic[i].name);
	free(d->generic);
	perfctr_holders__free(d->holders, d->n_holders);
	free(d);
}
