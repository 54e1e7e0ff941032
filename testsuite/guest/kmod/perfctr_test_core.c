// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_test_core.c - two core PMUs, as a hybrid machine has them
 * (Intel's cpu_core and cpu_atom, an Arm SoC's cluster PMUs), for the
 * hybrid tests in a guest whose CPUs are all alike:
 *
 *   perfctr_test_core_a   CPU 0                 cpus "0"
 *   perfctr_test_core_b   every other CPU       cpus "1" (-smp 2)
 *
 * (names a=NAME b=NAME at load: a=cpu_core b=cpu_atom stand in for an
 * Intel hybrid machine's, so that examples run unchanged in the guest).
 *
 * Each is registered as an arm_pmu registers a cluster's: a task
 * context PMU (perf_hw_context) that counts only on its own CPUs (its
 * filter: a task's event of one PMU sits out the task's time on the
 * other's CPUs), with a sysfs `cpus` file, that takes the generic
 * hardware events `instructions` and `cycles` on its CPUs (event_init
 * answers -ENOENT elsewhere, so the kernel tries the other PMU) and has
 * the sysfs aliases perfctr-run looks for on an Arm hybrid machine
 * (`inst_retired` event=0x08, `cpu_cycles` event=0x11), besides its own
 * `ticks` (event=0x1).
 *
 * Every event counts the same "hardware": ticks, made by writing N to
 * /sys/module/perfctr_test_core/parameters/tick, which adds N to the
 * writing CPU's count.  An event counts its CPU's ticks while it is
 * active there, so a task's event counts exactly the ticks the task
 * wrote on that PMU's CPUs.  The exclude bits are taken and ignored
 * (writes are made in the kernel, for the task).  A sampling event (a
 * period, not a frequency) overflows every period ticks, in the write
 * that crosses it, with the writer's user registers: as a PMU interrupt
 * would, but in the writing task's own context.
 *
 * Writing 1 to parameters/hold holds the writing CPU's events stopped
 * while perf has them active, as a PMU moving them to other counters
 * does (ptc_hold_set); 0 lets them go.
 *
 * parameters/creator says who made the last event, as event_init saw
 * them (effective uid, CAP_PERFMON).
 *
 * Writing a or b to parameters/unplug unregisters that PMU while its
 * events live, as a driver unbound from its device or a device that goes
 * away does: Linux 6.15 and later revoke the events (their state
 * PERF_EVENT_STATE_REVOKED, their pmu NULL, the module reference each
 * held given back); an older kernel would leave them pointing at a PMU
 * that is gone, so there it is refused (-EOPNOTSUPP).
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched/task_stack.h>
#include <linux/version.h>

#define PTC_ACTIVE 8	/* sampling events active on a CPU at once */
#define PTC_EVENTS 16	/* events active on a CPU at once */
#define PTC_STALE 1000000000ULL	/* what a "moved" event's counter holds */

static DEFINE_PER_CPU(u64, ptc_ticks);
static DEFINE_PER_CPU(u64, ptc_stale);	/* parameters/hold */
/* the events (all; sampling) active on each CPU: its add and del, IRQs off */
static DEFINE_PER_CPU(struct perf_event *[PTC_EVENTS], ptc_events);
static DEFINE_PER_CPU(struct perf_event *[PTC_ACTIVE], ptc_sampling);

/*
 * perf_event_overflow() is not exported to modules: its address is found
 * with a kprobe's symbol lookup at load, and it is called through this
 * pointer, which an IBT kernel would refuse (it seals functions only
 * called directly); the guests have no IBT, and this module is theirs.
 */
static int (*ptc_event_overflow)(struct perf_event *event,
				 struct perf_sample_data *data,
				 struct pt_regs *regs);

static int ptc_find_overflow(void)
{
	struct kprobe kp = { .symbol_name = "perf_event_overflow" };
	int rc = register_kprobe(&kp);

	ptc_event_overflow = (void *)kp.addr;	/* looked up even if refused */
	if (!rc)
		unregister_kprobe(&kp);
	return ptc_event_overflow ? 0 : -ENOENT;
}

/* n ticks counted by sampling event ev: an overflow per period crossed.
 * IRQs off, on ev's CPU. */
static void ptc_overflow(struct perf_event *ev, u64 n)
{
	struct hw_perf_event *hwc = &ev->hw;
	struct perf_sample_data data;
	s64 left = local64_sub_return(n, &hwc->period_left);

	while (left <= 0) {
		left = local64_add_return(hwc->sample_period,
					  &hwc->period_left);
		perf_sample_data_init(&data, 0, hwc->last_period);
		if (ptc_event_overflow(ev, &data, task_pt_regs(current)))
			break;		/* throttled */
	}
}

static int ptc_tick_set(const char *val, const struct kernel_param *kp)
{
	struct perf_event **active;
	unsigned long flags;
	u64 n;
	int rc = kstrtou64(val, 0, &n), k;

	if (rc)
		return rc;
	local_irq_save(flags);
	this_cpu_add(ptc_ticks, n);
	active = *this_cpu_ptr(&ptc_sampling);
	for (k = 0; k < PTC_ACTIVE; k++)
		if (active[k])
			ptc_overflow(active[k], n);
	local_irq_restore(flags);
	return 0;
}

static char ptc_name_a[32] = "perfctr_test_core_a";
static char ptc_name_b[32] = "perfctr_test_core_b";
module_param_string(a, ptc_name_a, sizeof(ptc_name_a), 0444);
MODULE_PARM_DESC(a, "the name of CPU 0's PMU, at load");
module_param_string(b, ptc_name_b, sizeof(ptc_name_b), 0444);
MODULE_PARM_DESC(b, "the name of the other CPUs' PMU, at load");

static const struct kernel_param_ops ptc_tick_ops = { .set = ptc_tick_set };
module_param_cb(tick, &ptc_tick_ops, NULL, 0200);
MODULE_PARM_DESC(tick, "adds N to the writing CPU's ticks");

struct ptc_pmu {
	struct pmu pmu;
	struct cpumask cpus;
};

static struct ptc_pmu ptc_pmus[2];
static bool ptc_unplugged[2];

static struct ptc_pmu *to_ptc(struct pmu *pmu)
{
	return container_of(pmu, struct ptc_pmu, pmu);
}

/* The ticks of the event's CPU, where it is active (and what a held
 * CPU's counters hold besides). */
static u64 test_pmu_now(struct perf_event *event)
{
	return __this_cpu_read(ptc_ticks) + __this_cpu_read(ptc_stale);
}

#include "perfctr_test_pmu.h"

/* ev into list (n slots), or -EAGAIN when it is full. */
static int ptc_list_add(struct perf_event **list, int n, struct perf_event *ev)
{
	int k;

	for (k = 0; k < n && list[k]; k++)
		;
	if (k == n)
		return -EAGAIN;
	list[k] = ev;
	return 0;
}

static void ptc_list_del(struct perf_event **list, int n, struct perf_event *ev)
{
	int k;

	for (k = 0; k < n; k++)
		if (list[k] == ev)
			list[k] = NULL;
}

/* test_pmu_add(), and the event into this CPU's lists: no room, not
 * scheduled. */
static int ptc_add(struct perf_event *event, int flags)
{
	struct perf_event **all = *this_cpu_ptr(&ptc_events);

	if (ptc_list_add(all, PTC_EVENTS, event))
		return -EAGAIN;
	if (is_sampling_event(event) &&
	    ptc_list_add(*this_cpu_ptr(&ptc_sampling), PTC_ACTIVE, event)) {
		ptc_list_del(all, PTC_EVENTS, event);
		return -EAGAIN;
	}
	return test_pmu_add(event, flags);
}

static void ptc_del(struct perf_event *event, int flags)
{
	ptc_list_del(*this_cpu_ptr(&ptc_events), PTC_EVENTS, event);
	ptc_list_del(*this_cpu_ptr(&ptc_sampling), PTC_ACTIVE, event);
	test_pmu_del(event, flags);
}

/*
 * Writing 1 to parameters/hold stops every event active on the writing
 * CPU as x86_pmu_enable() does before it moves events to other hardware
 * counters (x86_pmu_stop(event, PERF_EF_UPDATE)): each stays ACTIVE for
 * perf and is PERF_HES_STOPPED for the PMU, its count up to date, and
 * the counter it would read now holds something else (the ticks plus
 * PTC_STALE), until 0 is written: they start again from the ticks
 * (x86_pmu_start(event, PERF_EF_RELOAD)).  A pmu->read() in between
 * would add the difference to the count for good.
 */
static int ptc_hold_set(const char *val, const struct kernel_param *kp)
{
	struct perf_event **all;
	unsigned long flags;
	bool on;
	int rc = kstrtobool(val, &on), k;

	if (rc)
		return rc;
	local_irq_save(flags);
	all = *this_cpu_ptr(&ptc_events);
	for (k = 0; k < PTC_EVENTS; k++) {
		if (!all[k])
			continue;
		if (on)
			test_pmu_stop(all[k], PERF_EF_UPDATE);
		else if (!(all[k]->hw.state & PERF_HES_STOPPED))
			test_pmu_read(all[k]);	/* added while held: so far */
	}
	__this_cpu_write(ptc_stale, on ? PTC_STALE : 0);
	for (k = 0; k < PTC_EVENTS && !on; k++) {
		if (!all[k])
			continue;
		if (all[k]->hw.state & PERF_HES_STOPPED)
			test_pmu_start(all[k], PERF_EF_RELOAD);
		else
			local64_set(&all[k]->hw.prev_count, test_pmu_now(all[k]));
	}
	local_irq_restore(flags);
	return 0;
}

static const struct kernel_param_ops ptc_hold_ops = { .set = ptc_hold_set };
module_param_cb(hold, &ptc_hold_ops, NULL, 0200);
MODULE_PARM_DESC(hold, "1: stops the writing CPU's events as perf does to move them; 0: starts them");

/*
 * Who made the last event: its maker's effective uid and whether it had
 * CAP_PERFMON, as a PMU's own checks in event_init judge them (Intel's
 * AnyThread bit asks perf_allow_cpu(), the kprobe PMU perfmon_capable()):
 * the subjective credentials, which a kernel counter's maker may have
 * overridden.  parameters/creator reads "euid U perfmon 0|1".
 */
static unsigned int ptc_creator_euid = -1;
static int ptc_creator_perfmon = -1;

static void ptc_creator_note(void)
{
	WRITE_ONCE(ptc_creator_euid,
		   from_kuid_munged(&init_user_ns, current_euid()));
	WRITE_ONCE(ptc_creator_perfmon,
		   ns_capable_noaudit(&init_user_ns, CAP_PERFMON) ||
		   ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN));
}

static int ptc_creator_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "euid %d perfmon %d\n",
			 (int)READ_ONCE(ptc_creator_euid),
			 READ_ONCE(ptc_creator_perfmon));
}

