// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lexer.c - scanning SystemTap script text.  Mirrors stap's lexer::scan()
 * rule for rule; a difference in what counts as a token would move every
 * position we report and every clause we blank.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lexer.h"

/* Multi-character operators, longest first: stap matches greedily. */
static const char *const operators[] = {
	"<<<", ">>>", "<<=", ">>=",
	"==", "!=", "<=", ">=", "=~", "!~", "+=", "-=", "*=", "/=", "%=",
	"&=", "^=", "|=", ".=", "&&", "||", "++", "--", "->", "<<", ">>",
	"%(", "%?", "%:", "%)",
	NULL,
};

/* Descriptions in enum tok_kind order, as stap words them. */
static const char *const kind_names[] = {
	[TK_EOF] = "end of input",
	[TK_IDENT] = "identifier",
	[TK_AT] = "operator",
	[TK_ARG] = "script argument",
	[TK_NUMBER] = "number",
	[TK_STRING] = "string",
	[TK_OPERATOR] = "operator",
	[TK_EMBEDDED] = "embedded-code",
	[TK_PP_IF] = "operator",
	[TK_PP_THEN] = "operator",
	[TK_PP_ELSE] = "operator",
	[TK_PP_END] = "operator",
	[TK_JUNK] = "junk",
};

void lexer__init(struct lexer *ls, const struct source *src)
{
	ls->src = src;
	ls->pos = 0;
	ls->line = 1;
	ls->col = 1;
}

static int peek(const struct lexer *ls, size_t ahead)
{
	size_t p = ls->pos + ahead;

	return p < ls->src->len ? (unsigned char)ls->src->text[p] : -1;
}

static int advance(struct lexer *ls)
{
	int c = peek(ls, 0);

	if (c < 0)
		return c;
	ls->pos++;
	if (c == '\n') {
		ls->line++;
		ls->col = 1;
	} else {
		ls->col++;
	}
	return c;
}

static void skip_line(struct lexer *ls)
{
	int c;

	do
		c = advance(ls);
	while (c >= 0 && c != '\n');
}

/* An unclosed C comment runs to the end of input, silently, as in stap. */
static void skip_c_comment(struct lexer *ls)
{
	advance(ls);
	advance(ls);
	while (peek(ls, 0) >= 0 && !(peek(ls, 0) == '*' && peek(ls, 1) == '/'))
		advance(ls);
	advance(ls);
	advance(ls);
}

/* Returns 1 when it skipped something. */
static int skip_space_and_comments(struct lexer *ls)
{
	int c = peek(ls, 0), c2 = peek(ls, 1);

	if (c >= 0 && isspace(c)) {
		advance(ls);
		return 1;
	}
	if (c == '#' || (c == '/' && c2 == '/')) {
		skip_line(ls);
		return 1;
	}
	if (c == '/' && c2 == '*') {
		skip_c_comment(ls);
		return 1;
	}
	return 0;
}

static void scan_word(struct lexer *ls, struct token *t)
{
	int first = advance(ls), c;

	while ((c = peek(ls, 0)) >= 0 && (isalnum(c) || c == '_' || c == '$'))
		advance(ls);
	t->kind = first == '@' ? TK_AT : TK_IDENT;
}

static void scan_script_arg(struct lexer *ls, struct token *t)
{
	advance(ls);		/* $ or @ */
	if (advance(ls) != '#')
		while (peek(ls, 0) >= 0 && isdigit(peek(ls, 0)))
			advance(ls);
	t->kind = TK_ARG;
}

static void scan_number(struct lexer *ls, struct token *t)
{
	while (peek(ls, 0) >= 0 && isalnum(peek(ls, 0)))
		advance(ls);
	t->kind = TK_NUMBER;
}

/* Strings end at the line: stap has no multi-line literals. */
static void scan_string(struct lexer *ls, struct token *t)
{
	int c;

	advance(ls);
	for (;;) {
		c = advance(ls);
		if (c < 0 || c == '\n') {
			t->kind = TK_JUNK;
			t->junk = "unclosed string literal";
			return;
		}
		if (c == '"')
			break;
		if (c == '\\' && peek(ls, 0) >= 0 && peek(ls, 0) != '\n')
			advance(ls);
	}
	t->kind = TK_STRING;
}

