// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parser.c - a recursive-descent reader for the parts of the stap language
 * that concern perfctr.  The rest of a script is scanned token by token,
 * tracking only what changes the meaning of a token: brace depth (probe
 * statements start at depth 0), %( %? %: %) conditionals, and @define
 * bodies.  One error path: parse_error() at the current token.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

enum frame_kind { FRAME_COND, FRAME_MACRO };

struct frame {
	enum frame_kind kind;
	struct cond_frame cond;
	int uses_macro;		/* COND: the condition invokes a macro */
};

struct parser {
	struct source *src;
	struct lexer ls;
	struct token t;		/* current token */
	struct token ahead;	/* one token of lookahead */
	int have_ahead;
	struct model *m;
	struct diag *d;
	int errors;
	int depth;		/* braces */
	int nframes;
	struct frame frames[MODEL_COND_DEPTH * 2];
};

/* ---------------------------------------------------------------- tokens */

static void next(struct parser *ps)
{
	if (ps->have_ahead) {
		ps->t = ps->ahead;
		ps->have_ahead = 0;
	} else {
		lexer__next(&ps->ls, &ps->t);
	}
}

static const struct token *peek(struct parser *ps)
{
	if (!ps->have_ahead) {
		lexer__next(&ps->ls, &ps->ahead);
		ps->have_ahead = 1;
	}
	return &ps->ahead;
}

static int is(struct parser *ps, enum tok_kind kind, const char *text)
{
	return token__is(ps->src, &ps->t, kind, text);
}

static int is_op(struct parser *ps, const char *op)
{
	return is(ps, TK_OPERATOR, op);
}

static void verror_at(struct parser *ps, const struct token *t,
		      const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	diag__report(ps->d, DIAG_PARSE, ps->src, t, "%s", msg);
	ps->errors++;
}

/* The one error path: a message at a token (the current one by default). */
static void __attribute__((format(printf, 3, 4)))
error_at(struct parser *ps, const struct token *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(ps, t, fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 2, 3)))
parse_error(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(ps, &ps->t, fmt, ap);
	va_end(ap);
}

/* Error recovery: skip to the end of the current probe statement. */
static void skip_statement(struct parser *ps)
{
	int depth = 0;

	while (ps->t.kind != TK_EOF) {
		if (is_op(ps, "{"))
			depth++;
		else if (is_op(ps, "}") && --depth <= 0)
			return;
		next(ps);
	}
}

/* ------------------------------------------------------ probe components */

enum comp_rank {
	RANK_NONE, RANK_EVENT, RANK_PLM, RANK_SCOPE, RANK_MUX, RANK_ACTION,
	RANK_PRECISE,
};
enum comp_arg { ARG_NONE, ARG_STRING, ARG_OPT_STRING, ARG_NUMBER,
		ARG_OPT_NUMBER };
enum comp_field {
	F_EVENT, F_USER, F_KERNEL, F_CPU, F_THREAD, F_PROCESS, F_MULTIPLEX,
	F_COUNTER, F_SAMPLE, F_HZ, F_PRECISE,
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
	{ "multiplex", ARG_NONE,   RANK_MUX,    F_MULTIPLEX },
	{ "counter",   ARG_STRING, RANK_ACTION, F_COUNTER },
	{ "sample",    ARG_NUMBER, RANK_ACTION, F_SAMPLE },
	{ "hz",        ARG_NUMBER, RANK_ACTION, F_HZ },
	{ "precise",   ARG_OPT_NUMBER, RANK_PRECISE, F_PRECISE },
};
#define NCOMPONENTS (sizeof(components) / sizeof(components[0]))

static const struct component *find_component(struct parser *ps)
{
	size_t i;

	for (i = 0; i < NCOMPONENTS; i++)
		if (is(ps, TK_IDENT, components[i].name))
			return &components[i];
	return NULL;
}

static void list_components(char *buf, size_t len, enum comp_rank after)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NCOMPONENTS && n < len; i++)
		if (components[i].rank > after)
			n += snprintf(buf + n, len - n, "%s'%s'", n ? ", " : "",
				      components[i].name);
}

/* A string literal, or @N: the Nth script argument as a string. */
static int string_arg(struct parser *ps, char *buf, size_t len)
{
	const char *text = ps->src->text + ps->t.off;

	if (ps->t.kind == TK_STRING) {
		if (token__string_value(ps->src, &ps->t, buf, len) == 0)
			return 0;
		parse_error(ps, "string too long (at most %zu bytes)", len - 1);
		return -1;
	}
	if (ps->t.kind == TK_ARG && text[0] == '@' && text[1] != '#') {
		int n = atoi(text + 1);

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
			parse_error(ps, "expected a number or @N");
		return -1;
	}
	errno = 0;
	x = strtoull(buf, &end, 0);
	if (errno || *end || end == buf || buf[0] == '-' || x < min ||
	    x > max) {
		parse_error(ps, "expected a number from %u to %u", min, max);
		return -1;
	}
	*v = x;
	return 0;
}

