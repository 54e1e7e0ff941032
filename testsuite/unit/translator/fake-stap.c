// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fake-stap.c - stands in for the real stap in front-end tests: records
 * its argv, environment and stdin under $FAKE_STAP_OUT (argv and env one
 * entry per line), prints $FAKE_STAP_STDOUT to stdout and $FAKE_STAP_STDERR
 * to stderr, and exits with $FAKE_STAP_RC.  With $FAKE_STAP_INCOMPLETE it
 * marks $STAP_PERFCTR_INCOMPLETE's file as perfctr-run would for a run
 * whose counts are not whole.
 */
#include <stdio.h>
#include <stdlib.h>

extern char **environ;

static void record(const char *dir, const char *name, char **list)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		exit(99);
	for (; *list; list++)
		fprintf(f, "%s\n", *list);
	fclose(f);
}

static void record_stdin(const char *dir)
{
	char path[4096], buf[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stdin", dir);
	f = fopen(path, "w");
	if (!f)
		exit(99);
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		fwrite(buf, 1, n, f);
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("FAKE_STAP_OUT");
	const char *out = getenv("FAKE_STAP_STDOUT");
	const char *msg = getenv("FAKE_STAP_STDERR");
	const char *rc = getenv("FAKE_STAP_RC");
	const char *inc = getenv("STAP_PERFCTR_INCOMPLETE");
	FILE *f;

	(void)argc;
	if (!dir)
		return 98;
	record(dir, "env", environ);
	record(dir, "argv", argv);
	record_stdin(dir);
	if (out)
		fputs(out, stdout);
	if (msg)
		fputs(msg, stderr);
	if (getenv("FAKE_STAP_INCOMPLETE") && inc && (f = fopen(inc, "w"))) {
		fputs("incomplete\n", f);
		fclose(f);
	}
	return rc ? atoi(rc) : 0;
}
