/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outdir.h - where generated files live: a directory named by the hash of
 * their content, under $SYSTEMTAP_DIR/perfctr/ (~/.systemtap by default).
 * Same input, same bytes, same path: stap's module cache hits.
 */
#ifndef PERFCTR_OUTDIR_H
#define PERFCTR_OUTDIR_H

#include <limits.h>
#include <stddef.h>

#include "emit.h"
#include "source.h"
#include "strbuf.h"

struct outdir {
	char dir[PATH_MAX];		/* the -I directory: HASH/tapset */
	char script[PATH_MAX];		/* rewritten script: HASH/NAME, or "" */
};

/* Writes gen (and the rewritten script, when given) and fills out.
 * script_name is the file name to give the rewritten script; under is
 * the directory to write in (NULL: $SYSTEMTAP_DIR/perfctr).  Returns 0
 * or a negative errno. */
int outdir__write(const struct generated *gen, const struct source *script,
		  const char *script_name, const char *under,
		  struct outdir *out);

/* Removes what outdir__write wrote (and its directories, once empty). */
void outdir__remove(const struct outdir *out);

/* A small file of ours kept across runs (NAME under $SYSTEMTAP_DIR/perfctr,
 * a private directory): _keep writes it atomically, _recall reads it into
 * sb (only a private regular file; -ENOENT: none).  Return 0 or -errno. */
int outdir__keep(const char *name, const char *text, size_t len);
int outdir__recall(const char *name, struct strbuf *sb);

/* An exclusive lock on NAME there (made if missing): a file descriptor to
 * close to release it, or -errno. */
int outdir__lock(const char *name);

/* Hash of the runtime sources in dir, as 16 hex digits: stap does not
 * hash #included files, so the generated text must change with them. */
int outdir__hash_runtime(const char *dir, char hex[17]);

#endif /* PERFCTR_OUTDIR_H */
