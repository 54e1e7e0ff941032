// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_cpus.c - each CPU's set of counters, following CPU hotplug.
 *
 * A CPU's counters are created when the module starts and again after the
 * CPU comes back online; at online the old counter's final count is added
 * to the CPU's base, so a CPU's counts carry on where they stopped:
 * nothing lost, nothing counted twice.
 *
 * Readers run in every context, NMI included, and on PREEMPT_RT a
 * spinlock does not keep interrupts out.  So a CPU's (event, base) pairs
 * change only on the CPU itself, with IRQs off, by one swap that a reader
 * sees whole or not at all (struct perfctr_pair, perfctr.h): the hotplug
 * callbacks and the work send it there with smp_call_function_single().
 * The offline callback changes no pair: it only marks the CPU leaving,
 * and the counters count on until perf itself takes them off the CPU
 * (CPUHP_AP_PERF_ONLINE, after ours), which leaves their counts final.
 *
 * Hotplug callbacks run with the CPU hotplug lock held for writing, and
 * releasing an event, or creating a software event (it flips a static
 * key), takes it for reading: both would deadlock there.  So the online
 * callback creates only the events whose creation takes no such lock
 * (those of a PMU that is not a software one, as the kernel's hard-lockup
 * watchdog creates its cycles counter there, and cpu-clock and
 * task-clock) and releases nothing; a work item releases the old
 * counters and creates the rest, outside the hotplug lock: until it has
 * run, reads of those software counters on a CPU that just came online
 * raise catchable errors.
 *
 * The start creates nothing while it holds the hotplug lock for reading
 * either: a hotplug writer that comes in meanwhile makes every new reader
 * wait, so a nested read lock (a static key flipped by a software event's
 * creation) would wait for the writer, which waits for the start.  It
 * sets up the callbacks under the lock and marks every online CPU as
 * wanting its counters, then makes them as the work does, outside it
 * (perfctr_cpus_fill), and checks under the lock again that every online
 * CPU has them, counting (perfctr_cpus_check).
 *
 * Context: every function here may sleep, except where noted.
 */
#include <linux/llist.h>
#include <linux/slab.h>

static atomic_t perfctr_created = ATOMIC_INIT(0);
static atomic_t perfctr_released = ATOMIC_INIT(0);
static int perfctr_hp_state;	/* dynamic cpuhp state, 0 when none */
/* request i's events may be made in a hotplug callback: known once one
 * of them exists (perfctr_callback_safe) */
static unsigned char perfctr_cb_safe[PERFCTR_NDECLARED];
static LLIST_HEAD(perfctr_dead);	/* old counters, for the work */
static void perfctr_hp_work_fn(struct work_struct *work);
static DECLARE_WORK(perfctr_hp_work, perfctr_hp_work_fn);

struct perfctr_dead {
	struct llist_node node;
	struct perf_event *ev;
};

/* A sampling clause's events are stap's own (its perf probe). */
static int perfctr_samples(unsigned int idx)
{
	return perfctr_requests[idx].sample || perfctr_requests[idx].hz;
}

/* .cpu, .thread and .cgroup counters are per CPU; .process ones per
 * task; .socket ones per socket (perfctr_socket.c); a group's are
 * perfctr-run's (perfctr_group.c). */
static int perfctr_per_cpu(unsigned int idx)
{
	return perfctr_requests[idx].id &&
	       perfctr_scope__made_per_cpu(perfctr_requests[idx].scope,
					   perfctr_samples(idx),
					   perfctr_requests[idx].group_no);
}

/* Does request idx, per CPU, have a counter on cpu: not where its
 * .cpus("LIST") leaves cpu out? */
static int perfctr_on_cpu(unsigned int idx, int cpu)
{
	return perfctr_per_cpu(idx) && !perfctr_left_out(idx, cpu);
}

/* .process counters and .process sampling clauses: an event per task */
static int perfctr_per_task(unsigned int idx)
{
	return perfctr_requests[idx].scope == PERFCTR_SCOPE_PROCESS;
}

/* The attr of s's counter with encoding e, one of its CPU records, or
 * with its own encoding when e is NULL. */
static void perfctr_attr_enc(const struct perfctr_slot *s,
			     const struct perfctr_cpu_enc *e,
			     struct perf_event_attr *attr)
{
	if (e)
		perfctr_attr_counter(attr, e->type, e->config, e->config1,
				     e->config2, s->flags);
	else
		perfctr_attr_counter(attr, s->type, s->config, s->config1,
				     s->config2, s->flags);
}

