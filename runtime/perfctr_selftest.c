// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_selftest.c - readers that interrupt the writers, for tests
 * only (stap -D PERFCTR_SELFTEST; never in a user's module).
 *
 * A race between a writer (CPU hotplug, a context switch, a thread's or
 * task's exit) and a reader that interrupts it (an NMI, an RT hard IRQ)
 * is open for a few instructions: waiting for one to happen proves
 * little.  So each writer names the moments where a reader finding its
 * state half done would go wrong (PERFCTR_RACE), and while the test has
 * armed them, a reader runs right there: on x86 in a real NMI raised by
 * a self-IPI (the writer waits for it to be served), elsewhere called in
 * place, which is what an interrupt at that instruction would run.  The
 * test's own probes raise more NMIs at random moments
 * (perfctr_selftest_kick).  A hang hunt's variants (testsuite/guest/
 * hang-hunt) build with -D PERFCTR_SELFTEST_INPLACE (every reader in
 * place, IRQs off, never an NMI) or -D PERFCTR_SELFTEST_NOREADERS (race
 * points and kicks only counted: no reader but the probes' own reads).
 *
 * Every read of every counter, from the NMIs and from the test's probes
 * (perfctr_selftest_read), is checked against the reads that ended
 * before it began: a per-CPU counter per CPU, a .thread or .process
 * count per thread, a total per counter; none may be smaller.  The
 * report says how many reads there were, how many went backwards (the
 * first one in full), which errors they met, and how often each race
 * point was served.
 */
#ifdef PERFCTR_SELFTEST

#include <linux/percpu-rwsem.h>

#if defined(CONFIG_X86)
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#define PERFCTR_ST_TIDS		32768	/* threads checked: tid below */
#define PERFCTR_ST_ERRNOS	32	/* errors counted by errno below */

enum { PERFCTR_ST_CPU, PERFCTR_ST_THREAD, PERFCTR_ST_TASK, PERFCTR_ST_TOTAL,
       PERFCTR_ST_SUM, PERFCTR_ST_KINDS };

static const char *const perfctr_st_kind[PERFCTR_ST_KINDS] = {
	"cpu", "thread", "task", "total", "sum"
};

static const char *const perfctr_race_name[PERFCTR_RACE_POINTS] = {
	[PERFCTR_RACE_PAIR_SET] = "pair_set",
	[PERFCTR_RACE_OFFLINE] = "offline",
	[PERFCTR_RACE_SWITCH_OUT] = "switch_out",
	[PERFCTR_RACE_SWITCH_IN] = "switch_in",
	[PERFCTR_RACE_THREAD_GONE] = "thread_gone",
	[PERFCTR_RACE_THREAD_NEW] = "thread_new",
	[PERFCTR_RACE_TASK_GONE] = "task_gone",
	[PERFCTR_RACE_SUM_SNAP] = "sum_snap",
	[PERFCTR_RACE_SAMPLE_SLOT] = "sample_slot",
	[PERFCTR_RACE_DIRECT] = "direct",
	[PERFCTR_RACE_UPDATE] = "update",
};

static int perfctr_st_armed;
static u64 __percpu *perfctr_st_cpu_last;	/* [PERFCTR_NDECLARED] */
static u64 *perfctr_st_tid_last;	/* [PERFCTR_ST_TIDS][NDECLARED] */
static const void **perfctr_st_tid_owner;	/* the .process event behind it */
static u64 perfctr_st_total_last[PERFCTR_NDECLARED];
static u64 perfctr_st_sum_last[PERFCTR_NDECLARED];	/* any CPU's reads */
static atomic_t perfctr_st_reads, perfctr_st_back, perfctr_st_nmis;
static atomic_t perfctr_st_nmis_sent, perfctr_st_nmis_late;
static atomic_t perfctr_st_back_kind[PERFCTR_ST_KINDS];
static atomic_t perfctr_st_err[PERFCTR_ST_KINDS][PERFCTR_ST_ERRNOS];
static atomic_t perfctr_st_race[PERFCTR_RACE_POINTS];
static atomic_t perfctr_st_race_served[PERFCTR_RACE_POINTS];
static DEFINE_PER_CPU(int, perfctr_st_pending);	/* NMIs sent, not served */
static char perfctr_st_first[160];	/* the first read that went back */
static atomic_t perfctr_st_first_taken;

/* A read of v, begun when *last was snap: never less than a read that
 * ended before it.  *last keeps the largest value read. */
static void perfctr_st_check(u64 *last, u64 snap, u64 v, unsigned int idx,
			     int kind)
{
	u64 old = READ_ONCE(*last), prev;

	atomic_inc(&perfctr_st_reads);
	if (v < snap) {
		atomic_inc(&perfctr_st_back);
		atomic_inc(&perfctr_st_back_kind[kind]);
		if (!atomic_xchg(&perfctr_st_first_taken, 1))
			snprintf(perfctr_st_first, sizeof(perfctr_st_first),
				 "%s read of \"%s\" on CPU %d (pid %d%s): %llu "
				 "after %llu", perfctr_st_kind[kind],
				 perfctr_requests[idx].id, smp_processor_id(),
				 current->pid, in_nmi() ? ", NMI" : "", v, snap);
	}
	while (v > old) {
		prev = cmpxchg64(last, old, v);
		if (prev == old)
			break;
		old = prev;
	}
}

static void perfctr_st_error(int kind, int rc)
{
	atomic_inc(&perfctr_st_err[kind][min(-rc, PERFCTR_ST_ERRNOS - 1)]);
}

/* Where the last value of this read is kept; NULL: not checked. */
static u64 *perfctr_st_last(int kind, unsigned int idx)
{
	int tid = current->pid;

	switch (kind) {
	case PERFCTR_ST_CPU:
		return this_cpu_ptr(perfctr_st_cpu_last) + idx;
	case PERFCTR_ST_THREAD:
	case PERFCTR_ST_TASK:
		if (tid <= 0 || tid >= PERFCTR_ST_TIDS)
			return NULL;
		return &perfctr_st_tid_last[tid * PERFCTR_NDECLARED + idx];
	case PERFCTR_ST_SUM:
		return &perfctr_st_sum_last[idx];
	}
	return &perfctr_st_total_last[idx];
}

static int perfctr_st_do(int kind, unsigned int idx, u64 *v)
{
	int cpu;

	switch (kind) {
	case PERFCTR_ST_CPU:
#ifdef PERFCTR_NGROUPS
		if (perfctr_requests[idx].group_no)
			return perfctr_read_group(idx, v);
#endif
		/* a .multiplex estimate may go back as the share of time
		 * it ran changes: its count (what a read takes from the
		 * PMU, -EIO while rotated out) may not */
		return perfctr_read_local(idx, v);
	case PERFCTR_ST_THREAD:
		return perfctr_read_thread(idx, v);
	case PERFCTR_ST_TASK:
		return perfctr_read_process(idx, v);
	case PERFCTR_ST_SUM:
		return perfctr_read_sum(idx, v, &cpu);
	}
	return perfctr_read_total(idx, v);
}

/* A .process read is the current thread's own event's count, and an exec
 * gives the thread a new event that counts from 0: each event is checked
 * on its own.  The event, or NULL when there is none or it is not a
 * .process read. */
static const void *perfctr_st_owner(int kind, unsigned int idx)
{
#ifdef PERFCTR_HAVE_PROCESS
	int fresh, s;

	if (kind == PERFCTR_ST_TASK) {
		s = perfctr_taskmap_get(&perfctr_task_ids, current, 0, &fresh);
		return s < 0 ? NULL : READ_ONCE(perfctr_tasks[s].ev[idx][0]);
	}
#endif
	return NULL;
}

/* One checked read; IRQs off from the snapshot to the check, so only an
 * NMI can come between. */
static int perfctr_st_read(int kind, unsigned int idx, u64 *v)
{
	unsigned long flags;
	u64 *last, snap = 0;
	int rc;

	local_irq_save(flags);
	last = perfctr_st_last(kind, idx);
	if (last && kind == PERFCTR_ST_TASK) {
		const void **owner = perfctr_st_tid_owner +
				     (last - perfctr_st_tid_last);
		const void *ev = perfctr_st_owner(kind, idx);

		if (ev != READ_ONCE(*owner)) {	/* a new event: from 0 */
			WRITE_ONCE(*owner, ev);
			WRITE_ONCE(*last, 0);
		}
	}
	if (last)
		snap = READ_ONCE(*last);
	smp_rmb();	/* a total or sum: what that read saw, we see */
	rc = perfctr_st_do(kind, idx, v);
	if (rc)
		perfctr_st_error(kind, rc);
	else if (last)
		perfctr_st_check(last, snap, *v, idx, kind);
	local_irq_restore(flags);
	return rc;
}

/* Every counter of the module, as a reader in this context would. */
static void perfctr_st_read_all(void)
{
	unsigned int i;
	u64 v;

	if (!perfctr_cpus)
		return;
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		const struct perfctr_request_desc *r = &perfctr_requests[i];

		if (!r->id || perfctr_samples(i))
			continue;
		if (r->scope == PERFCTR_SCOPE_PROCESS) {
			perfctr_st_read(PERFCTR_ST_TASK, i, &v);
			perfctr_st_read(PERFCTR_ST_TOTAL, i, &v);
		} else {
			perfctr_st_read(r->scope == PERFCTR_SCOPE_THREAD ?
					PERFCTR_ST_THREAD : PERFCTR_ST_CPU, i, &v);
		}
		if (perfctr_sum_on(i) && !r->mux)	/* estimates may go back */
			perfctr_st_read(PERFCTR_ST_SUM, i, &v);
	}
}

/*
 * An interrupt's probe that asks for the sample (perfctr_sample.c) must
 * find none, whatever sampling body it came in before or after: counted
 * where an NMI comes while a sample's slot is set (PERFCTR_RACE_SAMPLE_SLOT
 * raises one right there).
 */
static atomic_t perfctr_st_slot_checks, perfctr_st_slot_seen;

static void perfctr_st_slot_check(void)
{
#ifdef PERFCTR_HAVE_PAYLOAD
	struct perfctr_cpu __percpu *pcs = READ_ONCE(perfctr_cpus);
	u64 v;

	if (!pcs || !READ_ONCE(this_cpu_ptr(pcs)->sample))
		return;
	atomic_inc(&perfctr_st_slot_checks);
	if (perfctr_sample_value(PERFCTR_PV_PERIOD, 0, &v) != -ENOENT)
		atomic_inc(&perfctr_st_slot_seen);
#endif
}

/* "ok|FAIL slot: C interrupts came while a sample's slot was set, S saw
 * the sample" */
static void perfctr_selftest_slot_line(char *buf, size_t len)
{
	int checks = atomic_read(&perfctr_st_slot_checks);
	int seen = atomic_read(&perfctr_st_slot_seen);

	scnprintf(buf, len, "%s slot: %d interrupts came while a sample's "
		  "slot was set, %d saw the sample",
		  checks > 0 && !seen ? "ok" : "FAIL", checks, seen);
}

#if defined(CONFIG_X86) && !defined(PERFCTR_SELFTEST_INPLACE)
static int perfctr_st_nmi(unsigned int cmd, struct pt_regs *regs)
{
	if (!this_cpu_read(perfctr_st_pending))
		return NMI_DONE;	/* not ours */
	atomic_inc(&perfctr_st_nmis);
	perfctr_st_slot_check();
	perfctr_st_read_all();
	this_cpu_dec(perfctr_st_pending);
	return NMI_HANDLED;
}

/*
 * An NMI on this CPU, now; true when it was served before we return.
 * Sent to this CPU with NMI delivery: x2APIC's self-IPI register
 * (apic->send_IPI_self there) sends fixed vectors only, and "vector 2"
 * through it is no NMI (an illegal vector on hardware, a maskable
 * interrupt under a hypervisor that takes it).  An NMI comes while IRQs
 * are off, so one not served within the wait is late, and the report
 * fails on it as on one never served.
 */
static bool perfctr_st_raise(void)
{
	int spins, before = this_cpu_inc_return(perfctr_st_pending) - 1;

	atomic_inc(&perfctr_st_nmis_sent);
	apic->send_IPI(smp_processor_id(), NMI_VECTOR);
	for (spins = 0; spins < 100000; spins++) {
		if (this_cpu_read(perfctr_st_pending) == before)
			return true;
		cpu_relax();
	}
	atomic_inc(&perfctr_st_nmis_late);
	return false;	/* it comes later, still checked */
}

static int perfctr_st_nmi_start(void)
{
	return register_nmi_handler(NMI_LOCAL, perfctr_st_nmi, 0,
				    "perfctr_selftest");
}

static void perfctr_st_nmi_stop(void)
{
	unregister_nmi_handler(NMI_LOCAL, "perfctr_selftest");
}
#else
static bool perfctr_st_raise(void) { return false; }
static int perfctr_st_nmi_start(void) { return 0; }
static void perfctr_st_nmi_stop(void) { }
#endif

/* A writer at race point p, IRQs off or not: a reader runs now. */
static void perfctr_race(unsigned int p)
{
	unsigned long flags;

	if (!READ_ONCE(perfctr_st_armed) || p >= PERFCTR_RACE_POINTS)
		return;
	atomic_inc(&perfctr_st_race[p]);
#ifdef PERFCTR_SELFTEST_NOREADERS
	return;
#endif
	if (!in_nmi() && perfctr_st_raise()) {
		atomic_inc(&perfctr_st_race_served[p]);
		return;
	}
	local_irq_save(flags);	/* no NMI here: what one would run */
	perfctr_st_read_all();
	local_irq_restore(flags);
	atomic_inc(&perfctr_st_race_served[p]);
}

/*
 * The module's own pmu->read of a counter (perfctr_event_read_alone())
 * with a reader inside the kernel's update: armed so (2), a counter that
 * may be read direct is updated here as armpmu_event_update() updates it
 * (prev_count moved to the register's value by a cmpxchg, then the
 * difference added to count and taken from period_left), and the readers
 * run between the two, where an NMI or a probe on the driver's read would
 * find the pair torn.  Otherwise, and for the readers' own updates there (one level:
 * perfctr_st_updating), the kernel's own.  IRQs off.
 */
static atomic_t perfctr_st_updating;

static void perfctr_race_update(struct perf_event *ev)
{
#if defined(PERFCTR_DIRECT) && defined(CONFIG_ARM64)
	struct hw_perf_event *hw = &ev->hw;
	u64 prev, raw, delta;

	if (READ_ONCE(perfctr_st_armed) < 2 || !perfctr_direct_able(ev) ||
	    (READ_ONCE(hw->state) & PERF_HES_STOPPED))
		goto kernel;
	if (atomic_inc_return(&perfctr_st_updating) > 1)
		goto nested;
	do {
		prev = local64_read(&hw->prev_count);
		if (!perfctr_pmu_raw(ev, &raw))
			goto nested;
	} while (local64_cmpxchg(&hw->prev_count, prev, raw) != prev);
	perfctr_race(PERFCTR_RACE_UPDATE);
	delta = (raw - prev) & PERFCTR_DIRECT_MASK;
	local64_add(delta, &ev->count);
	local64_sub(delta, &hw->period_left);
	atomic_dec(&perfctr_st_updating);
	return;
nested:
	atomic_dec(&perfctr_st_updating);
kernel:
#endif
	ev->pmu->read(ev);
}

#ifdef PERFCTR_DIRECT
/*
 * A direct read between its loads and its register read: the PMU
 * interrupt a real machine may take there (an NMI, a pseudo-NMI) at a
 * counter's overflow, which folds the counter into count and starts a new
 * period, writing the register and prev_count anew.  Here the driver's
 * own stop (with the update) and start (with the reload, its period
 * marked over) do that, in place.  The direct read must see it and fall
 * back: the register it reads next no longer goes with the prev_count it
 * loaded.  IRQs off.
 */
static atomic_t perfctr_st_direct[PERFCTR_DIRECT_WAYS];

static void perfctr_race_direct(struct perf_event *ev)
{
	u64 count = local64_read(&ev->count);
	u64 prev = local64_read(&ev->hw.prev_count);

	if (!READ_ONCE(perfctr_st_armed))
		return;
	atomic_inc(&perfctr_st_race[PERFCTR_RACE_DIRECT]);
	ev->pmu->stop(ev, PERF_EF_UPDATE);
	local64_set(&ev->hw.period_left, 0);	/* this period is over */
	ev->pmu->start(ev, PERF_EF_RELOAD);
	/* served where it moved them: a new period of an event that counted
	 * nothing since the last one begins where that one did (a .user
	 * counter while the CPU stays in the kernel), and the read is right
	 * to take the register then */
	if (local64_read(&ev->count) != count ||
	    local64_read(&ev->hw.prev_count) != prev)
		atomic_inc(&perfctr_st_race_served[PERFCTR_RACE_DIRECT]);
}

static void perfctr_direct_note(unsigned int way)
{
	atomic_inc(&perfctr_st_direct[way]);
}
#endif

/* "direct hit H unsafe U moved M": the direct reads taken, refused by
 * the state they found, and fallen back after a PMU update. */
static void perfctr_selftest_direct_report(char *buf, size_t len)
{
#ifdef PERFCTR_DIRECT
	scnprintf(buf, len, "direct hit %d unsafe %d moved %d",
		  atomic_read(&perfctr_st_direct[PERFCTR_DIRECT_HIT]),
		  atomic_read(&perfctr_st_direct[PERFCTR_DIRECT_UNSAFE]),
		  atomic_read(&perfctr_st_direct[PERFCTR_DIRECT_MOVED]));
#else
	scnprintf(buf, len, "direct none");
#endif
}

/* The width, in bits, the direct read takes a count's delta at: 0 where
 * there is none (not built, or the kernel reported no width). */
static int perfctr_selftest_direct_width(void)
{
#ifdef PERFCTR_DIRECT
	return fls64(PERFCTR_DIRECT_MASK);
#else
	return 0;
#endif
}

/* The hotplug work, before it makes what a CPU that came online lacks:
 * a test makes that time long (perfctr_selftest_widen_ms). */
static unsigned int perfctr_st_widen_ms;

static void perfctr_widen(void)
{
	unsigned int ms = READ_ONCE(perfctr_st_widen_ms);

	if (READ_ONCE(perfctr_st_armed) && ms)
		msleep(ms);
}

/*
 * The start, holding the CPU hotplug lock for reading (perfctr_cpus.c),
 * in a test built with -D PERFCTR_SELFTEST_HOTPLUG_WAIT: it waits until a
 * hotplug writer (the test takes a CPU offline) waits for that lock, so
 * that any read lock taken again from here on (a static key flipped by a
 * software event's creation) waits for the writer, which waits for the
 * start.  The writer's mark is the lock's block flag (found through
 * kallsyms); at most 10 s.  Sleepable.
 */
static void perfctr_hotplug_wait(void)
{
#ifdef PERFCTR_SELFTEST_HOTPLUG_WAIT
	struct percpu_rw_semaphore *sem;
	unsigned int ms;

	sem = (struct percpu_rw_semaphore *)
		kallsyms_lookup_name("cpu_hotplug_lock");
	printk(KERN_INFO "perfctr: %s: the start waits for a CPU hotplug "
	       "writer\n", THIS_MODULE->name);
	for (ms = 0; ms < 10000 && !(sem && atomic_read(&sem->block));
	     ms += 10)
		msleep(10);
	printk(KERN_INFO "perfctr: %s: %s after %u ms\n", THIS_MODULE->name,
	       !sem ? "cpu_hotplug_lock not found" :
	       atomic_read(&sem->block) ? "a hotplug writer waits" :
	       "no hotplug writer came", ms);
#endif
}

static void perfctr_selftest_widen_ms(unsigned int ms)
{
	WRITE_ONCE(perfctr_st_widen_ms, ms);
}

/* From the test's probes: an NMI at a random moment. */
static void perfctr_selftest_kick(void)
{
#ifndef PERFCTR_SELFTEST_NOREADERS
	if (READ_ONCE(perfctr_st_armed))
		perfctr_st_raise();
#endif
}

/* From the test's probes: one checked read of counter id, as it is
 * read there (its scope's read); total 1: its perfctr_total(), 2: its
 * perfctr_sum(). */
/* The request of counter id, or NULL. */
static const struct perfctr_request_desc *perfctr_st_request(const char *id)
{
	unsigned int idx;

	for (idx = 0; idx < PERFCTR_NDECLARED; idx++)
		if (perfctr_requests[idx].id &&
		    !strcmp(perfctr_requests[idx].id, id))
			return &perfctr_requests[idx];
	return NULL;
}

static int perfctr_selftest_read(const char *id, int total, u64 *v)
{
	const struct perfctr_request_desc *r = perfctr_st_request(id);
	unsigned int idx;

	if (!r)
		return -EINVAL;
	idx = r - perfctr_requests;
	if (total)
		return perfctr_st_read(total == 2 ? PERFCTR_ST_SUM :
				       PERFCTR_ST_TOTAL, idx, v);
	return perfctr_st_read(r->scope == PERFCTR_SCOPE_PROCESS ?
			       PERFCTR_ST_TASK : r->scope == PERFCTR_SCOPE_THREAD ?
			       PERFCTR_ST_THREAD : PERFCTR_ST_CPU, idx, v);
}

/* The snapshot CPU cpu last published of summed counter id
 * (perfctr_sum.c), its state (PERFCTR_SNAP_*) in *state.  -EINVAL where
 * there is none to read. */
static int perfctr_selftest_snap(const char *id, int cpu, u64 *v, int *state)
{
#ifdef PERFCTR_HAVE_TICK
	const struct perfctr_request_desc *r = perfctr_st_request(id);
	struct perfctr_snap_copy c;

	if (!r || !perfctr_sums || cpu < 0 || cpu >= nr_cpu_ids ||
	    !perfctr_sum_on(r - perfctr_requests) ||
	    !perfctr_snap_read(&per_cpu_ptr(perfctr_sums, cpu)
				->snap[r - perfctr_requests], &c) || c.rc)
		return -EINVAL;
	*v = c.val;
	*state = c.state;
	return 0;
#else
	return -EINVAL;
#endif
}

/* This CPU's count of counter id (a CPU's pair: .cpu, .thread, .cgroup;
 * or the current thread's, .process) by the kernel's pmu->read(), never
 * the direct read: the middle of a test's sandwich.  -EIO where it does
 * not count here now, PERFCTR_RE_REPROGRAM, PERFCTR_RE_UPDATING
 * (perfctr_event_read_alone()). */
static int perfctr_selftest_read_kernel(const char *id, u64 *v)
{
	const struct perfctr_request_desc *r = perfctr_st_request(id);
	const struct perfctr_pair *p;
	struct perfctr_cpu *pc;
	struct perf_event *ev;
	unsigned long flags;
	unsigned int idx;
	int rc = -EIO;

	if (!r || !perfctr_cpus)
		return -EINVAL;
	idx = r - perfctr_requests;
#ifdef PERFCTR_HAVE_PROCESS
	if (r->scope == PERFCTR_SCOPE_PROCESS)
		return perfctr_read_process_as(idx, v, false);
#endif
	local_irq_save(flags);
	pc = this_cpu_ptr(perfctr_cpus);
	p = perfctr_pair_now(pc, idx);
	ev = READ_ONCE(p->ev);
	if (ev && perfctr_counting_here(ev)) {
		rc = perfctr_pair_event_read(pc, idx, ev, v);
		*v += p->base;
	}
	local_irq_restore(flags);
	return rc;
}

/*
 * An oracle for events the test sees one by one (a sched_switch for
 * context-switches): the test calls perfctr_selftest_tally() at each,
 * where the counter counts it exactly once if it is counting at that
 * moment (its event is on this CPU), and maybe if not (an event created,
 * not yet in its pair).  So between the first and the last read on a CPU
 * the counter must grow by at least the events seen while it counted
 * (live) and at most those plus the others (idle, unread): more is a
 * count doubled, less one lost.  Per CPU, lock-free: the tracepoint
 * probe calling it takes no lock stap could fail to get.
 */
struct perfctr_st_tally {
	u64 first, last, live, idle, unread;
	bool have;
};
static DEFINE_PER_CPU(struct perfctr_st_tally, perfctr_st_tally);

static void perfctr_selftest_tally(const char *id)
{
	struct perfctr_st_tally *t;
	const struct perfctr_pair *p;
	struct perf_event *ev;
	unsigned long flags;
	unsigned int idx;
	bool live;
	u64 v;
	int rc;

	for (idx = 0; idx < PERFCTR_NDECLARED; idx++)
		if (perfctr_requests[idx].id &&
		    !strcmp(perfctr_requests[idx].id, id))
			break;
	if (idx == PERFCTR_NDECLARED || !perfctr_cpus)
		return;
	local_irq_save(flags);
	t = this_cpu_ptr(&perfctr_st_tally);
	p = perfctr_pair_now(this_cpu_ptr(perfctr_cpus), idx);
	ev = READ_ONCE(p->ev);
	live = ev && perfctr_counting_here(ev);
	rc = perfctr_st_read(PERFCTR_ST_CPU, idx, &v);
	if (t->have) {
		if (rc)
			t->unread++;
		else if (live)
			t->live++;
		else
			t->idle++;
	}
	if (!rc && live) {	/* the window ends at a read that counts */
		if (!t->have)
			t->first = v;
		t->have = true;
		t->last = v;
	}
	local_irq_restore(flags);
}

/* "ok|FAIL CPU: grew D, L live N idle U unread" for the report */
static void perfctr_selftest_tally_report(int cpu, char *buf, size_t len)
{
	const struct perfctr_st_tally *t = per_cpu_ptr(&perfctr_st_tally, cpu);
	u64 d = t->last - t->first, more = t->idle + t->unread;

	scnprintf(buf, len, "%s CPU %d: grew %llu, %llu seen counting, %llu "
		  "not (idle %llu, unread %llu)",
		  t->have && d >= t->live && d <= t->live + more ? "ok" : "FAIL",
		  cpu, d, t->live, more, t->idle, t->unread);
}

/* How often race point name had a reader run at it. */
static int perfctr_selftest_served(const char *name)
{
	int p;

	for (p = 0; p < PERFCTR_RACE_POINTS; p++)
		if (!strcmp(perfctr_race_name[p], name))
			return atomic_read(&perfctr_st_race_served[p]);
	return -1;
}

static void perfctr_selftest_arm(int on)
{
	WRITE_ONCE(perfctr_st_armed, on);
}

/*
 * The times a .multiplex read scales by (perfctr_event_times()) against
 * the kernel's own perf_event_read_local(), on this CPU's event for id:
 * ours just before <= the kernel's <= ours just after, for the count and
 * both times.  The kernel's function is reached through kallsyms, which
 * only this test does, and only on a CPU that does not enforce IBT (the
 * emulators): sealed for IBT, it would fault (testsuite/lib/check-ibt).
 */
typedef int (*perfctr_st_kread_fn)(struct perf_event *event, u64 *value,
				   u64 *enabled, u64 *running);
static perfctr_st_kread_fn perfctr_st_kread;
static atomic_t perfctr_st_times, perfctr_st_times_bad;
static char perfctr_st_times_first[200];

static int perfctr_selftest_times(const char *id)
{
	u64 c1, e1, r1, ck, ek, rk, c2, e2, r2;
	struct perf_event *ev;
	unsigned long flags;
	unsigned int idx;
	int rc = -ENODEV;

	for (idx = 0; idx < PERFCTR_NDECLARED; idx++)
		if (perfctr_requests[idx].id &&
		    !strcmp(perfctr_requests[idx].id, id))
			break;
	if (idx == PERFCTR_NDECLARED || !perfctr_cpus || !perfctr_st_kread)
		return rc;
	local_irq_save(flags);
	ev = READ_ONCE(perfctr_pair_now(this_cpu_ptr(perfctr_cpus), idx)->ev);
	if (ev) {
		c1 = perfctr_event_count(ev);
		perfctr_event_times(ev, &e1, &r1);
		rc = perfctr_st_kread(ev, &ck, &ek, &rk);
		c2 = perfctr_event_count(ev);
		perfctr_event_times(ev, &e2, &r2);
	}
	local_irq_restore(flags);
	if (rc)
		return rc;
	atomic_inc(&perfctr_st_times);
	if (c1 <= ck && ck <= c2 && e1 <= ek && ek <= e2 && r1 <= rk &&
	    rk <= r2)
		return 0;
	if (atomic_inc_return(&perfctr_st_times_bad) == 1)
		snprintf(perfctr_st_times_first, sizeof(perfctr_st_times_first),
			 "count %llu/%llu/%llu enabled %llu/%llu/%llu running "
			 "%llu/%llu/%llu", c1, ck, c2, e1, ek, e2, r1, rk, r2);
	return 0;
}

/*
 * "ok|FAIL NMIs: S sent, N served, L late": every NMI the selftest sent
 * (at least one) was served, each while its sender waited.  An NMI sent
 * as something else (a fixed vector 2) is late whenever IRQs were off,
 * or never comes.
 */
static void perfctr_selftest_nmi_line(char *buf, size_t len)
{
	int sent = atomic_read(&perfctr_st_nmis_sent);
	int served = atomic_read(&perfctr_st_nmis);
	int late = atomic_read(&perfctr_st_nmis_late);

	scnprintf(buf, len, "%s NMIs: %d sent, %d served, %d late",
		  sent > 0 && served == sent && !late ? "ok" : "FAIL",
		  sent, served, late);
}

/* "reads R back B nmis N of S late L (kind=B ...) races name=hits/served
 * ... errors kind:errno=n ... times T bad B [(first mismatch)] [first:
 * ...]": N NMIs served of S sent, L not while the sender waited */
static void perfctr_selftest_report(char *buf, size_t len)
{
	size_t n;
	int p, k, e;

	n = scnprintf(buf, len, "reads %d back %d nmis %d of %d late %d",
		      atomic_read(&perfctr_st_reads),
		      atomic_read(&perfctr_st_back),
		      atomic_read(&perfctr_st_nmis),
		      atomic_read(&perfctr_st_nmis_sent),
		      atomic_read(&perfctr_st_nmis_late));
	for (k = 0; k < PERFCTR_ST_KINDS; k++)
		n += scnprintf(buf + n, len - n, " %s%s=%d", k ? "" : "(",
			       perfctr_st_kind[k],
			       atomic_read(&perfctr_st_back_kind[k]));
	n += scnprintf(buf + n, len - n, ") races");
	for (p = 0; p < PERFCTR_RACE_POINTS; p++)
		n += scnprintf(buf + n, len - n, " %s=%d/%d",
			       perfctr_race_name[p],
			       atomic_read(&perfctr_st_race[p]),
			       atomic_read(&perfctr_st_race_served[p]));
	n += scnprintf(buf + n, len - n, " errors");
	for (k = 0; k < PERFCTR_ST_KINDS; k++)
		for (e = 0; e < PERFCTR_ST_ERRNOS; e++)
			if (atomic_read(&perfctr_st_err[k][e]))
				n += scnprintf(buf + n, len - n, " %s:%d=%d",
					       perfctr_st_kind[k], -e,
					       atomic_read(&perfctr_st_err[k][e]));
	n += scnprintf(buf + n, len - n, " times %d bad %d",
		       atomic_read(&perfctr_st_times),
		       atomic_read(&perfctr_st_times_bad));
	if (atomic_read(&perfctr_st_times_bad))
		n += scnprintf(buf + n, len - n, " (%s)", perfctr_st_times_first);
	if (atomic_read(&perfctr_st_first_taken))
		scnprintf(buf + n, len - n, " first: %s", perfctr_st_first);
}

/* Sleepable; after the counters exist, before any probe runs. */
static int perfctr_selftest_start(void)
{
	perfctr_st_cpu_last = __alloc_percpu(sizeof(u64) * PERFCTR_NDECLARED,
					     __alignof__(u64));
	perfctr_st_tid_last = vzalloc(array_size(PERFCTR_ST_TIDS,
						 sizeof(u64) * PERFCTR_NDECLARED));
	perfctr_st_tid_owner = vzalloc(array_size(PERFCTR_ST_TIDS,
						  sizeof(void *) * PERFCTR_NDECLARED));
	if (!perfctr_st_cpu_last || !perfctr_st_tid_last ||
	    !perfctr_st_tid_owner)
		return -ENOMEM;
#ifdef CONFIG_X86_KERNEL_IBT
	if (cpu_feature_enabled(X86_FEATURE_IBT))
		return perfctr_st_nmi_start();	/* no times check here */
#endif
	perfctr_st_kread = (perfctr_st_kread_fn)	/* ibt-guarded: above */
		kallsyms_lookup_name("perf_event_read_local");
	return perfctr_st_nmi_start();
}

/* Sleepable; after every probe has finished, before the counters go. */
static void perfctr_selftest_stop(void)
{
	WRITE_ONCE(perfctr_st_armed, 0);
	perfctr_st_nmi_stop();
	free_percpu(perfctr_st_cpu_last);
	vfree(perfctr_st_tid_last);
	vfree(perfctr_st_tid_owner);
	perfctr_st_cpu_last = NULL;
	perfctr_st_tid_last = NULL;
	perfctr_st_tid_owner = NULL;
}

#ifdef PERFCTR_NGROUPS
/* Is ev one of this CPU's group events? */
static bool perfctr_st_ours(const struct perfctr_cpu *pc,
			    const struct perf_event *ev)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NGSLOTS; i++)
		if (pc->gev[i] == ev)
			return true;
	return false;
}

