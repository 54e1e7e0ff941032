/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diag.h - the translator's one error path.  Every message carries the
 * file:line:column of a token and the source line with a caret, in stap's
 * own layout, so users see one style whichever pass complains.
 */
#ifndef PERFCTR_DIAG_H
#define PERFCTR_DIAG_H

#include <stdio.h>

#include "lexer.h"

enum diag_kind {
	DIAG_PARSE,	/* "parse error" */
	DIAG_SEMANTIC,	/* "semantic error" */
	DIAG_WARNING,	/* "WARNING" */
};

struct diag {
	FILE *out;
	int errors;
	int by_kind[DIAG_WARNING];	/* errors: parse, semantic */
	int warnings;
	int quiet_warnings;	/* stap -w */
};

void diag__init(struct diag *d, FILE *out);

/* Reports `what` at token t of src.  The message names the token ("saw:
 * identifier 'x' at FILE:L:C") and shows the line with a caret. */
void diag__report(struct diag *d, enum diag_kind kind,
		  const struct source *src, const struct token *t,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "stap-perfctr: FILE:LINE:COL: what": a note (stap -v), not counted. */
void diag__note(struct diag *d, const struct source *src,
		const struct token *t, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A message with no position (command line, files). */
void diag__plain(struct diag *d, enum diag_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error stap itself printed (text: its lines, as printed), passed on
 * and counted with ours. */
void diag__relay(struct diag *d, enum diag_kind kind, const char *text,
		 size_t len);

/* "1 parse error." / "2 semantic errors.": stap's summary, per kind. */
void diag__summary(struct diag *d);

#endif /* PERFCTR_DIAG_H */
