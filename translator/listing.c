// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * listing.c - stap --dump-counters and stap -l/-L 'perfctr...': what the
 * machine offers, as perfctr-run lists it (the helper library's dump:
 * libpfm4, sysfs, trial opens); the front-end links none of that, and
 * the real stap does not know perfctr and is not run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libperfctr.h"
#include "listing.h"
#include "probematch.h"
#include "spawn.h"

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

/* The names perfctr-run lists (--dump-counters=names): those a script
 * can count here, each with its mark after a tab where it has one
 * (".socket": only .socket counts it; libperfctr.h, PERFCTR_NAMES_*),
 * and those it cannot, each with why after a tab (a why never starts
 * with a dot). */
struct names {
	char *text;		/* the listing, cut into lines in place */
	struct strs open;	/* can be counted here */
	struct strs mark;	/* the mark of each (same order), or "" */
	struct strs closed, why;	/* cannot, and why (same order) */
};

static void names_free(struct names *n)
{
	strs_free(&n->open);
	strs_free(&n->mark);
	strs_free(&n->closed);
	strs_free(&n->why);
	free(n->text);
}

static int names_read(const char *helper, struct names *n)
{
	char *argv[] = { (char *)helper, "--dump-counters=names", NULL };
	struct strbuf out = { 0 };
	char *line, *next, *tab;
	int ret;

	memset(n, 0, sizeof(*n));
	ret = spawn__capture(helper, argv, STDOUT_FILENO, 0, &out);
	if (ret) {
		strbuf__free(&out);
		return ret < 0 ? -EAGAIN : ret;
	}
	n->text = out.buf;
	for (line = n->text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		tab = strchr(line, '\t');
		if (tab)
			*tab++ = '\0';
		if (!tab || *tab == '.') {
			strs_add(line, &n->open);
			strs_add(tab ? tab : "", &n->mark);
		} else {
			strs_add(line, &n->closed);
			strs_add(tab, &n->why);
		}
	}
	return n->open.err ? n->open.err : n->mark.err ? n->mark.err :
	       n->closed.err ? n->closed.err : n->why.err;
}

/* Where s is in l, or l->n. */
static size_t strs_find(const struct strs *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			break;
	return i;
}

/* The mark of open name i, NULL for none. */
static const char *mark_of(const struct names *n, size_t i)
{
	return i < n->mark.n && n->mark.v[i][0] ? n->mark.v[i] : NULL;
}

/* --dump-counters[=FORMAT]: perfctr-run's own, which says what is wrong
 * with a FORMAT it does not know. */
