/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tapsets.h - the user's own tapsets (stap -I DIR).  A tapset that calls
 * cpu_cycles() and kin needs its counters declared just as the script's
 * own calls do.  stap pulls a tapset file into a script when the script,
 * or a file already pulled in, calls a function or uses a probe alias the
 * file defines; the same closure is computed here, by name, so that only
 * the files stap will read are parsed.
 */
#ifndef PERFCTR_TAPSETS_H
#define PERFCTR_TAPSETS_H

#include <stddef.h>

#include "source.h"

struct name_span {
	size_t off, len;	/* a name in the file's text */
};

struct tapset_file {
	struct source src;	/* origin SRC_TAPSET; name = path */
	char *path;
	struct name_span *defs;	/* functions and probe aliases defined */
	struct name_span *uses;	/* functions called, probe points named */
	size_t ndefs, nuses;
	int needed;		/* stap will read this file for the script */
};

struct tapsets {
	struct tapset_file *files;
	size_t nfiles;
};

/* Reads every *.stp file under the directories (three levels, as stap's
 * version and architecture subdirectories go).  Unreadable files and
 * directories are skipped, as stap skips them.  Returns 0 or -ENOMEM. */
int tapsets__scan(struct tapsets *ts, char *const *dirs, int ndirs);

/* Marks the files the sources need, directly or through other files.
 * Returns 0 or -ENOMEM. */
int tapsets__resolve(struct tapsets *ts, const struct source *srcs,
		     int nsrc);

void tapsets__free(struct tapsets *ts);

#endif /* PERFCTR_TAPSETS_H */