static const struct kernel_param_ops ptc_creator_ops = {
	.get = ptc_creator_get
};
module_param_cb(creator, &ptc_creator_ops, NULL, 0444);
MODULE_PARM_DESC(creator, "the last event's maker: euid, CAP_PERFMON");

/* As armpmu_event_init(): its own events, and the generic ones it maps;
 * a CPU of the other PMU is -ENOENT, so that the kernel tries it. */
static int ptc_event_init(struct perf_event *event)
{
	struct ptc_pmu *p = to_ptc(event->pmu);
	u64 c = event->attr.config;

	if (event->attr.type == p->pmu.type) {
		if (c != 0x1 && c != 0x08 && c != 0x11)
			return -EINVAL;
	} else if (event->attr.type == PERF_TYPE_HARDWARE) {
		if (c != PERF_COUNT_HW_INSTRUCTIONS &&
		    c != PERF_COUNT_HW_CPU_CYCLES)
			return -ENOENT;
	} else {
		return -ENOENT;
	}
	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &p->cpus))
		return -ENOENT;
	if (event->attr.freq)
		return -EINVAL;		/* a period only */
	ptc_creator_note();
	return 0;
}

/* A task's event counts only on the PMU's CPUs (the kernel leaves it
 * out of the task's time elsewhere): true skips, before Linux 6.2 the
 * other way round (filter_match). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
static bool ptc_filter(struct pmu *pmu, int cpu)
{
	return !cpumask_test_cpu(cpu, &to_ptc(pmu)->cpus);
}
#else
static int ptc_filter_match(struct perf_event *event)
{
	return cpumask_test_cpu(smp_processor_id(), &to_ptc(event->pmu)->cpus);
}
#endif

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return cpumap_print_to_pagebuf(true, buf, &to_ptc(pmu)->cpus);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *ptc_attrs[] = { &dev_attr_cpus.attr, NULL };
static const struct attribute_group ptc_attr_group = { .attrs = ptc_attrs };

PMU_FORMAT_ATTR(event, "config:0-7");
static struct attribute *ptc_format_attrs[] = { &format_attr_event.attr, NULL };
static const struct attribute_group ptc_format_group = {
	.name = "format", .attrs = ptc_format_attrs,
};

PMU_EVENT_ATTR_STRING(ticks, ptc_ev_ticks, "event=0x01");
PMU_EVENT_ATTR_STRING(inst_retired, ptc_ev_inst, "event=0x08");
PMU_EVENT_ATTR_STRING(cpu_cycles, ptc_ev_cycles, "event=0x11");
static struct attribute *ptc_event_attrs[] = {
	&ptc_ev_ticks.attr.attr, &ptc_ev_inst.attr.attr,
	&ptc_ev_cycles.attr.attr, NULL,
};
static const struct attribute_group ptc_event_group = {
	.name = "events", .attrs = ptc_event_attrs,
};

static const struct attribute_group *ptc_groups[] = {
	&ptc_attr_group, &ptc_format_group, &ptc_event_group, NULL,
};

static void ptc_setup(struct ptc_pmu *p)
{
	p->pmu = (struct pmu) {
		.task_ctx_nr	= perf_hw_context,
		.event_init	= ptc_event_init,
		.add		= ptc_add,
		.del		= ptc_del,
		.start		= test_pmu_start,
		.stop		= test_pmu_stop,
		.read		= test_pmu_read,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
		.filter		= ptc_filter,
#else
		.filter_match	= ptc_filter_match,
#endif
		.attr_groups	= ptc_groups,
#ifdef PERF_PMU_CAP_HETEROGENEOUS_CPUS
		.capabilities	= PERF_PMU_CAP_HETEROGENEOUS_CPUS,
#endif
		.module		= THIS_MODULE,
	};
}

static int ptc_unplug_set(const char *val, const struct kernel_param *kp)
{
	int k;

	if (sysfs_streq(val, "a"))
		k = 0;
	else if (sysfs_streq(val, "b"))
		k = 1;
	else
		return -EINVAL;
	if (ptc_unplugged[k])
		return -ENOENT;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
	ptc_unplugged[k] = true;
	return perf_pmu_unregister(&ptc_pmus[k].pmu);
#else
	return -EOPNOTSUPP;
#endif
}

static const struct kernel_param_ops ptc_unplug_ops = { .set = ptc_unplug_set };
module_param_cb(unplug, &ptc_unplug_ops, NULL, 0200);
MODULE_PARM_DESC(unplug, "a or b: unregisters that PMU now (Linux 6.15+)");

static int __init ptc_init(void)
{
	int rc;

	if (nr_cpu_ids < 2)
		return -ENODEV;
	rc = ptc_find_overflow();
	if (rc)
		return rc;
	cpumask_clear(&ptc_pmus[0].cpus);
	cpumask_set_cpu(0, &ptc_pmus[0].cpus);
	cpumask_andnot(&ptc_pmus[1].cpus, cpu_possible_mask,
		       &ptc_pmus[0].cpus);
	ptc_setup(&ptc_pmus[0]);
	ptc_setup(&ptc_pmus[1]);
	rc = perf_pmu_register(&ptc_pmus[0].pmu, ptc_name_a, -1);
	if (rc)
		return rc;
	rc = perf_pmu_register(&ptc_pmus[1].pmu, ptc_name_b, -1);
	if (rc)
		perf_pmu_unregister(&ptc_pmus[0].pmu);
	return rc;
}

static void __exit ptc_exit(void)
{
	if (!ptc_unplugged[1])
		perf_pmu_unregister(&ptc_pmus[1].pmu);
	if (!ptc_unplugged[0])
		perf_pmu_unregister(&ptc_pmus[0].pmu);
}

module_init(ptc_init);
module_exit(ptc_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("two core PMUs of a hybrid machine for the systemtap-perfctr tests");
