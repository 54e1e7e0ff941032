/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priv.c - a stapsys or stapusr module counts only what perf_event_open
 * would let its user count (docs/design.md, "Privilege and
 * perf_event_paranoid").  The module enforces it at start
 * (runtime/perfctr_priv.c); perfctr-run says it first, naming the counter,
 * the rule and the sysctl's value, and loads nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "perfctr_priv_rule.h"

int perfctr_priv__applies(const struct perfctr_modtab *tab, unsigned int uid)
{
	return uid != 0 && strcmp(tab->priv, "stapdev") != 0;
}

int perfctr_paranoid__read(const char *procfs_root)
{
	char path[4096];
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid",
		 procfs_root && *procfs_root ? procfs_root : "/proc");
	f = fopen(path, "re");
	if (!f)
		return PERFCTR_PARANOID_UNKNOWN;
	if (fscanf(f, "%d", &v) != 1)
		v = PERFCTR_PARANOID_UNKNOWN;
	fclose(f);
	return v;
}

/* As the kernel's perf_event_open for a user without CAP_PERFMON: the
 * module's rule (perfctr_priv_rule.h); a sysctl that cannot be read
 * allows nothing. */
const char *perfctr_priv__rule(const struct perfctr_request *req,
			       const struct perfctr_encoding *enc,
			       int paranoid, int *need)
{
	struct perfctr_priv_what w = {
		.flags = enc->flags, .config = enc->config,
		.payload = req->payload,
		.per_task = req->scope == PERFCTR_SCOPE_PROCESS,
		.grouped = !!req->group[0],
	};

	if (paranoid == PERFCTR_PARANOID_UNKNOWN)
		paranoid = 3;
	return perfctr_priv_rule(&w, paranoid, need);
}

int perfctr_priv__check(const struct perfctr_modtab *tab,
			const struct perfctr_request *req,
			const struct perfctr_encoding *enc, int paranoid,
			unsigned int uid, char *err, size_t errlen)
{
	const char *rule;
	int need;

	if (!perfctr_priv__applies(tab, uid))
		return 0;
	rule = perfctr_priv__rule(req, enc, paranoid, &need);
	if (!rule)
		return 0;
	if (paranoid == PERFCTR_PARANOID_UNKNOWN)
		return pc_err(err, errlen, -EACCES, "refused: "
			      "kernel.perf_event_paranoid cannot be read, and "
			      "a %s module counts only what perf_event_open "
			      "allows its user (%u)", tab->priv, uid);
	return pc_err(err, errlen, -EACCES, PERFCTR_PRIV_REFUSAL "; root may "
		      "count anything)", paranoid, rule, need, uid, tab->priv);
}
