/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_pfm.c - what libpfm4 knows of the PMUs present: name and
 * description, counter numbers, and events with their umasks and
 * modifiers.  Each libpfm4 PMU joins the sysfs PMU its events are encoded
 * for (the perf type); one that has none (LIBPFM_FORCE_PMU emulating
 * another CPU) gets an entry of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib_perf_event.h>
#include "dump.h"

#define TRY_EVENTS 16	/* events tried to learn a PMU's perf type */

static const struct {
	pfm_attr_t type;
	unsigned int kind;
} attr_kinds[] = {
	{ PFM_ATTR_UMASK, PERFCTR_ATTR_UMASK },
	{ PFM_ATTR_MOD_BOOL, PERFCTR_ATTR_BOOL },
	{ PFM_ATTR_MOD_INTEGER, PERFCTR_ATTR_INT },
};

/* On arm64 the CPU's PMU has a dynamic type: libpfm4 encodes its events
 * as PERF_TYPE_RAW, which the kernel hands to the PMU named so. */
static const char *const raw_pmu_prefixes[] = { "armv8_", "armv9_" };

static int pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info(pmu, info);
}

static int event_info(int idx, pfm_event_info_t *ei)
{
	memset(ei, 0, sizeof(*ei));
	ei->size = sizeof(*ei);
	return pfm_get_event_info(idx, PFM_OS_PERF_EVENT, ei);
}

/* The perf type libpfm4 encodes this PMU's events for. */
static int perf_type(const pfm_pmu_info_t *info, uint32_t *type)
{
	char name[PERFCTR_NAME_MAX];
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t ei;
	int idx, tries = 0;

	for (idx = info->first_event; idx != -1 && tries++ < TRY_EVENTS;
	     idx = pfm_get_event_next(idx)) {
		if (event_info(idx, &ei) != PFM_SUCCESS)
			continue;
		snprintf(name, sizeof(name), "%s::%s", info->name, ei.name);
		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		arg.attr = &attr;
		arg.size = sizeof(arg);
		if (pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
					      PFM_OS_PERF_EVENT, &arg) ==
		    PFM_SUCCESS) {
			*type = attr.type;
			return 0;
		}
	}
	return -ENOENT;
}

static struct perfctr_dump_pmu *target(struct perfctr_dump *d, uint32_t type)
{
	struct perfctr_dump_pmu *found = NULL;
	unsigned int i, j, n = 0;

	for (i = 0; i < d->n_pmus; i++)
		if (d->pmus[i].type >= 0 && (uint32_t)d->pmus[i].type == type)
			return &d->pmus[i];
	if (type != PERF_TYPE_RAW)
		return NULL;
	for (i = 0; i < d->n_pmus; i++)
		for (j = 0; j < ARRAY_SIZE(raw_pmu_prefixes); j++)
			if (!strncmp(d->pmus[i].name, raw_pmu_prefixes[j],
				     strlen(raw_pmu_prefixes[j]))) {
				found = &d->pmus[i];
				n++;
			}
	return n == 1 ? found : NULL;
}

static int add_attrs(struct perfctr_dump_event *e, int idx, int nattrs)
{
	struct perfctr_dump_attr *a;
	pfm_event_attr_info_t ai;
	size_t k;
	int i;

	for (i = 0; i < nattrs; i++) {
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT, &ai) !=
		    PFM_SUCCESS)
			continue;
		for (k = 0; k < ARRAY_SIZE(attr_kinds); k++)
			if (attr_kinds[k].type == ai.type)
				break;
		if (k == ARRAY_SIZE(attr_kinds))
			continue;	/* raw umasks: not for users */
		a = PC_PUSH(e->attrs, e->n_attrs);
		if (!a || !(a->name = pc_dump_strdup(ai.name)) ||
		    !(a->desc = pc_dump_strdup(ai.desc)))
			return -ENOMEM;
		a->kind = attr_kinds[k].kind;
		a->is_default = ai.is_dfl;
	}
	return 0;
}

static int add_events(struct perfctr_dump_pmu *t, const pfm_pmu_info_t *info)
{
	struct perfctr_dump_event *e;
	pfm_event_info_t ei;
	int idx, ret;

	for (idx = info->first_event; idx != -1; idx = pfm_get_event_next(idx)) {
		if (event_info(idx, &ei) != PFM_SUCCESS)
			continue;
		e = PC_PUSH(t->events, t->n_events);
		if (!e)
			return -ENOMEM;
		e->source = PERFCTR_SRC_LIBPFM4;
		if (asprintf(&e->name, "%s::%s", info->name, ei.name) < 0) {
			e->name = NULL;
			return -ENOMEM;
		}
		e->desc = pc_dump_strdup(ei.desc);
		if (!e->desc)
			return -ENOMEM;
		ret = add_attrs(e, idx, ei.nattrs);
		if (ret)
			return ret;
	}
	return 0;
}

/* Is there an entry of libpfm4's alone (no sysfs PMU) already? */
static int has_pfm_only(const struct perfctr_dump *d)
{
	unsigned int i;

	for (i = 0; i < d->n_pmus; i++)
		if (d->pmus[i].pfm_name && d->pmus[i].type < 0)
			return 1;
	return 0;
}

static int add_pmu(struct perfctr_dump *d, const pfm_pmu_info_t *info,
		   const struct pc_cpuid *c, int forced)
{
	struct perfctr_dump_pmu *t = NULL;
	uint32_t type;

	if (!perf_type(info, &type))
		t = target(d, type);
	/* the architectural default adds nothing to a model's PMU */
	if (t ? t->pfm_name != NULL : info->is_dfl && has_pfm_only(d))
		return 0;
	if (!t && !(t = pc_dump_add_pmu(d, info->name)))
		return -ENOMEM;
	t->pfm_name = strdup(info->name);
	t->pfm_desc = pc_dump_strdup(info->desc);
	if (!t->pfm_name || !t->pfm_desc)
		return -ENOMEM;
	if (info->num_cntrs > 0)
		t->general = info->num_cntrs;
	t->fixed = info->num_fixed_cntrs;
	pc_hw_widths(t, pc_hw_family(info->desc,
				     info->type == PFM_PMU_TYPE_CORE,
				     t->name, c), c, forced);
	return add_events(t, info);
}

int pc_dump_pfm(struct perfctr_dump *d)
{
	const char *force = getenv("LIBPFM_FORCE_PMU");
	pfm_pmu_info_t info;
	struct pc_cpuid c;
	int pass, ret = 0;
	pfm_pmu_t p;

	if (pfm_initialize() != PFM_SUCCESS)
		return 0;
	pc_cpuid_read(&c);
	/* model-specific PMUs first, then the architectural defaults */
	for (pass = 0; pass < 2 && !ret; pass++)
		pfm_for_all_pmus(p) {
			if (pmu_info(p, &info) != PFM_SUCCESS ||
			    !info.is_present || info.is_dfl != pass ||
			    p == PFM_PMU_PERF_EVENT ||
			    p == PFM_PMU_PERF_EVENT_RAW)
				continue;
			ret = add_pmu(d, &info, &c, force != NULL);
			if (ret)
				break;
		}
	return ret;
}
