/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - handing over to the real stap: exec it outright, or run it
 * with its stderr filtered so that messages naming our rewritten copy of
 * a script name the user's file instead; and reading what perfctr-run
 * lists.
 */
#ifndef PERFCTR_SPAWN_H
#define PERFCTR_SPAWN_H

#include <stdio.h>

#include "source.h"
#include "strbuf.h"

/* execv, nothing else; returns only on failure (-errno). */
int spawn__exec(const char *path, char *const *argv);

/* Runs path with argv and waits.  Returns the exit status to exit with
 * (a child killed by a signal: as spawn__run_mapped). */
int spawn__run(const char *path, char *const *argv);

/* What a relay of stap's messages writes otherwise: our copy's path
 * (from) as the user's (to), and a line of the copy that stap quotes
 * ("source: " under an "at COPY:LINE:COL") as the user wrote it (src: the
 * copy, rewritten and as read; NULL: none). */
struct spawn_map {
	const char *from, *to;
	const struct source *src;
};

/* Runs path with argv; its stderr (and, with map_stdout, its stdout) is
 * written mapped.  Returns the exit status to exit with (a child killed
 * by a signal is reported as 128 + signal, after re-raising it on
 * ourselves where that terminates us). */
int spawn__run_mapped(const char *path, char *const *argv,
		      const struct spawn_map *map, int map_stdout);

/* Runs path with argv and adds what it writes to fd (STDOUT_FILENO or
 * STDERR_FILENO) to sb; its other stream goes to /dev/null when
 * other_null, else to ours.  Returns its exit status (as spawn__run), or
 * -1 if it could not run. */
int spawn__capture(const char *path, char *const *argv, int fd,
		   int other_null, struct strbuf *sb);

/* Writes text (whole lines) mapped; *line carries the copy's line stap
 * named last from one call to the next (0 to begin). */
void spawn__write_mapped(FILE *out, const char *text, size_t len,
			 const struct spawn_map *map, int *line);

#endif /* PERFCTR_SPAWN_H */
