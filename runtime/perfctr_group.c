// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_group.c - groups: counters the kernel schedules as one perf
 * event group (.group("NAME")), read from one snapshot per probe.
 *
 * A module cannot make a group: perf_event_create_kernel_counter() takes
 * no group leader, and nothing exported adds a sibling to one.  So
 * perfctr-run opens each group on every online CPU with perf_event_open(2),
 * as the user who runs it (perf_event_paranoid and the LSM hooks are then
 * perf's own, as for perf stat -a), leaves the fds open across its exec of
 * staprun and staprun's of stapio, and says where they are in the
 * assignment (docs/design.md).  The start runs in stapio (its write of
 * STP_START): it takes its own reference to each file, checks that it is
 * a perf event counting what the assignment says on the CPU it says, in
 * the group it says, then closes stapio's fds.  From then on the module
 * holds the only references; the stop drops them.
 *
 * A read takes the group's snapshot on its CPU (every member's count, the
 * leader's times, which are the group's), at most once per probe: later
 * reads in the same probe return the same snapshot, so cycles and
 * instructions read one after the other come from one moment.  A probe
 * is told from the next by the CPU's hits, which count the probe
 * contexts stap hands out on the CPU (the hook below, around stap's own
 * _stp_runtime_entryfn_get_context()); stap runs one probe per CPU at a
 * time with preemption off, so the count cannot change under a probe.  A
 * .multiplex group is scaled as a unit, by the leader's times.
 *
 * CPU hotplug: perf removes user-opened events from a CPU that goes
 * offline and takes their groups apart (DETACH_GROUP), and never puts
 * them back.  A group is read only while its leader is on the CPU's
 * context (ACTIVE, or INACTIVE when multiplexed); after the CPU went
 * offline its reads raise an error that says so (PERFCTR_RE_LOST),
 * never a count.
 *
 * Intel's topdown metrics (perfctr_topdown.h) count in a group led by
 * slots; perfctr_topdown() decodes a metric from the probe's snapshot
 * into its share of the level-1 metrics, as perf stat shows it.
 *
 * Context of each entry point:
 *   perfctr_read_group(), perfctr_group_or_times(), perfctr_read_topdown()
 *                         any probe context, NMI included; IRQs off
 *                         inside, no locks
 *   perfctr_groups_start()  stapio's STP_START write, sleepable, CPU
 *                         hotplug held off (perfctr_cpus_start)
 *   perfctr_groups_stop()   sleepable, after every probe has finished
 *   perfctr_groups_offline()  the CPU hotplug offline callback
 *   perfctr_groups_rearm()  the hotplug work, sleepable
 */
#ifdef PERFCTR_NGROUPS

#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/magic.h>

/* Each group counter's topdown kind (perfctr_topdown.h), from what
 * perfctr-run found (PERFCTR_F_TOPDOWN); set at start. */
static signed char perfctr_gtd[PERFCTR_NGSLOTS];
static atomic_t perfctr_gtaken = ATOMIC_INIT(0);
static atomic_t perfctr_greleased = ATOMIC_INIT(0);

/*
 * Every probe handler starts by taking the CPU's context with
 * _stp_runtime_entryfn_get_context() (stap's common probe prologue), and
 * holds it, preemption off, until it ends.  Each one it hands out starts
 * a new probe on the CPU: count them.  The runtime declares the function
 * before this file and defines it after; a variadic macro tells the
 * definition, "(void)", from the calls, "()", and sends the calls here
 * (as perfctr.c does for systemtap_module_init).  A change in stap's
 * name breaks the build, not the run.  Any context; stap also takes the
 * context outside probes (its control channel's timer, around the stop):
 * preemption is off from the moment it has one, and perfctr_stop() waits
 * for an RCU grace period between clearing perfctr_cpus and freeing it.
 */
