/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assign.c - the records of the perfctr_assign module argument:
 * ";idx,type,config,config1,config2,flags", decimal then hex, a
 * group's ";gidx,fd0,ncpu" and a .socket counter's ";sidx,cpu,...",
 * decimal, a counter's unit and scale ";uidx,mult,shift,unit", and
 * on a hybrid machine its encoding on one core PMU's CPUs
 * ";cidx,type,config,config1,config2,cpus".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

#include <stdarg.h>

/* Appends one record to the string in buf, or nothing. */
static int __attribute__((format(printf, 3, 4)))
append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;
	int n;

	if (used == len)
		return -EINVAL;		/* not a string */
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - used) {
		buf[used] = '\0';
		return -ENOSPC;
	}
	return 0;
}

int perfctr_assign__append(char *buf, size_t len, unsigned int idx,
			   const struct perfctr_encoding *enc)
{
	return append(buf, len, ";%u,%u,%llx,%llx,%llx,%x", idx,
		      (unsigned int)enc->type, (unsigned long long)enc->config,
		      (unsigned long long)enc->config1,
		      (unsigned long long)enc->config2,
		      (unsigned int)enc->flags);
}

int perfctr_assign__append_group(char *buf, size_t len, unsigned int idx,
				 unsigned int fd0, unsigned int ncpu)
{
	return append(buf, len, ";g%u,%u,%u", idx, fd0, ncpu);
}

int perfctr_assign__append_socket(char *buf, size_t len, unsigned int idx,
				  const int *cpus, int n)
{
	int k, ret = append(buf, len, ";s%u", idx);

	for (k = 0; k < n && !ret; k++)
		ret = append(buf, len, ",%d", cpus[k]);
	return ret;
}

int perfctr_assign__append_unit(char *buf, size_t len, unsigned int idx,
				const struct perfctr_unit *u)
{
	if (!u->unit[0] && !u->mult)
		return 0;
	return append(buf, len, ";u%u,%llx,%u,%s", idx,
		      (unsigned long long)(u->mult ? u->mult : 1),
		      u->mult ? u->shift : 0, u->unit);
}

int perfctr_assign__append_cpu(char *buf, size_t len, unsigned int idx,
			       const struct perfctr_core_enc *c)
{
	return append(buf, len, ";c%u,%u,%llx,%llx,%llx,%s", idx,
		      (unsigned int)c->enc.type,
		      (unsigned long long)c->enc.config,
		      (unsigned long long)c->enc.config1,
		      (unsigned long long)c->enc.config2, c->cpus);
}
