// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * point.c - the grammar of one perfctr probe point:
 *
 *   perfctr.event("NAME")[.user|.kernel]
 *     [.cpu|.thread|.process[("PATH")]|.cgroup("PATH")|.socket]
 *     [.cpus("LIST")][.group("G")][.multiplex] then .counter("ID"),
 *     or .sample(N)|.hz(F)[.precise[(L)]]
 *
 * Components as data (components[]: name, argument, rank), one function
 * per job, errors at the token through parse_error().
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parser_state.h"

/* ------------------------------------------------------ probe components */

enum comp_rank {
	RANK_NONE, RANK_EVENT, RANK_PLM, RANK_SCOPE, RANK_CPUS, RANK_GROUP,
	RANK_MUX,
	RANK_ACTION, RANK_PRECISE,
};
enum comp_arg { ARG_NONE, ARG_STRING, ARG_OPT_STRING, ARG_NUMBER,
		ARG_OPT_NUMBER };
enum comp_field {
	F_EVENT, F_USER, F_KERNEL, F_CPU, F_THREAD, F_PROCESS, F_CGROUP,
	F_SOCKET, F_CPUS, F_GROUP,
	F_MULTIPLEX, F_COUNTER, F_SAMPLE, F_HZ, F_PRECISE,
};

/* The components of a perfctr probe point, in the order they must come:
 * each rank at most once, ranks increasing. */
static const struct component {
	const char *name;
	enum comp_arg arg;
	enum comp_rank rank;
	enum comp_field field;
} components[] = {
	{ "event",     ARG_STRING, RANK_EVENT,  F_EVENT },
	{ "user",      ARG_NONE,   RANK_PLM,    F_USER },
	{ "kernel",    ARG_NONE,   RANK_PLM,    F_KERNEL },
	{ "cpu",       ARG_NONE,   RANK_SCOPE,  F_CPU },
	{ "thread",    ARG_NONE,   RANK_SCOPE,  F_THREAD },
	{ "process",   ARG_OPT_STRING, RANK_SCOPE, F_PROCESS },
	{ "cgroup",    ARG_STRING, RANK_SCOPE,  F_CGROUP },
	{ "socket",    ARG_NONE,   RANK_SCOPE,  F_SOCKET },
	{ "cpus",      ARG_STRING, RANK_CPUS,   F_CPUS },
	{ "group",     ARG_STRING, RANK_GROUP,  F_GROUP },
	{ "multiplex", ARG_NONE,   RANK_MUX,    F_MULTIPLEX },
	{ "counter",   ARG_STRING, RANK_ACTION, F_COUNTER },
	{ "sample",    ARG_NUMBER, RANK_ACTION, F_SAMPLE },
	{ "hz",        ARG_NUMBER, RANK_ACTION, F_HZ },
	{ "precise",   ARG_OPT_NUMBER, RANK_PRECISE, F_PRECISE },
};
#define NCOMPONENTS (sizeof(components) / sizeof(components[0]))
/* Room to list them all: each name under 12 bytes, quoted, ", " apart. */
#define LIST_LEN (NCOMPONENTS * 16)

static const struct component *find_component(struct parser *ps)
{
	size_t i;

	for (i = 0; i < NCOMPONENTS; i++)
		if (is(ps, TK_IDENT, components[i].name))
			return &components[i];
	return NULL;
}

/* May comp come next, after a component of the given rank?  The order
 * point__parse() enforces, so that an error offers only what it would
 * take there. */
static int may_follow(const struct component *comp, enum comp_rank rank,
		      const struct counter *c)
{
	if (rank == RANK_NONE)
		return comp->rank == RANK_EVENT;
	if (comp->rank <= rank)
		return 0;
	if (comp->field == F_PRECISE)
		return c->sample || c->hz;
	if (comp->field == F_SAMPLE || comp->field == F_HZ)
		return !c->group[0];
	return 1;
}

