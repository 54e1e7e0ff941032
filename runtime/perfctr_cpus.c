// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_cpus.c - each CPU's set of counters, following CPU hotplug.
 *
 * A CPU's counters are created when the module starts and again after the
 * CPU comes back online, and released when it goes offline and when the
 * module stops.  At offline the last count is kept as the CPU's base, so a
 * CPU's counts carry on where they stopped: nothing lost, nothing counted
 * twice.
 *
 * Hotplug callbacks run with the CPU hotplug lock held for writing, and
 * releasing an event, or creating a software event (it flips a static
 * key), takes it for reading: both would deadlock there.  So the offline
 * callback only takes the counters out of the CPU's slots (with IRQs off,
 * on the CPU itself, where probes read them), and the online callback
 * creates only the events whose creation takes no such lock (hardware, raw
 * and PMU events, cpu-clock and task-clock: the kernel's hard-lockup
 * watchdog creates its cycles counter there too), before the scheduler
 * puts tasks on the CPU.  A work item releases, and creates the rest,
 * outside the hotplug lock: until it has run, reads of those software
 * counters on a CPU that just came online raise catchable errors.
 *
 * Context: every function here may sleep, except where noted.
 */

static atomic_t perfctr_created = ATOMIC_INIT(0);
static atomic_t perfctr_released = ATOMIC_INIT(0);
static int perfctr_hp_state;	/* dynamic cpuhp state, 0 when none */
static DEFINE_SPINLOCK(perfctr_hp_lock);	/* dead[] and want */
static struct perf_event **perfctr_hp_gone;	/* the work's scratch list */
static void perfctr_hp_work_fn(struct work_struct *work);
static DECLARE_WORK(perfctr_hp_work, perfctr_hp_work_fn);

/* A sampling clause's events are stap's own (its perf probe). */
static int perfctr_samples(unsigned int idx)
{
	return perfctr_requests[idx].sample || perfctr_requests[idx].hz;
}

/* .cpu and .thread counters are per CPU; .process ones per task. */
static int perfctr_per_cpu(unsigned int idx)
{
	return perfctr_requests[idx].scope != PERFCTR_SCOPE_PROCESS &&
	       !perfctr_samples(idx);
}

/* .process counters and .process sampling clauses: an event per task */
static int perfctr_per_task(unsigned int idx)
{
	return perfctr_requests[idx].scope == PERFCTR_SCOPE_PROCESS;
}

static void perfctr_attr(const struct perfctr_slot *s,
			 struct perf_event_attr *attr)
{
	perfctr_attr_counter(attr, s->type, s->config, s->config1, s->config2,
			     s->flags);
}

/* One counter on one CPU.  A pinned event that does not fit sits in ERROR
 * state and counts nothing: at start that fails the start (report set). */
static int perfctr_create_one(unsigned int idx, int cpu, int report)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];
	struct perf_event_attr attr;
	struct perf_event *ev;

	perfctr_attr(&perfctr_slots[idx], &attr);
	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev)) {
		if (report)
			_stp_error("perfctr: %s: counter \"%s\" (%s): cannot "
				   "create it on CPU %d: error %ld\n", r->src,
				   r->id, r->event, cpu, PTR_ERR(ev));
		return PTR_ERR(ev);
	}
	atomic_inc(&perfctr_created);
	WRITE_ONCE(per_cpu_ptr(perfctr_cpus, cpu)->ev[idx], ev);
	if (!r->mux && READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE) {
		if (report)
			_stp_error("perfctr: %s: counter \"%s\" (%s) is not "
				   "counting on CPU %d (state %d): no free "
				   "hardware counter for it\n", r->src, r->id,
				   r->event, cpu, (int)READ_ONCE(ev->state));
		return -EBUSY;
	}
	return 0;
}

/* All of this module's counters on one CPU. */
static int perfctr_cpu_create(int cpu, int report)
{
	unsigned int i;
	int rc;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_requests[i].id || !perfctr_per_cpu(i))
			continue;
		rc = perfctr_create_one(i, cpu, report);
		if (rc)
			return rc;
	}
	return 0;
}

static void perfctr_release_event(struct perf_event *ev)
{
	perf_event_release_kernel(ev);
	atomic_inc(&perfctr_released);
}

/* Offline callback, on the CPU going away: each counter's final count
 * becomes the CPU's base; the counters wait in dead[] for the work. */
static int perfctr_cpu_offline(unsigned int cpu)
{
	struct perfctr_cpu *pc = per_cpu_ptr(perfctr_cpus, cpu);
	unsigned long flags;
	unsigned int i;
	u64 v;

	spin_lock_irqsave(&perfctr_hp_lock, flags);
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		struct perf_event *ev = pc->ev[i];

		if (!ev)
			continue;
		if ((perfctr_requests[i].mux ? perfctr_read_scaled(i, &v) :
		     perfctr_read_local(i, &v)) == 0)
			pc->base[i] = v;
		WRITE_ONCE(pc->ev[i], NULL);
		WARN_ON_ONCE(pc->dead[i]);
		pc->dead[i] = ev;
	}
	WRITE_ONCE(pc->leaving, 1);
	pc->want = 0;
	spin_unlock_irqrestore(&perfctr_hp_lock, flags);
	schedule_work(&perfctr_hp_work);
	return 0;
}

/* Takes a CPU's dead counters, and (if it asked) its stale ones: created
 * between our offline callback and perf's own, they were detached. */
