// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-lexer.c - every lexical form of the stap language, with the
 * positions stap itself reports.
 */
#include <errno.h>
#include <stdlib.h>

#include "lexer.h"
#include "tap.h"

struct want {
	enum tok_kind kind;
	const char *text;
	int line, col;
};

static void expect_tokens(const char *name, const char *text,
			  const struct want *w)
{
	struct source src;
	struct lexer ls;
	struct token t;
	int i, good = 1;

	source__from_string(&src, SRC_ARG_E, "<input>", text, -1);
	lexer__init(&ls, &src);
	for (i = 0;; i++) {
		lexer__next(&ls, &t);
		if (t.kind != w[i].kind ||
		    (w[i].text && !token__is(&src, &t, t.kind, w[i].text)) ||
		    (w[i].line && (t.line != w[i].line || t.col != w[i].col))) {
			printf("# token %d: kind %d '%.*s' at %d:%d\n", i,
			       t.kind, (int)t.len, src.text + t.off, t.line,
			       t.col);
			good = 0;
			break;
		}
		if (t.kind == TK_EOF)
			break;
	}
	ok(good, "%s", name);
	source__free(&src);
}

static void comments(void)
{
	static const struct want w[] = {
		{ TK_IDENT, "a", 1, 1 },
		{ TK_IDENT, "b", 2, 1 },
		{ TK_IDENT, "c", 3, 1 },
		{ TK_IDENT, "d", 5, 3 },
		{ TK_EOF, NULL, 0, 0 },
	};

	expect_tokens("comments: # // and /* */ spanning lines",
		      "a # one\nb // two\nc /* three\n four */\n  d", w);
}

static void strings(void)
{
	static const struct want w[] = {
		{ TK_STRING, "\"a\\\"b\"", 1, 1 },
		{ TK_STRING, "\"\\\\\"", 1, 8 },
		{ TK_STRING, "\"x\\ny\"", 1, 13 },
		{ TK_EOF, NULL, 0, 0 },
	};
	static const struct want unclosed[] = {
		{ TK_JUNK, NULL, 1, 1 },
		{ TK_IDENT, "next", 2, 1 },
		{ TK_EOF, NULL, 0, 0 },
	};

	expect_tokens("strings with escaped quote and backslash",
		      "\"a\\\"b\" \"\\\\\" \"x\\ny\"", w);
	expect_tokens("an unclosed string ends at the line",
		      "\"abc\nnext", unclosed);
}

static void embedded_and_conditionals(void)
{
	static const struct want w[] = {
		{ TK_EMBEDDED, "%{ int x = a % b; /* } */ %}", 1, 1 },
		{ TK_PP_IF, "%(", 2, 1 },
		{ TK_IDENT, "arch", 2, 4 },
		{ TK_OPERATOR, "==", 2, 9 },
		{ TK_STRING, "\"x86_64\"", 2, 12 },
		{ TK_PP_THEN, "%?", 2, 21 },
		{ TK_NUMBER, "1", 2, 24 },
		{ TK_PP_ELSE, "%:", 2, 26 },
		{ TK_NUMBER, "0x2", 2, 29 },
		{ TK_PP_END, "%)", 2, 33 },
		{ TK_EOF, NULL, 0, 0 },
	};

	expect_tokens("embedded C and %( %? %: %)",
		      "%{ int x = a % b; /* } */ %}\n"
		      "%( arch == \"x86_64\" %? 1 %: 0x2 %)", w);
}

static void words_and_args(void)
{
	static const struct want w[] = {
		{ TK_AT, "@define", 1, 1 },
		{ TK_IDENT, "m", 1, 9 },
		{ TK_AT, "@perfctr", 1, 11 },
		{ TK_OPERATOR, "(", 1, 19 },
		{ TK_IDENT, "$var", 1, 20 },
		{ TK_OPERATOR, "->", 1, 24 },
		{ TK_IDENT, "f_1", 1, 26 },
		{ TK_OPERATOR, ")", 1, 29 },
		{ TK_ARG, "$1", 1, 31 },
		{ TK_ARG, "@12", 1, 34 },
		{ TK_ARG, "$#", 1, 38 },
		{ TK_ARG, "@#", 1, 41 },
		{ TK_EOF, NULL, 0, 0 },
	};

	expect_tokens("@words, $vars, script arguments",
		      "@define m @perfctr($var->f_1) $1 @12 $# @#", w);
}

static void operators(void)
{
	static const struct want w[] = {
		{ TK_OPERATOR, "<<<", 0, 0 },
		{ TK_OPERATOR, "<<=", 0, 0 },
		{ TK_OPERATOR, ">>=", 0, 0 },
		{ TK_OPERATOR, "=~", 0, 0 },
		{ TK_OPERATOR, "!~", 0, 0 },
		{ TK_OPERATOR, ".=", 0, 0 },
		{ TK_OPERATOR, "&&", 0, 0 },
		{ TK_OPERATOR, "++", 0, 0 },
		{ TK_OPERATOR, "-", 0, 0 },
		{ TK_OPERATOR, "%", 0, 0 },
		{ TK_OPERATOR, "=", 0, 0 },
		{ TK_OPERATOR, "/", 0, 0 },
		{ TK_EOF, NULL, 0, 0 },
	};

	expect_tokens("operators match longest first",
		      "<<< <<= >>= =~ !~ .= && ++ - % = /", w);
}

static void tabs_and_values(void)
{
	static const struct want w[] = {
		{ TK_IDENT, "a", 1, 2 },
		{ TK_STRING, NULL, 2, 3 },
		{ TK_EOF, NULL, 0, 0 },
	};
	struct source src;
	struct lexer ls;
	struct token t;
	char buf[16];

	expect_tokens("a tab is one column, as stap counts", "\ta\n\t\t\"q\"",
		      w);
	source__from_string(&src, SRC_ARG_E, "<input>", "\"a\\tb\\\"c\"", -1);
	lexer__init(&ls, &src);
	lexer__next(&ls, &t);
	token__string_value(&src, &t, buf, sizeof(buf));
	is_str(buf, "a\tb\"c", "string value decodes escapes");
	is_int(token__string_value(&src, &t, buf, 3), -ENOSPC,
	       "string value reports a short buffer");
	source__free(&src);
}

int main(void)
{
	comments();
	strings();
	embedded_and_conditionals();
	words_and_args();
	operators();
	tabs_and_values();
	return tap_done();
}
