/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_names.c - from a dump, the event names a script can use here, as
 * it would write them: what stap -l 'perfctr.**' lists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dump.h"

/* Trial-open errors that mean the kernel has no such event.  Any other
 * (no permission, no room now) leaves the name listed. */
static const int absent_errors[] = { ENOENT, EOPNOTSUPP, EINVAL, ENODEV };

struct names {
	char **v;
	unsigned int n;
	int err;
};

static void add(struct names *s, char *name)
{
	char **slot;

	if (!name || s->err || !(slot = PC_PUSH(s->v, s->n))) {
		free(name);
		s->err = -ENOMEM;
		return;
	}
	*slot = name;
}

static int generic_usable(const struct perfctr_dump_generic *g)
{
	size_t i;

	for (i = 0; g->tried && i < ARRAY_SIZE(absent_errors); i++)
		if (g->open_err == -absent_errors[i])
			return 0;
	return 1;
}

/* A libpfm4 event alone needs a default umask when it has umasks. */
static void add_pfm(struct names *s, const struct perfctr_dump_event *e)
{
	const struct perfctr_dump_attr *a;
	int umasks = 0, dfl = 0;
	unsigned int i;
	char *name;

	for (i = 0; i < e->n_attrs; i++) {
		a = &e->attrs[i];
		if (a->kind != PERFCTR_ATTR_UMASK)
			continue;
		umasks++;
		dfl |= a->is_default;
		if (asprintf(&name, "%s:%s", e->name, a->name) < 0)
			name = NULL;
		add(s, name);
	}
	if (!umasks || dfl)
		add(s, strdup(e->name));
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int perfctr_dump__names(const struct perfctr_dump *d, perfctr_name_fn *fn,
			void *ctx)
{
	const struct perfctr_dump_event *e;
	struct names s = { 0 };
	unsigned int i, j;

	for (i = 0; i < d->n_generic; i++)
		if (generic_usable(&d->generic[i]))
			add(&s, strdup(d->generic[i].name));
	for (i = 0; i < d->n_pmus; i++)
		for (j = 0; j < d->pmus[i].n_events; j++) {
			e = &d->pmus[i].events[j];
			if (e->source == PERFCTR_SRC_LIBPFM4)
				add_pfm(&s, e);
			else
				add(&s, strdup(e->name));
		}
	if (!s.err && s.n)
		qsort(s.v, s.n, sizeof(*s.v), cmp);
	for (i = 0; i < s.n; i++) {
		if (!s.err && (i == 0 || strcmp(s.v[i], s.v[i - 1])))
			fn(s.v[i], ctx);
	}
	for (i = 0; i < s.n; i++)
		free(s.v[i]);
	free(s.v);
	return s.err;
}