static int dump_counters(const char *helper, const char *format)
{
	char *arg, *argv[] = { (char *)helper, NULL, NULL };

	if (asprintf(&arg, "--dump-counters%s%s", *format ? "=" : "",
		     format) < 0) {
		fprintf(stderr, "stap-perfctr: out of memory\n");
		return 1;
	}
	argv[1] = arg;
	fflush(NULL);
	spawn__exec(helper, argv);
	fprintf(stderr, "stap-perfctr: cannot run %s: %s\n", helper,
		strerror(errno));
	free(arg);
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

/* A glob that matches only events this machine cannot count: name the
 * first, and why.  True if it said so. */
static int only_closed(const char *text, const struct pm_pattern *p,
		       const struct names *n)
{
	size_t i, hits, first = n->closed.n, more = 0;

	for (i = 0; i < n->closed.n; i++) {
		hits = 0;
		probematch__event(p, n->closed.v[i], NULL, 1, count_point, &hits);
		if (!hits)
			continue;
		if (first == n->closed.n)
			first = i;
		else
			more++;
	}
	if (first == n->closed.n)
		return 0;
	fprintf(stderr, "semantic error: probe point mismatch: no perfctr probe "
		"point matches %s: event \"%s\"", text, n->closed.v[first]);
	if (more)
		fprintf(stderr, " (and %zu more)", more);
	fprintf(stderr, " would, but cannot be counted here: %s\n",
		n->why.v[first]);
	return 1;
}

/* An event the pattern names that cannot be counted here (why), or
 * that is nowhere (the nearest names). */
static void not_here(const char *ev, const struct names *n)
{
	size_t i = strs_find(&n->closed, ev), k;
	const char *near[3];

	if (i < n->closed.n) {
		fprintf(stderr, "semantic error: perfctr event \"%s\" cannot be "
			"counted here: %s\n", ev, n->why.v[i]);
		return;
	}
	fprintf(stderr, "semantic error: no perfctr event \"%s\" here", ev);
	k = perfctr_suggest(ev, (const char *const *)n->open.v, n->open.n,
			    near, ARRAY_SIZE(near));
	for (i = 0; i < k; i++)
		fprintf(stderr, "%s\"%s\"", i == 0 ? "; did you mean " :
			i + 1 == k ? " or " : ", ", near[i]);
	fprintf(stderr, "%s (stap-perfctr --dump-counters lists them)\n",
		k ? "?" : "");
}

/* Why nothing matched, in stap's words where stap has them. */
static void no_match(const char *text, const struct pm_pattern *p,
		     const struct names *n)
{
	const char *comp = probematch__unknown_component(p);
	const char *ev = probematch__event_literal(p), *mark = NULL;
	char similar[128], why[512];
	size_t at = ev ? strs_find(&n->open, ev) : n->open.n;

	if (comp) {
		probematch__similar(comp, similar, sizeof(similar));
		fprintf(stderr, "semantic error: probe point mismatch%s%s%s: "
			"identifier '%s' in %s\n", similar[0] ? " (similar: " : "",
			similar, similar[0] ? ")" : "", comp, text);
		return;
	}
	if (ev && at == n->open.n) {
		not_here(ev, n);
		return;
	}
	if (ev)
		mark = mark_of(n, at);
	if (mark && !strcmp(mark, PERFCTR_NAMES_SOCKET)) {
		fprintf(stderr, "semantic error: probe point mismatch: no perfctr "
			"probe point matches %s: event \"%s\" is of a PMU with "
			"a cpumask, counted once per socket: its point is "
			"perfctr.event(\"%s\").socket.counter(\"ID\")\n", text,
			ev, ev);
		return;
	}
	if (probematch__why(p, ev, mark, why, sizeof(why))) {
		fprintf(stderr, "semantic error: probe point mismatch: no perfctr "
			"probe point matches %s: %s\n", text, why);
		return;
	}
	if (!ev && only_closed(text, p, n))
		return;
	fprintf(stderr, "semantic error: probe point mismatch: no perfctr "
		"probe point matches %s\n", text);
}

static int list_points(const char *helper, const char *text, int forms)
{
	struct strs points = { 0 };
	struct pm_pattern p;
	struct names n;
	char err[256];
	size_t i;
	int ret;

	if (probematch__parse(text, &p, err, sizeof(err))) {
		fprintf(stderr, "parse error: %s in probe point pattern %s\n",
			err, text);
		return 1;
	}
	ret = names_read(helper, &n);
	if (ret > 0) {		/* perfctr-run said why */
		names_free(&n);
		return 1;
	}
	for (i = 0; !ret && i < n.open.n; i++)
		probematch__event(&p, n.open.v[i], mark_of(&n, i), forms,
				  strs_add, &points);
	ret = ret ? ret : points.err;
	if (!ret && points.n) {
		qsort(points.v, points.n, sizeof(*points.v), cmp);
		for (i = 0; i < points.n; i++)
			if (i == 0 || strcmp(points.v[i], points.v[i - 1]))
				puts(points.v[i]);
	} else if (!ret) {
		no_match(text, &p, &n);
	} else {
		fprintf(stderr, "stap-perfctr: cannot list the events with "
			"%s: %s\n", helper, strerror(-ret));
	}
	ret = ret || !points.n || fflush(stdout) || ferror(stdout);
	strs_free(&points);
	names_free(&n);
	return ret;
}

int listing__run(const struct cmdline *cl, const char *helper)
{
	if (cl->dump_counters)
		return dump_counters(helper, cl->dump_counters);
	if (!cl->list_pattern || cl->n_dump != 1 || cl->parse_failed ||
	    cl->e_index >= 0 || cl->n_big_e ||
	    !probematch__is_perfctr(cl->list_pattern))
		return -1;
	return list_points(helper, cl->list_pattern, cl->list_vars);
}
