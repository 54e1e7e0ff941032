// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * embed.c - the runtime's sources, expanded into one text (embed.h).
 *
 * Only `#include "NAME"` lines are expanded, and NAME must be a file of
 * the runtime directory; angle-bracket includes (kernel headers) stay.
 * A file goes in wherever it is included, as the preprocessor would read
 * it (an include under an #if that is false in a module is no include:
 * the next one must still bring the file in), and its guard keeps a
 * second copy out; only a file that includes itself, directly or not, is
 * left out there.  The output depends on the files' contents alone,
 * never on where they are installed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embed.h"
#include "source.h"

#define EMBED_MAX_DEPTH 8

struct embed {
	const char *dir;
	const char *open[EMBED_MAX_DEPTH + 1];	/* the includes being read */
	int depth;
	char *why;
	size_t whylen;
};

/* Is name being read now (an include of itself)? */
static int reading(const struct embed *e, const char *name)
{
	int i;

	for (i = 0; i < e->depth; i++)
		if (strcmp(e->open[i], name) == 0)
			return 1;
	return 0;
}

/* The NAME of a `#include "NAME"` line (len bytes at line), or 0. */
static size_t include_name(const char *line, size_t len, const char **name)
{
	const char *p = line, *end = line + len, *q;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p++ != '#')
		return 0;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 8 || strncmp(p, "include", 7) != 0)
		return 0;
	p += 7;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
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
		  struct strbuf *out);

/* One line of file: itself, or the text of the runtime file it includes. */
static int expand_line(struct embed *e, const char *file, int lineno,
		       const char *line, size_t len, struct strbuf *out)
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
	return expand(e, name, &(struct site){ file, lineno }, out);
}

/* Appends file's text, its runtime includes expanded (none of itself). */
static int expand(struct embed *e, const char *file, const struct site *at,
		  struct strbuf *out)
{
	char path[PATH_MAX], why[NAME_MAX + 128];
	struct source s;
	const char *end;
	size_t off = 0;
	int err = 0, lineno = 0;

	if (reading(e, file))
		return 0;
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

		err = expand_line(e, file, ++lineno, s.text + off, len, out);
		off += len;
	}
	e->depth--;
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
	int err;

	memset(rt, 0, sizeof(*rt));
	err = expand(&e, "perfctr.h", &top, &rt->head);
	if (!err)
		err = expand(&e, "perfctr.c", &top, &rt->body);
	if (err)
		embed__free(rt);
	return err;
}

void embed__free(struct runtime_text *rt)
{
	strbuf__free(&rt->head);
	strbuf__free(&rt->body);
}
