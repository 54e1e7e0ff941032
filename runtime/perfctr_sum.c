// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_sum.c - perfctr_sum(): a .cpu counter summed over every CPU,
 * read from any probe on any CPU.
 *
 * A CPU cannot read another CPU's counter: pmu->read() reads the PMU it
 * runs on, and a CPU-wide event's count is folded in from the PMU only on
 * its own CPU (at reads, overflows, schedule-outs; software clocks
 * likewise).  Asking the other CPUs (an IPI) is not possible from an NMI
 * or with interrupts off.  So each CPU publishes a snapshot of its own
 * counts, as perfctr_read_local() returns them (base included): a pinned
 * hrtimer on every online CPU takes one every PERFCTR_SUM_MS, and every
 * sum read publishes the live count it reads on its own CPU.  A sum is
 * this CPU's live count plus every other CPU's latest snapshot, each at
 * most one period old (perfctr_sum_age() says how old).
 *
 * Idle CPUs take no wakeups from the module: a CPU that switches to its
 * idle task publishes its counts and stops its timer (parks); the switch
 * back to a task publishes again and restarts it (a sched_switch probe).
 * perf counts the switch into idle after the tracepoint, and the idle
 * task does work of its own, so a parked CPU publishes again each time
 * it enters an idle state and leaves one (the cpu_idle tracepoint, on
 * the CPU).  A snapshot taken as the CPU halts is marked idle and does
 * not age: a halted CPU counts nothing.  Taken as it leaves the idle
 * state (its interrupts follow), or enters state 0 (a polling state on
 * x86, and idle=poll: it runs instructions), it ages as a live one.  A
 * timer that fires in the idle task parks too (a CPU the start or a
 * hotplug found idle).  A CPU that every summed counter's .cpus("LIST")
 * leaves out (an isolated one) never runs the timer for sums.  Not for events that count while the CPU is idle (the
 * software clocks, PMUs other than the core's) and not on a CPU that
 * holds a .socket event: those CPUs' timers run on.  A module with
 * .socket counters and no sums runs timers only on the CPUs that hold
 * their events: the others' park at their first tick.
 *
 * The hrtimer is a hard one (HRTIMER_MODE_*_HARD): on PREEMPT_RT too it
 * expires in hard interrupt context, not in the softirq thread, so that a
 * busy real-time task cannot starve the snapshots; its work is bounded
 * (one read per summed counter, as any probe's read) and takes no lock.
 *
 * Snapshots are read on other CPUs, in any context, while their owner may
 * be writing them: each is a latch (two copies and a sequence count; the
 * writer fills one copy while readers use the other), so a reader never
 * waits for a writer, and an NMI that interrupts the writer on its own
 * CPU reads the copy that is whole.  A snapshot has one writer at a time:
 * on its own CPU, with interrupts off and the CPU's busy mark set (an NMI
 * that finds the mark set writes nothing and reads the whole copy); or,
 * once the CPU is dead, the hotplug callback on the CPU that took it down.
 *
 * Reads never go back, for readers on any CPUs, as long as the counts do
 * (.multiplex estimates need not): every value a read uses was published
 * before the read returned, and each CPU publishes its counts in order.
 *
 * CPU hotplug: the offline callback (on the CPU) stops its timer and
 * publishes a last snapshot; once the CPU is dead a callback on another
 * CPU publishes its final count (perf has taken its counters off the PMU:
 * base and count are what the online callback will carry on from), marked
 * final.  When the CPU comes back, the online callback, after the CPU's
 * counters are swapped in, publishes a snapshot and starts the timer
 * again.  So an offline CPU's count stays in every sum, once.
 */
#ifdef PERFCTR_HAVE_TICK
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/version.h>
#include "perfctr_snap.h"

#ifndef PERFCTR_SUM_MS
#define PERFCTR_SUM_MS 10	/* stap -D PERFCTR_SUM_MS=N */
#endif
#if PERFCTR_SUM_MS < 1
#error "PERFCTR_SUM_MS: the snapshot period is at least 1 ms"
#endif

/* One CPU's snapshots (alloc_percpu); snap[] of summed requests only. */
struct perfctr_sum_cpu {
	struct hrtimer timer;
	int cpu;
	int busy;		/* a writer runs on this CPU now */
	int parked;		/* idle: its timer stopped */
	int halted;		/* parked, in an idle state that halts */
	int sums;		/* a summed counter counts here (.cpus) */
	int down;		/* going offline: no timer until it is back */
	struct perfctr_snap snap[PERFCTR_NDECLARED];
} ____cacheline_aligned;	/* written by its timer, read remotely */

static struct perfctr_sum_cpu __percpu *perfctr_sums;
static int perfctr_sum_hp_state;	/* the dead callback's cpuhp state */
static int perfctr_sum_running;		/* the timers are started */
static bool perfctr_sum_any;		/* a counter is summed (not .socket) */
static bool perfctr_sum_quiet;		/* and an idle CPU's need no timer */
static struct tracepoint *perfctr_sum_tp;	/* sched_switch, hooked */
static struct tracepoint *perfctr_sum_idle_tp;	/* cpu_idle, hooked */

/* The summed counters: the translator's list (PERFCTR_SUMMED, indices
 * set to 1), those that exist in this module. */
static const unsigned char perfctr_summed[PERFCTR_NDECLARED] = PERFCTR_SUMMED;

static bool perfctr_sum_on(unsigned int idx)
{
	return idx < PERFCTR_NDECLARED && perfctr_summed[idx] &&
	       perfctr_requests[idx].id &&
	       perfctr_requests[idx].scope == PERFCTR_SCOPE_CPU &&
	       !perfctr_samples(idx);
}

/* This CPU's count of idx, as its reads return it, published.  IRQs off,
 * busy set. */
static void perfctr_sum_take(struct perfctr_sum_cpu *sc, unsigned int idx,
			     struct perfctr_snap_copy *v)
{
	v->val = 0;
	v->rc = perfctr_requests[idx].mux ? perfctr_read_scaled(idx, &v->val) :
		perfctr_read_local(idx, &v->val);
	if (v->rc)
		v->val = 0;
	if (v->rc == PERFCTR_RE_NOT_HERE)	/* outside its .cpus: none here */
		v->rc = 0;
	v->ns = ktime_get_mono_fast_ns();
	/* a CPU no summed counter counts on has nothing to age */
	v->state = (sc->parked && sc->halted) || !sc->sums ?
		   PERFCTR_SNAP_IDLE : PERFCTR_SNAP_LIVE;
	perfctr_snap_write(&sc->snap[idx], v);
}

/* Claims this CPU's snapshots for a writer; false in an NMI that
 * interrupted one.  IRQs off. */
static bool perfctr_sum_claim(struct perfctr_sum_cpu *sc)
{
	if (READ_ONCE(sc->busy))
		return false;
	WRITE_ONCE(sc->busy, 1);
	barrier();	/* an NMI from here on sees the mark */
	return true;
}

static void perfctr_sum_release(struct perfctr_sum_cpu *sc)
{
	barrier();
	WRITE_ONCE(sc->busy, 0);
}

/* Every summed counter of this CPU, and every .socket counter that
 * counts here, published.  IRQs off, not in NMI. */
static void perfctr_sum_take_all(struct perfctr_sum_cpu *sc)
{
	struct perfctr_snap_copy v;
	unsigned int i;

	perfctr_socket_tick();
	if (!perfctr_sum_claim(sc))
		return;
	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (perfctr_sum_on(i))
			perfctr_sum_take(sc, i, &v);
	perfctr_sum_release(sc);
}

/* Does a counter summed here count while the CPU is idle?  Events of
 * the core PMU, of caches and software events other than the clocks
 * count only what the CPU does, and a halted CPU does nothing. */
static bool perfctr_sum_counts_idle(unsigned int idx)
{
	const struct perfctr_slot *sl = &perfctr_slots[idx];

	if (sl->nenc)		/* a hybrid machine's core PMUs */
		return false;
	switch (sl->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
	case PERF_TYPE_TRACEPOINT:
	case PERF_TYPE_BREAKPOINT:
		return false;
	case PERF_TYPE_SOFTWARE:
		return sl->config == PERF_COUNT_SW_CPU_CLOCK ||
		       sl->config == PERF_COUNT_SW_TASK_CLOCK;
	}
	return true;
}

/* Does this CPU need its timer, idle or not?  Its sums do while it runs
 * tasks (and while it idles, when they count then), a .socket event it
 * holds always.  IRQs off. */
static bool perfctr_sum_needed(struct perfctr_sum_cpu *sc, bool idle)
{
	if (sc->down)
		return false;
	if (sc->sums && (!idle || !perfctr_sum_quiet))
		return true;
	return perfctr_socket_held_here();
}

/* The timer, on its CPU, in hard interrupt context (PREEMPT_RT too).  A
 * timer that CPU hotplug moved to another CPU (only while the module
 * stops: the offline callback cancels it otherwise) stops there, and one
 * that fires in the idle task parks. */
static enum hrtimer_restart perfctr_sum_tick(struct hrtimer *t)
{
	struct perfctr_sum_cpu *sc = container_of(t, struct perfctr_sum_cpu,
						  timer);

	if (sc->cpu != smp_processor_id())
		return HRTIMER_NORESTART;
	sc->parked = !perfctr_sum_needed(sc, is_idle_task(current));
	sc->halted = 0;
	perfctr_sum_take_all(sc);
	if (sc->parked)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ms_to_ktime(PERFCTR_SUM_MS));
	return HRTIMER_RESTART;
}

