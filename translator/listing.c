// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * listing.c - stap --dump-counters and stap -l/-L 'perfctr...': what the
 * machine offers, from the helper library's dump, printed by us; the
 * real stap does not know perfctr and is not run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libperfctr.h"
#include "listing.h"
#include "probematch.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A growing list of strings (owned). */
struct strs {
	char **v;
	size_t n, cap;
	int err;
};

static void strs_add(const char *s, void *ctx)
{
	struct strs *l = ctx;
	char **grown;

	if (l->err)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		grown = realloc(l->v, l->cap * sizeof(*l->v));
		if (!grown) {
			l->err = -ENOMEM;
			return;
		}
		l->v = grown;
	}
	if (!(l->v[l->n] = strdup(s)))
		l->err = -ENOMEM;
	else
		l->n++;
}

static void strs_free(struct strs *l)
{
	while (l->n > 0)
		free(l->v[--l->n]);
	free(l->v);
}

static int collect(struct perfctr_dump **d)
{
	struct perfctr_dump_opts opts = {
		.sz = sizeof(opts),
		.sysfs_root = getenv("PERFCTR_SYSFS_ROOT"),
	};
	int ret = perfctr_dump__collect(&opts, d);

	if (ret)
		fprintf(stderr, "stap-perfctr: cannot collect the counters: %s\n",
			strerror(-ret));
	return ret;
}

static int dump_counters(const char *format)
{
	char err[256];

	if (perfctr_dump__print(format, getenv("PERFCTR_SYSFS_ROOT"), stdout,
				err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "stap-perfctr: %s\n", err);
	return 1;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void count_point(const char *point, void *ctx)
{
	(*(size_t *)ctx)++;
}

/* A glob that matches only generic events this machine cannot count:
 * name the first, and why.  True if it said so. */
static int only_closed(const char *text, const struct pm_pattern *p,
		       const struct perfctr_dump *d)
{
	size_t i, hits, first = d->n_generic, more = 0;
	char why[256];

	for (i = 0; i < d->n_generic; i++) {
		hits = 0;
		if (!d->generic[i].open_err)
			continue;
		probematch__event(p, d->generic[i].name, 1, count_point, &hits);
		if (!hits)
			continue;
		if (first == d->n_generic)
			first = i;
		else
			more++;
	}
	if (first == d->n_generic)
		return 0;
	perfctr_trial__explain(d->generic[first].open_err, why, sizeof(why));
	fprintf(stderr, "semantic error: probe point mismatch: no perfctr probe "
		"point matches %s: event \"%s\"", text,
		d->generic[first].name);
	if (more)
		fprintf(stderr, " (and %zu more)", more);
	fprintf(stderr, " would, but cannot be counted here: %s\n", why);
	return 1;
}

/* Why nothing matched, in stap's words where stap has them. */
static void no_match(const char *text, const struct pm_pattern *p,
		     const struct perfctr_dump *d, const struct strs *names)
{
	const char *comp = probematch__unknown_component(p), *near[3];
	const char *ev = probematch__event_literal(p);
	char similar[128], why[256];
	size_t i, n;

	if (comp) {
		probematch__similar(comp, similar, sizeof(similar));
		fprintf(stderr, "semantic error: probe point mismatch%s%s%s: "
			"identifier '%s' in %s\n", similar[0] ? " (similar: " : "",
			similar, similar[0] ? ")" : "", comp, text);
		return;
	}
	for (i = 0; ev && i < names->n && strcmp(names->v[i], ev); i++)
		;
	if (!ev || i < names->n) {
		if (!ev && only_closed(text, p, d))
			return;
		fprintf(stderr, "semantic error: probe point mismatch: no perfctr "
			"probe point matches %s\n", text);
		return;
	}
	for (i = 0; i < d->n_generic; i++)
		if (!strcmp(d->generic[i].name, ev) && d->generic[i].open_err) {
			perfctr_trial__explain(d->generic[i].open_err, why,
					       sizeof(why));
			fprintf(stderr, "semantic error: perfctr event \"%s\" "
				"cannot be counted here: %s\n", ev, why);
			return;
		}
	fprintf(stderr, "semantic error: no perfctr event \"%s\" here", ev);
	n = perfctr_suggest(ev, (const char *const *)names->v, names->n, near,
			    ARRAY_SIZE(near));
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s\"%s\"", i == 0 ? "; did you mean " :
			i + 1 == n ? " or " : ", ", near[i]);
	fprintf(stderr, "%s (stap --dump-counters lists them)\n",
		n ? "?" : "");
}

static int list_points(const char *text, int forms)
{
	struct strs names = { 0 }, points = { 0 };
	struct perfctr_dump *d;
	struct pm_pattern p;
	char err[256];
	size_t i;
	int ret;

	if (probematch__parse(text, &p, err, sizeof(err))) {
		fprintf(stderr, "parse error: %s in probe point pattern %s\n",
			err, text);
		return 1;
	}
	if (collect(&d))
		return 1;
	ret = perfctr_dump__names(d, strs_add, &names);
	for (i = 0; !ret && i < names.n; i++)
		probematch__event(&p, names.v[i], forms, strs_add, &points);
	ret = ret ? ret : names.err ? names.err : points.err;
	if (!ret && points.n) {
		qsort(points.v, points.n, sizeof(*points.v), cmp);
		for (i = 0; i < points.n; i++)
			if (i == 0 || strcmp(points.v[i], points.v[i - 1]))
				puts(points.v[i]);
	} else if (!ret) {
		no_match(text, &p, d, &names);
	} else {
		fprintf(stderr, "stap-perfctr: %s\n", strerror(-ret));
	}
	ret = ret || !points.n || fflush(stdout) || ferror(stdout);
	strs_free(&names);
	strs_free(&points);
	perfctr_dump__free(d);
	return ret;
}

int listing__run(const struct cmdline *cl)
{
	if (cl->dump_counters)
		return dump_counters(cl->dump_counters);
	if (!cl->list_pattern || cl->n_dump != 1 || cl->parse_failed ||
	    cl->e_index >= 0 || cl->n_big_e ||
	    !probematch__is_perfctr(cl->list_pattern))
		return -1;
	return list_points(cl->list_pattern, cl->list_vars);
}
