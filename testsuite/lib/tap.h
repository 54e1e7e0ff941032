/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap.h - Test Anything Protocol output for the unit tests; automake's
 * tap-driver.sh runs them and counts every result line.  Header-only:
 * each test program is one translation unit.
 */
#ifndef PERFCTR_TAP_H
#define PERFCTR_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_run, tap_failed;

static void __attribute__((format(printf, 2, 3)))
tap_ok(int pass, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

#define is_int(got, want, ...) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	tap_ok(g_ == w_, __VA_ARGS__);					\
	if (g_ != w_)							\
		printf("#   got %lld, want %lld\n", g_, w_);	\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *g_ = (got), *w_ = (want);				\
	int p_ = g_ && w_ && strcmp(g_, w_) == 0;			\
	tap_ok(p_, __VA_ARGS__);					\
	if (!p_)							\
		printf("#   got  \"%s\"\n#   want \"%s\"\n",		\
		       g_ ? g_ : "(null)", w_ ? w_ : "(null)");		\
} while (0)

/* Substring match, for error messages. */
#define like(got, sub, ...) do {					\
	const char *g_ = (got), *s_ = (sub);				\
	int p_ = g_ && strstr(g_, s_) != NULL;				\
	tap_ok(p_, __VA_ARGS__);					\
	if (!p_)							\
		printf("#   \"%s\"\n#   does not contain \"%s\"\n",	\
		       g_ ? g_ : "(null)", s_);				\
} while (0)

static inline void tap_diag(const char *msg) { printf("# %s\n", msg); }

/* Prints the plan and returns the exit status. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_run);
	return tap_failed ? 1 : 0;
}

#endif /* PERFCTR_TAP_H */