/* "'user', 'kernel', ...": what may come next, in the table's order
 * (the man page's). */
static void list_components(char *buf, size_t len, enum comp_rank rank,
			    const struct counter *c)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NCOMPONENTS && n < len; i++)
		if (may_follow(&components[i], rank, c))
			n += snprintf(buf + n, len - n, "%s'%s'", n ? ", " : "",
				      components[i].name);
}

size_t point__component_names(const char **names, size_t max)
{
	size_t i;

	for (i = 0; i < NCOMPONENTS && i < max; i++)
		names[i] = components[i].name;
	return NCOMPONENTS;
}

/* "; did you mean 'counter'?" for a misspelt component, from all of
 * them: a name out of place gets its own error once it is spelt right. */
static void near_component(const struct parser *ps, char *buf, size_t len)
{
	const char *names[NCOMPONENTS], *near[2];
	char word[32];		/* longer is no typo of a component */
	size_t n;

	buf[0] = '\0';
	if (ps->t.kind != TK_IDENT || ps->t.len >= sizeof(word))
		return;
	memcpy(word, ps->src->text + ps->t.off, ps->t.len);
	word[ps->t.len] = '\0';
	point__component_names(names, NCOMPONENTS);
	n = perfctr_suggest(word, names, NCOMPONENTS, near, 2);
	if (n == 1)
		snprintf(buf, len, "; did you mean '%s'?", near[0]);
	else if (n == 2)
		snprintf(buf, len, "; did you mean '%s' or '%s'?", near[0],
			 near[1]);
}

static void unknown_component(struct parser *ps, enum comp_rank rank,
			      const char *prev, const struct counter *c)
{
	char names[LIST_LEN], near[64];

	list_components(names, sizeof(names), rank, c);
	near_component(ps, near, sizeof(near));
	if (names[0])
		parse_error(ps, "unknown perfctr probe point component, "
			    "expected one of %s%s", names, near);
	else
		parse_error(ps, "unknown perfctr probe point component: "
			    "nothing may follow '.%s'%s", prev, near);
}

/* Is the parser inside a %( COND %? ... %) that stap evaluates? */
static int in_condition(const struct parser *ps)
{
	int i;

	for (i = 0; i < ps->nframes; i++)
		if (ps->frames[i].kind == FRAME_COND)
			return 1;
	return 0;
}

/* A string literal, or @N: the Nth script argument as a string.  An @N
 * not given under a condition stands for itself ("@3"), remembered: the
 * condition may be the script's own test of $#, and stap says what is
 * missing where it holds (emit.c). */
static int string_arg(struct parser *ps, char *buf, size_t len)
{
	const char *text = ps->src->text + ps->t.off;

	if (ps->t.kind == TK_STRING) {
		int err = token__string_value(ps->src, &ps->t, buf, len);

		if (!err)
			return 0;
		if (err == -EINVAL)
			parse_error(ps, "string contains a NUL byte");
		else
			parse_error(ps, "string too long (at most %zu bytes)",
				    len - 1);
		return -1;
	}
	if (ps->t.kind == TK_ARG && text[0] == '@' && text[1] != '#') {
		int n = atoi(text + 1);

		if (n >= 1 && n > ps->m->nargs && in_condition(ps)) {
			ps->missing_arg = n;
			snprintf(buf, len, "@%d", n);
			return 0;
		}
		if (n < 1 || n > ps->m->nargs) {
			parse_error(ps, "script argument @%d not given", n);
			return -1;
		}
		snprintf(buf, len, "%s", ps->m->args[n - 1]);
		return 0;
	}
	parse_error(ps, "expected a string literal or @N");
	return -1;
}

/* A number literal, or @N: the Nth script argument as a number; in
 * [min, max]. */