/* On the CPU, IRQs off: a snapshot now and the timer started (pinned
 * here), or parked when the CPU does not need it. */
static void perfctr_sum_wake(struct perfctr_sum_cpu *sc, bool idle)
{
	sc->parked = !perfctr_sum_needed(sc, idle);
	sc->halted = 0;
	perfctr_sum_take_all(sc);
	if (!sc->parked)
		hrtimer_start(&sc->timer, ms_to_ktime(PERFCTR_SUM_MS),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/* Does a summed counter count on cpu: one its .cpus("LIST") keeps?  A
 * CPU with none (an isolated one, say) needs no timer for sums. */
static bool perfctr_sum_counts_on(int cpu)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (perfctr_sum_on(i) && !perfctr_left_out(i, cpu))
			return true;
	return false;
}

/* smp_call_function_single() target: the CPU starts (or comes back). */
static void perfctr_sum_up_here(void *unused)
{
	struct perfctr_sum_cpu *sc = this_cpu_ptr(perfctr_sums);

	sc->down = 0;
	sc->sums = perfctr_sum_counts_on(smp_processor_id());
	perfctr_sum_wake(sc, is_idle_task(current));
}

/* smp_call_function_single() target: a CPU died, and a .socket event
 * may have moved here: a parked CPU that now needs its timer starts it. */
static void perfctr_sum_unpark_here(void *unused)
{
	struct perfctr_sum_cpu *sc = this_cpu_ptr(perfctr_sums);

	if (sc->parked && !sc->down)
		perfctr_sum_wake(sc, is_idle_task(current));
}

/*
 * sched_switch, on this CPU, IRQs off, the run queue locked (the
 * scheduler's own hrtick starts its timer there too): a CPU going idle
 * parks before its tick is stopped, one leaving idle runs its timer
 * again.  Both publish: the counts of the task that ran, or of the
 * interrupts the idle CPU took.
 */
static void perfctr_sum_on_switch(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
	struct perfctr_sum_cpu *sc;

	if (!READ_ONCE(perfctr_sum_running))
		return;
	sc = this_cpu_ptr(perfctr_sums);
	if (is_idle_task(next) && !sc->parked && !perfctr_sum_needed(sc, true)) {
		sc->parked = 1;
		sc->halted = 0;	/* perf counts this switch after us */
		perfctr_sum_take_all(sc);
		hrtimer_try_to_cancel(&sc->timer);	/* never running here */
	} else if (is_idle_task(prev) && sc->parked &&
		   perfctr_sum_needed(sc, false)) {
		perfctr_sum_wake(sc, false);	/* current is still prev */
	}
}

#define PERFCTR_IDLE_EXIT ((unsigned int)-1)	/* trace/events/power.h's
						 * PWR_EVENT_EXIT */

/*
 * cpu_idle, on this CPU, IRQs off, as it enters idle state state (the
 * cpuidle driver's index; 1 for the default halt) or leaves one
 * (PERFCTR_IDLE_EXIT): a parked CPU publishes what it counted since it
 * parked, marked idle where it is about to halt.
 */
static void perfctr_sum_on_idle(void *data, unsigned int state,
				unsigned int cpu)
{
	struct perfctr_sum_cpu *sc;

	if (!READ_ONCE(perfctr_sum_running))
		return;
	sc = this_cpu_ptr(perfctr_sums);
	if (!sc->parked || !sc->sums)
		return;
	sc->halted = state != PERFCTR_IDLE_EXIT && state != 0;
	perfctr_sum_take_all(sc);
}

static void perfctr_sum_last_here(void *unused)
{
	perfctr_sum_take_all(this_cpu_ptr(perfctr_sums));
}

/* Online callback's part, on cpu, after its counters are in place. */
static void perfctr_sum_cpu_up(unsigned int cpu)
{
	if (perfctr_sums)
		smp_call_function_single(cpu, perfctr_sum_up_here, NULL, 1);
}

/* Offline callback's part, on cpu: no timer there any more (perf's own
 * hotplug would move it to another CPU), and its counts as of now. */
static void perfctr_sum_cpu_down(unsigned int cpu)
{
	struct perfctr_sum_cpu *sc;

	if (!perfctr_sums)
		return;
	sc = per_cpu_ptr(perfctr_sums, cpu);
	WRITE_ONCE(sc->down, 1);	/* the switch probe, here, sees it */
	hrtimer_cancel(&sc->timer);
	smp_call_function_single(cpu, perfctr_sum_last_here, NULL, 1);
}

/*
 * Teardown of a CPUHP_BP_PREPARE_DYN state: on another CPU, after cpu is
 * dead, with CPU hotplug locked.  perf has taken cpu's counters off the
 * PMU: their counts are final, and nothing on cpu changes its pairs or
 * snapshots any more.  Its final count is what the online callback will
 * carry on from (perfctr_event_final), published once and for all.  The
 * drivers' offline callbacks, before, moved its .socket events to other
 * CPUs: those that were parked start their timers.
 */
static int perfctr_sum_cpu_dead(unsigned int cpu)
{
	struct perfctr_sum_cpu *sc = per_cpu_ptr(perfctr_sums, cpu);
	struct perfctr_cpu *pc = per_cpu_ptr(perfctr_cpus, cpu);
	struct perfctr_snap_copy v = { .state = PERFCTR_SNAP_FINAL };
	const struct perfctr_pair *p;
	unsigned long flags;
	unsigned int i;
	int c;

	local_irq_save(flags);
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_sum_on(i))
			continue;
		p = perfctr_pair_now(pc, i);
		v.val = p->base + (p->ev ? perfctr_event_final(pc, p->ev, i) : 0);
		v.ns = ktime_get_mono_fast_ns();
		perfctr_snap_write(&sc->snap[i], &v);
	}
	local_irq_restore(flags);
	for_each_online_cpu(c)
		smp_call_function_single(c, perfctr_sum_unpark_here, NULL, 1);
	return 0;
}

