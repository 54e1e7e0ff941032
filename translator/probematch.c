// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probematch.c - stap -l / -L patterns over the perfctr probe points.
 * A point is perfctr.event("E")[.user|.kernel][.multiplex].counter("ID")
 * (the order parser.c enforces); a pattern is matched component by
 * component, as stap matches its own probe points.
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
	"perfctr", "event", "user", "kernel", "multiplex", "counter",
};

/* The optional components: a point has at most one of each row. */
static const char *const plm_forms[] = { NULL, "user", "kernel" };
static const char *const mux_forms[] = { NULL, "multiplex" };

/* One component of a candidate point. */
struct cand {
	const char *name;
	const char *arg;	/* NULL: takes no argument */
	int optional;
	int any_arg;		/* the script chooses it: any pattern matches */
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
	if (string_arg(s, c->arg, sizeof(c->arg), err, errlen))
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
		buf[n++] = '"';
		for (a = c[i].arg; *a && n + 4 < len; a++) {
			if (*a == '"' || *a == '\\')
				buf[n++] = '\\';
			buf[n++] = *a;
		}
		buf[n++] = '"';
		buf[n++] = ')';
		buf[n] = '\0';
	}
}

/* The pattern's own counter id, when it names one without a glob. */
static const char *counter_id(const struct pm_pattern *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].name, "counter") && p->c[i].has_arg &&
		    !is_glob(p->c[i].arg))
			return p->c[i].arg;
	return "ID";
}

int probematch__event(const struct pm_pattern *p, const char *event,
		      int forms, pm_point_fn *fn, void *ctx)
{
	char point[POINT_MAX];
	struct cand c[5];
	size_t i, j;
	int nc, hits = 0;

	for (i = 0; i < ARRAY_SIZE(plm_forms); i++)
		for (j = 0; j < ARRAY_SIZE(mux_forms); j++) {
			nc = 0;
			c[nc++] = (struct cand){ "perfctr", NULL, 0, 0 };
			c[nc++] = (struct cand){ "event", event, 0, 0 };
			if (plm_forms[i])
				c[nc++] = (struct cand){ plm_forms[i], NULL, 1, 0 };
			if (mux_forms[j])
				c[nc++] = (struct cand){ mux_forms[j], NULL, 1, 0 };
			c[nc++] = (struct cand){ "counter", counter_id(p), 0, 1 };
			if (!match(p, 0, c, nc, 0, !forms))
				continue;
			render(point, sizeof(point), c, nc);
			fn(point, ctx);
			hits++;
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
