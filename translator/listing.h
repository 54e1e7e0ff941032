/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * listing.h - the command lines stap-perfctr answers without stap:
 * --dump-counters[=FORMAT] (anywhere on the line), and -l / -L with a
 * pattern that starts with "perfctr".
 */
#ifndef PERFCTR_LISTING_H
#define PERFCTR_LISTING_H

#include "options.h"

/* Returns -1 when the command line is stap's, else our exit status
 * (output written).  The listing is perfctr-run's (helper: its path):
 * --dump-counters execs it, -l and -L read its --dump-counters=names.
 * It reads PERFCTR_SYSFS_ROOT (tests) and LIBPFM_FORCE_PMU. */
int listing__run(const struct cmdline *cl, const char *helper);

#endif /* PERFCTR_LISTING_H */