static int check_id(struct parser *ps, const struct counter *c)
{
	const char *p;

	if (!c->id[0]) {
		error_at(ps, &c->id_tok, "counter id must not be empty");
		return -1;
	}
	for (p = c->id; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-' ||
		      *p == '.')) {
			error_at(ps, &c->id_tok, "counter id may contain only "
				 "letters, digits, '_', '-' and '.'");
			return -1;
		}
	return 0;
}

static const char *plm_modifier(unsigned int plm)
{
	return plm == PERFCTR_PLM_USER ? ":u" :
	       plm == PERFCTR_PLM_KERNEL ? ":k" : ":uk";
}

/* The event name's own modifiers must agree with .user / .kernel. */
static int check_event(struct parser *ps, struct counter *c,
		       const struct token *event_tok)
{
	struct perfctr_name name;
	unsigned int uk;
	char err[256];

	if (!c->event[0]) {
		error_at(ps, event_tok, "event name must not be empty");
		return -1;
	}
	if (perfctr_name__parse(c->event, &name, err, sizeof(err)) < 0) {
		error_at(ps, event_tok, "%s", err);
		return -1;
	}
	uk = name.plm & PERFCTR_PLM_ALL;	/* :h only adds the hypervisor */
	if (name.plm && !uk) {
		error_at(ps, event_tok, "\"%s\" counts neither user nor "
			 "kernel mode; add ':u' or ':k'", c->event);
		return -1;
	}
	if (uk && c->plm && uk != c->plm) {
		error_at(ps, event_tok,
			 "modifier '%s' in \"%s\" contradicts '.%s'",
			 plm_modifier(uk), c->event,
			 c->plm == PERFCTR_PLM_USER ? "user" : "kernel");
		return -1;
	}
	if (!c->plm)
		c->plm = uk ? uk : PERFCTR_PLM_ALL;
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
		*len = sizeof(c->target);
		return c->target;
	default:
		*len = sizeof(c->id);
		return c->id;
	}
}

static int component_arg(struct parser *ps, const struct component *comp,
			 struct counter *c, struct token *arg_tok)
{
	size_t len;
	char *buf = arg_buffer(comp, c, &len);

	if (comp->arg == ARG_OPT_STRING && !is_op(ps, "("))
		return 0;
	if (!is_op(ps, "(")) {
		parse_error(ps, "expected '(' after '%s'", comp->name);
		return -1;
	}
	next(ps);
	*arg_tok = ps->t;
	if (string_arg(ps, buf, len) < 0)
		return -1;
	next(ps);
	if (!is_op(ps, ")")) {
		parse_error(ps, "expected ')'");
		return -1;
	}
	next(ps);
	return 0;
}

