/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_remote.c - a run for stap --remote (staprun's -r ID:URI, which
 * stap gives every remote host): our lines start with the host's index
 * as --remote-prefix writes standard output ("ID: "), since stap
 * prefixes only that stream, and every counter's encoding is listed, so
 * a run on many hosts says what each one counts.  The lines are
 * gathered in a buffer and written, prefixed, at the end.
 */
#include <stdlib.h>
#include <string.h>
#include "run.h"

/* The stream for a run's messages: to itself unless id names a remote
 * host (or no buffer can be had: unprefixed beats lost). */
FILE *remote__open(struct remote *r, const char *id, FILE *to)
{
	memset(r, 0, sizeof(*r));
	r->to = to;
	r->id = id;
	if (id[0])
		r->buf = open_memstream(&r->text, &r->len);
	return r->buf ? r->buf : to;
}

/* Writes what was gathered, each line with the host's prefix. */
void remote__close(struct remote *r)
{
	const char *p, *nl;

	if (!r->buf)
		return;
	fclose(r->buf);
	r->buf = NULL;
	for (p = r->text; p && *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		fprintf(r->to, "%s: %.*s\n", r->id, (int)(nl - p), p);
		if (!*nl)
			break;
	}
	free(r->text);
	r->text = NULL;
}
