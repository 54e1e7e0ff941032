/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kv.c - the records of docs/design.md ("idx=0;id=c;event=cycles;...")
 * described by tables of fields: one writer and one strict reader for
 * all of them.  Strings are percent-encoded: bytes outside
 * [A-Za-z0-9_.:/,+-] become %XX.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

static int plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("_.:/,+-", c));
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* ------------------------------------------------------------ writing */

struct out {
	char *buf;
	size_t len, used;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->used + n < o->len)
		memcpy(o->buf + o->used, s, n);
	o->used += n;
}

static void put_str(struct out *o, const char *s)
{
	char esc[4];

	for (; *s; s++) {
		if (plain(*s)) {
			put(o, s, 1);
			continue;
		}
		snprintf(esc, sizeof(esc), "%%%02X", (unsigned char)*s);
		put(o, esc, 3);
	}
}

static int is_hash(const char *s)
{
	int i;

	for (i = 0; i < 16; i++)
		if (hexval(s[i]) < 0 || (s[i] >= 'A' && s[i] <= 'F'))
			return 0;
	return s[16] == '\0';
}

static int put_value(struct out *o, const struct pc_kv_field *f,
		     const char *obj)
{
	const void *v = obj + f->off;
	unsigned int u;
	char num[16];

	switch (f->kind) {
	case PC_KV_UINT:
		put(o, num, snprintf(num, sizeof(num), "%u", *(const unsigned int *)v));
		return 0;
	case PC_KV_LETTERS:
		u = *(const unsigned int *)v;
		if (!u || u > 3)
			return -EINVAL;
		if (u & 1)
			put(o, f->letters, 1);
		if (u & 2)
			put(o, f->letters + 1, 1);
		return 0;
	case PC_KV_HASH:
		if (!is_hash(v))
			return -EINVAL;
		put(o, v, 16);
		return 0;
	case PC_KV_WORD:
		if (!*(const char *)v)
			return -EINVAL;
		/* fall through */
	case PC_KV_STR:
		if (strnlen(v, f->size) == f->size)
			return -EINVAL;
		put_str(o, v);
		return 0;
	}
	return -EINVAL;
}

/* An optional field at its default is left out (old readers, short
 * strings). */
static int is_default(const struct pc_kv_field *f, const void *obj)
{
	const char *v = (const char *)obj + f->off;

	if (!f->optional)
		return 0;
	return f->kind == PC_KV_STR ? v[0] == '\0' :
	       *(const unsigned int *)v == 0;
}

int pc_kv_format(const struct pc_kv_field *f, size_t n, const void *obj,
		 char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		if (is_default(&f[i], obj))
			continue;
		if (o.used)
			put(&o, ";", 1);
		put(&o, f[i].key, strlen(f[i].key));
		put(&o, "=", 1);
		ret = put_value(&o, &f[i], obj);
		if (ret)
			return ret;
	}
	if (o.used >= len || o.used > INT_MAX)
		return -ENOSPC;
	buf[o.used] = '\0';
	return (int)o.used;
}

/* ------------------------------------------------------------ reading */

static int get_uint(const char *s, size_t n, unsigned int *v)
{
	unsigned long long x = 0;
	size_t i;

	if (n == 0 || n > 10 || (n > 1 && s[0] == '0'))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		x = x * 10 + (s[i] - '0');
	}
	if (x > UINT_MAX)
		return -EINVAL;
	*v = x;
	return 0;
}

/* The first letter, the second, or both in that order. */
static int get_letters(const char *s, size_t n, const char *letters,
		       unsigned int *v)
{
	unsigned int x = 0, i;
	size_t k = 0;

	for (i = 0; i < 2 && k < n; i++)
		if (s[k] == letters[i]) {
			x |= 1u << i;
			k++;
		}
	if (!x || k != n)
		return -EINVAL;
	*v = x;
	return 0;
}

/* Decodes into out[size]; refuses raw bytes that need escaping, bad
 * or NUL escapes, and strings that do not fit. */
static int get_str(const char *s, size_t n, char *out, size_t size,
		   const char **why)
{
	size_t i, k = 0;
	int hi, lo;

	for (i = 0; i < n; i++, k++) {
		if (k + 1 >= size)
			return *why = "too long", -EINVAL;
		if (s[i] != '%') {
			if (!plain(s[i]))
				return *why = "has a byte that should be escaped", -EINVAL;
			out[k] = s[i];
			continue;
		}
		hi = i + 2 < n ? hexval(s[i + 1]) : -1;
		lo = i + 2 < n ? hexval(s[i + 2]) : -1;
		if (hi < 0 || lo < 0 || (hi | lo) == 0)
			return *why = "has a bad %-escape", -EINVAL;
		out[k] = hi << 4 | lo;
		i += 2;
	}
	out[k] = '\0';
	return 0;
}

static int get_value(const struct pc_kv_field *f, char *obj, const char *s,
		     size_t n, char *err, size_t errlen)
{
	void *v = obj + f->off;
	const char *why = "is malformed";
	char buf[32];
	int ret = -EINVAL;

	switch (f->kind) {
	case PC_KV_UINT:
		ret = get_uint(s, n, v);
		break;
	case PC_KV_LETTERS:
		ret = get_letters(s, n, f->letters, v);
		snprintf(buf, sizeof(buf), "is not %c, %c or %.2s",
			 f->letters[0], f->letters[1], f->letters);
		why = buf;
		break;
	case PC_KV_HASH:
		if (n == 16) {
			memcpy(v, s, 16);
			((char *)v)[16] = '\0';
			ret = is_hash(v) ? 0 : -EINVAL;
		}
		why = "is not 16 lowercase hex digits";
		break;
	case PC_KV_WORD:
	case PC_KV_STR:
		ret = get_str(s, n, v, f->size, &why);
		if (!ret && f->kind == PC_KV_WORD && n == 0) {
			why = "is empty";
			ret = -EINVAL;
		}
		break;
	}
	if (ret)
		return pc_err(err, errlen, ret, "field \"%s\" %s", f->key, why);
	return 0;
}

int pc_kv_parse(const struct pc_kv_field *f, size_t n, void *obj,
		const char *s, size_t slen, char *err, size_t errlen)
{
	const char *p = s, *end = s + slen, *vend;
	size_t i, k;
	int ret;

	for (i = 0; i < n; i++) {
		k = strlen(f[i].key);
		if ((size_t)(end - p) < k + 1 || memcmp(p, f[i].key, k) ||
		    p[k] != '=') {
			if (f[i].optional)
				continue;	/* stays 0 */
			return pc_err(err, errlen, -EINVAL,
				      "field \"%s\" missing or out of order",
				      f[i].key);
		}
		p += k + 1;
		vend = memchr(p, ';', end - p);
		if (!vend)
			vend = end;
		ret = get_value(&f[i], obj, p, vend - p, err, errlen);
		if (ret)
			return ret;
		p = vend + (vend < end);
	}
	if (p > s && p == end && end[-1] == ';')
		return pc_err(err, errlen, -EINVAL, "trailing ';'");
	if (p != end)
		return pc_err(err, errlen, -EINVAL,
			      "unexpected data after field \"%s\"", f[n - 1].key);
	return 0;
}
