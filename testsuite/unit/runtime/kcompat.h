/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kcompat.h - the few kernel helpers runtime/perfctr_assign.c uses, with
 * the kernel's semantics, so the parser can be tested in userspace.
 */
#ifndef PERFCTR_KCOMPAT_H
#define PERFCTR_KCOMPAT_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* kstrto*: the whole string must be a number (one trailing newline
 * allowed), no sign, no overflow; base 16 accepts an 0x prefix. */
static inline int kstrtoull(const char *s, unsigned int base,
			    unsigned long long *res)
{
	char *end;

	if (!*s || !isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*res = strtoull(s, &end, base);
	if (errno)
		return -ERANGE;
	if (*end == '\n')
		end++;
	return *end ? -EINVAL : 0;
}

static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	unsigned long long v;
	int rc = kstrtoull(s, base, &v);

	if (rc)
		return rc;
	if (v > 0xffffffffull)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}

#endif /* PERFCTR_KCOMPAT_H */