static __always_inline struct context *perfctr_get_context(void)
{
	struct context *c = _stp_runtime_entryfn_get_context();
	struct perfctr_cpu __percpu *pcs = READ_ONCE(perfctr_cpus);

	if (c && pcs)
		this_cpu_inc(pcs->hits);
	return c;
}
#define _stp_runtime_entryfn_get_context(...) PERFCTR_GC_ ## __VA_ARGS__
#define PERFCTR_GC_void _stp_runtime_entryfn_get_context(void)
#define PERFCTR_GC_ perfctr_get_context()

/*
 * Takes group g's snapshot on this CPU into s and pc->gval[].  A pinned
 * group is read while its leader counts here; a .multiplex one also when
 * it is off the PMU (its counts as the last rotation left them).  IRQs
 * off.  Returns 0, -ENODEV (not opened on this CPU), PERFCTR_RE_LOST
 * (taken off when the CPU went offline), -EIO (not counting),
 * PERFCTR_RE_REPROGRAM (perfctr_event_read()).
 */
static __always_inline int perfctr_group_take(struct perfctr_cpu *pc,
					      const struct perfctr_group_desc *g,
					      struct perfctr_gsnap *s)
{
	struct perf_event *lead = READ_ONCE(pc->gev[g->first]);
	unsigned int i;
	int state;

	if (!lead)
		return -ENODEV;
	state = READ_ONCE(lead->state);
	if (state == PERF_EVENT_STATE_ERROR) {
		perfctr_rearm_request(PERFCTR_REARM_CPUS);
		return -EIO;
	}
	if (state < PERF_EVENT_STATE_INACTIVE)
		return READ_ONCE(pc->glost) ? PERFCTR_RE_LOST : -EIO;
	if (!g->mux && !perfctr_counting_here(lead))
		return -EIO;
	for (i = 0; i < g->n; i++) {
		struct perf_event *ev = pc->gev[g->first + i];
		u64 *v = &pc->gval[g->first + i];
		int rc;

		/* a member is bound to this CPU: ACTIVE is on this CPU */
		if (!(READ_ONCE(pc->gdirect[g->first + i]) &&
		      READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE &&
		      perfctr_direct_read(ev, v)) &&
		    (rc = perfctr_event_read_alone(pc, &pc->gdirect[g->first + i],
						   1, ev, v)))
			return rc;
	}
	perfctr_event_times(lead, &s->enabled, &s->running);
	return 0;
}

/* This CPU's snapshot of request idx's group for the current probe,
 * taken now when the probe has none.  IRQs off. */
static __always_inline const struct perfctr_gsnap *
perfctr_group_snap(struct perfctr_cpu *pc, const struct perfctr_request_desc *r)
{
	struct perfctr_gsnap *s = &pc->gsnap[r->group_no - 1];
	u64 hit = READ_ONCE(pc->hits);

	if (!hit || READ_ONCE(s->hit) != hit) {
		s->rc = perfctr_group_take(pc, &perfctr_groups[r->group_no - 1], s);
		barrier();	/* a nested reader sees the hit once it is whole */
		WRITE_ONCE(s->hit, hit);
	}
	return s;
}

/*
 * The count of group counter idx on this CPU, from the probe's snapshot;
 * a .multiplex group's scaled by the group's enabled / running.  Any
 * context.  Returns 0, -ENODEV, PERFCTR_RE_LOST, -EIO, -EAGAIN
 * (.multiplex, not on the PMU yet: no estimate), PERFCTR_RE_REPROGRAM.
 */
static __always_inline int perfctr_read_group(unsigned int idx, u64 *val)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];
	const struct perfctr_gsnap *s;
	struct perfctr_cpu *pc;
	unsigned long flags;
	int rc;
	u64 v;

	if (unlikely(!perfctr_cpus || !r->group_no))
		return -ENODEV;
	local_irq_save(flags);
	pc = this_cpu_ptr(perfctr_cpus);
	s = perfctr_group_snap(pc, r);
	rc = s->rc;
	if (!rc && perfctr_groups[r->group_no - 1].mux) {
		v = pc->gval[r->gslot];
		if (!s->running)
			rc = -EAGAIN;
		else
			*val = s->running < s->enabled ?
			       perfctr_scale(v, s->enabled, s->running) : v;
	} else if (!rc) {
		*val = pc->gval[r->gslot];
	}
	local_irq_restore(flags);
	return rc;
}