/* ("N"), optional for .precise (1, perf's :p). */
static int component_number(struct parser *ps, const struct component *comp,
			    unsigned int *v, unsigned int min, unsigned int max)
{
	*v = min;
	if (comp->arg == ARG_OPT_NUMBER && !is_op(ps, "("))
		return 0;
	if (!is_op(ps, "(")) {
		parse_error(ps, "expected '(' after '%s'", comp->name);
		return -1;
	}
	next(ps);
	if (number_arg(ps, v, min, max) < 0)
		return -1;
	next(ps);
	if (!is_op(ps, ")")) {
		parse_error(ps, "expected ')'");
		return -1;
	}
	next(ps);
	return 0;
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
	case F_EVENT:
		return component_arg(ps, comp, c, event_tok);
	case F_COUNTER:
		if (component_arg(ps, comp, c, &c->id_tok) < 0)
			return -1;
		return check_id(ps, c);
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

/* perfctr.event("NAME")[.user|.kernel][.cpu|.thread|.process[("PATH")]]
 * [.multiplex] then .counter("ID"), or .sample(N)|.hz(F) [.precise[(L)]];
 * ps->t is "perfctr". */
static int perfctr_point(struct parser *ps, struct counter *c)
{
	enum comp_rank rank = RANK_NONE;
	const char *prev = "perfctr";
	struct token event_tok = ps->t;
	char names[128];

	next(ps);
	while (is_op(ps, ".")) {
		const struct component *comp;

		next(ps);
		comp = find_component(ps);
		if (!comp) {
			list_components(names, sizeof(names), rank);
			parse_error(ps, "unknown perfctr probe point component, "
				    "expected one of %s", names);
			return -1;
		}
		if (check_rank(ps, comp, rank, prev) < 0)
			return -1;
		if (comp->field == F_PRECISE && !c->sample && !c->hz) {
			parse_error(ps, "'.precise' needs '.sample(N)' or "
				    "'.hz(F)' before it");
			return -1;
		}
		next(ps);
		if (apply_component(ps, comp, c, &event_tok) < 0)
			return -1;
		rank = comp->rank;
		prev = comp->name;
	}
	if (rank < RANK_ACTION) {
		list_components(names, sizeof(names), rank);
		parse_error(ps, "incomplete perfctr probe point, expected "
			    "'.' and one of %s", names);
		return -1;
	}
	if (is_op(ps, "?") || is_op(ps, "!") || is_op(ps, "+")) {
		parse_error(ps, "perfctr probe points cannot be optional");
		return -1;
	}
	return check_event(ps, c, &event_tok);
}

/* ------------------------------------------------------ probe statements */

static int at_point_end(struct parser *ps)
{
	return ps->t.kind == TK_EOF || is_op(ps, ",") || is_op(ps, "{") ||
	       is_op(ps, "=") || is_op(ps, "+=") || is(ps, TK_IDENT, "if");
}

/* Any other probe point: skip it, parentheses balanced. */
static void skip_point(struct parser *ps)
{
	int parens = 0;

	while (ps->t.kind != TK_EOF && (parens || !at_point_end(ps))) {
		if (is_op(ps, "("))
			parens++;
		else if (is_op(ps, ")") && parens)
			parens--;
		next(ps);
	}
}

static int starts_perfctr_point(struct parser *ps)
{
	return is(ps, TK_IDENT, "perfctr") &&
	       token__is(ps->src, peek(ps), TK_OPERATOR, ".");
}

static void record_conditions(struct parser *ps, struct counter *c)
{
	int i;

	for (i = 0; i < ps->nframes; i++)
		if (ps->frames[i].kind == FRAME_COND)
			c->cond[c->ncond++] = ps->frames[i].cond;
}

static int in_macro_body(struct parser *ps)
{
	int i;

	for (i = 0; i < ps->nframes; i++)
		if (ps->frames[i].kind == FRAME_MACRO)
			return 1;
	return 0;
}

static int check_context(struct parser *ps, const struct token *probe_tok)
{
	int i;

	if (in_macro_body(ps)) {
		error_at(ps, probe_tok, "perfctr probes cannot be defined "
			 "inside @define bodies");
		return -1;
	}
	for (i = 0; i < ps->nframes; i++)
		if (ps->frames[i].uses_macro) {
			error_at(ps, probe_tok, "perfctr probes cannot be under "
				 "a conditional that uses a macro");
			return -1;
		}
	return 0;
}

static int empty_body(struct parser *ps)
{
	if (is(ps, TK_IDENT, "if")) {
		parse_error(ps, "a perfctr counter probe takes no condition");
		return -1;
	}
	if (!is_op(ps, "{")) {
		parse_error(ps, "expected '{'");
		return -1;
	}
	next(ps);
	if (!is_op(ps, "}")) {
		parse_error(ps, "the body of a perfctr counter probe must be "
			    "empty: read the counter with @perfctr(\"ID\") in "
			    "other probes");
		return -1;
	}
	return 0;
}

/* Adds the clauses of one statement, rejecting duplicate ids. */
static int commit_counters(struct parser *ps, struct counter *cs, int n,
			   const struct token *probe_tok)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct counter *old = model__find(ps->m, cs[i].id);

		if (old) {
			error_at(ps, &cs[i].id_tok, "counter \"%s\" already "
				 "declared at %s:%d:%d", cs[i].id,
				 old->src->name, old->id_tok.line,
				 old->id_tok.col);
			return -1;
		}
		cs[i].src = ps->src;
		cs[i].where = *probe_tok;
		record_conditions(ps, &cs[i]);
		*model__add_counter(ps->m) = cs[i];
		ps->m->counters[ps->m->ncounters - 1].idx =
			ps->m->ncounters - 1;
	}
	return 0;
}

static int is_sampling(const struct counter *c)
{
	return c->sample || c->hz;
}

/* The body of a counter probe must be empty; a sampling probe's is what
 * runs.  Anything else is refused, one message per statement. */
static int check_action(struct parser *ps, const struct counter *cs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (is_sampling(&cs[i]) && n > 1) {
			parse_error(ps, "a sampling perfctr probe has one probe "
				    "point");
			return -1;
		}
	return 0;
}

