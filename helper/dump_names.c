/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_names.c - from a dump, the event names a script can write, as it
 * would write them: those that can be counted here (what stap -l
 * 'perfctr.**' lists), each with a mark where its points are not every
 * point (only .socket counts it, or only per CPU with .cpus("PMU"), or it
 * samples without .precise), and those that cannot, each with why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "dump.h"

/* Trial-open errors that mean the kernel has no such event.  Any other
 * (no permission, no room now) leaves the name listed. */
static const int absent_errors[] = { ENOENT, EOPNOTSUPP, EINVAL, ENODEV };

struct name {
	char *name;
	char *why;		/* NULL: can be counted here */
	char *mark;		/* NULL, or PERFCTR_NAMES_* (libperfctr.h) */
};

struct names {
	struct name *v;
	unsigned int n;
	int err;
};

/* Takes name (NULL: out of memory); copies why and mark. */
static void add(struct names *s, char *name, const char *why,
		const char *mark)
{
	char *w = why ? strdup(why) : NULL, *m = mark ? strdup(mark) : NULL;
	struct name *slot;

	if (!name || (why && !w) || (mark && !m) || s->err ||
	    !(slot = PC_PUSH(s->v, s->n))) {
		free(name);
		free(w);
		free(m);
		s->err = -ENOMEM;
		return;
	}
	slot->name = name;
	slot->why = w;
	slot->mark = m;
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

/* Can p sample skid-free: a caps/max_precise above 0, which perfctr-run
 * needs for .precise (sample.c)? */
static int pmu_precise(const struct perfctr_dump_pmu *p)
{
	unsigned int i;

	for (i = 0; p && i < p->n_caps; i++)
		if (!strcmp(p->caps[i].name, "max_precise"))
			return atoi(p->caps[i].desc) > 0;
	return 0;
}

/* The mark of p's events: only .socket counts them (a cpumask), only
 * per CPU on its own CPUs (one core PMU of several), or they sample
 * without .precise; NULL when every point is theirs. */
static const char *pmu_mark(const struct perfctr_dump_pmu *p, char *buf,
			    size_t len)
{
	if (p->span == PERFCTR_SPAN_SOCKET)
		return PERFCTR_NAMES_SOCKET;
	if (p->span == PERFCTR_SPAN_HYBRID) {
		snprintf(buf, len, PERFCTR_NAMES_CPUS "(\"%s\")", p->name);
		return buf;
	}
	return pmu_precise(p) ? NULL : PERFCTR_NAMES_IMPRECISE;
}

/* A generic event's mark: a software event samples without .precise,
 * a hardware or cache one as the PMU that takes them (type
 * PERF_TYPE_RAW's, as perfctr-run looks it up). */
static const char *generic_mark(const struct perfctr_dump *d,
				const struct perfctr_dump_generic *g)
{
	unsigned int i;

	if (g->enc.type != PERF_TYPE_HARDWARE &&
	    g->enc.type != PERF_TYPE_HW_CACHE)
		return PERFCTR_NAMES_IMPRECISE;
	for (i = 0; i < d->n_pmus; i++)
		if (d->pmus[i].type == PERF_TYPE_RAW)
			return pmu_precise(&d->pmus[i]) ? NULL :
			       PERFCTR_NAMES_IMPRECISE;
	return PERFCTR_NAMES_IMPRECISE;
}

/* A libpfm4 event alone needs a default umask when it has umasks. */
static void add_pfm(struct names *s, const struct perfctr_dump_event *e,
		    const char *why, const char *mark)
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
		add(s, name, why, mark);
	}
	if (!umasks || dfl)
		add(s, strdup(e->name), why, mark);
}

static void add_pmu(struct names *s, const struct perfctr_dump_pmu *p)
{
	const struct perfctr_dump_event *e;
	const char *w = NULL, *mark = NULL;
	char why[512], buf[PERFCTR_NAME_MAX];
	unsigned int i;

	if (!pc_dump_pmu_opens(p)) {
		pc_dump_pmu_why(p, why, sizeof(why));
		w = why;
	} else {
		mark = pmu_mark(p, buf, sizeof(buf));
	}
	for (i = 0; i < p->n_events; i++) {
		e = &p->events[i];
		if (e->source == PERFCTR_SRC_LIBPFM4)
			add_pfm(s, e, w, mark);
		else
			add(s, strdup(e->name), w, mark);
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
		if (pc_dump_generic_opens(g))
			add(s, strdup(g->name), NULL, generic_mark(d, g));
		else
			add(s, strdup(g->name), why, NULL);
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
		free(s->v[i].mark);
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
		if (s.v[i].why || s.v[i].mark)
			fprintf(f, "%s\t%s\n", s.v[i].name,
				s.v[i].why ? s.v[i].why : s.v[i].mark);
		else
			fprintf(f, "%s\n", s.v[i].name);
	}
	names_free(&s);
	if (ret)
		return ret;
	return fflush(f) || ferror(f) ? -EIO : 0;
}