/* perfctr_count/enabled/running(): a group counter's own count and the
 * group's times, from the probe's snapshot; other counters' as
 * perfctr_read_times().  Any context. */
static __always_inline int perfctr_group_or_times(unsigned int idx, u64 *val,
						  u64 *enabled, u64 *running)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];
	const struct perfctr_gsnap *s;
	struct perfctr_cpu *pc;
	unsigned long flags;
	int rc;

	if (!r->group_no)
		return perfctr_read_times(idx, val, enabled, running);
	if (unlikely(!perfctr_cpus))
		return -ENODEV;
	local_irq_save(flags);
	pc = this_cpu_ptr(perfctr_cpus);
	s = perfctr_group_snap(pc, r);
	rc = s->rc;
	if (!rc) {
		*val = pc->gval[r->gslot];
		*enabled = s->enabled;
		*running = s->running;
	}
	local_irq_restore(flags);
	return rc;
}

/*
 * perfctr_topdown(): group counter idx's share of the slots its group's
 * level-1 topdown metrics took, in parts per thousand, from the probe's
 * snapshot (perf stat's td_metric_ratio()).  Any context.  Returns 0,
 * the group read's errors, PERFCTR_RE_NOT_TOPDOWN (not a topdown
 * metric), -ENODATA (no level-1 metric counted here yet).
 */
static __always_inline int perfctr_read_topdown(unsigned int idx, u64 *val)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];
	const struct perfctr_group_desc *g;
	const struct perfctr_gsnap *s;
	struct perfctr_cpu *pc;
	unsigned long flags;
	u64 level1 = 0;
	unsigned int i;
	int rc, k;

	if (unlikely(!perfctr_cpus))
		return -ENODEV;
	k = r->group_no ? perfctr_gtd[r->gslot] : PERFCTR_TD_NONE;
	if (k < 0 || k == PERFCTR_TD_SLOTS_KIND)
		return PERFCTR_RE_NOT_TOPDOWN;
	g = &perfctr_groups[r->group_no - 1];
	local_irq_save(flags);
	pc = this_cpu_ptr(perfctr_cpus);
	s = perfctr_group_snap(pc, r);
	rc = s->rc;
	for (i = g->first; !rc && i < g->first + g->n; i++)
		if (perfctr_gtd[i] >= 0 && perfctr_gtd[i] < PERFCTR_TD_LEVEL1)
			level1 += pc->gval[i];
	if (!rc && !level1)
		rc = -ENODATA;
	if (!rc)
		*val = perfctr_topdown_permille(pc->gval[r->gslot], level1);
	local_irq_restore(flags);
	return rc;
}

/* Is file one perf_event_open(2) made?  Its anon inode file is named
 * "[perf_event]" (kernel/events/core.c), a name no one else can give a
 * file of that filesystem; private_data is then the event. */
static bool perfctr_is_perf_file(const struct file *file)
{
	const struct inode *inode = file_inode(file);

	return inode->i_sb->s_magic == ANON_INODE_FS_MAGIC &&
	       !strcmp(file->f_path.dentry->d_name.name, "[perf_event]");
}

/* Does ev belong where the assignment puts it: a CPU's event, leading
 * its group (member 0) or in lead's? */
static const char *perfctr_group_place(const struct perf_event *ev,
				       unsigned int member,
				       const struct perf_event *lead)
{
	if (ev->attach_state & PERF_ATTACH_TASK)
		return "the event counts a task, not a CPU";
	if (!member && READ_ONCE(ev->group_leader) != ev)
		return "the event does not lead a group";
	if (member && READ_ONCE(ev->group_leader) != lead)
		return "the event is not in its leader's group (did a CPU go "
		       "offline after perfctr-run opened it?)";
	return NULL;
}

