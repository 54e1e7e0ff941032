/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * request.c - one counter request as a perfctr_req value, the hash of a
 * module's whole table, and a request as the script wrote it.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* The interface's fields (perfctr_iface.h) as the key-value format's. */
#define OFF(name) offsetof(struct perfctr_request, name)
#define KV_UINT(name, arg, opt)	{ #name, PC_KV_UINT, OFF(name), 0, opt, NULL },
#define KV_WORD(name, arg, opt)	{ #name, PC_KV_WORD, OFF(name), arg, opt, NULL },
#define KV_STR(name, arg, opt)	{ #name, PC_KV_STR, OFF(name), arg, opt, NULL },
#define KV_LETTERS(name, arg, opt) \
	{ #name, PC_KV_LETTERS, OFF(name), 0, opt, arg },
#define KV_FIELD(kind, name, arg, opt)	KV_##kind(name, arg, opt)

static const struct pc_kv_field fields[] = {
	PERFCTR_REQUEST_FIELDS(KV_FIELD)
};
#define NFIELDS ARRAY_SIZE(fields)

int perfctr_request__format(const struct perfctr_request *req,
			    char *buf, size_t len)
{
	return pc_kv_format(fields, NFIELDS, req, buf, len);
}

int pc_request_parse(const char *s, size_t len, struct perfctr_request *req,
		     char *err, size_t errlen)
{
	memset(req, 0, sizeof(*req));
	return pc_kv_parse(fields, NFIELDS, req, s, len, err, errlen);
}

int perfctr_request__parse(const char *s, struct perfctr_request *req)
{
	return pc_request_parse(s, strlen(s), req, NULL, 0);
}

int perfctr_table__hash(const struct perfctr_request *reqs, unsigned int n,
			char hex[17])
{
	char buf[PERFCTR_REQ_FMT_MAX];
	uint64_t h = perfctr_hash__init();
	unsigned int i;
	int len;

	hex[0] = '\0';
	for (i = 0; i < n; i++) {
		len = perfctr_request__format(&reqs[i], buf, sizeof(buf));
		if (len < 0)
			return len;
		h = perfctr_hash__add(h, buf, len + 1);	/* with its NUL */
	}
	snprintf(hex, 17, "%016llx", (unsigned long long)h);
	return 0;
}

void perfctr_request__describe(const struct perfctr_request *req, char *buf,
			       size_t len)
{
	if (req->sample || req->hz)
		snprintf(buf, len, "sampling probe on \"%s\"", req->event);
	else if (!strncmp(req->id, "__event", 7))
		snprintf(buf, len, "perfctr_read%s_event(\"%s\")",
			 req->scope == PERFCTR_SCOPE_THREAD ? "_thread" : "",
			 req->event);
	else if (!strncmp(req->id, "__", 2))
		snprintf(buf, len, "%s()", req->id + 2);
	else
		snprintf(buf, len, "counter \"%s\"", req->id);
}
