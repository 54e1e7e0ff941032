/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * request.c - one counter request as a perfctr_req value, and the hash
 * of a module's whole table.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

#define OFF(name) offsetof(struct perfctr_request, name)
#define FIELD(kind, name, size)		{ #name, kind, OFF(name), size, 0, NULL }
#define OPTIONAL(name)			{ #name, PC_KV_UINT, OFF(name), 0, 1, NULL }
#define OPTIONAL_STR(name, size)	{ #name, PC_KV_STR, OFF(name), size, 1, NULL }
#define LETTERS(name, letters, opt)	{ #name, PC_KV_LETTERS, OFF(name), 0, opt, letters }

static const struct pc_kv_field fields[] = {
	FIELD(PC_KV_UINT, idx, 0),
	FIELD(PC_KV_WORD, id, PERFCTR_ID_MAX),
	FIELD(PC_KV_WORD, event, PERFCTR_NAME_MAX),
	LETTERS(plm, "uk", 0),
	FIELD(PC_KV_STR, src, PERFCTR_SRC_MAX),
	OPTIONAL(mux),
	OPTIONAL(scope),
	OPTIONAL_STR(target, PERFCTR_SRC_MAX),
	OPTIONAL(sample),
	OPTIONAL(hz),
	OPTIONAL(precise),
	LETTERS(gh, "gh", 1),
	OPTIONAL_STR(group, PERFCTR_ID_MAX),
	OPTIONAL(payload),
	OPTIONAL_STR(cpus, PERFCTR_CPU_LIST_MAX),
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
