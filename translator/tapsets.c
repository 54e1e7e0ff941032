// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tapsets.c - which of the user's tapset files stap will read, by name:
 * a file is needed when a needed source calls a function it defines or
 * names a probe alias it defines.  Names are compared whole for functions
 * and by first component for aliases ("foo" of foo.bar): a superset of
 * what stap reads, never less.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "tapsets.h"

#define TAPSET_DEPTH 3

/* ------------------------------------------------------------ name sets */

struct name_set {
	const char **name;	/* pointers into source texts, not owned */
	size_t *len;
	size_t cap, n;
};

static size_t name_hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ull;	/* FNV-1a */

	while (len--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return (size_t)h;
}

static size_t set_slot(const struct name_set *set, const char *s, size_t len)
{
	size_t i = name_hash(s, len) & (set->cap - 1);

	while (set->name[i] &&
	       (set->len[i] != len || memcmp(set->name[i], s, len)))
		i = (i + 1) & (set->cap - 1);
	return i;
}

static int set_has(const struct name_set *set, const char *s, size_t len)
{
	return set->cap && set->name[set_slot(set, s, len)] != NULL;
}

static int set_grow(struct name_set *set)
{
	struct name_set bigger = { .cap = set->cap ? set->cap * 2 : 256 };
	size_t i;

	bigger.name = calloc(bigger.cap, sizeof(*bigger.name));
	bigger.len = calloc(bigger.cap, sizeof(*bigger.len));
	if (!bigger.name || !bigger.len) {
		free(bigger.name);
		free(bigger.len);
		return -ENOMEM;
	}
	for (i = 0; i < set->cap; i++) {
		size_t j;

		if (!set->name[i])
			continue;
		j = set_slot(&bigger, set->name[i], set->len[i]);
		bigger.name[j] = set->name[i];
		bigger.len[j] = set->len[i];
		bigger.n++;
	}
	free(set->name);
	free(set->len);
	*set = bigger;
	return 0;
}

static int set_add(struct name_set *set, const char *s, size_t len)
{
	size_t i;

	if ((set->n + 1) * 2 > set->cap && set_grow(set) < 0)
		return -ENOMEM;
	i = set_slot(set, s, len);
	if (!set->name[i]) {
		set->name[i] = s;
		set->len[i] = len;
		set->n++;
	}
	return 0;
}

static void set_free(struct name_set *set)
{
	free(set->name);
	free(set->len);
}

/* ------------------------------------------------- names in one source */

struct name_list {
	struct name_span *span;
	size_t n, cap;
};

static int list_add(struct name_list *l, const struct token *t)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct name_span *s = realloc(l->span, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		l->span = s;
		l->cap = cap;
	}
	l->span[l->n].off = t->off;
	l->span[l->n++].len = t->len;
	return 0;
}

struct name_scan {
	const struct source *src;
	struct lexer ls;
	struct token t, prev;
	int depth;		/* braces */
	int in_points;		/* after "probe", before its body or "=" */
	struct token point;	/* first name of the probe's first point */
	struct name_list defs, uses;
};

static int is_tok(const struct name_scan *ns, const struct token *t,
		  enum tok_kind kind, const char *text)
{
	return token__is(ns->src, t, kind, text);
}

/* One token, seen with the one before it. */
static int scan_one(struct name_scan *ns)
{
	const struct token *t = &ns->t, *p = &ns->prev;

	if (ns->in_points) {
		if (t->kind == TK_IDENT && (is_tok(ns, p, TK_IDENT, "probe") ||
					    is_tok(ns, p, TK_OPERATOR, ","))) {
			if (is_tok(ns, p, TK_IDENT, "probe"))
				ns->point = *t;
			return list_add(&ns->uses, t);
		}
		if (is_tok(ns, t, TK_OPERATOR, "=") ||
		    is_tok(ns, t, TK_OPERATOR, "+=")) {
			ns->in_points = 0;
			return ns->point.kind == TK_IDENT ?
			       list_add(&ns->defs, &ns->point) : 0;
		}
		if (is_tok(ns, t, TK_OPERATOR, "{"))
			ns->in_points = 0;
	}
	if (t->kind == TK_IDENT && ns->depth == 0 &&
	    is_tok(ns, t, TK_IDENT, "probe")) {
		ns->in_points = 1;
		ns->point.kind = TK_EOF;
	} else if (t->kind == TK_IDENT && is_tok(ns, p, TK_IDENT, "function")) {
		return list_add(&ns->defs, t);
	} else if (is_tok(ns, t, TK_OPERATOR, "(") && p->kind == TK_IDENT &&
		   !is_tok(ns, p, TK_IDENT, "function")) {
		return list_add(&ns->uses, p);
	} else if (is_tok(ns, t, TK_OPERATOR, "{")) {
		ns->depth++;
	} else if (is_tok(ns, t, TK_OPERATOR, "}") && ns->depth > 0) {
		ns->depth--;
	}
	return 0;
}

