/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfm.c - vendor event names through libpfm4 ("INST_RETIRED:ANY_P",
 * "icl::INST_RETIRED:ANY_P", "inst_retired.any_p").  libpfm4 knows the
 * PMU from CPUID (or LIBPFM_FORCE_PMU) and encodes for perf_event_open.
 * It is initialised on first use: most runs never need it.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <perfmon/pfmlib_perf_event.h>
#include "internal.h"

static int ready(struct perfctr_resolver *r)
{
	if (r->no_libpfm)
		return 0;
	if (!r->pfm_state)
		r->pfm_state = pfm_initialize() == PFM_SUCCESS ? 1 : -1;
	return r->pfm_state > 0;
}

static int pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info(pmu, info);
}

/* The pseudo PMUs that only repeat perf's generic events. */
static int is_perf_pmu(pfm_pmu_t pmu)
{
	return pmu == PFM_PMU_PERF_EVENT || pmu == PFM_PMU_PERF_EVENT_RAW;
}

/* The present PMUs, perf's pseudo PMUs aside, ", " between them, in
 * buf ("none" for none).  Returns 1 if one is named pmu (n bytes). */
static int present_pmus(const char *pmu, size_t n, char *buf, size_t len)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;
	int found = 0;

	buf[0] = '\0';
	pfm_for_all_pmus(p) {
		if (pmu_info(p, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (strlen(info.name) == n && !strncmp(info.name, pmu, n))
			found = 1;
		if (!is_perf_pmu(p))
			pc_err_append(buf, len, "%s%s", buf[0] ? ", " : "",
				      info.name);
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return found;
}

/* "icl::X" on a machine whose libpfm4 PMU is another: say so rather
 * than "unknown event".  (libpfm4 tells nothing of PMUs not present.) */
static int absent_pmu(const char *base, char *err, size_t len)
{
	const char *sep = strstr(base, "::");
	size_t n = sep ? (size_t)(sep - base) : 0;
	char present[256];

	if (!sep || present_pmus(base, n, present, sizeof(present)))
		return -ENOENT;		/* ours: the event is unknown */
	return pc_err(err, len, -ENODEV,
		      "libpfm4 PMU \"%.*s\" is not present on this machine (present: %s)",
		      (int)n, base, present);
}

/* libpfm4 knows an uncore PMU (socket-wide: L3, memory, RAPL energy)
 * from CPUID, but takes its perf type from the kernel's sysfs entry for
 * it: where the kernel has none (no driver loaded, a virtual machine) it
 * cannot encode the PMU's events, and says only "not supported".  Say
 * why, as an absent PMU. */
static int uncore_not_in_kernel(const char *base, char *err, size_t len)
{
	int idx = pfm_find_event(base);
	pfm_event_info_t ei;
	pfm_pmu_info_t info;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (idx < 0 ||
	    pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS ||
	    pmu_info(ei.pmu, &info) != PFM_SUCCESS ||
	    info.type != PFM_PMU_TYPE_UNCORE)
		return 0;
	return pc_err(err, len, -ENODEV,
		      "libpfm4 PMU \"%s\" (%s) is an uncore PMU that the kernel "
		      "does not have here: no entry for it in "
		      "/sys/bus/event_source/devices (its driver is not "
		      "loaded, or this is a virtual machine)", info.name,
		      info.desc);
}

static int pfm_plm(unsigned int plm)
{
	int p = 0;

	if (!plm)
		return PFM_PLM0 | PFM_PLM3;
	if (plm & PERFCTR_PLM_USER)
		p |= PFM_PLM3;
	if (plm & PERFCTR_PLM_KERNEL)
		p |= PFM_PLM0;
	if (plm & PERFCTR_PLM_HV)
		p |= PFM_PLMH;
	return p;
}

int pc_pfm_resolve(struct perfctr_resolver *r, const char *base,
		   unsigned int plm, struct perfctr_encoding *enc,
		   char *err, size_t len)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int ret;

	if (!ready(r))
		return -ENOENT;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(base, pfm_plm(plm),
					PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret == PFM_ERR_NOTFOUND)
		return absent_pmu(base, err, len);
	if (ret == PFM_ERR_NOTSUPP && uncore_not_in_kernel(base, err, len))
		return -ENODEV;
	if (ret != PFM_SUCCESS)
		return pc_err(err, len, -EINVAL, "libpfm4 cannot encode \"%s\": %s",
			      base, pfm_strerror(ret));
	enc->type = attr.type;
	enc->config = attr.config;
	enc->config1 = attr.config1;
	enc->config2 = attr.config2;
	enc->flags = (attr.exclude_user ? PERFCTR_F_EXCLUDE_USER : 0) |
		     (attr.exclude_kernel ? PERFCTR_F_EXCLUDE_KERNEL : 0);
	return 0;
}

static void event_names(int idx, pc_name_fn *fn, void *ctx)
{
	char name[PERFCTR_NAME_MAX];
	pfm_event_attr_info_t ai;
	pfm_event_info_t ei;
	int a;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return;
	fn(ei.name, ctx);
	pfm_for_each_event_attr(a, &ei) {
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT_EXT, &ai) ||
		    ai.type != PFM_ATTR_UMASK)
			continue;
		if (strlen(ei.name) + strlen(ai.name) + 2 <= sizeof(name)) {
			strcpy(name, ei.name);
			strcat(name, ":");
			strcat(name, ai.name);
			fn(name, ctx);
		}
	}
}

