/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr.h - the in-kernel counter API of systemtap-perfctr.
 *
 * Create at load, read anywhere, release explicitly (the seed's perfmon2
 * list): counters are created in sleepable context before any probe runs
 * (perfctr_start), read from any probe with IRQs off and without locks,
 * sleeping or allocation (perfctr_read_local), and released after the
 * last probe has finished (perfctr_stop).
 *
 * The generated code (translator/emit.c) defines, before including this
 * file:
 *   PERFCTR_NDECLARED   number of counters the script declared
 *   PERFCTR_TABLE_HASH  the request table's hash, as a string
 *   PERFCTR_NSITES      number of reads in the user's script
 *   PERFCTR_SAMPLE_MAGIC  what marks a sample as ours (perfctr_sample.c)
 * and, only where the script needs them (the runtime builds in what they
 * name, nothing else):
 *   PERFCTR_NGROUPS     groups (.group("NAME")),
 *   PERFCTR_NGSLOTS     and their counters
 *   PERFCTR_NTHREAD     .thread counters (their records' slots)
 *   PERFCTR_THREAD_SWITCH_READS  a .thread counter read at a switch
 *   PERFCTR_NCGROUP     .cgroup counters
 *   PERFCTR_NSOCKET     .socket counters
 *   PERFCTR_HAVE_PROCESS  a .process counter or sampling clause
 *   PERFCTR_HAVE_SAMPLES  a sampling clause
 *   PERFCTR_HAVE_PAYLOAD  a sampling body that reads a payload
 *   PERFCTR_HAVE_SUM, PERFCTR_SUMMED  perfctr_sum() over these counters
 *   PERFCTR_PRESENT_<idx>  a counter under a preprocessor condition
 *                       that holds (%( %) in the script)
 * and, after it, perfctr_requests[PERFCTR_NDECLARED],
 * perfctr_groups[PERFCTR_NGROUPS] and perfctr_sites[PERFCTR_NSITES + 1]
 * (each read as the script writes it, with its file:line:column, for
 * error messages).
 */
#ifndef PERFCTR_RUNTIME_H
#define PERFCTR_RUNTIME_H

#ifdef __KERNEL__
#include <linux/cpu.h>
#include <linux/kallsyms.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/version.h>
#endif

/* What differs between kernels (PERFCTR_HAVE_* below the interface's own)
 * the front-end finds by compiling a probe per feature against the
 * target's headers (translator/kconf.c) and says so with PERFCTR_KCONF.
 * A compile server's build has no answers (the server's tree is not on
 * the client): there the mainline release that made each change decides.
 * A backport the guess misses fails the build, never miscompiles: each
 * answer picks a type or a member.  Where perf counts a PMU's disabled
 * sections is not guessed: such a build reads through the kernel
 * (perfctr_direct.h). */
#if defined(__KERNEL__) && !defined(PERFCTR_KCONF)
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define PERFCTR_HAVE_TASK_CTX_ARRAY 1
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0) && defined(CONFIG_ARM64)
#define PERFCTR_HAVE_ARM_PMU_CNTR_MASK 1
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define PERFCTR_HAVE_HRTIMER_SETUP 1
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
#define PERFCTR_HAVE_PERF_TIME_CTX 1
#endif
#endif

#include "perfctr_iface.h"	/* levels, scopes, limits, the request */
#include "perfctr_attr.h"	/* the assignment's flags, the attrs */
#include "perfctr_topdown.h"	/* Intel's topdown metrics */
#include "perfctr_readerr.h"	/* the read outcomes of our own */

/* One request as the translator declared it (its fields are the
 * interface's, perfctr_iface.h, strings "" when not given), and where
 * the translator placed it; id == NULL: not in this module (never
 * read, or its clause's %( %) condition was false). */
struct perfctr_request_desc {
	PERFCTR_REQUEST_FIELDS(PERFCTR_REQUEST_DESC_MEMBER)
	unsigned int tslot;	/* .thread, .cgroup, .socket: its slot among
				 * its scope's counters */
	unsigned int group_no;	/* 1 + its group in perfctr_groups[], or 0 */
	unsigned int gslot;	/* its place among all groups' counters */
};

/* Does request r count only on the CPUs of its .cpus("LIST")? */
static inline int perfctr_req_has_cpus(const struct perfctr_request_desc *r)
{
	return r->cpus && r->cpus[0];
}

/* A perf event group: counters first .. first + n - 1 (gslots), led by
 * request leader; .multiplex for all of them or none.  n == 0: not in
 * this module (its %( %) condition was false). */
struct perfctr_group_desc {
	const char *name;
	unsigned int leader;
	unsigned int first, n;
	unsigned int mux;
};

/* The most sockets a .socket counter counts on: CPUs in its PMU's
 * cpumask (stap -D PERFCTR_SOCKETS=N). */
#ifndef PERFCTR_SOCKETS
#define PERFCTR_SOCKETS	8
#endif

/* What the table's .modinfo entry says of stap -D PERFCTR_SAMPLE_THROTTLE
 * (perfctr_iface.h). */
#ifdef PERFCTR_SAMPLE_THROTTLE
#define PERFCTR_TABLE_THROTTLE	";" PERFCTR_TABLE_THROTTLE_KEY "=1"
#else
#define PERFCTR_TABLE_THROTTLE	""
#endif

