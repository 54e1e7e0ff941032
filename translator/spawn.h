/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - handing over to the real stap: exec it outright, or run it
 * with its stderr filtered so that messages naming our rewritten copy of
 * a script name the user's file instead; and reading what perfctr-run
 * lists.
 */
#ifndef PERFCTR_SPAWN_H
#define PERFCTR_SPAWN_H

/* execv, nothing else; returns only on failure (-errno). */
int spawn__exec(const char *path, char *const *argv);

/* Runs path with argv and waits.  Returns the exit status to exit with
 * (a child killed by a signal: as spawn__run_mapped). */
int spawn__run(const char *path, char *const *argv);

/* Runs path with argv; every occurrence of `from` in its stderr (and,
 * with map_stdout, its stdout) is written as `to`.  Returns the exit
 * status to exit with (a child killed by a signal is reported as 128 +
 * signal, after re-raising it on ourselves where that terminates us). */
int spawn__run_mapped(const char *path, char *const *argv, const char *from,
		      const char *to, int map_stdout);

/* Runs path with argv and reads its stdout (its stderr is ours) into
 * *out (malloc'd, NUL-terminated, *len bytes).  Returns 0; its exit
 * status when not 0 (*out NULL); or a negative errno. */
int spawn__capture(const char *path, char *const *argv, char **out,
		   size_t *len);

#endif /* PERFCTR_SPAWN_H */
