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

#endif /* PERFCTR_CHECK_H */
