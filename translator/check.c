// SPDX-License-Identifier: GPL-2.0-or-later
/* check.c - counter reads against counter declarations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* "; did you mean \"cycles\"?" or the list of declared ids. */
static void hint(const struct model *m, const char *id, char *buf, size_t len)
{
	const char **ids = calloc(m->ncounters + 1, sizeof(*ids));
	const char *near[3];
	size_t i, n = 0, used = 0;

	buf[0] = '\0';
	if (!ids)
		return;
	for (i = 0; i < m->ncounters; i++)
		ids[i] = m->counters[i].id;
	n = perfctr_suggest(id, ids, m->ncounters, near, 3);
	if (n) {
		used += snprintf(buf, len, "; did you mean");
		for (i = 0; i < n && used < len; i++)
			used += snprintf(buf + used, len - used, "%s \"%s\"",
					 i ? " or" : "", near[i]);
		if (used < len)
			snprintf(buf + used, len - used, "?");
	} else if (!m->ncounters) {
		snprintf(buf, len, "; declare it with probe perfctr.event("
			 "\"EVENT\").counter(\"%s\") {}", id);
	}
	free(ids);
}

static int check_read(struct model *m, struct counter_read *r,
		      struct diag *d)
{
	struct counter *c;
	char h[256];

	if (model__user_defined(m, r->kind))
		return 0;	/* the script's own definition wins */
	c = model__find(m, r->id);
	if (c) {
		c->used = 1;
		return 0;
	}
	hint(m, r->id, h, sizeof(h));
	diag__report(d, DIAG_SEMANTIC, r->src, &r->where,
		     "undeclared perfctr counter \"%s\"%s", r->id, h);
	return 1;
}

int check__run(struct model *m, struct diag *d)
{
	size_t i;
	int errors = 0;

	for (i = 0; i < m->nreads; i++)
		errors += check_read(m, &m->reads[i], d);
	for (i = 0; i < m->ncounters; i++) {
		struct counter *c = &m->counters[i];

		if (m->dynamic_reads)
			c->used = 1;
		if (!c->used)
			diag__report(d, DIAG_WARNING, c->src, &c->id_tok,
				     "perfctr counter \"%s\" is never read, "
				     "not created", c->id);
	}
	return errors;
}