/* A .cpus counter's message for a read on a CPU it does not count on. */
#define PERFCTR_CPUS_WHY	160

/* A counter's encoding on the CPUs of one core PMU: CPUs lo[k]..hi[k]
 * for k < nrange, ascending and apart. */
struct perfctr_cpu_enc {
	unsigned int type;
	unsigned long long config, config1, config2;
	unsigned int nrange;
	unsigned int lo[PERFCTR_CPU_RANGES], hi[PERFCTR_CPU_RANGES];
};

/* What the helper assigned to a request (docs/design.md). */
struct perfctr_slot {
	int assigned;
	unsigned int type;
	unsigned long long config, config1, config2;
	unsigned int flags;
	/* .socket: the CPUs of its PMU's cpumask, ascending, one a socket
	 * (an "sIDX,CPU,..." record) */
	unsigned int nsock;
	unsigned int sock_cpu[PERFCTR_SOCKETS];
	/* one count is scale_mult / 2^scale_shift units (mult 0: 1 / 1,
	 * no unit), from the event's sysfs .scale and .unit (a "uIDX,MULT,
	 * SHIFT,UNIT" record) */
	unsigned long long scale_mult;
	unsigned int scale_shift;
	char unit[PERFCTR_UNIT_MAX];
	/* on a hybrid machine, each core PMU's encoding on its CPUs ("cIDX,
	 * TYPE,...,CPUS" records), which together name every CPU once; 0:
	 * the encoding above on every CPU */
	unsigned int nenc;
	struct perfctr_cpu_enc enc[PERFCTR_CORE_PMUS];
	/* .cpus("LIST"): its CPU records name only the CPUs it counts on;
	 * why a read elsewhere fails ("counts on CPUs 1 only ...") */
	char cpus_why[PERFCTR_CPUS_WHY];
};

/* Where perfctr-run left a group's events open (docs/design.md, "The
 * assignment"): on ncpu CPUs, the n events of the k-th CPU (in
 * ascending CPU order) at fds fd0 + k * n .. fd0 + k * n + n - 1, in
 * the group's order. */
struct perfctr_group_slot {
	int assigned;
	unsigned int fd0, ncpu;
};

/* The module's table, as the assignment is checked against it. */
struct perfctr_table {
	const char *hash;
	const struct perfctr_request_desc *reqs;
	unsigned int n;
	const struct perfctr_group_desc *groups;
	unsigned int ngroups;
	unsigned int max_cpus;		/* the kernel's nr_cpu_ids */
};

/* Parses and validates a perfctr_assign value against the module's own
 * table into slots[t->n] and gslots[t->ngroups]; on failure returns
 * -EINVAL and says why in err.  Pure C, unit tested in userspace
 * (testsuite/unit/runtime). */
int perfctr_assign_parse(char *s, const struct perfctr_table *t,
			 struct perfctr_slot *slots,
			 struct perfctr_group_slot *gslots,
			 char *err, size_t errlen);

/* The encoding of slot s's counter on cpu: its cpu record's, or NULL
 * when it has none (the slot's own; for a .cpus counter: no counter
 * there).  Any context; pure C. */
const struct perfctr_cpu_enc *perfctr_slot_cpu_enc(const struct perfctr_slot *s,
						   unsigned int cpu);

/* Is the event perfctr-run left open at a group's fd the one the
 * assignment says (slot s; member 0 leads), counting per CPU as the
 * module would open it (perfctr_attr.h)?  attr: the event's, pmu_type:
 * its PMU's type; cpu: the event's CPU; *want: the CPU of its group
 * here (-1 for a leader, which sets it), which must come after prev
 * (the group's CPU before), below max_cpus.  Returns 0, or -EINVAL with
 * why in err.  Pure C. */
int perfctr_group_event_check(const struct perfctr_slot *s, unsigned int mux,
			      unsigned int member,
			      const struct perf_event_attr *attr,
			      unsigned int pmu_type, int cpu, int *want,
			      int prev, unsigned int max_cpus, char *err,
			      size_t errlen);

#ifdef __KERNEL__

/*
 * What a CPU's counter of one request reads as: base, what the CPU's
 * earlier counters counted before it went offline (hotplug), plus ev's
 * count.  A reader must see one whole pair, never the base of one and
 * the event of another (that would count the CPU's events twice, or lose
 * them), and readers run in every context, NMI included.  So each request
 * has two pairs and cur[] says which one holds: a writer fills the other
 * and then flips cur.  Every write happens on the CPU itself with IRQs off
 * (perfctr_cpus.c runs it there through smp_call_function_single), so the
 * only reader that can see a write half done is an NMI nested in it,
 * which reads the pair cur still names; program order on one CPU is all
 * the ordering needed.  cur's bit 1 says whether the pair's event may be
 * read straight from the PMU (perfctr_direct.h), decided when the pair
 * was set: the reader has it with the load that names the pair.
 */
struct perfctr_pair {
	struct perf_event *ev;
	u64 base;
};
#define PERFCTR_CUR_DIRECT	2

#ifdef PERFCTR_NGROUPS
/* A group on one CPU as the current probe reads it (perfctr_group.c):
 * taken at the probe's first read of any of its counters. */
struct perfctr_gsnap {
	u64 hit;		/* the CPU's hits when taken; 0: never */
	u64 enabled, running;	/* the leader's, which are the group's */
	int rc;			/* 0, or why the group cannot be read */
};
#endif

