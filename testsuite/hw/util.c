/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.c - small things the probes share: keys for key=value lines, an
 * encoding in words, the clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hwcheck.h"

void hw_util_key(const char *name, char *buf, size_t len)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; name[i] && i + 1 < len; i++) {
		char c = name[i];

		buf[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') ? c : '_';
	}
	buf[i] = '\0';
}

/* The exclude flags, in the order the words are written. */
static const struct {
	unsigned int flag;
	const char *word;
} excludes[] = {
	{ PERFCTR_F_EXCLUDE_USER, "no-user" },
	{ PERFCTR_F_EXCLUDE_KERNEL, "no-kernel" },
	{ PERFCTR_F_EXCLUDE_HV, "no-hv" },
};

void hw_util_encoding(const struct perfctr_encoding *enc, char *buf,
		      size_t len)
{
	size_t i;
	int n;

	n = snprintf(buf, len, "type %u config %#llx", enc->type,
		     (unsigned long long)enc->config);
	if (n >= 0 && (size_t)n < len && (enc->config1 || enc->config2))
		n += snprintf(buf + n, len - n, " config1 %#llx config2 %#llx",
			      (unsigned long long)enc->config1,
			      (unsigned long long)enc->config2);
	for (i = 0; i < ARRAY_SIZE(excludes); i++)
		if (n >= 0 && (size_t)n < len && (enc->flags & excludes[i].flag))
			n += snprintf(buf + n, len - n, " %s", excludes[i].word);
}

const struct perfctr_dump_pmu *hw_util_pmu_of(const struct perfctr_dump *d,
					      const char *name)
{
	const char *sep = strstr(name, "::"), *slash = strchr(name, '/');
	const struct perfctr_dump_pmu *p;
	size_t len;
	unsigned int i;

	if (!sep && !slash)
		return NULL;
	len = sep && (!slash || sep < slash) ? (size_t)(sep - name)
					     : (size_t)(slash - name);
	for (i = 0; i < d->n_pmus; i++) {
		p = &d->pmus[i];
		if (sep && (!slash || sep < slash)) {
			if (p->pfm_name && strlen(p->pfm_name) == len &&
			    !strncmp(p->pfm_name, name, len))
				return p;
		} else if (strlen(p->name) == len && !strncmp(p->name, name, len)) {
			return p;
		}
	}
	return NULL;
}

int hw_util_first_cpu(const struct perfctr_dump_pmu *p, int dflt)
{
	char *end;
	long cpu;

	if (!p || !p->cpus)
		return dflt;
	cpu = strtol(p->cpus, &end, 10);
	return end == p->cpus || cpu < 0 ? dflt : (int)cpu;
}

int hw_util_first_online(const char *sysfs_root)
{
	int *cpus, n = perfctr_cpus__online(sysfs_root, &cpus), cpu;

	if (n <= 0)
		return 0;
	cpu = cpus[0];
	free(cpus);
	return cpu;
}

int hw_util_machine(const char *sysfs_root, struct perfctr_resolver **r,
		    struct perfctr_dump **d)
{
	struct perfctr_resolver_opts ro = { .sz = sizeof(ro),
					    .sysfs_root = sysfs_root };
	struct perfctr_dump_opts dopts = { .sz = sizeof(dopts),
					   .sysfs_root = sysfs_root,
					   .no_trial = 1 };
	int err = perfctr_resolver__new(&ro, r);

	if (err)
		return err;
	*d = NULL;
	err = perfctr_dump__collect(&dopts, d);
	if (err) {
		perfctr_resolver__free(*r);
		*r = NULL;
	}
	return err;
}

double hw_util_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
