// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probematch.c - stap -l / -L patterns over the perfctr probe points,
 * in the order parser.c enforces: a counter is
 *   perfctr.event("E")[.user|.kernel]
 *     [.cpu|.thread|.process[("PATH")]|.cgroup("PATH")]
 *     [.multiplex].counter("ID")	(.multiplex per CPU only)
 * or, for an event of a PMU with a cpumask (uncore, RAPL, C-state),
 *   perfctr.event("E").socket.counter("ID")
 * and a sampling probe
 *   perfctr.event("E")[.user|.kernel][.cpu|.process[("PATH")]]
 *     .sample(N)|.hz(F)[.precise[(L)]]
 * A pattern is matched component by component, as stap matches its own
 * probe points.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "probematch.h"

#define POINT_MAX 1024
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Every component name a perfctr point has (for "similar: ..."). */
static const char *const comp_names[] = {
	"perfctr", "event", "user", "kernel", "cpu", "thread", "process",
	"cgroup", "socket", "cpus", "multiplex", "counter", "sample", "hz",
	"precise",
};

/* The optional components: a point has at most one of each row. */
static const char *const plm_forms[] = { NULL, "user", "kernel" };
static const char *const scope_forms[] = {
	NULL, "cpu", "thread", "process", "cgroup"
};
static const char *const mux_forms[] = { NULL, "multiplex" };
/* A sampling probe's rate, and what stands for its number in a point
 * the pattern gives none for. */
static const char *const rate_forms[][2] = { { "sample", "N" }, { "hz", "F" } };
static const char *const precise_forms[] = { NULL, "precise" };

/* One component of a candidate point. */
struct cand {
	const char *name;
	const char *arg;	/* NULL: takes no argument */
	int optional;
	int any_arg;		/* the script chooses it: any pattern matches */
	int number;		/* a number: written without quotes */
};

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

int probematch__is_perfctr(const char *text)
{
	while (isspace((unsigned char)*text))
		text++;
	return !strncmp(text, "perfctr", 7) &&
	       (text[7] == '.' || text[7] == '\0' ||
		isspace((unsigned char)text[7]));
}

static void skip_space(const char **s)
{
	while (isspace((unsigned char)**s))
		(*s)++;
}

static int bad(char *err, size_t len, const char *what, const char *at)
{
	snprintf(err, len, "%s at '%s'", what, *at ? at : "end of pattern");
	return -EINVAL;
}

/* A string literal, with stap's backslash escapes kept simple: a
 * backslash takes the next character as it is. */
static int string_arg(const char **s, char *out, size_t len, char *err,
		      size_t errlen)
{
	const char *p = *s;
	size_t n = 0;

	if (*p != '"')
		return bad(err, errlen, "expected a string literal", p);
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		if (n + 1 >= len)
			return bad(err, errlen, "string too long", *s);
		out[n++] = *p;
	}
	if (*p != '"')
		return bad(err, errlen, "unterminated string", *s);
	out[n] = '\0';
	*s = p + 1;
	return 0;
}

/* A number argument (.sample(N)), globs allowed. */
static int number_arg(const char **s, char *out, size_t len, char *err,
		      size_t errlen)
{
	size_t n = strspn(*s, "0123456789*?[]");

	if (n == 0)
		return bad(err, errlen, "expected a string literal or a number",
			   *s);
	if (n >= len)
		return bad(err, errlen, "number too long", *s);
	memcpy(out, *s, n);
	out[n] = '\0';
	*s += n;
	return 0;
}