#ifdef PERFCTR_HAVE_SAMPLES
/*
 * The sample whose body runs on a CPU, for the payload functions
 * (perfctr_sample.c) and the reads (perfctr_pmu_moving()): set by our
 * handler around stap's, on the handler's stack, with the interrupt level
 * the body runs at.
 */
struct perfctr_sample_now {
	struct perf_event *event;
	struct perf_sample_data *data;
	struct pt_regs *regs;
	unsigned int idx;		/* the clause */
	unsigned int level;		/* perfctr_sample_level() */
#ifdef PERFCTR_HAVE_PAYLOAD
	/* its call chain once a payload function built it
	 * (perfctr_chain.c), NULL before */
	const struct perfctr_chain *chain;
#endif
};

/*
 * How deep in interrupts this CPU is: NMI and hard IRQ nesting, and
 * whether it serves softirqs.  Any interrupt that comes in adds to it.
 */
static __always_inline unsigned int perfctr_sample_level(void)
{
	return preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET);
}

static void perfctr_sample_run(unsigned int idx, struct perf_event *ev,
			       struct perf_sample_data *data,
			       struct pt_regs *regs);

/* The generated code's handler for sampling clause idx: ours, which
 * runs stap's (the body) with the sample in reach. */
#define PERFCTR_SAMPLE_HANDLER(idx)					\
static void perfctr_sample_handler_##idx(struct perf_event *ev,		\
					 struct perf_sample_data *data,	\
					 struct pt_regs *regs)		\
{									\
	perfctr_sample_run(idx, ev, data, regs);			\
}
#endif

struct perfctr_thread;

/* This CPU's counters (alloc_percpu), one pair of pairs per request.
 * gen, want, leaving: CPU hotplug (perfctr_cpus.c).  Groups: the events
 * perfctr-run opened on this CPU, set at start and unchanged until the
 * stop; their snapshots; glost once the CPU has gone offline (perf took
 * them off, for good).  Cache-aligned: every context switch writes it
 * (.thread), and no other per-CPU data shares its first or last line. */
struct perfctr_cpu {
	struct perfctr_pair pair[PERFCTR_NDECLARED][2];
	unsigned char cur[PERFCTR_NDECLARED];
	unsigned int gen;	/* times this CPU came online */
	int want;		/* counters the hotplug work must create */
	int leaving;		/* going offline: counts final, not errors */
	/* the event the module's own pmu->read updates here now, NULL
	 * (perfctr_event_read_alone()) */
	struct perf_event *updating;
#ifdef PERFCTR_NTHREAD
	struct perfctr_thread *thr;	/* of the thread last switched in
					 * here (perfctr_thread.c), NULL */
	/* where the .thread counters stood when the thread running here
	 * came in, for its first read (PERFCTR_THREAD_SWITCH_READS only);
	 * two halves, cur names the whole one */
	unsigned int thr_in_cur;
	struct {
		const struct task_struct *task;
		u64 start[PERFCTR_NTHREAD];
	} thr_in[2];
#endif
#ifdef PERFCTR_HAVE_PROCESS
	unsigned int task;	/* the .process record slot read here last
				 * (perfctr_task.c), checked by its key */
#endif
#ifdef PERFCTR_HAVE_SAMPLES
	struct perfctr_sample_now *sample;	/* NULL: no body runs */
#endif
#ifdef PERFCTR_NSOCKET
	/* each .socket counter's socket of this CPU (perfctr_socket.c), or
	 * -1: none of its PMU's cpumask is in this CPU's socket */
	signed char sock[PERFCTR_NSOCKET];
#endif
#ifdef PERFCTR_NGROUPS
	u64 hits;		/* probes started on this CPU */
	struct perf_event *gev[PERFCTR_NGSLOTS];
	struct file *gfile[PERFCTR_NGSLOTS];	/* the module's references */
	unsigned char gdirect[PERFCTR_NGSLOTS];	/* 1: may be read from the
						 * PMU (perfctr_direct.h) */
	u64 gval[PERFCTR_NGSLOTS];		/* the snapshots' counts */
	struct perfctr_gsnap gsnap[PERFCTR_NGROUPS];
	int glost;
#endif
} ____cacheline_aligned;

static struct perfctr_cpu __percpu *perfctr_cpus;

#ifdef PERFCTR_HAVE_SAMPLES
/* The sample whose body runs here, at this interrupt level, or NULL (an
 * interrupt's probe, not the body). */
static __always_inline struct perfctr_sample_now *perfctr_sample_here(void)
{
	struct perfctr_cpu __percpu *pcs = READ_ONCE(perfctr_cpus);
	struct perfctr_sample_now *now;

	now = pcs ? READ_ONCE(this_cpu_ptr(pcs)->sample) : NULL;
	return now && now->level == perfctr_sample_level() ? now : NULL;
}
#endif

/* The pair that holds for request idx on this CPU's pc, and whether its
 * event may be read from the PMU.  IRQs off. */
static __always_inline const struct perfctr_pair *
perfctr_pair_direct(const struct perfctr_cpu *pc, unsigned int idx,
		    bool *direct)
{
	unsigned int c = READ_ONCE(pc->cur[idx]);

	barrier();	/* the pair was written before cur, on this CPU */
	*direct = c & PERFCTR_CUR_DIRECT;
	return &pc->pair[idx][c & 1];
}

