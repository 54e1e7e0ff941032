// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_test_socket.c - a PMU with a cpumask, for the .socket tests in
 * a guest that has no uncore PMU: registered as uncore drivers register
 * theirs (arch/x86/events/intel/uncore.c), with the count the test sets.
 *
 *   perfctr_test_socket/ticks/  event=0x1; .unit "MiB", .scale
 *                               6.103515625e-5 (64 bytes, as SKX's IMC
 *                               cas_count_read)
 *   .../cas_count_read/,        the same (an IMC's names)
 *   .../cas_count_write/
 *   .../energy-pkg/             event=0x1; .unit "Joules", .scale
 *                               2.3283064365386962890625e-10 (2^-32 J,
 *                               as RAPL's)
 *   cpumask                     the one CPU per socket that counts
 *                               there: in CPU N's socket N (module
 *                               parameter cpu=N at load, default 0),
 *                               in every other its first online CPU
 *
 * The PMU's name is name=NAME at load (default perfctr_test_socket):
 * name=power or name=uncore_imc_0 stands in for RAPL or an IMC, so that
 * the examples run unchanged in the guest.
 *
 * The "hardware" is a 64-bit count per socket (physical package):
 * writing N to /sys/module/perfctr_test_socket/parameters/add adds N to
 * the writing CPU's socket's, and parameters/count reads their sum.
 * event_init refuses task events and moves the event to its socket's
 * mask CPU (event->cpu), as uncore_pmu_event_init() does; when that CPU
 * goes offline the events move to another online CPU of the socket with
 * perf_pmu_migrate_context(), as uncore_event_cpu_offline() does, and
 * the cpumask names it (a socket left without CPUs has none until one
 * comes online).
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/topology.h>

#define PTS_SOCKETS 8

static atomic64_t pts_count[PTS_SOCKETS];
static int pts_mask[PTS_SOCKETS];	/* each socket's CPU that counts */
static int pts_cpu;			/* cpu=N at load */
static int pts_hp_state;
static char pts_name[32] = "perfctr_test_socket";
module_param_string(name, pts_name, sizeof(pts_name), 0444);
MODULE_PARM_DESC(name, "the PMU's name, at load");

/* cpu's socket: its physical package, which init checked is below
 * PTS_SOCKETS for every possible CPU. */
static int pts_socket(int cpu)
{
	return topology_physical_package_id(cpu);
}

static int pts_add_set(const char *val, const struct kernel_param *kp)
{
	u64 n;
	int rc = kstrtou64(val, 0, &n);

	if (!rc)
		atomic64_add(n, &pts_count[pts_socket(get_cpu())]);
	put_cpu();
	return rc;
}

static int pts_count_get(char *buf, const struct kernel_param *kp)
{
	u64 sum = 0;
	int k;

	for (k = 0; k < PTS_SOCKETS; k++)
		sum += atomic64_read(&pts_count[k]);
	return sprintf(buf, "%llu\n", sum);
}

static const struct kernel_param_ops pts_add_ops = { .set = pts_add_set };
static const struct kernel_param_ops pts_count_ops = { .get = pts_count_get };
module_param_cb(add, &pts_add_ops, NULL, 0200);
MODULE_PARM_DESC(add, "adds N to the count");
module_param_cb(count, &pts_count_ops, NULL, 0444);
MODULE_PARM_DESC(count, "the count");
module_param_named(cpu, pts_cpu, int, 0444);
MODULE_PARM_DESC(cpu, "the CPU that counts in its socket, at load");

/* The count of the event's socket (hw.idx). */
static u64 test_pmu_now(struct perf_event *event)
{
	return atomic64_read(&pts_count[event->hw.idx]);
}

#include "perfctr_test_pmu.h"

static struct pmu pts_pmu;

/* As uncore_pmu_event_init(): no task events, no sampling, and the
 * event counts on its socket's mask CPU whichever CPU of it asked. */
static int pts_event_init(struct perf_event *event)
{
	int mask;

	if (event->attr.type != pts_pmu.type)
		return -ENOENT;
	if (event->cpu < 0 || is_sampling_event(event) ||
	    event->attr.config != 1)
		return -EINVAL;
	event->hw.idx = pts_socket(event->cpu);
	mask = READ_ONCE(pts_mask[event->hw.idx]);
	if (mask < 0)
		return -EINVAL;
	event->cpu = mask;
	return 0;
}

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	cpumask_t masks;
	int k, cpu;

	cpumask_clear(&masks);
	for (k = 0; k < PTS_SOCKETS; k++) {
		cpu = READ_ONCE(pts_mask[k]);
		if (cpu >= 0)
			cpumask_set_cpu(cpu, &masks);
	}
	return cpumap_print_to_pagebuf(true, buf, &masks);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *pts_attrs[] = { &dev_attr_cpumask.attr, NULL };
static const struct attribute_group pts_attr_group = { .attrs = pts_attrs };

PMU_FORMAT_ATTR(event, "config:0-7");
static struct attribute *pts_format_attrs[] = { &format_attr_event.attr, NULL };
static const struct attribute_group pts_format_group = {
	.name = "format", .attrs = pts_format_attrs,
};

PMU_EVENT_ATTR_STRING(ticks, pts_ev_ticks, "event=0x1");
PMU_EVENT_ATTR_STRING(ticks.unit, pts_ev_ticks_unit, "MiB");
PMU_EVENT_ATTR_STRING(ticks.scale, pts_ev_ticks_scale, "6.103515625e-5");
PMU_EVENT_ATTR_STRING(cas_count_read, pts_ev_cas, "event=0x1");
PMU_EVENT_ATTR_STRING(cas_count_read.unit, pts_ev_cas_unit, "MiB");
PMU_EVENT_ATTR_STRING(cas_count_read.scale, pts_ev_cas_scale, "6.103515625e-5");
PMU_EVENT_ATTR_STRING(cas_count_write, pts_ev_casw, "event=0x1");
PMU_EVENT_ATTR_STRING(cas_count_write.unit, pts_ev_casw_unit, "MiB");
PMU_EVENT_ATTR_STRING(cas_count_write.scale, pts_ev_casw_scale,
		      "6.103515625e-5");
PMU_EVENT_ATTR_STRING(energy-pkg, pts_ev_pkg, "event=0x1");
PMU_EVENT_ATTR_STRING(energy-pkg.unit, pts_ev_pkg_unit, "Joules");
PMU_EVENT_ATTR_STRING(energy-pkg.scale, pts_ev_pkg_scale,
		      "2.3283064365386962890625e-10");
static struct attribute *pts_event_attrs[] = {
	&pts_ev_ticks.attr.attr, &pts_ev_ticks_unit.attr.attr,
	&pts_ev_ticks_scale.attr.attr, &pts_ev_cas.attr.attr,
	&pts_ev_cas_unit.attr.attr, &pts_ev_cas_scale.attr.attr,
	&pts_ev_casw.attr.attr, &pts_ev_casw_unit.attr.attr,
	&pts_ev_casw_scale.attr.attr,
	&pts_ev_pkg.attr.attr, &pts_ev_pkg_unit.attr.attr,
	&pts_ev_pkg_scale.attr.attr, NULL,
};
static const struct attribute_group pts_event_group = {
	.name = "events", .attrs = pts_event_attrs,
};

static const struct attribute_group *pts_groups[] = {
	&pts_attr_group, &pts_format_group, &pts_event_group, NULL,
};

static struct pmu pts_pmu = {
	.task_ctx_nr	= perf_invalid_context,
	.event_init	= pts_event_init,
	.add		= test_pmu_add,
	.del		= test_pmu_del,
	.start		= test_pmu_start,
	.stop		= test_pmu_stop,
	.read		= test_pmu_read,
	.attr_groups	= pts_groups,
	.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
	.module		= THIS_MODULE,
};

/* Another online CPU of cpu's socket, or -1. */
static int pts_other_in_socket(unsigned int cpu)
{
	unsigned int t;

	for_each_online_cpu(t)
		if (t != cpu && pts_socket(t) == pts_socket(cpu))
			return t;
	return -1;
}

/* Hotplug teardown, on the CPU going away: its events move on to
 * another CPU of its socket, as uncore_event_cpu_offline() moves a
 * box's. */
static int pts_cpu_offline(unsigned int cpu)
{
	int k = pts_socket(cpu), target;

	if (cpu != READ_ONCE(pts_mask[k]))
		return 0;
	target = pts_other_in_socket(cpu);
	if (target >= 0)
		perf_pmu_migrate_context(&pts_pmu, cpu, target);
	WRITE_ONCE(pts_mask[k], target);
	return 0;
}

/* Hotplug startup: a socket without a CPU that counts gets this one, as
 * uncore_event_cpu_online() does. */
static int pts_cpu_online(unsigned int cpu)
{
	int k = pts_socket(cpu);

	if (READ_ONCE(pts_mask[k]) < 0)
		WRITE_ONCE(pts_mask[k], cpu);
	return 0;
}

static int __init pts_init(void)
{
	int rc, cpu, k;

	if (pts_cpu < 0 || pts_cpu >= nr_cpu_ids || !cpu_online(pts_cpu))
		return -EINVAL;
	for_each_possible_cpu(cpu)
		if (pts_socket(cpu) < 0 || pts_socket(cpu) >= PTS_SOCKETS)
			return -ERANGE;
	for (k = 0; k < PTS_SOCKETS; k++)
		pts_mask[k] = -1;
	pts_mask[pts_socket(pts_cpu)] = pts_cpu;
	for_each_online_cpu(cpu)
		pts_cpu_online(cpu);
	rc = perf_pmu_register(&pts_pmu, pts_name, -1);
	if (rc)
		return rc;
	rc = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
				       "perfctr_test_socket:online",
				       pts_cpu_online, pts_cpu_offline);
	if (rc < 0) {
		perf_pmu_unregister(&pts_pmu);
		return rc;
	}
	pts_hp_state = rc;
	return 0;
}

static void __exit pts_exit(void)
{
	cpuhp_remove_state_nocalls(pts_hp_state);
	perf_pmu_unregister(&pts_pmu);
}

module_init(pts_init);
module_exit(pts_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("a PMU with a cpumask for the systemtap-perfctr tests");
