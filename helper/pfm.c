/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfm.c - vendor event names through libpfm4 ("INST_RETIRED:ANY_P",
 * "icl::INST_RETIRED:ANY_P", "inst_retired.any_p").  libpfm4 knows the
 * PMU from CPUID (or LIBPFM_FORCE_PMU) and encodes for perf_event_open.
 * It is initialised on first use: most runs never need it.
 */
#include <errno.h>
#include <string.h>
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

/* "icl::X" on a machine whose libpfm4 PMU is another: say so rather
 * than "unknown event".  (libpfm4 tells nothing of PMUs not present.) */
static int absent_pmu(const char *base, char *err, size_t len)
{
	const char *sep = strstr(base, "::");
	size_t n = sep ? (size_t)(sep - base) : 0;
	char present[256] = "";
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	if (!sep)
		return -ENOENT;
	pfm_for_all_pmus(p) {
		if (pmu_info(p, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (strlen(info.name) == n && !strncmp(info.name, base, n))
			return -ENOENT;		/* ours: the event is unknown */
		if (!is_perf_pmu(p))
			pc_err_append(present, sizeof(present), "%s%s",
			      present[0] ? ", " : "", info.name);
	}
	return pc_err(err, len, -ENODEV,
		      "libpfm4 PMU \"%.*s\" is not present on this machine (present: %s)",
		      (int)n, base, present[0] ? present : "none");
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

/* Events and event:umask names of the PMUs present. */
void pc_pfm_names(struct perfctr_resolver *r, pc_name_fn *fn, void *ctx)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;
	int idx;

	if (!ready(r))
		return;
	pfm_for_all_pmus(p) {
		if (pmu_info(p, &info) != PFM_SUCCESS || !info.is_present ||
		    is_perf_pmu(p))
			continue;
		for (idx = info.first_event; idx != -1; idx = pfm_get_event_next(idx))
			event_names(idx, fn, ctx);
	}
}
