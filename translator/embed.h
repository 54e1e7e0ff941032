/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * embed.h - the runtime's C as text for the generated tapset: perfctr.h
 * and perfctr.c with each runtime file they include ("NAME") put in
 * place of its #include, so that the module's source names no file of
 * this installation (a compile server has none of them).
 */
#ifndef PERFCTR_EMBED_H
#define PERFCTR_EMBED_H

#include <stddef.h>

#include "strbuf.h"

struct runtime_text {
	struct strbuf head;	/* perfctr.h, expanded */
	struct strbuf body;	/* perfctr.c, expanded; for after head: the
				 * guarded headers head holds are not in it
				 * again (a comment says where they were) */
};

/* Reads the runtime in dir.  Returns 0, or a negative errno with why
 * (file:line and what) filled in. */
int embed__runtime(const char *dir, struct runtime_text *rt, char *why,
		   size_t whylen);
void embed__free(struct runtime_text *rt);

#endif /* PERFCTR_EMBED_H */