/* The pair alone. */
static __always_inline const struct perfctr_pair *
perfctr_pair_now(const struct perfctr_cpu *pc, unsigned int idx)
{
	bool direct;

	return perfctr_pair_direct(pc, idx, &direct);
}

/*
 * Where a writer's state is half done for a reader that interrupts it.
 * Tests build with -D PERFCTR_SELFTEST, and a reader runs right there
 * (perfctr_selftest.c); in every other build PERFCTR_RACE() is nothing.
 */
enum {
	PERFCTR_RACE_PAIR_SET,		/* a CPU's new pair filled, not flipped */
	PERFCTR_RACE_OFFLINE,		/* a CPU marked leaving */
	PERFCTR_RACE_SWITCH_OUT,	/* the outgoing half filled */
	PERFCTR_RACE_SWITCH_IN,		/* flipped; the incoming not on yet */
	PERFCTR_RACE_THREAD_GONE,	/* a record held, not yet zeroed */
	PERFCTR_RACE_THREAD_NEW,	/* a record claimed, not yet filled */
	PERFCTR_RACE_TASK_GONE,		/* totals moving */
	PERFCTR_RACE_SUM_SNAP,		/* a snapshot's first copy half written */
	PERFCTR_RACE_SAMPLE_SLOT,	/* a sample's slot set, its body not begun */
	PERFCTR_RACE_DIRECT,		/* a direct read's loads done, the
					 * register not read (perfctr_direct.h) */
	PERFCTR_RACE_UPDATE,		/* the kernel's update of a count:
					 * prev_count moved, count not yet */
	PERFCTR_RACE_POINTS
};
#ifdef PERFCTR_SELFTEST
static void perfctr_race(unsigned int point);
static void perfctr_widen(void);
static void perfctr_hotplug_wait(void);
#define PERFCTR_RACE(point) perfctr_race(PERFCTR_RACE_##point)
#define PERFCTR_WIDEN() perfctr_widen()
#define PERFCTR_HOTPLUG_WAIT() perfctr_hotplug_wait()
#else
#define PERFCTR_RACE(point) do { } while (0)
#define PERFCTR_WIDEN() do { } while (0)	/* sleepable: a test waits */
/* the start, holding the hotplug lock: a test waits for a writer */
#define PERFCTR_HOTPLUG_WAIT() do { } while (0)
#endif

/* A reader found a pinned counter in ERROR state: ask its owner's work
 * to enable it again (perfctr_rearm.c).  Any context. */
#define PERFCTR_REARM_CPUS	0
#define PERFCTR_REARM_TASKS	1
static void perfctr_rearm_request(unsigned int owner);
static bool perfctr_rearm_due(unsigned int owner);

/* A snapshot timer on every online CPU (perfctr_sum.c): for
 * perfctr_sum() and for .socket counters (perfctr_socket.c). */
#if defined(PERFCTR_HAVE_SUM) || defined(PERFCTR_NSOCKET)
#define PERFCTR_HAVE_TICK 1
#endif
#ifndef PERFCTR_SUMMED
#define PERFCTR_SUMMED { 0 }
#endif

/* perfctr_sum() (perfctr_sum.c): each CPU's snapshots, set up with the
 * CPUs' counters and following them through CPU hotplug (the callbacks'
 * parts run on the CPU, sleepable). */
static int perfctr_sum_alloc(void);
static int perfctr_sum_hotplug(void);
static int perfctr_sum_start(void);
static void perfctr_sum_stop(void);
static void perfctr_sum_cpu_up(unsigned int cpu);
static void perfctr_sum_cpu_down(unsigned int cpu);

/* .socket counters (perfctr_socket.c): created with the CPUs' counters,
 * published by the snapshot timer of the CPU each counts on. */
static int perfctr_socket_start(void);
static void perfctr_socket_stop(void);
static void perfctr_socket_tick(void);
static int perfctr_socket_sum(unsigned int idx, u64 *val, int *cpu,
			      bool age);

/* Is ev counting on this CPU now?  IRQs off. */
static __always_inline bool perfctr_counting_here(const struct perf_event *ev)
{
	return READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE &&
	       READ_ONCE(ev->oncpu) == smp_processor_id();
}

/* The test builds do the kernel's update themselves, with a reader
 * inside it (perfctr_race_update()). */
#ifdef PERFCTR_SELFTEST
static void perfctr_race_update(struct perf_event *ev);
#define PERFCTR_PMU_READ(ev) perfctr_race_update(ev)
#else
#define PERFCTR_PMU_READ(ev) (ev)->pmu->read(ev)
#endif

#include "perfctr_direct.h"	/* the read straight from the PMU */

/*
 * ev's count into *val, brought up to date from the PMU when it counts on
 * this CPU (pmu->read(): the NMI-safe update perf_event_read_local() does
 * too), else as its last schedule-out, switch or tick left it.  IRQs off,
 * so it cannot be scheduled out or updated by a PMU interrupt under us.
 * An event the PMU has stopped while perf keeps it ACTIVE
 * (PERF_HES_STOPPED: x86_pmu_enable() moving it to another hardware
 * counter, where an NMI can land) has its count already, and its counter
 * is not yet its own: pmu->read() would add the difference from the old
 * counter's value for good.  Returns 0, or PERFCTR_RE_REPROGRAM where
 * perf is reprogramming the counter (perfctr_pmu_moving()): *val is then
 * the count perf's last update left, which a total may take and a read
 * must not (a direct read may have returned more).
 */
