// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parser.c - a recursive-descent reader for the parts of the stap language
 * that concern perfctr.  The rest of a script is scanned token by token,
 * tracking only what changes the meaning of a token: brace depth (probe
 * statements start at depth 0), %( %? %: %) conditionals, and @define
 * bodies.  One error path: parse_error() at the current token
 * (parser_state.h).  The grammar of a probe point itself: point.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser_state.h"
#include "strbuf.h"

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

/* ------------------------------------------------------ probe statements */

static int at_point_end(struct parser *ps)
{
	return ps->t.kind == TK_EOF || is_op(ps, ",") || is_op(ps, "{") ||
	       is_op(ps, "=") || is_op(ps, "+=") || is(ps, TK_IDENT, "if");
}

/* The probes whose tasks matter to a read, by a point's first component;
 * any other is PROBE_OTHER. */
static const struct {
	const char *name;
	unsigned int probe;
} probe_kinds[] = {
	{ "begin", PROBE_BEGIN },
	{ "end", PROBE_END },
	{ "error", PROBE_ERROR },
	{ "timer", PROBE_TIMER },
};

static unsigned int probe_kind(struct parser *ps)
{
	size_t i;

	for (i = 0; i < sizeof(probe_kinds) / sizeof(probe_kinds[0]); i++)
		if (is(ps, TK_IDENT, probe_kinds[i].name))
			return probe_kinds[i].probe;
	return PROBE_OTHER;
}

/* Any other probe point: skip it, parentheses balanced, and add its
 * tokens to text, joined, NUL-terminated (a '?' or '!' after it, which
 * only says what to do when it is not found, left out). */
static void skip_point(struct parser *ps, struct strbuf *text)
{
	int parens = 0;

	while (ps->t.kind != TK_EOF && (parens || !at_point_end(ps))) {
		if (is_op(ps, "("))
			parens++;
		else if (is_op(ps, ")") && parens)
			parens--;
		if (parens || !(is_op(ps, "?") || is_op(ps, "!")))
			strbuf__add(text, ps->src->text + ps->t.off, ps->t.len);
		next(ps);
	}
	strbuf__add(text, "", 1);
}

/* A probe statement's body is about to be scanned: keep its points (and
 * an alias's names), for check.c to tell whether it runs at a context
 * switch.  Takes the buffers. */
static void add_stmt(struct parser *ps, struct strbuf *points,
		     struct strbuf *names)
{
	struct probe_stmt *s = model__add_stmt(ps->m);

	s->points = points->buf;
	s->points_len = points->len;
	s->names = names->buf;
	s->names_len = names->len;
	ps->stmt = ps->m->nstmts;
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
	if (ps->nframes + ps->deep > MODEL_COND_DEPTH) {	/* conditionals */
		error_at(ps, probe_tok, "perfctr probes cannot be under more "
			 "than %d nested conditionals", MODEL_COND_DEPTH);
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
				 old->source->name, old->id_tok.line,
				 old->id_tok.col);
			return -1;
		}
		counter__locate(&cs[i], ps->src, probe_tok);
		record_conditions(ps, &cs[i]);
		*model__add_counter(ps->m) = cs[i];
		ps->m->counters[ps->m->ncounters - 1].idx =
			ps->m->ncounters - 1;
	}
	return 0;
}

/* The body of a counter probe must be empty; a sampling probe's is what
 * runs.  Anything else is refused, one message per statement. */
