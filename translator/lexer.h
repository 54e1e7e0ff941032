/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lexer.h - the SystemTap script lexer: every token stap 4.8 knows, with
 * the same rules (comments #, //, / * * /; strings with escapes on one
 * line; %{ %} embedded C; %( %? %: %) conditionals; $N @N $# @# script
 * arguments), so that positions agree with stap's to the column.
 */
#ifndef PERFCTR_LEXER_H
#define PERFCTR_LEXER_H

#include <stddef.h>

#include "source.h"

enum tok_kind {
	TK_EOF,
	TK_IDENT,	/* foo, $var, keywords */
	TK_AT,		/* @word: @perfctr, @entry, @define, ... */
	TK_ARG,		/* $1 @1 $# @#: script arguments */
	TK_NUMBER,
	TK_STRING,	/* off/len cover the quotes */
	TK_OPERATOR,
	TK_EMBEDDED,	/* %{ ... %} */
	TK_PP_IF,	/* %( */
	TK_PP_THEN,	/* %? */
	TK_PP_ELSE,	/* %: */
	TK_PP_END,	/* %) */
	TK_JUNK,	/* bad input; token.junk says why */
};

struct token {
	enum tok_kind kind;
	size_t off, len;	/* bytes in the source text */
	int line, col;		/* 1-based, as stap counts */
	const char *junk;	/* TK_JUNK: why */
};

struct lexer {
	const struct source *src;
	size_t pos;
	int line, col;
};

void lexer__init(struct lexer *ls, const struct source *src);
/* Scans the next token; comments and white space are skipped. */
void lexer__next(struct lexer *ls, struct token *t);

/* Token helpers. */
int token__is(const struct source *src, const struct token *t,
	      enum tok_kind kind, const char *text);
/* "identifier 'foo'", "string \"x\"", "end of input": for messages. */
void token__describe(const struct source *src, const struct token *t,
		     char *buf, size_t len);
/* The value of a TK_STRING with escapes decoded.  Returns 0, -ENOSPC, or
 * -EINVAL for a NUL byte in it. */
int token__string_value(const struct source *src, const struct token *t,
			char *buf, size_t len);

#endif /* PERFCTR_LEXER_H */
