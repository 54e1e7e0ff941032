/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * raw.c - perf's raw event syntax: "r" and up to 16 hex digits, the
 * PMU's own encoding (PERF_TYPE_RAW).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "internal.h"

int pc_raw_resolve(const char *base, struct perfctr_encoding *enc,
		   char *err, size_t errlen)
{
	size_t n = strlen(base), i;

	if (n < 2 || base[0] != 'r')
		return -ENOENT;
	for (i = 1; i < n; i++)
		if (!isxdigit((unsigned char)base[i]))
			return -ENOENT;
	if (n - 1 > 16)
		return pc_err(err, errlen, -EINVAL,
			      "raw event \"%s\" has more than 16 hex digits", base);
	enc->type = PERF_TYPE_RAW;
	enc->config = strtoull(base + 1, NULL, 16);
	return 0;
}
