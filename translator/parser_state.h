/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parser_state.h - what the parser's files share: the parser's state, its
 * token helpers and its one error path (error_at / parse_error).  Private
 * to parser.c and point.c.
 */
#ifndef PERFCTR_PARSER_STATE_H
#define PERFCTR_PARSER_STATE_H

#include <stdarg.h>
#include <stdio.h>

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
	unsigned int missing_arg;	/* the clause being parsed names @N,
					 * not given, under a condition */
	int depth;		/* braces */
	int nframes;
	struct frame frames[MODEL_COND_DEPTH * 2];
	int deep;		/* frames open beyond frames[]: counted only */
	unsigned int probes;	/* PROBE_* of the top-level statement whose
				 * body is being scanned; 0 for a function */
	unsigned int sampling;	/* 1 + the sampling clause whose body is
				 * being scanned, or 0 */
	unsigned int fn;	/* 1 + the function (model's fns) whose body
				 * is being scanned, or 0 */
	unsigned int stmt;	/* 1 + the probe statement (model's stmts)
				 * whose body is being scanned, or 0 */
};

/* ---------------------------------------------------------------- tokens */

static inline void next(struct parser *ps)
{
	if (ps->have_ahead) {
		ps->t = ps->ahead;
		ps->have_ahead = 0;
	} else {
		lexer__next(&ps->ls, &ps->t);
	}
}

static inline const struct token *peek(struct parser *ps)
{
	if (!ps->have_ahead) {
		lexer__next(&ps->ls, &ps->ahead);
		ps->have_ahead = 1;
	}
	return &ps->ahead;
}

static inline int is(struct parser *ps, enum tok_kind kind, const char *text)
{
	return token__is(ps->src, &ps->t, kind, text);
}

static inline int is_op(struct parser *ps, const char *op)
{
	return is(ps, TK_OPERATOR, op);
}

static inline void verror_at(struct parser *ps, const struct token *t,
		      const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	diag__report(ps->d, DIAG_PARSE, ps->src, t, "%s", msg);
	ps->errors++;
}

/* The one error path: a message at a token (the current one by default). */
static inline void __attribute__((format(printf, 3, 4)))
error_at(struct parser *ps, const struct token *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(ps, t, fmt, ap);
	va_end(ap);
}

static inline void __attribute__((format(printf, 2, 3)))
parse_error(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(ps, &ps->t, fmt, ap);
	va_end(ap);
}

/* perfctr.event(...)...: one probe point, into c; ps->t is "perfctr".
 * Returns 0, or -1 after reporting the error (point.c). */
int point__parse(struct parser *ps, struct counter *c);

#endif /* PERFCTR_PARSER_STATE_H */
