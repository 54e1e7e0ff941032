/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - semantic checks over the whole model (all sources): every
 * literal counter id read is declared; counters never read are reported
 * and not created.
 */
#ifndef PERFCTR_CHECK_H
#define PERFCTR_CHECK_H

#include "diag.h"
#include "model.h"

/* Returns the number of errors. */
int check__run(struct model *m, struct diag *d);

#endif /* PERFCTR_CHECK_H */
