/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assign.c - the records of the perfctr_assign module argument:
 * ";idx,type,config,config1,config2,flags", decimal then hex.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

int perfctr_assign__append(char *buf, size_t len, unsigned int idx,
			   const struct perfctr_encoding *enc)
{
	size_t used = strnlen(buf, len);
	int n;

	if (used == len)
		return -EINVAL;		/* not a string */
	n = snprintf(buf + used, len - used, ";%u,%u,%llx,%llx,%llx,%x",
		     idx, (unsigned int)enc->type,
		     (unsigned long long)enc->config,
		     (unsigned long long)enc->config1,
		     (unsigned long long)enc->config2, (unsigned int)enc->flags);
	if (n < 0 || (size_t)n >= len - used) {
		buf[used] = '\0';
		return -ENOSPC;
	}
	return 0;
}
