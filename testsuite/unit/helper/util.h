/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - what the helper's unit tests share: a scratch directory,
 * files in it, and running a command.  Header-only, like tap.h.
 */
#ifndef PERFCTR_TEST_UTIL_H
#define PERFCTR_TEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char test_dir[256];

static inline void test_die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(99);
}

/* A fresh scratch directory; removed by test_cleanup(). */
static inline const char *test_mkdtemp(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(test_dir, sizeof(test_dir), "%s/perfctr-test.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(test_dir))
		test_die("mkdtemp");
	return test_dir;
}

static inline void test_cleanup(void)
{
	char cmd[512];

	if (!test_dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", test_dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", test_dir);
}

/* A path below the scratch directory (static buffer, rotates 8). */
static inline const char *test_path(const char *rel)
{
	static char bufs[8][1024];
	static int i;
	char *b = bufs[i++ % 8];

	snprintf(b, sizeof(bufs[0]), "%s/%s", test_dir, rel);
	return b;
}

/* Writes len bytes (or the string) to rel, making its directories. */
static inline void test_write_len(const char *rel, const void *data, size_t len)
{
	char path[1024], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", test_dir, rel);
	for (slash = path + strlen(test_dir) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			test_die(path);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		test_die(path);
}

static inline void test_write(const char *rel, const char *text)
{
	test_write_len(rel, text, strlen(text));
}

/* Reads a whole file (malloc'd, NUL-added); NULL if absent. */
static inline char *test_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = 2 * cap + 4096 + 1;
			buf = realloc(buf, cap);
			if (!buf)
				test_die("realloc");
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* Compiles C source to rel (an object file) with the build's compiler. */
static inline int test_compile(const char *rel, const char *source)
{
	char src[512], cmd[2048];

	snprintf(src, sizeof(src), "%s.c", rel);
	test_write(src, source);
	snprintf(cmd, sizeof(cmd), "%s -c -o '%s' '%s'", TEST_CC,
		 test_path(rel), test_path(src));
	return system(cmd);
}

#endif /* PERFCTR_TEST_UTIL_H */