static __always_inline int perfctr_event_read(struct perf_event *ev,
					      u64 *val)
{
	int rc = 0;

	if (perfctr_counting_here(ev) &&
	    !(READ_ONCE(ev->hw.state) & PERF_HES_STOPPED)) {
		if (unlikely(perfctr_pmu_moving(ev)))
			rc = PERFCTR_RE_REPROGRAM;
		else
			PERFCTR_PMU_READ(ev);
	}
	*val = local64_read(&ev->count);
	return rc;
}

/* ev's count for a total: as perfctr_event_read(), the last update's
 * where perf is reprogramming the counter. */
static __always_inline u64 perfctr_event_count(struct perf_event *ev)
{
	u64 v;

	perfctr_event_read(ev, &v);
	return v;
}

/*
 * ev's count, as perfctr_event_read(), where ev is one a reader may take
 * straight from the PMU: a CPU's pair (*flag its cur[], bit
 * PERFCTR_CUR_DIRECT), a group member (*flag its gdirect, bit 1) or a
 * .process record's (perfctr_task.c: its direct[], PERFCTR_TASK_DIRECT).
 * The kernel's update (pmu->read: armpmu_event_update(),
 * x86_perf_event_update()) moves prev_count to the register's value with
 * a cmpxchg, then adds the difference to count.  Between the two the
 * pair is torn, and a reader that interrupts the update there (an NMI, a
 * pseudo-NMI, a probe on the driver's read) would compute a count short
 * by the update's delta: below what a direct read returned before, as
 * direct reads never move prev_count.  So the update runs with ev's
 * direct read off and ev marked on this CPU (pc->updating): such a
 * reader falls back to here and is refused (PERFCTR_RE_UPDATING).  perf's
 * own updates of our events are inside its disabled sections or the PMU
 * interrupt (perfctr_pmu_moving()).  Out of line: the direct read's
 * fallback, not its way.  IRQs off; pc is this CPU's.
 */
static noinline int perfctr_event_read_alone(struct perfctr_cpu *pc,
					     unsigned char *flag,
					     unsigned char bit,
					     struct perf_event *ev, u64 *val)
{
	struct perf_event *outer = READ_ONCE(pc->updating);
	unsigned char f = READ_ONCE(*flag);
	int rc;

	if (!perfctr_counting_here(ev))	/* no update: nothing to guard */
		return perfctr_event_read(ev, val);
	if (unlikely(outer == ev)) {
		*val = local64_read(&ev->count);
		return PERFCTR_RE_UPDATING;
	}
	WRITE_ONCE(*flag, f & ~bit);
	WRITE_ONCE(pc->updating, ev);	/* an NMI nests in an outer one */
	barrier();	/* an interrupt from here on sees both */
	rc = perfctr_event_read(ev, val);
	barrier();
	WRITE_ONCE(pc->updating, outer);
	WRITE_ONCE(*flag, f);
	return rc;
}

/* The same for this CPU's pair idx, whose event ev is. */
static __always_inline int perfctr_pair_event_read(struct perfctr_cpu *pc,
						   unsigned int idx,
						   struct perf_event *ev,
						   u64 *val)
{
	return perfctr_event_read_alone(pc, &pc->cur[idx], PERFCTR_CUR_DIRECT,
					ev, val);
}

/*
 * Reads this CPU's count of request idx, as perfctr_read_local(), for a
 * caller that has IRQs off already (.thread reads and switches) and
 * perfctr_cpus set; pc is this CPU's (this_cpu_ptr(perfctr_cpus)), which
 * the caller may have at hand.
 */
/* Is request idx a .cpus counter that does not count on cpu?  Any
 * context (perfctr.c). */
static bool perfctr_left_out(unsigned int idx, int cpu);

static __always_inline int perfctr_read_on(struct perfctr_cpu *pc,
					   unsigned int idx, u64 *val)
{
	bool direct;
	const struct perfctr_pair *p = perfctr_pair_direct(pc, idx, &direct);
	struct perf_event *ev = READ_ONCE(p->ev);
	u64 v;

	/* ev is bound to this CPU: ACTIVE is on this CPU */
	if (likely(ev && READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE)) {
		int rc = 0;

		if (!(direct && perfctr_direct_read(ev, &v)))
			rc = perfctr_pair_event_read(pc, idx, ev, &v);
		*val = p->base + v;
		return rc;
	}
	if (READ_ONCE(pc->leaving)) {
		*val = p->base + (ev ? local64_read(&ev->count) : 0);
		return 0;
	}
	if (!ev && perfctr_left_out(idx, smp_processor_id())) {
		*val = p->base;	/* 0: it never counts here */
		return PERFCTR_RE_NOT_HERE;
	}
	if (!ev)
		return -ENODEV;
	if (READ_ONCE(ev->state) == PERF_EVENT_STATE_ERROR)
		perfctr_rearm_request(PERFCTR_REARM_CPUS);
	return -EIO;
}

/* The same, pc found here. */
static __always_inline int perfctr_read_here(unsigned int idx, u64 *val)
{
	return perfctr_read_on(this_cpu_ptr(perfctr_cpus), idx, val);
}