/*
 * Events in perf's contexts of the online CPUs that count what one of
 * this module's group events counts (type and config), and are not this
 * module's: a run before this one that did not release its groups left
 * them there.  Each context once (that of the CPU's first group); from a
 * probe: perf's context lock is a raw spinlock.
 */
static int perfctr_selftest_group_strays(void)
{
	struct perf_event_context *ctx;
	struct perf_event *lead, *ev;
	struct perfctr_cpu *pc;
	unsigned long flags;
	unsigned int i;
	int cpu, n = 0;

	for_each_online_cpu(cpu) {
		pc = per_cpu_ptr(perfctr_cpus, cpu);
		lead = pc->gev[perfctr_groups[0].first];
		if (!lead || !(ctx = READ_ONCE(lead->ctx)))
			continue;
		raw_spin_lock_irqsave(&ctx->lock, flags);
		list_for_each_entry(ev, &ctx->event_list, event_entry) {
			if (perfctr_st_ours(pc, ev))
				continue;
			for (i = 0; i < PERFCTR_NGSLOTS; i++)
				if (pc->gev[i] &&
				    ev->attr.type == pc->gev[i]->attr.type &&
				    ev->attr.config == pc->gev[i]->attr.config) {
					n++;
					break;
				}
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	return n;
}
#endif

#else /* !PERFCTR_SELFTEST */
static int perfctr_selftest_start(void) { return 0; }
static void perfctr_selftest_stop(void) { }
#endif