/* The attr of s's counter on cpu: on a hybrid machine, the encoding of
 * the core PMU that cpu belongs to ("cIDX" records), or else the one
 * (a .cpus counter has one only on the CPUs its records name). */
static void perfctr_attr_on(const struct perfctr_slot *s, int cpu,
			    struct perf_event_attr *attr)
{
	perfctr_attr_enc(s, perfctr_slot_cpu_enc(s, cpu), attr);
}

/* The attr of s's counter in a group or sampling: the one encoding (the
 * module takes no CPU records for those). */
static void perfctr_attr(const struct perfctr_slot *s,
			 struct perf_event_attr *attr)
{
	perfctr_attr_enc(s, NULL, attr);
}

static void perfctr_release_event(struct perf_event *ev)
{
	perf_event_release_kernel(ev);
	atomic_inc(&perfctr_released);
}

/*
 * Can request idx's events be made inside a hotplug callback, where the
 * hotplug lock is held for writing?  Not those of a software PMU (perf's
 * software events, tracepoints, kprobes: making one may flip a static key
 * or register a probe, which take that lock), but cpu-clock and
 * task-clock (hrtimers).  Learned from its first event: the request's
 * type alone does not say, since a dynamic PMU type may be any PMU's.
 */
static void perfctr_learn_pmu(unsigned int idx, struct perf_event *ev)
{
	/* NULL once perf revoked the event (its PMU unregistered, 6.15+) */
	const struct pmu *pmu = READ_ONCE(ev->pmu);
	bool clock = ev->attr.type == PERF_TYPE_SOFTWARE &&
		     (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		      ev->attr.config == PERF_COUNT_SW_TASK_CLOCK);

	/* not is_software_event(): only perf_event_open() sets that cap */
	WRITE_ONCE(perfctr_cb_safe[idx],
		   !pmu || pmu->task_ctx_nr != perf_sw_context || clock);
}

static int perfctr_callback_safe(unsigned int idx)
{
	return READ_ONCE(perfctr_cb_safe[idx]);
}

/* One counter of request idx on one CPU.  A pinned event that does not
 * fit sits in ERROR state and counts nothing: at start that fails the
 * start (report set).  A CPU going offline meanwhile refuses it
 * (-ENODEV), which is not worth reporting: its online callback makes it
 * when it is back. */
static struct perf_event *perfctr_event_new(unsigned int idx, int cpu,
					    int report)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];
	struct perf_event_attr attr;
	struct perf_event *ev;

	perfctr_attr_on(&perfctr_slots[idx], cpu, &attr);
	ev = perfctr_priv_create(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev)) {
		if (report && cpu_online(cpu))
			_stp_error("perfctr: %s: counter \"%s\" (%s): cannot "
				   "create it on CPU %d (type %u config %#llx): "
				   "error %ld\n", r->src, r->id, r->event, cpu,
				   attr.type, (unsigned long long)attr.config,
				   PTR_ERR(ev));
		return ev;
	}
	/* a PMU that counts for a whole socket or device (uncore, C-state
	 * residency, RAPL) moves the event to the CPU its cpumask names: a
	 * CPU's pair would hold another CPU's event (perfctr-run refuses
	 * such an assignment; the module holds to it).  .socket expects it */
	if (perfctr_per_cpu(idx) && READ_ONCE(ev->cpu) != cpu) {
		if (report)
			_stp_error("perfctr: %s: counter \"%s\" (%s): its PMU "
				   "(%s) counts it on CPU %d, not CPU %d: an "
				   "event a socket shares; count it .socket\n",
				   r->src, r->id, r->event, ev->pmu->name,
				   READ_ONCE(ev->cpu), cpu);
		perf_event_release_kernel(ev);
		return ERR_PTR(-EINVAL);
	}
	atomic_inc(&perfctr_created);
	perfctr_learn_pmu(idx, ev);
	return ev;
}

/* The final count of a counter perf has taken off its CPU (or of one
 * still counting, in an offline that was rolled back): pc's pair idx's
 * ev.  IRQs off. */