static void scan_embedded(struct lexer *ls, struct token *t)
{
	advance(ls);
	advance(ls);
	while (peek(ls, 0) >= 0 && !(peek(ls, 0) == '%' && peek(ls, 1) == '}'))
		advance(ls);
	if (peek(ls, 0) < 0) {
		t->kind = TK_JUNK;
		t->junk = "unclosed embedded code: no '%}'";
		return;
	}
	advance(ls);
	advance(ls);
	t->kind = TK_EMBEDDED;
}

static enum tok_kind pp_kind(const char *op)
{
	if (op[0] != '%')
		return TK_OPERATOR;
	switch (op[1]) {
	case '(': return TK_PP_IF;
	case '?': return TK_PP_THEN;
	case ':': return TK_PP_ELSE;
	case ')': return TK_PP_END;
	}
	return TK_OPERATOR;
}

static void scan_operator(struct lexer *ls, struct token *t)
{
	const char *here = ls->src->text + ls->pos;
	size_t left = ls->src->len - ls->pos;
	const char *const *op;

	for (op = operators; *op; op++) {
		size_t n = strlen(*op);

		if (n <= left && memcmp(here, *op, n) == 0) {
			t->kind = pp_kind(*op);
			while (n--)
				advance(ls);
			return;
		}
	}
	advance(ls);
	t->kind = TK_OPERATOR;
}

void lexer__next(struct lexer *ls, struct token *t)
{
	int c, c2;

	while (skip_space_and_comments(ls))
		;
	memset(t, 0, sizeof(*t));
	t->off = ls->pos;
	t->line = ls->line;
	t->col = ls->col;
	c = peek(ls, 0);
	c2 = peek(ls, 1);
	if (c < 0)
		t->kind = TK_EOF;
	else if ((c == '$' || c == '@') && c2 >= 0 && (c2 == '#' || isdigit(c2)))
		scan_script_arg(ls, t);
	else if (isalpha(c) || c == '$' || c == '@' || c == '_')
		scan_word(ls, t);
	else if (isdigit(c))
		scan_number(ls, t);
	else if (c == '"')
		scan_string(ls, t);
	else if (c == '%' && c2 == '{')
		scan_embedded(ls, t);
	else if (ispunct(c))
		scan_operator(ls, t);
	else {
		advance(ls);
		t->kind = TK_JUNK;
		t->junk = "unexpected character";
	}
	t->len = ls->pos - t->off;
}

int token__is(const struct source *src, const struct token *t,
	      enum tok_kind kind, const char *text)
{
	return t->kind == kind && strlen(text) == t->len &&
	       memcmp(src->text + t->off, text, t->len) == 0;
}

void token__describe(const struct source *src, const struct token *t,
		     char *buf, size_t len)
{
	const char *text = source__as_read(src) + t->off;
	int n = strnlen(text, t->len > 40 ? 40 : t->len);	/* NUL: cut */
	const char *q = t->kind == TK_STRING ? "" : "'";

	if (t->kind == TK_EOF || t->kind == TK_EMBEDDED)
		snprintf(buf, len, "%s", kind_names[t->kind]);
	else if (t->kind == TK_JUNK)
		snprintf(buf, len, "%s", t->junk);
	else
		snprintf(buf, len, "%s %s%.*s%s%s", kind_names[t->kind], q, n,
			 text, n < (int)t->len ? "..." : "", q);
}

static int unescape(int c)
{
	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'a': return '\a';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'v': return '\v';
	}
	return c;	/* \\ \" and unknown escapes stand for themselves */
}

int token__string_value(const struct source *src, const struct token *t,
			char *buf, size_t len)
{
	const char *p = src->text + t->off + 1;
	const char *end = src->text + t->off + t->len - 1;
	size_t n = 0;

	for (; p < end; p++) {
		int c = *p;

		if (c == '\\' && p + 1 < end)
			c = unescape(*++p);
		if (!c)
			return -EINVAL;	/* a NUL byte would cut the value */
		if (n + 1 >= len)
			return -ENOSPC;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return 0;
}