static int component(const char **s, struct pm_comp *c, char *err,
		     size_t errlen)
{
	size_t n = strspn(*s, "abcdefghijklmnopqrstuvwxyz"
			  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_*?[]");

	if (n == 0)
		return bad(err, errlen, "expected a probe point component", *s);
	if (n >= sizeof(c->name))
		return bad(err, errlen, "component name too long", *s);
	memcpy(c->name, *s, n);
	c->name[n] = '\0';
	*s += n;
	skip_space(s);
	if (**s != '(')
		return 0;
	(*s)++;
	skip_space(s);
	if (**s == '"' ? string_arg(s, c->arg, sizeof(c->arg), err, errlen) :
	    number_arg(s, c->arg, sizeof(c->arg), err, errlen))
		return -EINVAL;
	skip_space(s);
	if (**s != ')')
		return bad(err, errlen, "expected ')'", *s);
	(*s)++;
	c->has_arg = 1;
	return 0;
}

int probematch__parse(const char *text, struct pm_pattern *p, char *err,
		      size_t errlen)
{
	const char *s = text;

	memset(p, 0, sizeof(*p));
	for (;;) {
		skip_space(&s);
		if (p->n == PM_COMPS_MAX)
			return bad(err, errlen, "too many components", s);
		if (component(&s, &p->c[p->n], err, errlen))
			return -EINVAL;
		p->n++;
		skip_space(&s);
		if (*s == '\0')
			return 0;
		if (*s != '.')
			return bad(err, errlen, "expected '.' or the end", s);
		s++;
	}
}

static int comp_match(const struct pm_comp *pc, const struct cand *c)
{
	if (fnmatch(pc->name, c->name, 0))
		return 0;
	if (!pc->has_arg)
		return 1;	/* stap would want one; the point is clear */
	return c->arg && (c->any_arg || !fnmatch(pc->arg, c->arg, 0));
}

/* strict (-l): an optional component must be named, not globbed. */
static int match(const struct pm_pattern *p, int pi, const struct cand *c,
		 int nc, int ci, int strict)
{
	const struct pm_comp *pc = &p->c[pi];

	if (pi == p->n) {		/* the rest of the point is implied */
		for (; ci < nc; ci++)
			if (strict && c[ci].optional)
				return 0;
		return 1;
	}
	if (!strcmp(pc->name, "**"))
		return match(p, pi + 1, c, nc, ci, strict) ||
		       (ci < nc && !(strict && c[ci].optional) &&
			match(p, pi, c, nc, ci + 1, strict));
	if (ci == nc || !comp_match(pc, &c[ci]) ||
	    (strict && c[ci].optional && is_glob(pc->name)))
		return 0;
	return match(p, pi + 1, c, nc, ci + 1, strict);
}

static void render(char *buf, size_t len, const struct cand *c, int nc)
{
	size_t n = 0;
	const char *a;
	int i;

	for (i = 0; i < nc && n + 4 < len; i++) {
		n += snprintf(buf + n, len - n, "%s%s", i ? "." : "", c[i].name);
		if (!c[i].arg || n + 4 >= len)
			continue;
		buf[n++] = '(';
		if (!c[i].number)
			buf[n++] = '"';
		for (a = c[i].arg; *a && n + 4 < len; a++) {
			if (*a == '"' || *a == '\\')
				buf[n++] = '\\';
			buf[n++] = *a;
		}
		if (!c[i].number)
			buf[n++] = '"';
		buf[n++] = ')';
		buf[n] = '\0';
	}
}

/* What a point shows for the argument of its component name: the
 * pattern's own, when it gives one without a glob; else stand_in, or
 * NULL (no argument) when the pattern gives none and the argument is
 * optional. */
static const char *arg_for(const struct pm_pattern *p, const char *name,
			   const char *stand_in, int optional)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].name, name) && p->c[i].has_arg)
			return is_glob(p->c[i].arg) ? stand_in : p->c[i].arg;
	return optional ? NULL : stand_in;
}

/* The argument of scope component name: .process's optional path,
 * .cgroup's required one; NULL where the scope takes none. */
static const char *scope_arg(const struct pm_pattern *p, const char *name)
{
	if (!strcmp(name, "process"))
		return arg_for(p, name, "PATH", 1);
	if (!strcmp(name, "cgroup"))
		return arg_for(p, name, "PATH", 0);
	return NULL;
}

/* One candidate point, its optional components NULL where absent: each
 * that p matches goes to fn.  A scope is optional in the point but
 * .socket, which its events must name. */
struct form {
	const char *plm, *scope, *mux, *rate, *rate_arg, *precise;
};