/* Sleepable, before CPU hotplug is locked: the snapshots, timers set up
 * (not started), the switch probe that parks them.  -ENOMEM. */
static int perfctr_sum_alloc(void)
{
	struct perfctr_sum_cpu *sc;
	unsigned int i;
	int cpu;

	perfctr_sums = alloc_percpu(struct perfctr_sum_cpu);
	if (!perfctr_sums)
		return -ENOMEM;
	perfctr_sum_any = false;
	perfctr_sum_quiet = true;
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_sum_on(i))
			continue;
		perfctr_sum_any = true;
		if (perfctr_sum_counts_idle(i))
			perfctr_sum_quiet = false;
	}
	/* only sums park and restart at switches; without the tracepoint
	 * their timers never park */
	if (perfctr_sum_any && perfctr_sum_quiet &&
	    (perfctr_switch_hook(&perfctr_sum_tp, perfctr_sum_on_switch, NULL) ||
	     perfctr_tp_hook("cpu_idle", &perfctr_sum_idle_tp,
			     perfctr_sum_on_idle, TRACEPOINT_DEFAULT_PRIO,
			     NULL))) {
		perfctr_tp_unhook(&perfctr_sum_tp, perfctr_sum_on_switch);
		perfctr_sum_quiet = false;
	}
	for_each_possible_cpu(cpu) {
		sc = per_cpu_ptr(perfctr_sums, cpu);
		sc->cpu = cpu;
#ifdef PERFCTR_HAVE_HRTIMER_SETUP	/* the front-end's kernel probe */
		hrtimer_setup(&sc->timer, perfctr_sum_tick, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_HARD);
#else
		hrtimer_init(&sc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		sc->timer.function = perfctr_sum_tick;
#endif
	}
	return 0;
}