static int perfctr_take_dead(int cpu, struct perf_event **out)
{
	struct perfctr_cpu *pc = per_cpu_ptr(perfctr_cpus, cpu);
	unsigned long flags;
	unsigned int i;
	int n = 0, want;

	spin_lock_irqsave(&perfctr_hp_lock, flags);
	want = pc->want;
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		struct perf_event *ev = pc->ev[i];

		if (want && ev && READ_ONCE(ev->state) <= PERF_EVENT_STATE_OFF) {
			WRITE_ONCE(pc->ev[i], NULL);
			out[n++] = ev;
		}
		if (pc->dead[i])
			out[n++] = pc->dead[i];
		pc->dead[i] = NULL;
	}
	spin_unlock_irqrestore(&perfctr_hp_lock, flags);
	return n;
}

/* Can this request's event be created inside a hotplug callback? */
static int perfctr_callback_safe(unsigned int idx)
{
	const struct perfctr_slot *s = &perfctr_slots[idx];

	if (s->type != PERF_TYPE_SOFTWARE)
		return 1;
	return s->config == PERF_COUNT_SW_CPU_CLOCK ||
	       s->config == PERF_COUNT_SW_TASK_CLOCK;
}

/* Creates what a CPU that came online lacks: from the online callback
 * (in_callback) only what is safe there, from the work the rest. */
static void perfctr_refill(int cpu, int in_callback)
{
	struct perfctr_cpu *pc = per_cpu_ptr(perfctr_cpus, cpu);
	unsigned long flags;
	unsigned int i;
	int want;

	spin_lock_irqsave(&perfctr_hp_lock, flags);
	want = pc->want;
	if (!in_callback)
		pc->want = 0;
	spin_unlock_irqrestore(&perfctr_hp_lock, flags);
	if (!want)
		return;
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_requests[i].id || !perfctr_per_cpu(i) ||
		    READ_ONCE(pc->ev[i]) || !cpu_online(cpu) ||
		    (in_callback && !perfctr_callback_safe(i)))
			continue;
		perfctr_create_one(i, cpu, 0);
		if (!READ_ONCE(pc->ev[i]))
			printk(KERN_WARNING "perfctr: %s: CPU %d is back online "
			       "without counter \"%s\": reads there fail\n",
			       THIS_MODULE->name, cpu, perfctr_requests[i].id);
	}
}

static int perfctr_cpu_online(unsigned int cpu)
{
	unsigned long flags;

	spin_lock_irqsave(&perfctr_hp_lock, flags);
	per_cpu_ptr(perfctr_cpus, cpu)->want = 1;
	spin_unlock_irqrestore(&perfctr_hp_lock, flags);
	perfctr_refill(cpu, 1);
	/* from here, a missing counter is an error again */
	WRITE_ONCE(per_cpu_ptr(perfctr_cpus, cpu)->leaving, 0);
	schedule_work(&perfctr_hp_work);
	return 0;
}

/* The hotplug work: release, wait until no probe can hold a released
 * counter, then create. */
static void perfctr_hp_work_fn(struct work_struct *work)
{
	struct perf_event **gone = perfctr_hp_gone;
	int cpu, n, i;

	for_each_possible_cpu(cpu) {
		n = perfctr_take_dead(cpu, gone);
		if (n)
			synchronize_rcu();	/* probes run preempt-off */
		for (i = 0; i < n; i++)
			perfctr_release_event(gone[i]);
		perfctr_refill(cpu, 0);
	}
}

/* Counters on every online CPU, then the hotplug callbacks, with CPU
 * hotplug held off in between. */
static int perfctr_cpus_start(void)
{
	int cpu, rc = 0;

	perfctr_hp_gone = kcalloc(2 * PERFCTR_NDECLARED, sizeof(*perfctr_hp_gone),
				  GFP_KERNEL);
	if (!perfctr_hp_gone)
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		rc = perfctr_cpu_create(cpu, 1);
		if (rc)
			break;
	}
	if (!rc) {
		rc = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
							  "perfctr:online",
							  perfctr_cpu_online,
							  perfctr_cpu_offline);
		if (rc > 0) {
			perfctr_hp_state = rc;
			rc = 0;
		}
	}
	cpus_read_unlock();
	if (!rc)
		printk(KERN_INFO "perfctr: %s: created %d counters\n",
		       THIS_MODULE->name, atomic_read(&perfctr_created));
	return rc;
}

/* Idempotent; safe when perfctr_cpus_start never ran or failed midway.
 * No probe runs any more: counters are released directly. */
static void perfctr_cpus_stop(void)
{
	struct perfctr_cpu *pc;
	unsigned int i;
	int cpu;

	if (perfctr_hp_state > 0)
		cpuhp_remove_state_nocalls(perfctr_hp_state);
	perfctr_hp_state = 0;
	flush_work(&perfctr_hp_work);
	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(perfctr_cpus, cpu);
		for (i = 0; i < PERFCTR_NDECLARED; i++) {
			if (pc->ev[i])
				perfctr_release_event(pc->ev[i]);
			if (pc->dead[i])
				perfctr_release_event(pc->dead[i]);
			pc->ev[i] = pc->dead[i] = NULL;
		}
	}
	kfree(perfctr_hp_gone);
	perfctr_hp_gone = NULL;
	printk(KERN_INFO "perfctr: %s: released %d counters (created %d)\n",
	       THIS_MODULE->name, atomic_read(&perfctr_released),
	       atomic_read(&perfctr_created));
}