/*
 * Reads this CPU's count of request idx.  Any context (probe handlers,
 * NMI included).  A CPU on its way out still takes interrupts: once perf
 * has taken its counters off the PMU their counts are final, and those
 * are the answer, not an error.
 * Returns 0, -ENODEV (no counter on this CPU), PERFCTR_RE_NOT_HERE (a
 * .cpus counter on a CPU it does not count on: *val is its constant base,
 * for .thread and .cgroup, which count nothing there), -EIO (not
 * counting).
 */
static __always_inline int perfctr_read_local(unsigned int idx, u64 *val)
{
	unsigned long flags;
	int rc;

	if (unlikely(!perfctr_cpus))
		return -ENODEV;
	local_irq_save(flags);
	rc = perfctr_read_here(idx, val);
	local_irq_restore(flags);
	return rc;
}

/* perf's event_type_t EVENT_TIME (kernel/events/core.c): the context's
 * clock runs. */
#define PERFCTR_CTX_EVENT_TIME	0x4

/* The context's clock and the offset lockless readers add to perf_clock():
 * in a struct perf_time_ctx from Linux 7.0 (beside the guest's clock), in
 * the context itself before (the front-end's kernel probe decides). */
#ifdef PERFCTR_HAVE_PERF_TIME_CTX
#define PERFCTR_CTX_TIME(ctx)	((ctx)->time.time)
#define PERFCTR_CTX_OFFSET(ctx)	((ctx)->time.offset)
/* 7.x keeps the time a mediated-vPMU guest held the PMU apart; a stopped
 * context's time leaves it out for an exclude_guest event, as
 * __perf_event_time_ctx() does (0 where no such guest ever ran) */
#define PERFCTR_CTX_GUEST_TIME(ev, ctx) \
	((ev)->attr.exclude_guest ? READ_ONCE((ctx)->timeguest.time) : 0)
#else
#define PERFCTR_CTX_TIME(ctx)	((ctx)->time)
#define PERFCTR_CTX_OFFSET(ctx)	((ctx)->timeoffset)
#define PERFCTR_CTX_GUEST_TIME(ev, ctx)	0
#endif

/*
 * The times ev was enabled and running, as perf_event_read_local()
 * computes them (calc_timer_values(): the context's time now, from
 * perf_clock() and the offset perf keeps for lockless readers, then
 * __perf_update_times()).  That function is not exported, and reaching it
 * through kallsyms would be an indirect call into a kernel whose IBT seal
 * removed its ENDBR (Debian trixie amd64: a control-protection fault on
 * CPUs with IBT).  Our events are their own group leaders and never
 * cgroup events.  IRQs off; NMI-safe as perf's own.  One difference
 * is left: on 7.x, between a mediated-vPMU guest's entry and exit on
 * this CPU (IRQs off: a read from an NMI there), perf holds an
 * exclude_guest event's clock still, by a per-CPU flag it does not
 * export; this read lets it run (docs/versions.md).
 */
static __always_inline void perfctr_event_times(struct perf_event *ev,
						u64 *enabled, u64 *running)
{
	struct perf_event_context *ctx = READ_ONCE(ev->ctx);
	int state = READ_ONCE(ev->state);
	u64 now = 0, delta;

	if (likely(ctx)) {
		if (smp_load_acquire(&ctx->is_active) & PERFCTR_CTX_EVENT_TIME)
			now = local_clock() + READ_ONCE(PERFCTR_CTX_OFFSET(ctx));
		else
			now = READ_ONCE(PERFCTR_CTX_TIME(ctx)) -
			      PERFCTR_CTX_GUEST_TIME(ev, ctx);
	}
	delta = now - READ_ONCE(ev->tstamp);
	*enabled = READ_ONCE(ev->total_time_enabled);
	*running = READ_ONCE(ev->total_time_running);
	if (state >= PERF_EVENT_STATE_INACTIVE)
		*enabled += delta;
	if (state >= PERF_EVENT_STATE_ACTIVE)
		*running += delta;
}

/* Count and times of this CPU's counter idx, without its base; any
 * context.  Returns 0, -ENODEV or PERFCTR_RE_REPROGRAM. */
static __always_inline int perfctr_read_times(unsigned int idx, u64 *val,
					      u64 *enabled, u64 *running)
{
	struct perf_event *ev = NULL;
	struct perfctr_cpu *pc;
	unsigned long flags;
	int rc = -ENODEV;

	if (unlikely(!perfctr_cpus))
		return rc;
	local_irq_save(flags);
	pc = this_cpu_ptr(perfctr_cpus);
	ev = READ_ONCE(perfctr_pair_now(pc, idx)->ev);
	if (ev) {
		rc = perfctr_pair_event_read(pc, idx, ev, val);
		perfctr_event_times(ev, enabled, running);
	}
	local_irq_restore(flags);
	return rc;
}

/*
 * count * enabled / running without 128-bit arithmetic: the quotient part
 * is exact, and the remainder part drops the low bits of enabled and
 * running together when their product would overflow (relative error
 * below 2^-30 for any run shorter than a century).
 */
static inline u64 perfctr_scale(u64 count, u64 enabled, u64 running)
{
	u64 rem, q = div64_u64_rem(count, running, &rem);
	u64 e = enabled, r = running;
	int shift = fls64(rem) + fls64(e) - 64;

	if (shift > 0) {
		e >>= shift;
		r >>= shift;
	}
	return q * enabled + (r ? div64_u64(rem * e, r) : 0);
}

