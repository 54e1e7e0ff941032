// SPDX-License-Identifier: GPL-2.0-only
/*
 * roundtrip-write.c - rt_write(): an assignment written by the helper's
 * own record writers (perfctr_assign__append*, helper/assign.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "libperfctr.h"
#include "roundtrip.h"

static void enc_from(struct perfctr_encoding *e, const struct rt_enc *r,
		     unsigned int flags)
{
	e->type = r->type;
	e->config = r->config;
	e->config1 = r->config1;
	e->config2 = r->config2;
	e->flags = flags;
}

static int write_counter(char *buf, size_t len, unsigned int i,
			 const struct rt_counter *c)
{
	struct perfctr_encoding e;
	struct perfctr_unit u = { .mult = c->mult, .shift = c->shift };
	struct perfctr_core_enc ce;
	unsigned int k;
	int rc;

	enc_from(&e, &c->enc, c->flags);
	snprintf(u.unit, sizeof(u.unit), "%s", c->unit);
	rc = perfctr_assign__append(buf, len, i, &e) ?:
	     perfctr_assign__append_unit(buf, len, i, &u);
	if (!rc && c->nsock)
		rc = perfctr_assign__append_socket(buf, len, i, c->sock,
						   (int)c->nsock);
	for (k = 0; k < c->ncore && !rc; k++) {
		memset(&ce, 0, sizeof(ce));
		enc_from(&ce.enc, &c->core[k], 0);
		snprintf(ce.cpus, sizeof(ce.cpus), "%s", c->cpus[k]);
		rc = perfctr_assign__append_cpu(buf, len, i, &ce);
	}
	return rc;
}

int rt_write(const struct rt_assign *a, char *buf, size_t len)
{
	unsigned int i;
	int rc = 0;

	if ((size_t)snprintf(buf, len, "%s", a->hash) >= len)
		return -ENOSPC;
	for (i = 0; i < a->n && !rc; i++)
		if (a->c[i].present)
			rc = write_counter(buf, len, i, &a->c[i]);
	if (!rc && a->group_leader >= 0)
		rc = perfctr_assign__append_group(buf, len,
						  (unsigned int)a->group_leader,
						  a->fd0, a->ncpu);
	return rc;
}
