/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - semantic checks over the whole model (all sources): every
 * literal counter id read is declared; each counter gets its scope, and
 * reads that its scope cannot answer where they are are refused; counters
 * never read are reported and not created.
 */
#ifndef PERFCTR_CHECK_H
#define PERFCTR_CHECK_H

#include "diag.h"
#include "model.h"

/* Returns the number of errors. */
int check__run(struct model *m, struct diag *d);

/* After check__run: one note per counter created, saying how it counts
 * (stap -v), and how to count only the target where it could. */
void check__describe(const struct model *m, struct diag *d);

/* The clauses of the scopes that allow what bit names (PERFCTR_SA_*;
 * want 1), or do not (want 0), joined by sep: ".thread/.process/
 * .cgroup/.socket".  Returns buf. */
const char *check__scope_list(unsigned int bit, int want, const char *sep,
			      char *buf, size_t len);

#endif /* PERFCTR_CHECK_H */
