/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emit.h - the generated tapset: perfctr_gen.stp (request table, the
 * runtime's C, read functions) and perfctr_gen.stpm (@perfctr).  Output
 * is a pure function of its input, so stap's module cache can hit; it
 * names no file of the installation, so a compile server can build it.
 */
#ifndef PERFCTR_EMIT_H
#define PERFCTR_EMIT_H

#include "embed.h"
#include "model.h"
#include "strbuf.h"

struct emit_opts {
	const struct runtime_text *runtime;	/* embedded as it is */
	const char *runtime_hash;	/* hash of the runtime sources */
	const char *privilege;		/* stapdev, stapsys, stapusr */
	const char *kconf;		/* the kernel's features: #define
					 * lines (kconf.h), or NULL */
};

struct generated {
	struct strbuf stp;
	struct strbuf stpm;
	char table_hash[17];
};

/* Fills gen from a checked model.  Returns 0 or -ENOSPC (a request that
 * does not fit the table format). */
int emit__generate(const struct model *m, const struct emit_opts *opts,
		   struct generated *gen);
void emit__free(struct generated *gen);

#endif /* PERFCTR_EMIT_H */