static u64 perfctr_event_final(struct perfctr_cpu *pc, struct perf_event *ev,
			       unsigned int idx)
{
	u64 v = 0;

	if (!perfctr_requests[idx].mux) {
		perfctr_pair_event_read(pc, idx, ev, &v);
		return v;
	}
	return perfctr_event_scaled(pc, idx, ev, false, &v) ? 0 : v;
}

/* Fills the pair cur does not name and flips cur.  On pc's CPU, IRQs
 * off (or before any probe exists). */
static void perfctr_pair_set(struct perfctr_cpu *pc, unsigned int idx,
			     struct perf_event *ev, u64 base)
{
	unsigned int n = !(pc->cur[idx] & 1);

	pc->pair[idx][n].ev = ev;
	pc->pair[idx][n].base = base;
	PERFCTR_RACE(PAIR_SET);
	barrier();	/* an NMI sees the new pair only once it is whole */
	WRITE_ONCE(pc->cur[idx], n | (ev && perfctr_direct_able(ev) &&
				      perfctr_direct_checked(ev) ?
				      PERFCTR_CUR_DIRECT : 0));
	/* no reader is half way through the old pair now: an NMI that was
	 * has returned.  Only the pair that holds names an event. */
	pc->pair[idx][!n].ev = NULL;
}

/*
 * One swap of a CPU's counter idx: the new event (or none) in place of
 * the old one, whose final count joins the base.  from_work: only into
 * an empty place, and only in the CPU's online life gen (the event was
 * created for it), and not while it is leaving.  done says whether it
 * was made; old is the event it took out.
 */
struct perfctr_swap {
	unsigned int idx, gen;
	int from_work, done;
	struct perf_event *ev, *old;
};

/* smp_call_function_single() target: on the CPU, IRQs off. */
static void perfctr_swap_here(void *arg)
{
	struct perfctr_swap *s = arg;
	struct perfctr_cpu *pc = this_cpu_ptr(perfctr_cpus);
	const struct perfctr_pair *p = perfctr_pair_now(pc, s->idx);

	s->old = p->ev;
	if (s->from_work && (pc->gen != s->gen || pc->leaving || s->old))
		return;
	/* still counting: an offline rolled back before perf's own ran */
	if (s->old && perfctr_counting_here(s->old))
		return;
	perfctr_pair_set(pc, s->idx, s->ev, p->base + (s->old ?
			 perfctr_event_final(pc, s->old, s->idx) : 0));
	s->done = 1;
}

/* Swaps on cpu; 0 when done, -EAGAIN when the CPU refused it (or is
 * gone), so that ev is still the caller's. */
static int perfctr_swap_on(int cpu, struct perfctr_swap *s)
{
	s->done = 0;
	s->old = NULL;
	if (smp_call_function_single(cpu, perfctr_swap_here, s, 1))
		return -EAGAIN;
	perfctr_direct_say();
	return s->done ? 0 : -EAGAIN;
}

/* An event no reader can hold any more goes to the work for release,
 * noted in d (allocated before: the swap may take one event out); d is
 * freed when there is none. */
static void perfctr_retire(struct perf_event *ev, struct perfctr_dead *d)
{
	if (!ev) {
		kfree(d);
		return;
	}
	d->ev = ev;
	llist_add(&d->node, &perfctr_dead);
}

/* Offline callback, on the CPU going away: from now on a counter that
 * is off the PMU reads as its final count (perfctr_read_local). */
static int perfctr_cpu_offline(unsigned int cpu)
{
	WRITE_ONCE(per_cpu_ptr(perfctr_cpus, cpu)->leaving, 1);
	perfctr_groups_offline(cpu);
	PERFCTR_RACE(OFFLINE);
	perfctr_sum_cpu_down(cpu);
	return 0;
}

/* Online callback, on the CPU coming up, before the scheduler puts tasks
 * on it: a fresh counter for each request whose creation is safe here,
 * the old one's count into the base.  The work does the rest. */
