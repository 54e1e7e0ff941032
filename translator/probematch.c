// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probematch.c - stap -l / -L patterns over the perfctr probe points,
 * in the order parser.c enforces: a counter is
 *   perfctr.event("E")[.user|.kernel]
 *     [.cpu|.thread|.process[("PATH")]|.cgroup("PATH")]
 *     [.cpus("LIST")][.group("G")][.multiplex].counter("ID")
 * or, for an event of a PMU with a cpumask (uncore, RAPL, C-state),
 *   perfctr.event("E").socket.counter("ID")
 * and a sampling probe
 *   perfctr.event("E")[.user|.kernel][.cpu|.process[("PATH")]]
 *     .sample(N)|.hz(F)[.precise[(L)]]
 * in the combinations the scope table allows (perfctr_iface.h).  A
 * pattern is matched component by component, as stap matches its own
 * probe points.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "parser.h"
#include "probematch.h"

#define POINT_MAX 1024
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Every component name a perfctr point has: "perfctr", then the
 * parser's (for "similar: ..."); returns how many. */
#define COMPS_MAX 32
static size_t comp_names(const char **names)
{
	size_t n;

	names[0] = "perfctr";
	n = point__component_names(names + 1, COMPS_MAX - 1);
	return 1 + (n < COMPS_MAX - 1 ? n : COMPS_MAX - 1);
}

/* The levels a point may name, none first. */
static const char *const plm_forms[] = { NULL, "user", "kernel" };
/* A sampling probe's rate, and what stands for its number in a point
 * the pattern gives none for. */
static const char *const rate_forms[][2] = { { "sample", "N" }, { "hz", "F" } };

/* One component of a candidate point. */
struct cand {
	const char *name;
	const char *arg;	/* NULL: takes no argument */
	int optional;
	int any_arg;		/* the script chooses it: any pattern matches */
	int number;		/* a number: written without quotes */
	int opt_arg;		/* an argument -l shows only when the pattern
				 * gives one (.process("PATH")) */
};

/* What the names format's mark says of an event (libperfctr.h,
 * PERFCTR_NAMES_*): counted only by .socket; per CPU only, with
 * .cpus("PMU"); sampled without .precise. */
struct ev_mark {
	int socket, imprecise;
	char cpus[PM_COMP_NAME_MAX];	/* "": any .cpus, or none */
};

static void read_mark(const char *mark, struct ev_mark *m)
{
	size_t n = strlen(PERFCTR_NAMES_CPUS), len;

	memset(m, 0, sizeof(*m));
	if (!mark)
		return;
	m->socket = !strcmp(mark, PERFCTR_NAMES_SOCKET);
	m->imprecise = !strcmp(mark, PERFCTR_NAMES_IMPRECISE);
	if (strncmp(mark, PERFCTR_NAMES_CPUS "(\"", n + 2))
		return;
	len = strcspn(mark + n + 2, "\"");
	if (len < sizeof(m->cpus))
		memcpy(m->cpus, mark + n + 2, len);
}

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Ours: "perfctr", or a glob after it that "perfctr" matches
 * ("perfctr*"): no stap probe point starts so. */