/* With CPU hotplug read-locked, before the online callback is set up:
 * the callback for CPUs that die (a CPU that dies before the timers
 * start publishes its final count too). */
static int perfctr_sum_hotplug(void)
{
	int rc = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_BP_PREPARE_DYN,
						      "perfctr:sum-dead", NULL,
						      perfctr_sum_cpu_dead);

	if (rc < 0)
		return rc;
	perfctr_sum_hp_state = rc;
	return 0;
}

/* With CPU hotplug read-locked, after every online CPU's counters exist,
 * before any probe: a snapshot and a timer on each. */
static int perfctr_sum_start(void)
{
	int cpu;

	WRITE_ONCE(perfctr_sum_running, 1);
	for_each_online_cpu(cpu)
		smp_call_function_single(cpu, perfctr_sum_up_here, NULL, 1);
	return 0;
}

/* After the online callback is gone, before the counters are released:
 * no timer left anywhere.  Idempotent. */
static void perfctr_sum_stop(void)
{
	int cpu;

	if (perfctr_sum_hp_state > 0)
		cpuhp_remove_state_nocalls(perfctr_sum_hp_state);
	perfctr_sum_hp_state = 0;
	WRITE_ONCE(perfctr_sum_running, 0);
	perfctr_tp_unhook(&perfctr_sum_tp, perfctr_sum_on_switch);
	perfctr_tp_unhook(&perfctr_sum_idle_tp, perfctr_sum_on_idle);
	if (!perfctr_sums)
		return;
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(perfctr_sums, cpu)->timer);
	free_percpu(perfctr_sums);
	perfctr_sums = NULL;
}