static int perfctr_cpu_online(unsigned int cpu)
{
	struct perfctr_cpu *pc = per_cpu_ptr(perfctr_cpus, cpu);
	struct perfctr_swap s = { .from_work = 0 };
	struct perfctr_dead *d;
	unsigned int i;
	int want = 0;

	WRITE_ONCE(pc->gen, pc->gen + 1);
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_on_cpu(i, cpu))
			continue;
		d = kmalloc(sizeof(*d), GFP_KERNEL);
		if (!d) {	/* the old counter stays: its reads fail */
			printk(KERN_WARNING "perfctr: %s: CPU %d is back online "
			       "without counter \"%s\": out of memory\n",
			       THIS_MODULE->name, cpu, perfctr_requests[i].id);
			continue;
		}
		s.idx = i;
		s.ev = NULL;
		if (perfctr_callback_safe(i)) {
			s.ev = perfctr_event_new(i, cpu, 0);
			if (IS_ERR(s.ev))
				s.ev = NULL;
		}
		if (perfctr_swap_on(cpu, &s)) {	/* the old one still counts */
			perfctr_retire(s.ev, d);	/* never seen */
			continue;
		}
		perfctr_retire(s.old, d);
		want |= !s.ev;
	}
	WRITE_ONCE(pc->want, want);
	/* from here, a counter that does not count is an error again */
	WRITE_ONCE(pc->leaving, 0);
	perfctr_sum_cpu_up(cpu);
	schedule_work(&perfctr_hp_work);
	return 0;
}

/*
 * What a CPU wants (it came online, or the module starts): the counters
 * the online callback could not create, outside the hotplug lock; CPU
 * hotplug may run meanwhile.  At start (report set) an error is the
 * start's: reported, and returned.
 */
static int perfctr_refill(int cpu, int report)
{
	struct perfctr_cpu *pc = per_cpu_ptr(perfctr_cpus, cpu);
	struct perfctr_swap s = { .from_work = 1 };
	unsigned int i;

	if (!xchg(&pc->want, 0))
		return 0;
	PERFCTR_WIDEN();	/* tests: a longer time without them */
	s.gen = READ_ONCE(pc->gen);
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_on_cpu(i, cpu) || !cpu_online(cpu) ||
		    READ_ONCE(perfctr_pair_now(pc, i)->ev))	/* a hint */
			continue;
		s.idx = i;
		s.ev = perfctr_event_new(i, cpu, report);
		if (IS_ERR(s.ev) && report && cpu_online(cpu))
			return PTR_ERR(s.ev);
		if (IS_ERR(s.ev)) {
			printk(KERN_WARNING "perfctr: %s: CPU %d is back online "
			       "without counter \"%s\": reads there fail\n",
			       THIS_MODULE->name, cpu, perfctr_requests[i].id);
			continue;
		}
		if (perfctr_swap_on(cpu, &s))	/* it has one, or changed */
			perfctr_release_event(s.ev);	/* never seen */
	}
	return 0;
}

/* Pinned counters that could not be scheduled (ERROR state) stay off
 * until enabled again: try, at most every PERFCTR_REARM_GAP. */
static void perfctr_cpus_rearm(void)
{
	struct perf_event *ev;
	unsigned int i;
	int cpu;

	for_each_online_cpu(cpu) {
		struct perfctr_cpu *pc = per_cpu_ptr(perfctr_cpus, cpu);

		for (i = 0; i < PERFCTR_NDECLARED; i++) {
			if (!perfctr_per_cpu(i))
				continue;
			ev = READ_ONCE(perfctr_pair_now(pc, i)->ev);
			if (ev && READ_ONCE(ev->state) == PERF_EVENT_STATE_ERROR)
				perf_event_enable(ev);
		}
	}
}

/* Releases the old counters, once no probe can hold them. */
static void perfctr_release_dead(void)
{
	struct llist_node *gone = llist_del_all(&perfctr_dead);
	struct perfctr_dead *d, *t;

	if (gone)
		synchronize_rcu();	/* probes run with IRQs or preemption off */
	llist_for_each_entry_safe(d, t, gone, node) {
		perfctr_release_event(d->ev);
		kfree(d);
	}
}

/* The hotplug work: release, create what CPUs that came online lack,
 * re-arm.  Only this work releases counters while the module runs, so
 * those it looks at stay. */
static void perfctr_hp_work_fn(struct work_struct *work)
{
	int cpu;

	perfctr_release_dead();
	for_each_possible_cpu(cpu)
		perfctr_refill(cpu, 0);
	if (perfctr_rearm_due(PERFCTR_REARM_CPUS)) {
		perfctr_cpus_rearm();
		perfctr_groups_rearm();
	}
}

/* With CPU hotplug read-locked: every online CPU wants its counters
 * (made by perfctr_cpus_fill, after the unlock), perfctr-run's groups
 * are taken, and the callbacks follow CPU hotplug from here on. */
