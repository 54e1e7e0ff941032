/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topdown.c - which events are Intel's topdown slots and metrics
 * (runtime/perfctr_topdown.h): on a core PMU that has them (its sysfs
 * events slots and topdown-retiring: Ice Lake and later, cpu_core on
 * hybrids), by their config.  perfctr-run refuses a metric outside a
 * group led by slots before the kernel does (intel_pmu_hw_config()).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "internal.h"
#include "perfctr_topdown.h"

int perfctr_topdown__kind(const char *sysfs_root,
			  const struct perfctr_encoding *enc)
{
	char pmu[PERFCTR_NAME_MAX];
	int fd, has, kind = perfctr_topdown_kind(enc->config);

	/* a config that is none, or a PMU of perf's own types: no sysfs
	 * look-up (it scans every PMU: perfctr-run asks for each counter) */
	if (kind == PERFCTR_TD_NONE ||
	    (enc->type < PERF_TYPE_MAX && enc->type != PERF_TYPE_RAW) ||
	    pc_sysfs_pmu_of_type(sysfs_root, enc->type, pmu, sizeof(pmu)))
		return PERFCTR_TD_NONE;
	fd = pc_sysfs_pmu_open(sysfs_root, pmu);
	if (fd < 0)
		return PERFCTR_TD_NONE;
	has = !faccessat(fd, "events/slots", F_OK, 0) &&
	      !faccessat(fd, "events/topdown-retiring", F_OK, 0);
	close(fd);
	return has ? kind : PERFCTR_TD_NONE;
}
