/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parser.h - finds perfctr constructs in stap script text: counter clauses
 * `probe perfctr.event("NAME")....counter("ID") {}` (recorded in the model
 * and blanked in the source), sampling clauses `probe perfctr.event(...)
 * ....sample(N) { BODY }` (recorded, the probe point rewritten to an alias
 * name), and reads `@perfctr("ID")` / `perfctr_read(...)` and kin.
 * Everything else is scanned, not interpreted.
 */
#ifndef PERFCTR_PARSER_H
#define PERFCTR_PARSER_H

#include "diag.h"
#include "model.h"
#include "source.h"

/* Parses one source into the model, blanking the clauses it finds.
 * Errors go to d; returns the number of errors found in this source. */
int parser__run(struct source *src, struct model *m, struct diag *d);

/* The components a perfctr probe point may have after "perfctr", in
 * the order they must come (point.c's table): up to max of them in
 * names.  Returns how many there are. */
size_t point__component_names(const char **names, size_t max);

/* Cheap pre-test: does the text mention perfctr at all? */
int parser__mentions_perfctr(const char *text);

#endif /* PERFCTR_PARSER_H */