static int number_arg(struct parser *ps, unsigned int *v, unsigned int min,
		      unsigned int max)
{
	char buf[32], *end;
	unsigned long long x;

	if (ps->t.kind == TK_NUMBER && ps->t.len < sizeof(buf)) {
		memcpy(buf, ps->src->text + ps->t.off, ps->t.len);
		buf[ps->t.len] = '\0';
	} else if (ps->t.kind != TK_ARG || string_arg(ps, buf, sizeof(buf))) {
		if (ps->t.kind != TK_ARG)
			parse_error(ps, "expected a number from %u to %u, or @N",
				    min, max);
		return -1;
	} else if (buf[0] == '@') {	/* not given, under a condition */
		*v = min;
		return 0;
	}
	errno = 0;
	x = strtoull(buf, &end, 0);
	if (errno || *end || end == buf || buf[0] == '-' || x < min ||
	    x > max) {
		if (ps->t.kind == TK_ARG)	/* say what it was */
			parse_error(ps, "expected a number from %u to %u, "
				    "%.*s is \"%s\"", min, max, (int)ps->t.len,
				    ps->src->text + ps->t.off, buf);
		else
			parse_error(ps, "expected a number from %u to %u",
				    min, max);
		return -1;
	}
	*v = x;
	return 0;
}

/* A counter id or a group name: what may be in it, and not "__". */
static int check_name(struct parser *ps, const char *name,
		      const struct token *tok, const char *what)
{
	const char *p;

	if (!name[0]) {
		error_at(ps, tok, "%s must not be empty", what);
		return -1;
	}
	for (p = name; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-' ||
		      *p == '.')) {
			error_at(ps, tok, "%s may contain only letters, digits, "
				 "'_', '-' and '.'", what);
			return -1;
		}
	if (!strncmp(name, "__", 2)) {	/* __cpu_cycles, __event1, __sample0 */
		error_at(ps, tok, "%ss starting with '__' are stap-perfctr's "
			 "own", what);
		return -1;
	}
	return 0;
}

/* .cpus("LIST"): a CPU list as sysfs writes it ("0-3,8": ranges
 * ascending and apart, at most PERFCTR_CPU_RANGES, as the module's
 * records take them), or a core PMU's name ("cpu_atom"), which
 * perfctr-run looks up where the script runs. */
static int check_cpus(struct parser *ps, const char *list,
		      const struct token *tok)
{
	static const char expected[] = "expected a CPU list as sysfs writes "
		"it (\"0-3,8\": CPUs in ascending order) or a core "
		"PMU's name (\"cpu_atom\", \"armv8_cortex_a55\")";
	const char *p;
	int *cpus = NULL, n, k, ranges = 1;

	if (isalpha((unsigned char)list[0])) {
		for (p = list; *p; p++)
			if (!(isalnum((unsigned char)*p) || *p == '_' ||
			      *p == '-' || *p == '.')) {
				error_at(ps, tok, "\"%s\" in .cpus: %s", list,
					 expected);
				return -1;
			}
		return 0;
	}
	n = perfctr_cpus__parse(list, &cpus);
	for (k = 1; k < n; k++)	/* runs of CPUs: "0,1" is one range */
		ranges += cpus[k] != cpus[k - 1] + 1;
	free(cpus);
	if (n < 0) {
		error_at(ps, tok, "\"%s\" in .cpus: %s", list, expected);
		return -1;
	}
	if (ranges > PERFCTR_CPU_RANGES) {
		error_at(ps, tok, "\"%s\" in .cpus: at most %d ranges of "
			 "CPUs (\"0-3,8\" is two)", list,
			 PERFCTR_CPU_RANGES);
		return -1;
	}
	return 0;
}

/* The event name's own modifiers must agree with .user / .kernel
 * (perfctr_name__counter_plm(), as for an event function's counter); its
 * :G/:H go to the request as they are. */