/* A multiplexed event's estimate: its count scaled by the share of
 * time it was on the PMU; -EAGAIN when it has not run yet,
 * PERFCTR_RE_REPROGRAM, PERFCTR_RE_UPDATING (perfctr_event_read_alone()).
 * ev is pc's pair idx's; direct: the pair lets it be read from the PMU
 * (perfctr_direct.h).  IRQs off. */
static __always_inline int perfctr_event_scaled(struct perfctr_cpu *pc,
						unsigned int idx,
						struct perf_event *ev,
						bool direct, u64 *val)
{
	u64 count, enabled, running;
	int rc;

	if (!(direct && perfctr_counting_here(ev) &&
	      perfctr_direct_read(ev, &count)) &&
	    (rc = perfctr_pair_event_read(pc, idx, ev, &count)))
		return rc;

	perfctr_event_times(ev, &enabled, &running);
	if (unlikely(!running))
		return -EAGAIN;
	*val = running < enabled ? perfctr_scale(count, enabled, running) :
	       count;
	return 0;
}

/* A .multiplex counter's estimate on this CPU, its base included.  Any
 * context.  Returns 0, -ENODEV, -EAGAIN (not on the PMU yet: no
 * estimate), PERFCTR_RE_REPROGRAM (perfctr_event_read()). */
static __always_inline int perfctr_read_scaled(unsigned int idx, u64 *val)
{
	bool direct;
	struct perfctr_cpu *pc;
	const struct perfctr_pair *p;
	struct perf_event *ev;
	unsigned long flags;
	int rc = -ENODEV;

	if (unlikely(!perfctr_cpus))
		return rc;
	local_irq_save(flags);
	pc = this_cpu_ptr(perfctr_cpus);
	p = perfctr_pair_direct(pc, idx, &direct);
	ev = READ_ONCE(p->ev);
	if (ev)
		rc = perfctr_event_scaled(pc, idx, ev, direct, val);
	else if (perfctr_left_out(idx, smp_processor_id()))
		rc = PERFCTR_RE_NOT_HERE;
	if (rc && READ_ONCE(pc->leaving)) {
		*val = 0;	/* as perfctr_read_local() */
		rc = 0;
	}
	if (!rc)
		*val += p->base;
	local_irq_restore(flags);
	return rc;
}

/*
 * A read that failed: a catchable error that names what was read, why,
 * and where the script reads it.  site indexes perfctr_sites[] (the
 * generated table: "@perfctr(\"pf\") at FILE:LINE:COL", one entry per
 * read in the user's script), or is -1 for a read no entry names (the
 * user's tapsets, @perfctr(@param) in a macro).  stap prints last_error
 * "near" last_stmt, which would name the generated function: the message
 * says where itself and last_stmt is cleared (a pointer up to stap 5.5, an
 * array from 5.6: cleared whole either way), so stap prints the message
 * as it is, and a catch gets all of it.  Only in a generated function's
 * body (STAP_ERROR).
 */
#define PERFCTR_FAIL(site, fmt, ...) do {				\
	const char *at_ = perfctr_site(site);				\
	memset(&CONTEXT->last_stmt, 0, sizeof(CONTEXT->last_stmt));	\
	STAP_ERROR("perfctr: " fmt "%s%s", ##__VA_ARGS__,		\
		   at_ ? " near " : "", at_ ? at_ : "");		\
} while (0)

/* The body of a generated read function: the count, or a catchable
 * error.  Never a silent zero.  fn is the read of the counter's kind:
 * perfctr_read_local (per CPU, pinned), perfctr_read_scaled
 * (.multiplex), perfctr_read_thread (.thread), perfctr_read_process
 * (.process); what names the counter ("counter \"pf\"", "event
 * \"cycles\"" for an event function's). */
#define PERFCTR_READ(fn, idx, what, site) do {				\
	u64 v_ = 0;							\
	int rc_ = fn((idx), &v_);					\
	if (unlikely(rc_))						\
		PERFCTR_FAIL((site), "%s %s", (what),			\
			     perfctr_read_failed((idx), rc_));		\
	STAP_RETURN(v_);						\
} while (0)

/* A per-CPU count is the thread's own only while the thread stayed on
 * the CPU: the stamp (perfctr_stamp()) taken with the start must hold. */
#define PERFCTR_SAME_STAMP(stamp, what, site) do {			\
	if (perfctr_stamp() != (u64)(stamp))				\
		PERFCTR_FAIL((site), "%s counts per CPU, and the thread "	\
			     "migrated or was switched out since the start: "	\
			     "no delta (count .thread or .process)", (what));	\
} while (0)

/* perfctr_delta(): the count now minus start. */
#define PERFCTR_DELTA(fn, idx, what, site, start, stamp, per_cpu) do {	\
	u64 v_ = 0;							\
	int rc_ = fn((idx), &v_);					\
	if (unlikely(rc_))						\
		PERFCTR_FAIL((site), "%s %s", (what),			\
			     perfctr_read_failed((idx), rc_));		\
	if (per_cpu)							\
		PERFCTR_SAME_STAMP((stamp), (what), (site));		\
	STAP_RETURN(v_ - (u64)(start));					\
} while (0)

/* A group's counter has its group's times (perfctr_group.c). */
#ifdef PERFCTR_NGROUPS
#define PERFCTR_READ_TIMES perfctr_group_or_times
#else
#define PERFCTR_READ_TIMES perfctr_read_times
#endif

