/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_names.c - from a dump, the event names a script can write, as it
 * would write them: those that can be counted here (what stap -l
 * 'perfctr.**' lists), said when only .socket counts them, and those
 * that cannot, each with why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dump.h"

/* Trial-open errors that mean the kernel has no such event.  Any other
 * (no permission, no room now) leaves the name listed. */
static const int absent_errors[] = { ENOENT, EOPNOTSUPP, EINVAL, ENODEV };

struct name {
	char *name;
	char *why;		/* NULL: can be counted here */
	int socket;		/* its PMU has a cpumask: only .socket */
};

struct names {
	struct name *v;
	unsigned int n;
	int err;
};

/* Takes name and why (either may be NULL: out of memory). */
static void add(struct names *s, char *name, const char *why, int socket)
{
	char *w = why ? strdup(why) : NULL;
	struct name *slot;

	if (!name || (why && !w) || s->err || !(slot = PC_PUSH(s->v, s->n))) {
		free(name);
		free(w);
		s->err = -ENOMEM;
		return;
	}
	slot->name = name;
	slot->why = w;
	slot->socket = socket;
}

int pc_dump_generic_opens(const struct perfctr_dump_generic *g)
{
	size_t i;

	for (i = 0; g->tried && i < ARRAY_SIZE(absent_errors); i++)
		if (g->open_err == -absent_errors[i])
			return 0;
	return 1;
}

int pc_dump_pmu_opens(const struct perfctr_dump_pmu *p)
{
	return p->type >= 0;
}

void pc_dump_pmu_why(const struct perfctr_dump_pmu *p, char *buf, size_t len)
{
	if (p->pfm_name)
		snprintf(buf, len, "the kernel has no PMU for libpfm4's %s "
			 "(%s): none in sysfs takes its events", p->pfm_name,
			 p->pfm_desc);
	else
		snprintf(buf, len, "the PMU %s has no type in sysfs", p->name);
}

/* A libpfm4 event alone needs a default umask when it has umasks. */
static void add_pfm(struct names *s, const struct perfctr_dump_event *e,
		    const char *why, int socket)
{
	const struct perfctr_dump_attr *a;
	int umasks = 0, dfl = 0;
	unsigned int i;
	char *name;

	for (i = 0; i < e->n_attrs; i++) {
		a = &e->attrs[i];
		if (a->kind != PERFCTR_ATTR_UMASK)
			continue;
		umasks++;
		dfl |= a->is_default;
		if (asprintf(&name, "%s:%s", e->name, a->name) < 0)
			name = NULL;
		add(s, name, why, socket);
	}
	if (!umasks || dfl)
		add(s, strdup(e->name), why, socket);
}

static void add_pmu(struct names *s, const struct perfctr_dump_pmu *p)
{
	const struct perfctr_dump_event *e;
	const char *w = NULL;
	char why[512];
	unsigned int i;
	int socket = p->span == PERFCTR_SPAN_SOCKET;

	if (!pc_dump_pmu_opens(p)) {
		pc_dump_pmu_why(p, why, sizeof(why));
		w = why;
	}
	for (i = 0; i < p->n_events; i++) {
		e = &p->events[i];
		if (e->source == PERFCTR_SRC_LIBPFM4)
			add_pfm(s, e, w, socket);
		else
			add(s, strdup(e->name), w, socket);
	}
}

/* By name; a name both here and not (two PMUs) sorts here first. */
static int cmp(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->why != NULL) - (y->why != NULL);
}

static int collect(const struct perfctr_dump *d, struct names *s)
{
	const struct perfctr_dump_generic *g;
	char why[256];
	unsigned int i;

	for (i = 0; i < d->n_generic; i++) {
		g = &d->generic[i];
		if (!pc_dump_generic_opens(g))
			perfctr_trial__explain(g->open_err, why, sizeof(why));
		add(s, strdup(g->name), pc_dump_generic_opens(g) ? NULL : why, 0);
	}
	for (i = 0; i < d->n_pmus; i++)
		add_pmu(s, &d->pmus[i]);
	if (!s->err && s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp);
	return s->err;
}

static void names_free(struct names *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].why);
	}
	free(s->v);
}

/* Is entry i the first of its name?  (Sorted: the one that can be
 * counted comes first.) */
static int first(const struct names *s, unsigned int i)
{
	return i == 0 || strcmp(s->v[i].name, s->v[i - 1].name);
}

int perfctr_dump__names(const struct perfctr_dump *d, perfctr_name_fn *fn,
			void *ctx)
{
	struct names s = { 0 };
	unsigned int i;
	int ret = collect(d, &s);

	for (i = 0; !ret && i < s.n; i++)
		if (first(&s, i) && !s.v[i].why)
			fn(s.v[i].name, ctx);
	names_free(&s);
	return ret;
}

int perfctr_dump__closed_names(const struct perfctr_dump *d,
			       perfctr_closed_fn *fn, void *ctx)
{
	struct names s = { 0 };
	unsigned int i;
	int ret = collect(d, &s);

	for (i = 0; !ret && i < s.n; i++)
		if (first(&s, i) && s.v[i].why)
			fn(s.v[i].name, s.v[i].why, ctx);
	names_free(&s);
	return ret;
}

int perfctr_dump__write_names(const struct perfctr_dump *d, FILE *f)
{
	struct names s = { 0 };
	unsigned int i;
	int ret = collect(d, &s);

	for (i = 0; !ret && i < s.n; i++) {
		if (!first(&s, i))
			continue;
		if (s.v[i].why)
			fprintf(f, "%s\t%s\n", s.v[i].name, s.v[i].why);
		else if (s.v[i].socket)
			fprintf(f, "%s\t" PERFCTR_NAMES_SOCKET "\n", s.v[i].name);
		else
			fprintf(f, "%s\n", s.v[i].name);
	}
	names_free(&s);
	if (ret)
		return ret;
	return fflush(f) || ferror(f) ? -EIO : 0;
}