static int check_event(struct parser *ps, struct counter *c,
		       const struct token *event_tok)
{
	struct perfctr_name name;
	char err[256];

	if (!c->event[0]) {
		error_at(ps, event_tok, "event name must not be empty");
		return -1;
	}
	if (perfctr_name__parse(c->event, &name, err, sizeof(err)) < 0 ||
	    perfctr_name__counter_plm(c->event, &name, c->plm, &c->plm, err,
				      sizeof(err)) < 0) {
		error_at(ps, event_tok, "%s", err);
		return -1;
	}
	c->gh = name.gh;
	c->event_tok = *event_tok;
	return 0;
}

/* Where a component's string argument goes. */
static char *arg_buffer(const struct component *comp, struct counter *c,
			size_t *len)
{
	switch (comp->field) {
	case F_EVENT:
		*len = sizeof(c->event);
		return c->event;
	case F_PROCESS:
	case F_CGROUP:
		*len = sizeof(c->target);
		return c->target;
	case F_GROUP:
		*len = sizeof(c->group);
		return c->group;
	case F_CPUS:
		*len = sizeof(c->cpus);
		return c->cpus;
	default:
		*len = sizeof(c->id);
		return c->id;
	}
}

/* "(": 1 when the component's argument follows, 0 when an optional one
 * is left out, -1 (reported) when a required one is missing. */
static int open_arg(struct parser *ps, const struct component *comp)
{
	if (is_op(ps, "(")) {
		next(ps);
		return 1;
	}
	if (comp->arg == ARG_OPT_STRING || comp->arg == ARG_OPT_NUMBER)
		return 0;
	parse_error(ps, "expected '(' after '%s'", comp->name);
	return -1;
}

/* ")" after the argument, which ps->t is on. */
static int close_arg(struct parser *ps)
{
	next(ps);
	if (!is_op(ps, ")")) {
		parse_error(ps, "expected ')'");
		return -1;
	}
	next(ps);
	return 0;
}

static int component_arg(struct parser *ps, const struct component *comp,
			 struct counter *c, struct token *arg_tok)
{
	size_t len;
	char *buf = arg_buffer(comp, c, &len);
	int rc = open_arg(ps, comp);

	if (rc <= 0)
		return rc;
	*arg_tok = ps->t;
	if (string_arg(ps, buf, len) < 0)
		return -1;
	return close_arg(ps);
}

/* (N), optional for .precise (1, perf's :p). */
static int component_number(struct parser *ps, const struct component *comp,
			    unsigned int *v, unsigned int min, unsigned int max)
{
	int rc = open_arg(ps, comp);

	*v = min;
	if (rc <= 0)
		return rc;
	if (number_arg(ps, v, min, max) < 0)
		return -1;
	return close_arg(ps);
}

static int apply_component(struct parser *ps, const struct component *comp,
			   struct counter *c, struct token *event_tok)
{
	switch (comp->field) {
	case F_SAMPLE:
		return component_number(ps, comp, &c->sample, 1, UINT_MAX);
	case F_HZ:
		return component_number(ps, comp, &c->hz, 1, UINT_MAX);
	case F_PRECISE:
		return component_number(ps, comp, &c->precise, 1, 3);
	case F_USER:
		c->plm = PERFCTR_PLM_USER;
		return 0;
	case F_KERNEL:
		c->plm = PERFCTR_PLM_KERNEL;
		return 0;
	case F_MULTIPLEX:
		c->mux = 1;
		return 0;
	case F_CPU:
		c->scope = PERFCTR_SCOPE_CPU;
		c->scope_given = 1;
		return 0;
	case F_THREAD:
		c->scope = PERFCTR_SCOPE_THREAD;
		c->scope_given = 1;
		return 0;
	case F_PROCESS:
		c->scope = PERFCTR_SCOPE_PROCESS;
		c->scope_given = 1;
		c->target_tok = ps->t;
		return component_arg(ps, comp, c, &c->target_tok);
	case F_CGROUP:
		c->scope = PERFCTR_SCOPE_CGROUP;
		c->scope_given = 1;
		return component_arg(ps, comp, c, &c->target_tok);
	case F_SOCKET:
		c->scope = PERFCTR_SCOPE_SOCKET;
		c->scope_given = 1;
		return 0;
	case F_GROUP:
		if (component_arg(ps, comp, c, &c->group_tok) < 0)
			return -1;
		return check_name(ps, c->group, &c->group_tok, "group name");
	case F_CPUS:
		if (component_arg(ps, comp, c, &c->cpus_tok) < 0)
			return -1;
		return check_cpus(ps, c->cpus, &c->cpus_tok);
	case F_EVENT:
		return component_arg(ps, comp, c, event_tok);
	case F_COUNTER:
		if (component_arg(ps, comp, c, &c->id_tok) < 0)
			return -1;
		return check_name(ps, c->id, &c->id_tok, "counter id");
	}
	return -1;
}