/* perfctr_enabled() / perfctr_running() / perfctr_count(): nanoseconds
 * this CPU's counter was enabled, and running on the PMU, and its count as
 * is, unscaled (part = 0, 1, 2).  An estimate over an interval is
 * (count2 - count1) * (enabled2 - enabled1) / (running2 - running1). */
#define PERFCTR_TIMES(idx, part, what, site) do {			\
	u64 v_ = 0, e_ = 0, r_ = 0;					\
	int rc_ = (idx) < PERFCTR_NDECLARED ?				\
		  PERFCTR_READ_TIMES((idx), &v_, &e_, &r_) : -ENODEV;	\
	if (unlikely(rc_))						\
		PERFCTR_FAIL((site), "%s %s", (what),			\
			     perfctr_read_failed((idx), rc_));		\
	STAP_RETURN((part) == 2 ? v_ : (part) == 1 ? r_ : e_);		\
} while (0)

/* A decoder of a sample's payload (perfctr_payload.h) returning a
 * string: into the stap function's return value. */
#define PERFCTR_DECODE_STR(fn, v)	fn((v), STAP_RETVALUE, MAXSTRINGLEN)

/* A read of counter idx known only at run time: fn's answer, or the
 * error bad (an errno, or a read outcome of perfctr_readerr.h) for an
 * index past the table. */
#define PERFCTR_READ_IDX(fn, idx, bad, what, site) do {			\
	u64 v_ = 0;							\
	int rc_ = (idx) < PERFCTR_NDECLARED ? fn((idx), &v_) : (bad);	\
	if (unlikely(rc_))						\
		PERFCTR_FAIL((site), "%s %s", (what),			\
			     perfctr_read_failed((idx), rc_));		\
	STAP_RETURN(v_);						\
} while (0)

/* perfctr_read_socket(): socket n's snapshot of .socket counter idx. */
#define PERFCTR_SOCKET_N(idx, n, what, site) do {			\
	u64 v_ = 0;							\
	int rc_ = (idx) < PERFCTR_NDECLARED ?				\
		  perfctr_read_socket_n((idx), (n), &v_) :		\
		  PERFCTR_RE_NOT_SOCKET;				\
	if (unlikely(rc_ == -EDOM))					\
		PERFCTR_FAIL((site), "%s has no socket %lld: it has %u "	\
			     "(0 to %u, in the order of the CPUs "		\
			     "perfctr-run found in its PMU's cpumask)",	\
			     (what), (long long)(n),			\
			     perfctr_slots[(idx)].nsock,		\
			     perfctr_slots[(idx)].nsock - 1);		\
	if (unlikely(rc_))						\
		PERFCTR_FAIL((site), "%s, socket %lld, %s", (what),	\
			     (long long)(n),				\
			     perfctr_read_failed((idx), rc_));		\
	STAP_RETURN(v_);						\
} while (0)

/* perfctr_total(): every followed task's count of a .process counter. */
#define PERFCTR_TOTAL(idx, what, site)					\
	PERFCTR_READ_IDX(perfctr_read_total, idx, -EINVAL, what, site)

/* A read function given an id the script does not declare. */
#define PERFCTR_UNDECLARED(id, site)					\
	PERFCTR_FAIL((site), "no counter \"%s\" in this script", (id))

/* perfctr_unit(): the unit of counter id's event, from sysfs ("" for
 * none), into the stap function's return value. */
#define PERFCTR_UNIT(id) do {						\
	int i_ = perfctr_find(id);					\
	if (i_ < 0)							\
		PERFCTR_UNDECLARED((id), -1);				\
	strlcpy(STAP_RETVALUE, perfctr_slots[i_].unit, MAXSTRINGLEN);	\
} while (0)

/* perfctr_scaled(): count * per in counter id's units. */
#define PERFCTR_SCALED(id, count, per) do {				\
	s64 v_ = 0;							\
	int i_ = perfctr_find(id);					\
	if (i_ < 0)							\
		PERFCTR_UNDECLARED((id), -1);				\
	if (perfctr_scaled(i_, (count), (per), &v_))			\
		PERFCTR_FAIL(-1, "perfctr_scaled(\"%s\", %lld, %lld): "	\
			     "negative, or past 63 bits in its units",	\
			     (id), (long long)(count), (long long)(per));	\
	STAP_RETURN(v_);						\
} while (0)

/*
 * perfctr_stamp(): where the current thread is, as a number that changes
 * when it migrates or is switched out: its context switches and its CPU.
 * A per-CPU count across two reads is the thread's own only when the
 * stamps of both are equal (perfctr_delta()).
 */
static inline u64 perfctr_stamp(void)
{
	return ((u64)(current->nvcsw + current->nivcsw) << 16) |
	       (raw_smp_processor_id() & 0xffff);
}

/* Why a read failed; only on the error path.  perfctr_read_failed()
 * also counts the failure for the end-of-run report (perfctr_report.c). */
static const char *perfctr_read_error(unsigned int idx, int rc);
static const char *perfctr_read_failed(unsigned int idx, int rc);
/* The script's read a site index names ("@perfctr(\"pf\") at
 * FILE:LINE:COL"), or NULL; only on the error path. */
static const char *perfctr_site(long long site);

#endif /* __KERNEL__ */
#endif /* PERFCTR_RUNTIME_H */