int probematch__is_perfctr(const char *text)
{
	char first[PM_COMP_NAME_MAX];
	size_t n;

	while (isspace((unsigned char)*text))
		text++;
	n = strcspn(text, ".( \t\n");
	if (strncmp(text, "perfctr", 7) || n >= sizeof(first))
		return 0;
	memcpy(first, text, n);
	first[n] = '\0';
	return !fnmatch(first, "perfctr", 0);
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

static int comp_match(const struct pm_comp *pc, const struct cand *c,
		      int strict)
{
	if (fnmatch(pc->name, c->name, 0))
		return 0;
	if (strict && c->opt_arg && !pc->has_arg)
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
	if (ci == nc || !comp_match(pc, &c[ci], strict) ||
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

/* One candidate point: its optional components, 0 or NULL where
 * absent.  Only a .socket scope is not optional: its events must name
 * it. */
struct form {
	const char *plm;
	int scope;		/* enum perfctr_scope, or -1: none given */
	int path;		/* .process("PATH") */
	int cpus, group, mux;
	const char *rate, *rate_arg;	/* a sampling probe's */
	int precise;
};

/* The scope component's name: ".cpu" less its dot. */
static const char *scope_name(int scope)
{
	return perfctr_scope__clause(scope) + 1;
}

static int try_form(const struct pm_pattern *p, const char *event,
		    const struct ev_mark *m, const struct form *f, int forms,
		    pm_point_fn *fn, void *ctx)
{
	char point[POINT_MAX];
	struct cand c[12];
	int nc = 0;

	c[nc++] = (struct cand){ .name = "perfctr" };
	c[nc++] = (struct cand){ .name = "event", .arg = event };
	if (f->plm)
		c[nc++] = (struct cand){ .name = f->plm, .optional = 1 };
	if (f->scope == PERFCTR_SCOPE_SOCKET)
		c[nc++] = (struct cand){ .name = "socket" };
	else if (f->scope == PERFCTR_SCOPE_CGROUP)
		c[nc++] = (struct cand){ .name = "cgroup", .optional = 1,
			.arg = arg_for(p, "cgroup", "PATH", 0), .any_arg = 1 };
	else if (f->scope >= 0)
		c[nc++] = (struct cand){ .name = scope_name(f->scope),
			.optional = 1, .any_arg = 1, .opt_arg = f->path,
			.arg = f->path ? arg_for(p, "process", "PATH", 0) : NULL };
	if (f->cpus && m->cpus[0])	/* the one list its events take */
		c[nc++] = (struct cand){ .name = "cpus", .arg = m->cpus };
	else if (f->cpus)
		c[nc++] = (struct cand){ .name = "cpus", .optional = 1,
			.arg = arg_for(p, "cpus", "LIST", 0), .any_arg = 1 };
	if (f->group)
		c[nc++] = (struct cand){ .name = "group", .optional = 1,
			.arg = arg_for(p, "group", "G", 0), .any_arg = 1 };
	if (f->mux)
		c[nc++] = (struct cand){ .name = "multiplex", .optional = 1 };
	if (!f->rate) {
		c[nc++] = (struct cand){ .name = "counter", .any_arg = 1,
			.arg = arg_for(p, "counter", "ID", 0) };
	} else {
		c[nc++] = (struct cand){ .name = f->rate, .optional = 1,
			.arg = arg_for(p, f->rate, f->rate_arg, 0),
			.any_arg = 1, .number = 1 };
		if (f->precise)
			c[nc++] = (struct cand){ .name = "precise", .optional = 1,
				.arg = arg_for(p, "precise", "L", 1),
				.any_arg = 1, .number = 1 };
	}
	if (!match(p, 0, c, nc, 0, !forms))
		return 0;
	render(point, sizeof(point), c, nc);
	fn(point, ctx);
	return 1;
}

/* The counters of one level and scope: with .cpus where the module
 * makes them per CPU, .group and .multiplex where the scope allows
 * (perfctr_iface.h's scope table; a counter with no scope counts per
 * CPU); an event of one core PMU of several only per CPU, with its
 * .cpus. */
static int counters(const struct pm_pattern *p, const char *event,
		    const struct ev_mark *m, struct form *f, int forms,
		    pm_point_fn *fn, void *ctx)
{
	unsigned int scope = f->scope < 0 ? PERFCTR_SCOPE_CPU : f->scope;
	unsigned int allows = perfctr_scope__allows(scope);
	int hits = 0;

	f->rate = NULL;
	f->precise = 0;
	for (f->cpus = m->cpus[0] != '\0'; f->cpus < 2; f->cpus++)
		for (f->group = 0; f->group < 2; f->group++)
			for (f->mux = 0; f->mux < 2; f->mux++) {
				if ((f->cpus && !perfctr_scope__made_per_cpu(
						scope, 0, f->group)) ||
				    (f->group && !(allows & PERFCTR_SA_GROUP)) ||
				    (f->mux && !(allows & PERFCTR_SA_MUX)))
					continue;
				hits += try_form(p, event, m, f, forms, fn, ctx);
			}
	f->cpus = f->group = f->mux = 0;
	return hits;
}

/* The sampling probes of one level and scope, where the scope samples
 * (with no scope: per CPU, or the target's process); none of an event
 * of one core PMU of several (it counts per CPU with .cpus, which no
 * sampling probe takes), no .precise for an .imprecise one. */
static int samplers(const struct pm_pattern *p, const char *event,
		    const struct ev_mark *m, struct form *f, int forms,
		    pm_point_fn *fn, void *ctx)
{
	unsigned int scope = f->scope < 0 ? PERFCTR_SCOPE_CPU : f->scope;
	size_t r;
	int hits = 0;

	if (m->cpus[0] || !(perfctr_scope__allows(scope) & PERFCTR_SA_SAMPLE))
		return 0;
	for (r = 0; r < ARRAY_SIZE(rate_forms); r++)
		for (f->precise = 0; f->precise < 2 - m->imprecise; f->precise++) {
			f->rate = rate_forms[r][0];
			f->rate_arg = rate_forms[r][1];
			hits += try_form(p, event, m, f, forms, fn, ctx);
		}
	f->rate = NULL;
	f->precise = 0;
	return hits;
}

int probematch__event(const struct pm_pattern *p, const char *event,
		      const char *mark, int forms, pm_point_fn *fn,
		      void *ctx)
{
	struct form f = { .scope = PERFCTR_SCOPE_SOCKET };
	struct ev_mark m;
	size_t i;
	int hits = 0;

	read_mark(mark, &m);
	/* counted once per socket, by a PMU that excludes no level
	 * (PERF_PMU_CAP_NO_EXCLUDE), never sampled nor multiplexed */
	if (m.socket)
		return try_form(p, event, &m, &f, forms, fn, ctx);
	for (i = 0; i < ARRAY_SIZE(plm_forms); i++)
		for (f.scope = -1; f.scope < PERFCTR_NSCOPES; f.scope++) {
			if (f.scope == PERFCTR_SCOPE_SOCKET)
				continue;
			f.plm = plm_forms[i];
			for (f.path = 0; f.path <= (f.scope ==
					PERFCTR_SCOPE_PROCESS); f.path++) {
				hits += counters(p, event, &m, &f, forms, fn, ctx);
				hits += samplers(p, event, &m, &f, forms, fn, ctx);
			}
			f.path = 0;
		}
	return hits;
}

const char *probematch__unknown_component(const struct pm_pattern *p)
{
	const char *names[COMPS_MAX];
	size_t j, n = comp_names(names);
	int i;

	for (i = 0; i < p->n; i++) {
		if (is_glob(p->c[i].name))
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(p->c[i].name, names[j]))
				break;
		if (j == n)
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

/* Does p name component name, without a glob? */
static const struct pm_comp *named(const struct pm_pattern *p,
				   const char *name)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].name, name))
			return &p->c[i];
	return NULL;
}

