/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rewrite.h - each read in the user's script becomes a call of a function
 * of its own, its site, so that a read that fails at run time can say
 * where the script reads it (emit.c writes the functions).
 */
#ifndef PERFCTR_REWRITE_H
#define PERFCTR_REWRITE_H

#include "model.h"

/* The longest site name, "__pc" and its number: it is written over the
 * read's first token, and @perfctr has 8 bytes. */
#define REWRITE_NAME_MAX 8

/* After a successful check__run: numbers the reads that can be rewritten
 * (read->site) and rewrites them in their sources.  Returns the number of
 * sites. */
unsigned int rewrite__reads(struct model *m);

#endif /* PERFCTR_REWRITE_H */