/* The request that is member m of group gd.  Sleepable callers only. */
static unsigned int perfctr_group_member(const struct perfctr_group_desc *gd,
					 unsigned int m)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (perfctr_requests[i].id && perfctr_requests[i].group_no &&
		    perfctr_requests[i].gslot == gd->first + m)
			return i;
	return gd->leader;	/* not reached: the table has them all */
}

/*
 * Group g's events on the k-th CPU of its record: the module's own
 * reference to each, checked.  Returns the CPU, or a negative errno
 * (reported; what was taken stays in the CPU's slots for the stop).
 */
static int perfctr_group_take_cpu(unsigned int g, unsigned int k, int prev)
{
	const struct perfctr_group_desc *gd = &perfctr_groups[g];
	const struct perfctr_group_slot *gs = &perfctr_gslots[g];
	const struct perfctr_request_desc *lr = &perfctr_requests[gd->leader];
	struct perf_event *ev, *lead = NULL;
	struct perfctr_cpu *pc = NULL;
	const struct pmu *pmu;
	struct file *file;
	const char *why = NULL;
	char err[192] = "";
	unsigned int m, fd, idx;
	int cpu = -1;

	for (m = 0; m < gd->n && !why && !err[0]; m++) {
		fd = gs->fd0 + k * gd->n + m;
		file = fget(fd);
		if (!file) {
			why = "no file at that fd";
			break;
		}
		if (!perfctr_is_perf_file(file)) {
			fput(file);
			why = "not a perf event";
			break;
		}
		ev = file->private_data;
		/* NULL once perf revoked it (its PMU unregistered, 6.15+) */
		pmu = READ_ONCE(ev->pmu);
		if (!pmu) {
			fput(file);
			why = "its PMU is gone (unregistered since perfctr-run "
			      "opened it)";
			break;
		}
		idx = perfctr_group_member(gd, m);
		if (perfctr_group_event_check(&perfctr_slots[idx], gd->mux, m,
					      &ev->attr, pmu->type,
					      READ_ONCE(ev->cpu), &cpu, prev,
					      nr_cpu_ids, err, sizeof(err)) ||
		    (why = perfctr_group_place(ev, m, lead))) {
			fput(file);
			break;
		}
		if (!m) {
			lead = ev;
			pc = per_cpu_ptr(perfctr_cpus, cpu);
		}
		pc->gfile[gd->first + m] = file;
		pc->gev[gd->first + m] = ev;
		/* topdown's slots and metrics are read as perf reads them */
		pc->gdirect[gd->first + m] = perfctr_direct_able(ev) &&
			!(perfctr_slots[idx].flags & PERFCTR_F_TOPDOWN) &&
			perfctr_direct_checked_on(ev, cpu);
		atomic_inc(&perfctr_gtaken);
		perfctr_gtd[gd->first + m] = perfctr_slots[idx].flags &
					     PERFCTR_F_TOPDOWN ?
					     perfctr_topdown_kind(ev->attr.config) :
					     PERFCTR_TD_NONE;
	}
	if (!why && !err[0])
		return cpu;
	_stp_error("perfctr: %s: group \"%s\": fd %u: %s (a module's groups "
		   "are opened by perfctr-run: run the module with perfctr-run "
		   "or stap-perfctr)\n", lr->src, gd->name, fd,
		   why ? why : err);
	return -EINVAL;
}

/* After the group's events are taken: it must be on every online CPU,
 * and a pinned group counting there. */
static int perfctr_group_check_cpus(unsigned int g)
{
	const struct perfctr_group_desc *gd = &perfctr_groups[g];
	const struct perfctr_request_desc *lr = &perfctr_requests[gd->leader];
	struct perf_event *lead;
	int cpu, state;

	for_each_online_cpu(cpu) {
		lead = per_cpu_ptr(perfctr_cpus, cpu)->gev[gd->first];
		if (!lead) {
			_stp_error("perfctr: %s: group \"%s\" has no events on "
				   "CPU %d, which is online (it was not when "
				   "perfctr-run opened them)\n", lr->src,
				   gd->name, cpu);
			return -ENODEV;
		}
		state = READ_ONCE(lead->state);
		if (state < PERF_EVENT_STATE_INACTIVE ||
		    (!gd->mux && state != PERF_EVENT_STATE_ACTIVE)) {
			_stp_error("perfctr: %s: group \"%s\" is not counting "
				   "on CPU %d (state %d): no room for it on the "
				   "PMU\n", lr->src, gd->name, cpu, state);
			return -EBUSY;
		}
	}
	return 0;
}