/*
 * The sum over every CPU of .cpu counter idx: this CPU's count now (also
 * published), every other CPU's latest snapshot.  Any context, NMI
 * included.  Returns 0, -EINVAL (not a summed counter), or the error of
 * the first CPU whose count cannot be had (as its own reads would fail:
 * -ENODEV, -EIO, -EAGAIN; -EBUSY when its snapshot kept changing), that
 * CPU in *cpu.
 */
static int perfctr_read_sum(unsigned int idx, u64 *val, int *cpu)
{
	struct perfctr_sum_cpu *sc;
	struct perfctr_snap_copy v;
	unsigned long flags;
	int c, me, rc = 0;
	u64 sum = 0;

	if (perfctr_socket_is(idx))
		return perfctr_socket_sum(idx, val, cpu, false);
	if (!perfctr_sums || !perfctr_sum_on(idx))
		return -EINVAL;
	local_irq_save(flags);
	me = smp_processor_id();
	for_each_possible_cpu(c) {
		sc = per_cpu_ptr(perfctr_sums, c);
		if (c == me && perfctr_sum_claim(sc)) {
			perfctr_sum_take(sc, idx, &v);
			perfctr_sum_release(sc);
		} else if (!perfctr_snap_read(&sc->snap[idx], &v)) {
			v.rc = -EBUSY;
			v.state = PERFCTR_SNAP_LIVE;
		}
		if (v.state == PERFCTR_SNAP_NONE)
			continue;
		if (v.rc) {
			rc = v.rc;
			*cpu = c;
			break;
		}
		sum += v.val;
	}
	local_irq_restore(flags);
	if (!rc)
		*val = sum;
	return rc;
}