static int perfctr_cpus_setup(void)
{
	int cpu, rc;

	for_each_online_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(perfctr_cpus, cpu)->want, 1);
	rc = perfctr_groups_start();	/* perfctr-run's groups */
	if (!rc)
		rc = perfctr_sum_hotplug();
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
	PERFCTR_HOTPLUG_WAIT();	/* tests: a hotplug writer comes in here */
	return rc;
}

/* Without the hotplug lock: the counters every CPU wants, as the hotplug
 * work makes them (a CPU that comes online meanwhile is the work's, one
 * that goes offline gets them when it is back), and the .socket
 * counters. */
static int perfctr_cpus_fill(void)
{
	int cpu, rc = 0;

	for_each_possible_cpu(cpu) {
		rc = perfctr_refill(cpu, 1);
		if (rc)
			return rc;
	}
	return perfctr_socket_start();
}

/* With CPU hotplug read-locked: every online CPU has each of its
 * counters, counting (a .multiplex one may wait for its turn), unless
 * the hotplug work still has to make them (it came online since the
 * fill) or it is going offline. */
static int perfctr_cpus_check(void)
{
	struct perfctr_cpu *pc;
	struct perf_event *ev;
	unsigned int i;
	int cpu;

	for_each_online_cpu(cpu) {
		pc = per_cpu_ptr(perfctr_cpus, cpu);
		if (READ_ONCE(pc->want) || READ_ONCE(pc->leaving))
			continue;
		for (i = 0; i < PERFCTR_NDECLARED; i++) {
			if (!perfctr_on_cpu(i, cpu))
				continue;
			ev = READ_ONCE(perfctr_pair_now(pc, i)->ev);
			if (ev && (perfctr_requests[i].mux ||
				   READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE))
				continue;
			if (!ev)
				_stp_error("perfctr: %s: counter \"%s\" (%s) "
					   "could not be made on CPU %d, which "
					   "came online during the start (the "
					   "kernel log says why)\n",
					   perfctr_requests[i].src,
					   perfctr_requests[i].id,
					   perfctr_requests[i].event, cpu);
			else
				_stp_error("perfctr: %s: counter \"%s\" (%s) "
					   "is not counting on CPU %d (state "
					   "%d): no free hardware counter for "
					   "it\n", perfctr_requests[i].src,
					   perfctr_requests[i].id,
					   perfctr_requests[i].event, cpu,
					   (int)READ_ONCE(ev->state));
			return ev ? -EBUSY : -ENODEV;
		}
	}
	return 0;
}

/*
 * The callbacks, then every online CPU's counters, then the snapshot
 * timers.  No probe runs yet.  Nothing is created while the hotplug lock
 * is held (see the top of this file): CPU hotplug may run between the
 * steps, and the callbacks and the work follow it.
 */
static int perfctr_cpus_start(void)
{
	int rc;

	rc = perfctr_sum_alloc();
	if (rc)
		return rc;
	cpus_read_lock();
	rc = perfctr_cpus_setup();
	cpus_read_unlock();
	if (!rc)
		rc = perfctr_cpus_fill();
	if (!rc) {
		cpus_read_lock();
		rc = perfctr_cpus_check();
		if (!rc)
			rc = perfctr_sum_start();	/* the snapshot timers */
		cpus_read_unlock();
	}
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
	struct perfctr_pair *p;
	unsigned int i;
	int cpu;

	if (perfctr_hp_state > 0)
		cpuhp_remove_state_nocalls(perfctr_hp_state);
	perfctr_hp_state = 0;
	perfctr_sum_stop();	/* its timers read the counters */
	perfctr_socket_stop();
	flush_work(&perfctr_hp_work);
	perfctr_release_dead();
	perfctr_groups_stop();
	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(perfctr_cpus, cpu);
		for (i = 0; i < PERFCTR_NDECLARED; i++) {
			p = &pc->pair[i][pc->cur[i] & 1];	/* only it */
			if (p->ev)
				perfctr_release_event(p->ev);
			p->ev = NULL;
		}
	}
	printk(KERN_INFO "perfctr: %s: released %d counters (created %d)\n",
	       THIS_MODULE->name, atomic_read(&perfctr_released),
	       atomic_read(&perfctr_created));
}
