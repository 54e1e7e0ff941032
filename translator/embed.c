// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * embed.c - the runtime's sources, expanded into one text (embed.h).
 *
 * Only `#include "NAME"` lines are expanded, and NAME must be a file of
 * the runtime directory; angle-bracket includes (kernel headers) stay.
 * A file goes in wherever it is included, as the preprocessor would read
 * it (an include under an #if that is false in a module is no include:
 * the next one must still bring the file in), and its guard keeps a
 * second copy out.  Left out are a file that includes itself, directly
 * or not, there, and a file already in that is all guard and went in
 * unconditionally (each include on the way to it under no #if but its
 * includer's own guard): its guard is defined wherever the text goes on,
 * so a second copy would be none.  The head (perfctr.h) is such a file,
 * and comes first in the module: the body's includes of it and of the
 * headers it holds are left out.  The output depends on the files'
 * contents alone, never on where they are installed.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embed.h"
#include "source.h"

#define EMBED_MAX_DEPTH 8
#define EMBED_MAX_HELD 64

struct embed {
	const char *dir;
	const char *open[EMBED_MAX_DEPTH + 1];	/* the includes being read */
	int depth;
	const char *held[EMBED_MAX_HELD];	/* in for good (guarded, no
						 * #if), strdup'd */
	int nheld;
	char *why;
	size_t whylen;
};

/* Is name one of the n names? */
static int listed(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* If the len bytes at line are a directive "#WORD ...", WORD's length
 * with *word and *rest (after it and its blanks) set; else 0. */
static size_t directive(const char *line, size_t len, const char **word,
			const char **rest)
{
	const char *p = skip_blanks(line, line + len), *end = line + len;
	const char *w;

	if (p == end || *p++ != '#')
		return 0;
	w = p = skip_blanks(p, end);
	while (p < end && *p >= 'a' && *p <= 'z')
		p++;
	*word = w;
	*rest = skip_blanks(p, end);
	return p - w;
}

/* Is the directive's word (wlen bytes at w) kw? */
static int is_word(const char *w, size_t wlen, const char *kw)
{
	return wlen == strlen(kw) && strncmp(w, kw, wlen) == 0;
}

/* The identifier at p (before end), and its length. */
static size_t ident(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && (*q == '_' || isalnum((unsigned char)*q)))
		q++;
	return q - p;
}

/* Is the line blank, or (as far as its start tells) a comment's? */
static int blank_or_comment(const char *line, size_t len)
{
	const char *end = line + len, *p = skip_blanks(line, end);

	return p == end || *p == '\n' || *p == '*' ||
	       (end - p >= 2 && p[0] == '/' && (p[1] == '*' || p[1] == '/'));
}

/*
 * A file's conditionals, line by line: how deep in #if the current line
 * is, and whether the file is all guard (#ifndef NAME, #define NAME, the
 * text, #endif; only comments and blanks around).  A file with more or
 * other is not guarded: it goes in at each include, as before.
 */
struct conds {
	int depth;		/* #if nesting at this line */
	int ndirectives;	/* conditionals and defines seen */
	const char *guard;	/* NAME of the first #ifndef NAME */
	size_t guardlen;
	int guarded;		/* 0: no guard yet, 1: in it, 2: past its
				 * #endif, -1: not all guard */
};

/* Takes in one line of a file's (not an include, which the caller sees
 * at c->depth). */
static void conds_line(struct conds *c, const char *line, size_t len)
{
	const char *w, *rest, *end = line + len;
	size_t wlen = directive(line, len, &w, &rest), n;

	if (c->guarded < 0)
		;
	else if (c->guarded == 2)	/* past the guard's #endif */
		c->guarded = blank_or_comment(line, len) ? 2 : -1;
	else if (!wlen && c->ndirectives < 2 && !blank_or_comment(line, len))
		c->guarded = -1;	/* text before the guard */
	if (!wlen)
		return;
	if (is_word(w, wlen, "ifndef") && c->ndirectives == 0) {
		c->guard = rest;
		c->guardlen = ident(rest, end);
	} else if (c->ndirectives == 1 && c->guard && c->guarded == 0) {
		n = ident(rest, end);
		c->guarded = is_word(w, wlen, "define") && n == c->guardlen &&
			     !strncmp(rest, c->guard, n) ? 1 : -1;
	} else if (c->ndirectives < 2) {
		c->guarded = -1;	/* something else first */
	}
	if (wlen >= 2 && strncmp(w, "if", 2) == 0)
		c->depth++;
	else if (is_word(w, wlen, "endif") && c->depth > 0 &&
		 --c->depth == 0 && c->guarded == 1)
		c->guarded = 2;
	else if (c->depth == 1 && c->guarded == 1 &&
		 (is_word(w, wlen, "else") || is_word(w, wlen, "elif")))
		c->guarded = -1;	/* a second copy would have this */
	if (!is_word(w, wlen, "include"))
		c->ndirectives++;
}

/* Is an include at the current line unconditional, given the file's? */
static int conds_sure(const struct conds *c)
{
	return c->depth == 0 || (c->depth == 1 && c->guarded == 1);
}

/* The NAME of a `#include "NAME"` line (len bytes at line), or 0. */
static size_t include_name(const char *line, size_t len, const char **name)
{
	const char *w, *p, *end = line + len, *q;
	size_t wlen = directive(line, len, &w, &p);

	if (!is_word(w, wlen, "include"))
		return 0;
	if (p == end || *p != '"')
		return 0;
	q = memchr(p + 1, '"', end - p - 1);
	if (!q || q == p + 1)
		return 0;
	*name = p + 1;
	return q - p - 1;
}

/* Says why, at file:line (line 0: the file as a whole); returns err. */
static int fail(struct embed *e, int err, const char *file, int line,
		const char *what, const char *name)
{
	if (line)
		snprintf(e->why, e->whylen, "%s/%s:%d: %s%s", e->dir, file,
			 line, what, name);
	else
		snprintf(e->why, e->whylen, "%s/%s: %s%s", e->dir, file, what,
			 name);
	return err;
}

/* The line (from 1) that p is on in text. */
static int line_of(const char *text, const char *p)
{
	int line = 1;

	for (; text < p; text++)
		line += *text == '\n';
	return line;
}

/* Where a file is included from, for messages. */
struct site {
	const char *file;
	int line;
};

static int expand(struct embed *e, const char *file, const struct site *at,
		  int sure, struct strbuf *out);

/* One line of file: itself, or the text of the runtime file it includes
 * (sure: unconditionally). */
static int expand_line(struct embed *e, const char *file, int lineno,
		       const char *line, size_t len, int sure,
		       struct strbuf *out)
{
	char name[256];
	const char *n;
	size_t nlen = include_name(line, len, &n);

	if (!nlen) {
		strbuf__add(out, line, len);
		return 0;
	}
	if (nlen >= sizeof(name) || memchr(n, '/', nlen))
		return fail(e, -EINVAL, file, lineno, "an include the runtime "
			    "cannot embed: not a file of its own directory", "");
	memcpy(name, n, nlen);
	name[nlen] = '\0';
	if (e->depth >= EMBED_MAX_DEPTH)
		return fail(e, -ELOOP, file, lineno, "includes nested too deep",
			    "");
	return expand(e, name, &(struct site){ file, lineno }, sure, out);
}

/* Appends file's text, its runtime includes expanded (none of itself,
 * none in for good); sure: the file goes in unconditionally. */
static int expand(struct embed *e, const char *file, const struct site *at,
		  int sure, struct strbuf *out)
{
	char path[PATH_MAX], why[NAME_MAX + 128];
	struct conds c = { 0 };
	struct source s;
	const char *end;
	size_t off = 0;
	int err = 0, lineno = 0;

	if (listed(e->open, e->depth, file))	/* an include of itself */
		return 0;
	if (listed(e->held, e->nheld, file)) {
		strbuf__printf(out, "/* runtime: %s, above */\n", file);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", e->dir, file);
	err = source__load_file(&s, path);
	if (err < 0) {
		snprintf(why, sizeof(why), "%s: %s", file, strerror(-err));
		return at->file ?
		       fail(e, err, at->file, at->line, "cannot read ", why) :
		       fail(e, err, file, 0, strerror(-err), "");
	}
	end = memmem(s.text, s.len, "%}", 2);
	if (end)
		err = fail(e, -EINVAL, file, line_of(s.text, end), "holds \"%}\", "
			   "which would end the generated tapset's embedded C",
			   "");
	strbuf__printf(out, "/* runtime: %s */\n", file);
	e->open[e->depth++] = file;
	while (!err && off < s.len) {
		const char *nl = memchr(s.text + off, '\n', s.len - off);
		size_t len = nl ? (size_t)(nl - (s.text + off)) + 1 :
			     s.len - off;

		err = expand_line(e, file, ++lineno, s.text + off, len,
				  sure && conds_sure(&c), out);
		conds_line(&c, s.text + off, len);
		off += len;
	}
	e->depth--;
	if (!err && sure && c.guarded == 2 && e->nheld < EMBED_MAX_HELD) {
		e->held[e->nheld] = strdup(file);
		e->nheld += e->held[e->nheld] != NULL;
	}
	if (!err && s.len && s.text[s.len - 1] != '\n')
		strbuf__add(out, "\n", 1);
	source__free(&s);
	return err;
}

int embed__runtime(const char *dir, struct runtime_text *rt, char *why,
		   size_t whylen)
{
	struct embed e = { .dir = dir, .why = why, .whylen = whylen };
	const struct site top = { NULL, 0 };
	int err, i;

	memset(rt, 0, sizeof(*rt));
	err = expand(&e, "perfctr.h", &top, 1, &rt->head);
	if (!err)
		err = expand(&e, "perfctr.c", &top, 1, &rt->body);
	for (i = 0; i < e.nheld; i++)
		free((char *)e.held[i]);
	if (err)
		embed__free(rt);
	return err;
}

void embed__free(struct runtime_text *rt)
{
	strbuf__free(&rt->head);
	strbuf__free(&rt->body);
}
