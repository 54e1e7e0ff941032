/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_generic.c - perf's generic events (the library's table, generic.c)
 * and, for each, whether this kernel opens it: a trial open on one CPU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dump.h"

struct walk {
	struct perfctr_dump *d;
	int cpu;
	int err;
};

static void add(const char *name, void *ctx)
{
	struct walk *w = ctx;
	struct perfctr_dump_generic *g;
	struct perfctr_encoding enc;

	memset(&enc, 0, sizeof(enc));
	if (w->err || pc_generic_resolve(name, &enc, NULL, 0))
		return;
	g = PC_PUSH(w->d->generic, w->d->n_generic);
	if (!g || !(g->name = strdup(name))) {
		w->err = -ENOMEM;
		return;
	}
	g->enc = enc;
	if (w->cpu >= 0) {
		g->tried = 1;
		g->open_err = perfctr_encoding__trial_open(&enc, w->cpu, NULL, 0);
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(((const struct perfctr_dump_generic *)a)->name,
		      ((const struct perfctr_dump_generic *)b)->name);
}

int pc_dump_generic(struct perfctr_dump *d, int cpu)
{
	struct walk w = { .d = d, .cpu = cpu };

	pc_generic_names(add, &w);
	if (d->n_generic)
		qsort(d->generic, d->n_generic, sizeof(*d->generic), cmp);
	return w.err;
}