/*
 * probe perfctr...sample(N) [if (COND)] { BODY }: the probe point is
 * replaced by the name of an alias the generated tapset defines (stap's
 * perf probe, encoded when the module starts), written over its first
 * line; everything else stays where it was.
 */
static int sampling_statement(struct parser *ps, struct counter *c,
			      const struct token *probe_tok,
			      const struct token *point_tok)
{
	char alias[32];
	size_t end = ps->t.off, line;

	if (check_context(ps, probe_tok) < 0)
		return -1;
	snprintf(c->id, sizeof(c->id), "__sample%zu", ps->m->ncounters);
	c->used = 1;
	snprintf(alias, sizeof(alias), "__perfctr_sample%zu",
		 ps->m->ncounters);
	line = strcspn(ps->src->text + point_tok->off, "\n");
	if (strlen(alias) > line) {
		error_at(ps, point_tok, "put the start of a sampling probe "
			 "point on one line, up to '.event(...)'");
		return -1;
	}
	if (commit_counters(ps, c, 1, probe_tok) < 0)
		return -1;
	source__blank(ps->src, point_tok->off, end - point_tok->off);
	source__write(ps->src, point_tok->off, alias);
	return 0;
}

#define MAX_POINTS 16

/* "probe" at depth 0.  Leaves ps->t on the body's "{" for other probes
 * (the caller scans bodies), or past the blanked statement. */
static void probe_statement(struct parser *ps)
{
	struct token probe_tok = ps->t, point_tok = ps->t;
	struct counter cs[MAX_POINTS];
	int nperf = 0, nother = 0, alias = 0;

	memset(cs, 0, sizeof(cs));
	next(ps);
	for (;;) {
		if (starts_perfctr_point(ps)) {
			point_tok = ps->t;
			if (nperf == MAX_POINTS) {
				parse_error(ps, "too many perfctr probe points "
					    "in one statement");
				goto fail;
			}
			if (perfctr_point(ps, &cs[nperf++]) < 0 ||
			    check_action(ps, cs, nperf) < 0)
				goto fail;
		} else {
			nother++;
			skip_point(ps);
		}
		if (is_op(ps, "=") || is_op(ps, "+="))
			alias = 1;
		else if (!is_op(ps, ","))
			break;
		next(ps);
	}
	if (!nperf)
		return;
	if (alias || nother) {
		error_at(ps, &probe_tok, "perfctr probe points cannot be "
			 "combined with other probe points or used in an "
			 "alias");
		goto fail;
	}
	if (nperf == 1 && is_sampling(&cs[0])) {
		if (sampling_statement(ps, &cs[0], &probe_tok, &point_tok) < 0)
			goto fail;
		return;		/* on the body: the caller scans it */
	}
	if (check_context(ps, &probe_tok) < 0 || empty_body(ps) < 0 ||
	    commit_counters(ps, cs, nperf, &probe_tok) < 0)
		goto fail;
	source__blank(ps->src, probe_tok.off,
		      ps->t.off + ps->t.len - probe_tok.off);
	next(ps);
	return;
fail:
	skip_statement(ps);
}

/* ------------------------------------------------------------------ reads */

static void record_read(struct parser *ps, const struct token *where,
			const struct token *id_tok, enum read_kind kind)
{
	struct counter_read *r = model__add_read(ps->m);

	r->src = ps->src;
	r->where = *where;
	r->kind = kind;
	if (token__string_value(ps->src, id_tok, r->id, sizeof(r->id)) < 0)
		r->id[0] = '\0';	/* too long: reported as undeclared */
}

/* @perfctr("ID"), or @perfctr(@param) inside a macro body. */
static void read_macro(struct parser *ps)
{
	next(ps);
	if (!is_op(ps, "(")) {
		parse_error(ps, "expected '(' after @perfctr");
		return;
	}
	next(ps);
	if (ps->t.kind == TK_STRING &&
	    token__is(ps->src, peek(ps), TK_OPERATOR, ")")) {
		record_read(ps, &ps->t, &ps->t, READ_MACRO);
	} else if (ps->t.kind == TK_AT && in_macro_body(ps)) {
		ps->m->dynamic_reads = 1;
	} else {
		parse_error(ps, "expected a counter id: @perfctr(\"ID\")");
	}
}

/* Which read function the token names, or READ_MACRO for none. */
static enum read_kind read_function(struct parser *ps, const struct token *t)
{
	enum read_kind k;

	for (k = READ_FN_READ; k < READ_NKINDS; k++)
		if (token__is(ps->src, t, TK_IDENT, read_kind_names[k]))
			return k;
	return READ_MACRO;
}