/* Events and event:umask names of the PMUs present (all: of every PMU
 * in libpfm4's tables). */
void pc_pfm_names(struct perfctr_resolver *r, int all, pc_name_fn *fn,
		  void *ctx)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;
	int idx;

	if (!ready(r))
		return;
	pfm_for_all_pmus(p) {
		if (pmu_info(p, &info) != PFM_SUCCESS ||
		    (!info.is_present && !all) || is_perf_pmu(p))
			continue;
		for (idx = info.first_event; idx != -1; idx = pfm_get_event_next(idx))
			event_names(idx, fn, ctx);
	}
}

/* The attribute (unit mask or modifier) named by the first len bytes of
 * a, "=VALUE" aside, among event idx's? */
static int has_attr(int idx, const pfm_event_info_t *ei, const char *a,
		    size_t len)
{
	const char *eq = memchr(a, '=', len);
	pfm_event_attr_info_t ai;
	int i;

	if (eq)
		len = eq - a;
	pfm_for_each_event_attr(i, ei) {
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT_EXT,
					    &ai) == PFM_SUCCESS &&
		    strlen(ai.name) == len && !strncasecmp(ai.name, a, len))
			return 1;
	}
	return 0;
}

/* Does event idx read as name ("EVENT[:ATTR...]", ':' or '.' between,
 * as libpfm4 parses them)? */
static int event_is(int idx, const char *name)
{
	size_t n = strcspn(name, ":.");
	pfm_event_info_t ei;
	const char *a;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS ||
	    strlen(ei.name) != n || strncasecmp(ei.name, name, n))
		return 0;
	for (a = name + n; *a; a += n) {
		a++;
		n = strcspn(a, ":.");
		if (!has_attr(idx, &ei, a, n))
			return 0;
	}
	return 1;
}

/* PMUs named in pc_pfm_known's list; the rest are counted. */
#define KNOWN_NAMED 6

int pc_pfm_known(struct perfctr_resolver *r, const char *base, char *pmus,
		 size_t len)
{
	const char *sep = strstr(base, "::"), *name = sep ? sep + 2 : base;
	size_t n = sep ? (size_t)(sep - base) : 0;
	pfm_pmu_info_t info;
	int idx, hits = 0;
	pfm_pmu_t p;

	pmus[0] = '\0';
	if (!ready(r))
		return 0;
	pfm_for_all_pmus(p) {
		if (pmu_info(p, &info) != PFM_SUCCESS || is_perf_pmu(p) ||
		    (sep && (strlen(info.name) != n ||
			     strncasecmp(info.name, base, n))))
			continue;
		for (idx = info.first_event; idx != -1;
		     idx = pfm_get_event_next(idx))
			if (event_is(idx, name)) {
				if (hits++ < KNOWN_NAMED)
					pc_err_append(pmus, len, "%s%s", hits > 1 ?
						      ", " : "", info.name);
				break;
			}
	}
	if (hits > KNOWN_NAMED)
		pc_err_append(pmus, len, " and %d more", hits - KNOWN_NAMED);
	return hits;
}

void pc_pfm_present(struct perfctr_resolver *r, char *buf, size_t len)
{
	if (ready(r))
		present_pmus("", 0, buf, len);
	else
		snprintf(buf, len, "none (libpfm4 is not usable)");
}