/*
 * How old, in ns, the oldest snapshot of another CPU is that a sum of
 * idx read now would use: a sum read after this includes every event
 * counted on every CPU up to that long before this call.  A dead CPU's
 * final count does not age.  Any context.
 */
static int perfctr_read_sum_age(unsigned int idx, u64 *age)
{
	struct perfctr_snap_copy v;
	unsigned long flags;
	u64 now, oldest = 0;
	int c, me;

	if (perfctr_socket_is(idx))
		return perfctr_socket_sum(idx, age, &c, true);
	if (!perfctr_sums || !perfctr_sum_on(idx))
		return -EINVAL;
	local_irq_save(flags);
	me = smp_processor_id();
	now = ktime_get_mono_fast_ns();
	for_each_possible_cpu(c) {
		if (c == me ||	/* an idle CPU's snapshot does not age */
		    !perfctr_snap_read(&per_cpu_ptr(perfctr_sums, c)->snap[idx],
				       &v) ||
		    v.state != PERFCTR_SNAP_LIVE)
			continue;
		if (now > v.ns && now - v.ns > oldest)
			oldest = now - v.ns;
	}
	local_irq_restore(flags);
	*age = oldest;
	return 0;
}

#else /* !PERFCTR_HAVE_TICK */
static inline bool perfctr_sum_on(unsigned int idx) { return false; }
static int perfctr_sum_alloc(void) { return 0; }
static int perfctr_sum_hotplug(void) { return 0; }
static int perfctr_sum_start(void) { return 0; }
static void perfctr_sum_stop(void) { }
static void perfctr_sum_cpu_up(unsigned int cpu) { }
static void perfctr_sum_cpu_down(unsigned int cpu) { }
static inline int perfctr_read_sum(unsigned int idx, u64 *val, int *cpu)
{
	return -EINVAL;
}
static inline int perfctr_read_sum_age(unsigned int idx, u64 *age)
{
	return -EINVAL;
}
#endif

/* Why a sum could not be had; only on the error path. */
static const char * __maybe_unused perfctr_sum_why(int rc)
{
	switch (rc) {
	case -ENODEV:
		return "has no counter there (a CPU back online gets it again "
		       "in a moment)";
	case -EIO:
		return "is not counting there";
	case -EAGAIN:
		return "has not been on the PMU there yet (.multiplex): no "
		       "estimate";
	case -EBUSY:
		return "changed its snapshot under every try";
	case -ENODATA:
	case -ESTALE:	/* a .socket counter's socket */
		return perfctr_socket_why(rc);
	}
	return "cannot be read there";
}

/* perfctr_sum() and perfctr_sum_age() (age 0, 1): the generated
 * functions' body.  An error names the read, the counter and the CPU. */
#define PERFCTR_SUM(idx, age, what, site) do {				\
	u64 v_ = 0;							\
	int cpu_ = -1, rc_ = (idx) >= PERFCTR_NDECLARED ? -EINVAL :	\
		  (age) ? perfctr_read_sum_age((idx), &v_) :		\
		  perfctr_read_sum((idx), &v_, &cpu_);			\
	if (unlikely(rc_ == -EINVAL))					\
		PERFCTR_FAIL((site), "%s is not summed: perfctr_sum() "	\
			     "sums .cpu counters", (what));		\
	else if (unlikely(rc_))						\
		PERFCTR_FAIL((site), "%s has no sum: CPU %d %s", (what),	\
			     cpu_, perfctr_sum_why(rc_));		\
	STAP_RETURN(v_);						\
} while (0)