/* What a component needs of its scope (the scope table's PERFCTR_SA_*),
 * and the rule in words. */
static const struct {
	const char *comp, *cannot, *rule;
	unsigned int needs;
} scope_rules[] = {
	{ "sample", "sample", "a sampling clause samples per CPU or per "
	  "process", PERFCTR_SA_SAMPLE },
	{ "hz", "sample", "a sampling clause samples per CPU or per process",
	  PERFCTR_SA_SAMPLE },
	{ "group", "be in a group", "a group counts per CPU", PERFCTR_SA_GROUP },
	{ "multiplex", "multiplex", ".multiplex counts per CPU",
	  PERFCTR_SA_MUX },
	{ "cpus", "take .cpus", ".cpus restricts a counter made per CPU",
	  PERFCTR_SA_CPUS },
};

/* A counter's components, which no sampling probe takes. */
static const char *const counter_only[] = { "cpus", "group", "multiplex" };

/* A rule of the scope table that p's components break, in words. */
static int scope_why(const struct pm_pattern *p, char *buf, size_t len)
{
	int samples = named(p, "sample") || named(p, "hz"), scope;
	unsigned int allows = 0;
	char list[64];
	size_t i;

	for (scope = PERFCTR_NSCOPES - 1; scope >= 0; scope--)
		if (named(p, scope_name(scope)))
			break;
	if (scope >= 0)
		allows = perfctr_scope__allows(scope);
	for (i = 0; scope >= 0 && i < ARRAY_SIZE(scope_rules); i++)
		if (named(p, scope_rules[i].comp) &&
		    !(allows & scope_rules[i].needs)) {
			snprintf(buf, len, "%s cannot %s: %s (%s)",
				 perfctr_scope__clause(scope),
				 scope_rules[i].cannot, scope_rules[i].rule,
				 check__scope_list(scope_rules[i].needs, 1, ", ",
						   list, sizeof(list)));
			return 1;
		}
	for (i = 0; samples && i < ARRAY_SIZE(counter_only); i++)
		if (named(p, counter_only[i])) {
			snprintf(buf, len, "a sampling probe takes no .%s: "
				 ".cpus, .group and .multiplex are a counter's",
				 counter_only[i]);
			return 1;
		}
	if (named(p, "cpus") && named(p, "group")) {
		snprintf(buf, len, "a group's counter takes no .cpus: .cpus "
			 "restricts a counter the module makes per CPU, and "
			 "perfctr-run opens a group");
		return 1;
	}
	if (named(p, "precise") && !samples) {
		snprintf(buf, len, ".precise needs .sample(N) or .hz(F) "
			 "before it");
		return 1;
	}
	return 0;
}

int probematch__why(const struct pm_pattern *p, const char *event,
		    const char *mark, char *buf, size_t len)
{
	const struct pm_comp *cpus = named(p, "cpus");
	struct ev_mark m;

	if (scope_why(p, buf, len))
		return 1;
	read_mark(mark, &m);
	if (event && m.cpus[0] && (!cpus || (cpus->has_arg &&
					      fnmatch(cpus->arg, m.cpus, 0)))) {
		snprintf(buf, len, "event \"%s\" is of core PMU \"%s\", one "
			 "of several: it counts per CPU, on that PMU's CPUs "
			 "only, with .cpus(\"%s\") (not per process, not in a "
			 "group, not sampled)", event, m.cpus, m.cpus);
		return 1;
	}
	if (event && m.cpus[0]) {
		snprintf(buf, len, "event \"%s\" is of core PMU \"%s\", one "
			 "of several: it counts per CPU only (not per process, "
			 "not in a group, not sampled)", event, m.cpus);
		return 1;
	}
	if (event && m.imprecise && named(p, "precise")) {
		snprintf(buf, len, "event \"%s\" samples without .precise "
			 "here: its PMU has no skid-free sampling (no "
			 "caps/max_precise)", event);
		return 1;
	}
	return 0;
}

void probematch__similar(const char *name, char *buf, size_t len)
{
	const char *names[COMPS_MAX], *near[3];
	size_t n = perfctr_suggest(name, names, comp_names(names), near,
				   ARRAY_SIZE(near)), i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 near[i]);
}
