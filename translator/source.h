/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.h - one piece of script text the translator reads: a script file,
 * stdin ("-"), an -e script or an -E snippet.  The text is rewritten in
 * place (perfctr clauses blanked), so positions never move.
 */
#ifndef PERFCTR_SOURCE_H
#define PERFCTR_SOURCE_H

#include <stddef.h>

enum source_origin {
	SRC_FILE,	/* script file named on the command line */
	SRC_STDIN,	/* "-": read from standard input */
	SRC_ARG_E,	/* -e SCRIPT */
	SRC_ARG_BIG_E,	/* -E SNIPPET (in addition to a script) */
	SRC_TAPSET,	/* a file of the user's tapsets (-I DIR): read only */
};

struct source {
	enum source_origin origin;
	const char *name;	/* as stap names it: the path, or "<input>" */
	char *text;		/* NUL-terminated, owned */
	size_t len;
	char *as_read;		/* once rewritten: the text as read, for
				 * messages about what was blanked */
	int argv_index;		/* for -e / -E: the argv slot of the text */
	int changed;		/* the text was rewritten */
};

int source__load_file(struct source *src, const char *path);
int source__load_fd(struct source *src, int fd, const char *name);
int source__from_string(struct source *src, enum source_origin origin,
			const char *name, const char *text, int argv_index);
void source__free(struct source *src);

/* The text as read, before any rewriting: what messages quote. */
static inline const char *source__as_read(const struct source *src)
{
	return src->as_read ? src->as_read : src->text;
}

/* The text of line `line` (1-based) as read, without its newline: for
 * messages. */
const char *source__line(const struct source *src, int line, size_t *len);
/* The same line as rewritten: what stap reads. */
const char *source__line_now(const struct source *src, int line, size_t *len);

/* Replaces bytes [off, off+len) by spaces, keeping newlines: the rest of
 * the text keeps its line:column. */
void source__blank(struct source *src, size_t off, size_t len);
/* Writes text (no newlines) over the bytes at off, which must hold it. */
void source__write(struct source *src, size_t off, const char *text);

#endif /* PERFCTR_SOURCE_H */
