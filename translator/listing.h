/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * listing.h - the command lines stap-perfctr answers itself, without
 * stap: --dump-counters[=text|json] (anywhere on the line), and -l / -L
 * with a pattern that starts with "perfctr".
 */
#ifndef PERFCTR_LISTING_H
#define PERFCTR_LISTING_H

#include "options.h"

/* Returns -1 when the command line is stap's, else our exit status
 * (output written).  Reads PERFCTR_SYSFS_ROOT (tests) for sysfs. */
int listing__run(const struct cmdline *cl);

#endif /* PERFCTR_LISTING_H */
