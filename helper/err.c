/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * err.c - the one way the library writes an error message: into the
 * caller's buffer, never to stderr (the caller decides where it goes).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

int pc_err(char *err, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return ret;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return ret;
}

void pc_err_append(char *err, size_t len, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!err || !len)
		return;
	used = strnlen(err, len);
	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(err + used, len - used, fmt, ap);
	va_end(ap);
}
