/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strbuf.h - a growable string for generated text. */
#ifndef PERFCTR_STRBUF_H
#define PERFCTR_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;	/* always NUL-terminated once anything is added */
	size_t len, cap;
};

void strbuf__printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf__add(struct strbuf *sb, const char *s, size_t n);
void strbuf__free(struct strbuf *sb);

#endif /* PERFCTR_STRBUF_H */
