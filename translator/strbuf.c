// SPDX-License-Identifier: GPL-2.0-or-later
/* strbuf.c - growable strings; exhaustion aborts (short-lived program). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static void reserve(struct strbuf *sb, size_t more)
{
	if (sb->len + more + 1 <= sb->cap)
		return;
	while (sb->len + more + 1 > sb->cap)
		sb->cap = sb->cap ? sb->cap * 2 : 256;
	sb->buf = realloc(sb->buf, sb->cap);
	if (!sb->buf)
		abort();
}

void strbuf__add(struct strbuf *sb, const char *s, size_t n)
{
	reserve(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf__printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	reserve(sb, n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	va_end(ap);
	sb->len += n;
}

void strbuf__free(struct strbuf *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}
