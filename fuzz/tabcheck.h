/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tabcheck.h - what perfctr-run trusts in a table perfctr_modtab__read
 * returned (libperfctr.h, docs/design.md "The request table"): checked
 * after every read, so that a hostile file cannot mislead it without the
 * fuzzer noticing.  A broken promise aborts (a crash to libFuzzer).
 */
#ifndef FUZZ_TABCHECK_H
#define FUZZ_TABCHECK_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libperfctr.h"

#define TABCHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "tabcheck: %s:%d: %s\n", __FILE__,	\
			__LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

static inline int tabcheck_hash(const char *h)
{
	int i;

	for (i = 0; i < 16; i++)
		if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
			return 0;
	return h[16] == '\0';
}

/* One request: strings in bounds, what the format requires, and it
 * survives a write and a read unchanged. */
static inline void tabcheck_request(const struct perfctr_request *r)
{
	struct perfctr_request back;
	char buf[PERFCTR_REQ_FMT_MAX];

	TABCHECK(strnlen(r->id, sizeof(r->id)) < sizeof(r->id) && r->id[0]);
	TABCHECK(strnlen(r->event, sizeof(r->event)) < sizeof(r->event) &&
		 r->event[0]);
	TABCHECK(strnlen(r->src, sizeof(r->src)) < sizeof(r->src));
	TABCHECK(strnlen(r->target, sizeof(r->target)) < sizeof(r->target));
	TABCHECK(strnlen(r->cpus, sizeof(r->cpus)) < sizeof(r->cpus));
	TABCHECK(r->plm == PERFCTR_PLM_USER || r->plm == PERFCTR_PLM_KERNEL ||
		 r->plm == PERFCTR_PLM_ALL);
	TABCHECK(r->gh <= (PERFCTR_GH_GUEST | PERFCTR_GH_HOST));
	TABCHECK(perfctr_request__format(r, buf, sizeof(buf)) > 0);
	TABCHECK(perfctr_request__parse(buf, &back) == 0);
	TABCHECK(memcmp(r, &back, sizeof(back)) == 0);
}

static inline void tabcheck(int ret, const struct perfctr_modtab *tab,
			    const char *err)
{
	unsigned int i, j;

	if (ret) {
		TABCHECK(ret == -ENOEXEC || ret == -EINVAL || ret == -ENOMEM);
		TABCHECK(err[0]);
		TABCHECK(!tab->reqs && !tab->n && !tab->version);
		return;
	}
	if (!tab->version) {
		TABCHECK(!tab->n && !tab->n_declared);
		return;
	}
	TABCHECK(tab->version == 1);
	TABCHECK(tab->n_declared <= PERFCTR_REQ_MAX);
	TABCHECK(tab->n <= tab->n_declared);
	TABCHECK(tabcheck_hash(tab->hash));
	TABCHECK(!strcmp(tab->priv, "stapdev") || !strcmp(tab->priv, "stapsys") ||
		 !strcmp(tab->priv, "stapusr"));
	TABCHECK(tab->n == 0 || tab->reqs);
	for (i = 0; i < tab->n; i++) {
		const struct perfctr_request *r = &tab->reqs[i];

		TABCHECK(r->idx < tab->n_declared);
		TABCHECK(i == 0 || r->idx > tab->reqs[i - 1].idx);
		for (j = 0; j < i; j++)
			TABCHECK(strcmp(r->id, tab->reqs[j].id) != 0);
		tabcheck_request(r);
	}
}

#endif /* FUZZ_TABCHECK_H */