static int check_action(struct parser *ps, const struct counter *cs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (counter__samples(&cs[i]) && n > 1) {
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
	struct strbuf points = { 0 }, names = { 0 };
	struct counter cs[MAX_POINTS];
	int nperf = 0, nother = 0, alias = 0;

	memset(cs, 0, sizeof(cs));
	ps->probes = 0;
	ps->sampling = 0;
	ps->fn = 0;
	ps->stmt = 0;
	next(ps);
	for (;;) {
		if (starts_perfctr_point(ps)) {
			point_tok = ps->t;
			if (nperf == MAX_POINTS) {
				parse_error(ps, "too many perfctr probe points "
					    "in one statement");
				goto fail;
			}
			if (point__parse(ps, &cs[nperf++]) < 0 ||
			    check_action(ps, cs, nperf) < 0)
				goto fail;
		} else {
			nother++;
			ps->probes |= probe_kind(ps);
			skip_point(ps, &points);
		}
		if (is_op(ps, "=") || is_op(ps, "+=")) {
			alias = 1;
			ps->probes = 0;	/* the body runs in what follows */
			strbuf__free(&names);
			names = points;	/* what came before names the alias */
			memset(&points, 0, sizeof(points));
		} else if (!is_op(ps, ","))
			break;
		next(ps);
	}
	if (!nperf) {
		add_stmt(ps, &points, &names);
		return;
	}
	strbuf__free(&points);
	strbuf__free(&names);
	if (ps->src->origin == SRC_TAPSET) {
		error_at(ps, &probe_tok, "perfctr probes belong in the "
			 "script: a tapset may call cpu_cycles() and kin, and "
			 "read the script's counters");
		goto fail;
	}
	if (alias || nother) {
		error_at(ps, &probe_tok, "perfctr probe points cannot be "
			 "combined with other probe points or used in an "
			 "alias");
		goto fail;
	}
	if (nperf == 1 && counter__samples(&cs[0])) {
		if (sampling_statement(ps, &cs[0], &probe_tok, &point_tok) < 0)
			goto fail;
		ps->probes = PROBE_OTHER;	/* runs in the sampled task */
		ps->sampling = ps->m->ncounters;
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
	strbuf__free(&points);	/* a point that failed inside the loop */
	strbuf__free(&names);
	skip_statement(ps);
}

/* ------------------------------------------------------------------ reads */

/* A read at name (its first token), where the probe being scanned runs. */
static struct counter_read *add_read(struct parser *ps,
				     const struct token *name,
				     enum read_kind kind)
{
	struct counter_read *r = model__add_read(ps->m);

	r->src = ps->src;
	r->name = r->where = *name;
	r->kind = kind;
	r->probes = ps->probes;
	r->fn = ps->fn;
	r->stmt = ps->stmt;
	return r;
}

/* A literal id at ps->t; a rewritten read blanks it, up to `to` (the id,
 * or perfctr_delta's comma after it). */
static struct counter_read *record_read(struct parser *ps,
					const struct token *name,
					const struct token *to,
					enum read_kind kind)
{
	struct counter_read *r = add_read(ps, name, kind);

	r->where = ps->t;
	r->blank_off = ps->t.off;
	r->blank_len = to->off + to->len - ps->t.off;
	if (token__string_value(ps->src, &ps->t, r->id, sizeof(r->id)) < 0)
		r->id[0] = '\0';	/* too long: reported as undeclared */
	return r;
}

/* @perfctr("ID"), or @perfctr(@param) inside a macro body. */
static void read_macro(struct parser *ps)
{
	struct token name = ps->t;

	next(ps);
	if (!is_op(ps, "(")) {
		parse_error(ps, "expected '(' after @perfctr");
		return;
	}
	next(ps);
	if (ps->t.kind == TK_STRING &&
	    token__is(ps->src, peek(ps), TK_OPERATOR, ")")) {
		record_read(ps, &name, &ps->t, READ_MACRO);
	} else if (ps->t.kind == TK_AT && in_macro_body(ps)) {
		ps->m->dynamic_reads = 1;
		ps->m->macro_reads = 1;
	} else {
		parse_error(ps, "expected a counter id: @perfctr(\"ID\"), or "
			    "perfctr_read(ID) for an id known at run time");
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
 * looked up when it runs.  perfctr_stamp() names no counter.  A literal
 * read with other arguments than its function takes is stap's to report:
 * checked, never rewritten (blank_len 0). */
static void read_call(struct parser *ps, enum read_kind kind)
{
	struct token name = ps->t;
	const struct token *after;
	int more = read_kind_more_args(kind);

	next(ps);		/* "(" */
	if (kind == READ_FN_STAMP)
		return;
	next(ps);
	after = peek(ps);
	if (ps->t.kind == TK_STRING &&
	    token__is(ps->src, after, TK_OPERATOR, more ? "," : ")"))
		record_read(ps, &name, more ? after : &ps->t, kind);
	else if (ps->t.kind == TK_STRING &&
		 (token__is(ps->src, after, TK_OPERATOR, ")") ||
		  token__is(ps->src, after, TK_OPERATOR, ",")))
		record_read(ps, &name, &ps->t, kind)->blank_len = 0;
	else {
		if (!is_op(ps, ")"))
			add_read(ps, &name, kind)->dynamic = 1;
		ps->m->dynamic_reads = 1;
		ps->m->dynamic_kinds |= 1u << kind;
	}
}

/* cpu_cycles() and kin name their event; perfctr_read_event("EVENT")
 * takes it as a literal: either way the checker declares the counter. */
static void event_call(struct parser *ps, int fn)
{
	struct token name = ps->t;
	struct counter_read *r;

	next(ps);		/* "(" */
	next(ps);
	if (event_fns[fn].event) {
		if (!is_op(ps, ")")) {
			parse_error(ps, "%s() takes no arguments",
				    event_fns[fn].name);
			return;
		}
	} else if (ps->t.kind != TK_STRING ||
		   !token__is(ps->src, peek(ps), TK_OPERATOR, ")")) {
		parse_error(ps, "%s() needs the event name as a string "
			    "literal: the counter is made when the script is "
			    "translated", event_fns[fn].name);
		return;
	}
	r = add_read(ps, &name, READ_FN_READ);
	r->event_fn = fn + 1;
	if (!event_fns[fn].event) {
		token__string_value(ps->src, &ps->t, r->id, sizeof(r->id));
		r->blank_off = ps->t.off;
		r->blank_len = ps->t.len;
	} else {
		snprintf(r->id, sizeof(r->id), "%s", event_fns[fn].event);
	}
}

/*
 * perfctr_sample_addr() and kin read the sample whose body runs: each
 * call is a read site (it fails where there is no sample), and the
 * clause whose body makes it, or calls a function that does, asks the
 * kernel for the payload (check.c).  No-argument functions take none;
 * the branch record accessors take an index.
 */
static void payload_call(struct parser *ps, int pv)
{
	const struct perfctr_pv_desc *d = &perfctr_pvs[pv];
	struct token name = ps->t;
	struct counter_read *r;
	int none;

	next(ps);		/* "(" */
	none = token__is(ps->src, peek(ps), TK_OPERATOR, ")");
	if (!perfctr_pv_indexed(d) && !none) {
		next(ps);
		parse_error(ps, "%s() takes no arguments", d->fn);
		return;
	}
	if (perfctr_pv_indexed(d) && none) {
		next(ps);
		parse_error(ps, "%s() takes %s: %s(I)", d->fn, d->arg, d->fn);
		return;
	}
	r = add_read(ps, &name, READ_FN_READ);
	r->payload_fn = pv + 1;
	r->clause = ps->sampling;
	snprintf(r->id, sizeof(r->id), "%s", d->fn);
}

/* A call in a function's, a sampling clause's or a probe's body: an edge
 * of the graph a payload travels up, and a context switch down
 * (check.c). */
static void record_call(struct parser *ps)
{
	struct script_call *c = model__add_call(ps->m);

	c->fn = ps->fn;
	c->clause = ps->sampling;
	c->stmt = ps->stmt;
	snprintf(c->name, sizeof(c->name), "%.*s", (int)ps->t.len,
		 ps->src->text + ps->t.off);
}

/* ----------------------------------------------------- frames and macros */

/* Deeper nesting is stap's to allow: beyond frames[] it is only counted,
 * and a clause under it is refused (check_context). */
static struct frame *push_frame(struct parser *ps, enum frame_kind kind)
{
	struct frame *f;

	if (ps->deep ||
	    ps->nframes == (int)(sizeof(ps->frames) / sizeof(ps->frames[0]))) {
		ps->deep++;
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
	return ps->nframes && !ps->deep ? &ps->frames[ps->nframes - 1] : NULL;
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
		if (ps->deep)
			ps->deep--;
		else if (f)
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

/* Which entry of a table of functions (find: model__event_fn() ...) the
 * token names, or -1. */
static int fn_at(struct parser *ps, const struct token *t,
		 int (*find)(const char *name, size_t len))
{
	return t->kind == TK_IDENT ? find(ps->src->text + t->off, t->len) : -1;
}

#define event_fn_at(ps, t)	fn_at((ps), (t), model__event_fn)
#define tapset_fn_at(ps, t)	fn_at((ps), (t), model__tapset_fn)
#define payload_fn_at(ps, t)	fn_at((ps), (t), model__payload_fn)
#define decoder_fn_at(ps, t)	fn_at((ps), (t), model__decoder_fn)

static void function_definition(struct parser *ps)
{
	enum read_kind k = read_function(ps, peek(ps));
	int fn = event_fn_at(ps, peek(ps)), tf = tapset_fn_at(ps, peek(ps));
	int pv = payload_fn_at(ps, peek(ps)), dec = decoder_fn_at(ps, peek(ps));
	struct script_fn *f;

	ps->probes = 0;		/* called from anywhere */
	ps->sampling = 0;
	ps->fn = 0;
	ps->stmt = 0;
	if (pv >= 0 && ps->src->origin != SRC_TAPSET)
		ps->m->pl_user_defined |= 1u << pv;
	if (dec >= 0 && ps->src->origin != SRC_TAPSET)
		ps->m->dec_user_defined |= 1u << dec;
	if (peek(ps)->kind == TK_IDENT) {
		f = model__add_fn(ps->m);
		snprintf(f->name, sizeof(f->name), "%.*s", (int)peek(ps)->len,
			 ps->src->text + peek(ps)->off);
		ps->fn = ps->m->nfns;
	}
	/* the script's own definitions win; a tapset's compete with ours */
	if (k != READ_MACRO && ps->src->origin != SRC_TAPSET)
		ps->m->user_defined |= 1u << k;
	if (fn >= 0 && ps->src->origin != SRC_TAPSET)
		ps->m->fn_user_defined |= 1u << fn;
	if (tf >= 0 && ps->src->origin != SRC_TAPSET)
		ps->m->tapset_user_defined |= 1u << tf;
	next(ps);		/* the name is not a call */
}

/* ------------------------------------------------------------- main loop */

static void scan_token(struct parser *ps)
{
	enum tok_kind k = ps->t.kind;

	if (k == TK_IDENT && ps->depth > 0 && is(ps, TK_IDENT, "target") &&
	    token__is(ps->src, peek(ps), TK_OPERATOR, "(") &&
	    ps->src->origin != SRC_TAPSET)
		ps->m->calls_target = 1;	/* and maybe a call: below */
	if (k == TK_IDENT && ps->depth == 0 && is(ps, TK_IDENT, "probe")) {
		probe_statement(ps);
		return;		/* already on the next token */
	}
	if (k == TK_IDENT && ps->depth > 0 && is(ps, TK_IDENT, "probe") &&
	    token__is(ps->src, peek(ps), TK_IDENT, "perfctr"))
		parse_error(ps, "perfctr probes belong at the top level of the "
			    "script, not inside a function or probe body");
	else if (k == TK_IDENT && ps->depth == 0 &&
		 is(ps, TK_IDENT, "function"))
		function_definition(ps);
	else if (k == TK_IDENT && read_function(ps, &ps->t) != READ_MACRO &&
		 token__is(ps->src, peek(ps), TK_OPERATOR, "("))
		read_call(ps, read_function(ps, &ps->t));
	else if (event_fn_at(ps, &ps->t) >= 0 &&
		 token__is(ps->src, peek(ps), TK_OPERATOR, "("))
		event_call(ps, event_fn_at(ps, &ps->t));
	else if (tapset_fn_at(ps, &ps->t) >= 0 &&
		 token__is(ps->src, peek(ps), TK_OPERATOR, "(")) {
		ps->m->tapset_calls |= 1u << tapset_fn_at(ps, &ps->t);
		if (ps->depth > 0 && (ps->fn || ps->sampling || ps->stmt))
			record_call(ps);	/* it may read the sample */
	}
	else if (payload_fn_at(ps, &ps->t) >= 0 &&
		 token__is(ps->src, peek(ps), TK_OPERATOR, "("))
		payload_call(ps, payload_fn_at(ps, &ps->t));
	else if (decoder_fn_at(ps, &ps->t) >= 0 &&
		 token__is(ps->src, peek(ps), TK_OPERATOR, "("))
		ps->m->decoders |= 1u << decoder_fn_at(ps, &ps->t);
	else if (k == TK_IDENT && ps->depth > 0 &&
		 (ps->fn || ps->sampling || ps->stmt) &&
		 token__is(ps->src, peek(ps), TK_OPERATOR, "("))
		record_call(ps);
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
	unsigned int i;

	if (strstr(text, "perfctr"))
		return 1;
	for (i = 0; i < nevent_fns; i++)
		if (strstr(text, event_fns[i].name))
			return 1;
	return 0;
}