static int try_form(const struct pm_pattern *p, const char *event,
		    const struct form *f, int forms, pm_point_fn *fn,
		    void *ctx)
{
	char point[POINT_MAX];
	struct cand c[8];
	int nc = 0;

	c[nc++] = (struct cand){ "perfctr", NULL, 0, 0, 0 };
	c[nc++] = (struct cand){ "event", event, 0, 0, 0 };
	if (f->plm)
		c[nc++] = (struct cand){ f->plm, NULL, 1, 0, 0 };
	if (f->scope)
		c[nc++] = (struct cand){ f->scope, scope_arg(p, f->scope),
					 strcmp(f->scope, "socket") != 0, 1, 0 };
	if (f->mux)
		c[nc++] = (struct cand){ f->mux, NULL, 1, 0, 0 };
	if (!f->rate) {
		c[nc++] = (struct cand){ "counter", arg_for(p, "counter", "ID", 0),
					 0, 1, 0 };
	} else {
		c[nc++] = (struct cand){ f->rate, arg_for(p, f->rate,
							  f->rate_arg, 0), 1, 1, 1 };
		if (f->precise)
			c[nc++] = (struct cand){ f->precise,
				arg_for(p, f->precise, "L", 1), 1, 1, 1 };
	}
	if (!match(p, 0, c, nc, 0, !forms))
		return 0;
	render(point, sizeof(point), c, nc);
	fn(point, ctx);
	return 1;
}

int probematch__event(const struct pm_pattern *p, const char *event,
		      int forms, int socket, pm_point_fn *fn, void *ctx)
{
	struct form f = { NULL };
	size_t i, j, k, r;
	int hits = 0;

	/* counted once per socket, by a PMU that excludes no level
	 * (PERF_PMU_CAP_NO_EXCLUDE), never sampled nor multiplexed */
	if (socket) {
		f.scope = "socket";
		return try_form(p, event, &f, forms, fn, ctx);
	}
	for (i = 0; i < ARRAY_SIZE(plm_forms); i++)
		for (j = 0; j < ARRAY_SIZE(scope_forms); j++) {
			f.plm = plm_forms[i];
			f.scope = scope_forms[j];
			f.rate = f.precise = NULL;
			for (k = 0; k < ARRAY_SIZE(mux_forms); k++) {
				f.mux = mux_forms[k];
				/* .multiplex counts per CPU only */
				if (f.mux && f.scope && strcmp(f.scope, "cpu"))
					continue;
				hits += try_form(p, event, &f, forms, fn, ctx);
			}
			/* no sampling probe is per thread or cgroup */
			if (f.scope && (!strcmp(f.scope, "thread") ||
					!strcmp(f.scope, "cgroup")))
				continue;
			f.mux = NULL;
			for (r = 0; r < ARRAY_SIZE(rate_forms); r++)
				for (k = 0; k < ARRAY_SIZE(precise_forms); k++) {
					f.rate = rate_forms[r][0];
					f.rate_arg = rate_forms[r][1];
					f.precise = precise_forms[k];
					hits += try_form(p, event, &f, forms, fn, ctx);
				}
		}
	return hits;
}

const char *probematch__unknown_component(const struct pm_pattern *p)
{
	size_t j;
	int i;

	for (i = 0; i < p->n; i++) {
		if (is_glob(p->c[i].name))
			continue;
		for (j = 0; j < ARRAY_SIZE(comp_names); j++)
			if (!strcmp(p->c[i].name, comp_names[j]))
				break;
		if (j == ARRAY_SIZE(comp_names))
			return p->c[i].name;
	}
	return NULL;
}

const char *probematch__event_literal(const struct pm_pattern *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].name, "event") && p->c[i].has_arg &&
		    !is_glob(p->c[i].arg))
			return p->c[i].arg;
	return NULL;
}

void probematch__similar(const char *name, char *buf, size_t len)
{
	const char *near[3];
	size_t n = perfctr_suggest(name, comp_names, ARRAY_SIZE(comp_names),
				   near, ARRAY_SIZE(near)), i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 near[i]);
}
