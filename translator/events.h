/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.h - the script's event names, asked of perfctr-run before a
 * module is built: a name no machine knows is an error at its clause,
 * and, for a module that will run here, one this machine cannot count.
 */
#ifndef PERFCTR_EVENTS_H
#define PERFCTR_EVENTS_H

#include "diag.h"
#include "model.h"
#include "options.h"

/* Asks helper (perfctr-run --check-events[=here]) once about the event
 * of every counter the module creates, and reports each refusal at the
 * counter's event name.  A helper that cannot be run, or that answers
 * otherwise, refuses nothing.  Returns the number of errors. */
int events__check(const struct model *m, const struct cmdline *cl,
		  const char *helper, struct diag *d);

#endif /* PERFCTR_EVENTS_H */