/* perfctr_read("ID") and its kin are checked; perfctr_read(expr) is
 * looked up when it runs.  perfctr_stamp() names no counter. */
static void read_call(struct parser *ps, enum read_kind kind)
{
	const struct token *after;

	next(ps);		/* "(" */
	if (kind == READ_FN_STAMP)
		return;
	next(ps);
	after = peek(ps);
	if (ps->t.kind == TK_STRING &&
	    (token__is(ps->src, after, TK_OPERATOR, ")") ||
	     token__is(ps->src, after, TK_OPERATOR, ",")))
		record_read(ps, &ps->t, &ps->t, kind);
	else
		ps->m->dynamic_reads = 1;
}

/* ----------------------------------------------------- frames and macros */

static struct frame *push_frame(struct parser *ps, enum frame_kind kind)
{
	struct frame *f;

	if (ps->nframes == (int)(sizeof(ps->frames) / sizeof(ps->frames[0]))) {
		parse_error(ps, "conditionals and macros nested too deeply");
		return NULL;
	}
	f = &ps->frames[ps->nframes++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->cond.src = ps->src;
	f->cond.off = ps->t.off + ps->t.len;
	return f;
}

static struct frame *top_frame(struct parser *ps)
{
	return ps->nframes ? &ps->frames[ps->nframes - 1] : NULL;
}

static void conditional(struct parser *ps)
{
	struct frame *f = top_frame(ps);

	switch (ps->t.kind) {
	case TK_PP_IF:
		push_frame(ps, FRAME_COND);
		break;
	case TK_PP_THEN:
		if (f && f->kind == FRAME_COND && !f->cond.len)
			f->cond.len = ps->t.off - f->cond.off;
		break;
	case TK_PP_ELSE:
		if (f && f->kind == FRAME_COND)
			f->cond.in_else = 1;
		break;
	default:	/* TK_PP_END */
		if (f)
			ps->nframes--;
		break;
	}
}

/* Marks conditions that call macros: we cannot copy those. */
static void note_macro_in_condition(struct parser *ps)
{
	struct frame *f = top_frame(ps);

	if (f && f->kind == FRAME_COND && !f->cond.len)
		f->uses_macro = 1;
}

/* @define NAME[(PARAMS)] %( BODY %) */
static void macro_definition(struct parser *ps)
{
	next(ps);
	if (is(ps, TK_IDENT, read_kind_names[READ_MACRO]))
		ps->m->user_defined |= 1u << READ_MACRO;
	while (ps->t.kind != TK_EOF && ps->t.kind != TK_PP_IF)
		next(ps);
	if (ps->t.kind == TK_PP_IF)
		push_frame(ps, FRAME_MACRO);
}

static void function_definition(struct parser *ps)
{
	enum read_kind k = read_function(ps, peek(ps));

	if (k != READ_MACRO) {
		ps->m->user_defined |= 1u << k;
		next(ps);	/* the name is not a call */
	}
}

/* ------------------------------------------------------------- main loop */

static void scan_token(struct parser *ps)
{
	enum tok_kind k = ps->t.kind;

	if (k == TK_IDENT && ps->depth == 0 && is(ps, TK_IDENT, "probe")) {
		probe_statement(ps);
		return;		/* already on the next token */
	}
	if (k == TK_IDENT && ps->depth == 0 && is(ps, TK_IDENT, "function"))
		function_definition(ps);
	else if (k == TK_IDENT && read_function(ps, &ps->t) != READ_MACRO &&
		 token__is(ps->src, peek(ps), TK_OPERATOR, "("))
		read_call(ps, read_function(ps, &ps->t));
	else if (is(ps, TK_AT, "@perfctr"))
		read_macro(ps);
	else if (is(ps, TK_AT, "@define"))
		macro_definition(ps);
	else if (k == TK_AT)
		note_macro_in_condition(ps);
	else if (k >= TK_PP_IF && k <= TK_PP_END)
		conditional(ps);
	else if (is_op(ps, "{"))
		ps->depth++;
	else if (is_op(ps, "}") && ps->depth > 0)
		ps->depth--;
	next(ps);
}

int parser__run(struct source *src, struct model *m, struct diag *d)
{
	struct parser ps;

	memset(&ps, 0, sizeof(ps));
	ps.src = src;
	ps.m = m;
	ps.d = d;
	lexer__init(&ps.ls, src);
	next(&ps);
	while (ps.t.kind != TK_EOF)
		scan_token(&ps);
	return ps.errors;
}

int parser__mentions_perfctr(const char *text)
{
	return strstr(text, "perfctr") != NULL;
}
