// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rewrite.c - reads become calls of their sites.  In the copy stap reads,
 * @perfctr("pf") becomes __pc3   (    ): the site's name over the read's
 * first token, the literal id blanked (and perfctr_delta's and
 * perfctr_read_socket's comma after it), so that every other token keeps
 * its line:column.  perfctr_read(v) keeps its argument: __pc4       (v).
 * Never rewritten: the user's
 * tapsets (parsed, never written), reads the script answers itself (its
 * own function or macro of the name), calls whose arguments are not what
 * the function takes (stap's to report), and reads past the names that
 * fit over @perfctr.
 */
#include <stdio.h>
#include <string.h>

#include "rewrite.h"

static int rewritable(const struct model *m, const struct counter_read *r)
{
	if (r->src->origin == SRC_TAPSET)
		return 0;
	if (r->event_fn)
		return r->counter != 0;	/* none: the script's own function */
	if (r->payload_fn)
		return !(m->pl_user_defined & (1u << (r->payload_fn - 1)));
	if (model__user_defined(m, r->kind))
		return 0;
	return r->dynamic || (r->counter && r->blank_len);
}

unsigned int rewrite__reads(struct model *m)
{
	char name[REWRITE_NAME_MAX + 8];
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < m->nreads; i++) {
		struct counter_read *r = &m->reads[i];

		if (!rewritable(m, r))
			continue;
		snprintf(name, sizeof(name), "__pc%u", n);
		if (strlen(name) > REWRITE_NAME_MAX || strlen(name) > r->name.len)
			break;
		source__blank(r->src, r->name.off, r->name.len);
		source__write(r->src, r->name.off, name);
		if (r->blank_len)
			source__blank(r->src, r->blank_off, r->blank_len);
		r->site = ++n;
	}
	return n;
}
