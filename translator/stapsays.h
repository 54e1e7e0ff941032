/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stapsays.h - what the real stap says about a script we refuse.  Our
 * errors are about perfctr; the script may hold others, which stap would
 * have reported first had it run.  The front-end runs it to pass 1 or 2
 * on the copy it would have been given, and its errors go before ours.
 */
#ifndef PERFCTR_STAPSAYS_H
#define PERFCTR_STAPSAYS_H

#include <stddef.h>

#include "diag.h"
#include "spawn.h"

/*
 * Passes stap's errors in err (its stderr) on to d, each as stap printed
 * it (the message line and the indented lines under it), mapped (our
 * copy of the script as the user's file; NULL when stap read none).  Left
 * out: everything that is not a parse or semantic error (warnings, stap's
 * summary and tips, a complaint about the machine), and errors that name
 * a path in hide[] (NULL-terminated: our generated and static tapsets,
 * whose errors follow from ours).  Returns the number passed on.
 */
int stapsays__relay(const char *err, size_t len, const struct spawn_map *map,
		    const char *const *hide, struct diag *d);

#endif /* PERFCTR_STAPSAYS_H */