/* perfctr-run's fds in stapio: the module holds its own references now. */
static void perfctr_groups_close_fds(void)
{
	const struct perfctr_group_desc *gd;
	unsigned int g, i;

	for (g = 0; g < PERFCTR_NGROUPS; g++) {
		gd = &perfctr_groups[g];
		if (!gd->n || !perfctr_requests[gd->leader].id)
			continue;
		for (i = 0; i < perfctr_gslots[g].ncpu * gd->n; i++)
			close_fd(perfctr_gslots[g].fd0 + i);
	}
}

/* In stapio's STP_START write (its fds), sleepable, CPU hotplug held
 * off; after the assignment is parsed.  Returns 0 or a negative errno
 * (reported); perfctr_groups_stop() drops what was taken. */
static int perfctr_groups_start(void)
{
	unsigned int g, k;
	int cpu, rc = 0;

	memset(perfctr_gtd, PERFCTR_TD_NONE, sizeof(perfctr_gtd));
	for (g = 0; g < PERFCTR_NGROUPS && !rc; g++) {
		if (!perfctr_groups[g].n ||
		    !perfctr_requests[perfctr_groups[g].leader].id)
			continue;
		for (k = 0, cpu = -1; k < perfctr_gslots[g].ncpu; k++) {
			cpu = perfctr_group_take_cpu(g, k, cpu);
			if (cpu < 0) {
				rc = cpu;
				break;
			}
		}
		if (!rc)
			rc = perfctr_group_check_cpus(g);
	}
	if (!rc)
		perfctr_groups_close_fds();
	return rc;
}

/* Sleepable, no probe running, hotplug callbacks gone; idempotent. */
static void perfctr_groups_stop(void)
{
	struct perfctr_cpu *pc;
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(perfctr_cpus, cpu);
		for (i = 0; i < PERFCTR_NGSLOTS; i++) {
			if (!pc->gfile[i])
				continue;
			pc->gev[i] = NULL;
			fput(pc->gfile[i]);
			pc->gfile[i] = NULL;
			atomic_inc(&perfctr_greleased);
		}
	}
	if (atomic_read(&perfctr_gtaken))
		printk(KERN_INFO "perfctr: %s: released %d group events "
		       "(took %d)\n", THIS_MODULE->name,
		       atomic_read(&perfctr_greleased),
		       atomic_read(&perfctr_gtaken));
}

/* The offline callback, on the CPU: perf is about to take its groups
 * off for good. */
static void perfctr_groups_offline(unsigned int cpu)
{
	WRITE_ONCE(per_cpu_ptr(perfctr_cpus, cpu)->glost, 1);
}

/* Pinned groups that lost the PMU (ERROR) are enabled again, as the
 * module's own counters are (perfctr_rearm.c).  With CPU hotplug held
 * off, so that perf cannot take an event off its context meanwhile. */
static void perfctr_groups_rearm(void)
{
	struct perfctr_cpu *pc;
	struct perf_event *lead;
	unsigned int g;
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		pc = per_cpu_ptr(perfctr_cpus, cpu);
		if (READ_ONCE(pc->glost))
			continue;
		for (g = 0; g < PERFCTR_NGROUPS; g++) {
			lead = pc->gev[perfctr_groups[g].first];
			if (lead && READ_ONCE(lead->state) ==
				    PERF_EVENT_STATE_ERROR)
				perf_event_enable(lead);
		}
	}
	cpus_read_unlock();
}

#else /* !PERFCTR_NGROUPS */
static int perfctr_groups_start(void) { return 0; }
static void perfctr_groups_stop(void) { }
static void perfctr_groups_offline(unsigned int cpu) { }
static void perfctr_groups_rearm(void) { }
#endif