static int scan_names(const struct source *src, struct name_list *defs,
		      struct name_list *uses)
{
	struct name_scan ns;
	int err = 0;

	memset(&ns, 0, sizeof(ns));
	ns.src = src;
	lexer__init(&ns.ls, src);
	lexer__next(&ns.ls, &ns.t);
	while (ns.t.kind != TK_EOF && !err) {
		err = scan_one(&ns);
		ns.prev = ns.t;
		lexer__next(&ns.ls, &ns.t);
	}
	if (err) {
		free(ns.defs.span);
		free(ns.uses.span);
		return err;
	}
	*defs = ns.defs;
	*uses = ns.uses;
	return 0;
}

/* ----------------------------------------------------------- the files */

static int add_file(struct tapsets *ts, const char *path)
{
	struct tapset_file *f, *files;
	struct name_list defs, uses;

	files = realloc(ts->files, (ts->nfiles + 1) * sizeof(*files));
	if (!files)
		return -ENOMEM;
	ts->files = files;
	f = &files[ts->nfiles];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	if (source__load_file(&f->src, f->path) < 0) {
		free(f->path);
		return 0;	/* unreadable: stap skips it too */
	}
	f->src.origin = SRC_TAPSET;
	f->src.name = f->path;
	if (scan_names(&f->src, &defs, &uses) < 0) {
		source__free(&f->src);
		free(f->path);
		return -ENOMEM;
	}
	f->defs = defs.span;
	f->ndefs = defs.n;
	f->uses = uses.span;
	f->nuses = uses.n;
	ts->nfiles++;
	return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int scan_dir(struct tapsets *ts, const char *dir, int depth)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		char path[4096];

		if (de->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(path))
			continue;
		if (has_suffix(de->d_name, ".stp"))
			err = add_file(ts, path);
		else if (depth > 1 && de->d_type != DT_REG)
			err = scan_dir(ts, path, depth - 1);
	}
	closedir(d);
	return err;
}

int tapsets__scan(struct tapsets *ts, char *const *dirs, int ndirs)
{
	int i, err = 0;

	memset(ts, 0, sizeof(*ts));
	for (i = 0; i < ndirs && !err; i++)
		err = scan_dir(ts, dirs[i], TAPSET_DEPTH);
	return err;
}

/* --------------------------------------------------------- the closure */

static int add_uses(struct name_set *used, const struct source *src,
		    const struct name_span *uses, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set_add(used, src->text + uses[i].off, uses[i].len) < 0)
			return -ENOMEM;
	return 0;
}

static int file_is_used(const struct tapset_file *f,
			const struct name_set *used)
{
	size_t i;

	for (i = 0; i < f->ndefs; i++)
		if (set_has(used, f->src.text + f->defs[i].off,
			    f->defs[i].len))
			return 1;
	return 0;
}

int tapsets__resolve(struct tapsets *ts, const struct source *srcs,
		     int nsrc)
{
	struct name_set used = { 0 };
	int i, err = 0, grew = 1;

	for (i = 0; i < nsrc && !err; i++) {
		struct name_list defs, uses;

		err = scan_names(&srcs[i], &defs, &uses);
		if (err)
			break;
		err = add_uses(&used, &srcs[i], uses.span, uses.n);
		free(defs.span);
		free(uses.span);
	}
	while (grew && !err) {		/* to the fixed point */
		size_t j;

		grew = 0;
		for (j = 0; j < ts->nfiles && !err; j++) {
			struct tapset_file *f = &ts->files[j];

			if (f->needed || !file_is_used(f, &used))
				continue;
			f->needed = grew = 1;
			err = add_uses(&used, &f->src, f->uses, f->nuses);
		}
	}
	set_free(&used);
	return err;
}

void tapsets__free(struct tapsets *ts)
{
	size_t i;

	for (i = 0; i < ts->nfiles; i++) {
		source__free(&ts->files[i].src);
		free(ts->files[i].path);
		free(ts->files[i].defs);
		free(ts->files[i].uses);
	}
	free(ts->files);
	memset(ts, 0, sizeof(*ts));
}