static int check_rank(struct parser *ps, const struct component *comp,
		      enum comp_rank rank, const char *prev)
{
	if (rank == RANK_NONE && comp->rank != RANK_EVENT) {
		parse_error(ps, "expected 'event(\"NAME\")' first in a perfctr "
			    "probe point");
		return -1;
	}
	if (comp->rank == rank && !strcmp(comp->name, prev)) {
		parse_error(ps, "'.%s' given twice", comp->name);
		return -1;
	}
	if (comp->rank == rank) {
		parse_error(ps, "'.%s' conflicts with '.%s'", comp->name, prev);
		return -1;
	}
	if (comp->rank < rank) {
		parse_error(ps, "'.%s' must come before '.%s'", comp->name,
			    prev);
		return -1;
	}
	return 0;
}

/* perfctr.event("NAME")[.user|.kernel]
 * [.cpu|.thread|.process[("PATH")]|.cgroup("PATH")|.socket][.cpus("LIST")]
 * [.group("G")][.multiplex] then .counter("ID"), or .sample(N)|.hz(F)
 * [.precise[(L)]]; ps->t is "perfctr". */
int point__parse(struct parser *ps, struct counter *c)
{
	enum comp_rank rank = RANK_NONE;
	const char *prev = "perfctr";
	struct token event_tok = ps->t;
	char names[LIST_LEN];

	ps->missing_arg = 0;
	next(ps);
	while (is_op(ps, ".")) {
		const struct component *comp;

		next(ps);
		comp = find_component(ps);
		if (!comp) {
			unknown_component(ps, rank, prev, c);
			return -1;
		}
		if (check_rank(ps, comp, rank, prev) < 0)
			return -1;
		if (comp->field == F_PRECISE && !c->sample && !c->hz) {
			parse_error(ps, "'.precise' needs '.sample(N)' or "
				    "'.hz(F)' before it");
			return -1;
		}
		if ((comp->field == F_SAMPLE || comp->field == F_HZ) &&
		    c->group[0]) {
			parse_error(ps, "a sampling perfctr probe is not in a "
				    "group: '.group' is for counters");
			return -1;
		}
		next(ps);
		if (apply_component(ps, comp, c, &event_tok) < 0)
			return -1;
		rank = comp->rank;
		prev = comp->name;
	}
	if (rank < RANK_ACTION) {
		list_components(names, sizeof(names), rank, c);
		parse_error(ps, "incomplete perfctr probe point, expected "
			    "'.' and one of %s", names);
		return -1;
	}
	if (is_op(ps, "?") || is_op(ps, "!") || is_op(ps, "+")) {
		parse_error(ps, "perfctr probe points cannot be optional");
		return -1;
	}
	c->missing_arg = ps->missing_arg;
	if (!c->missing_arg)
		return check_event(ps, c, &event_tok);
	if (!c->plm)		/* a request that is never made: valid */
		c->plm = PERFCTR_PLM_ALL;
	return 0;
}

