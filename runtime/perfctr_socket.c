// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_socket.c - .socket counters: events of a PMU whose counters a
 * socket shares (uncore boxes, RAPL's energy, C-state residency: a PMU
 * with a `cpumask` in sysfs), one counter per socket, read from any
 * probe on any CPU.
 *
 * perfctr-run names, for each .socket counter, the CPUs of its PMU's
 * cpumask (one per socket: "sIDX,CPU,..." in the assignment); the module
 * creates one event on each, as perf stat -a does.  The PMU's driver may
 * move the event to another CPU of the socket (its event_init sets
 * event->cpu), and moves it again when that CPU goes offline
 * (perf_pmu_migrate_context(), from its own hotplug callback).
 *
 * A probe on another CPU cannot read the event: perf folds a CPU-wide
 * event's count in only on its own CPU (pmu->read() reads the PMU it
 * runs on; perf_event_read_local() refuses another CPU's event), an IPI
 * cannot be sent from an NMI or with interrupts off, and some uncore
 * PMUs read their counters through PCI config space under a raw
 * spinlock (SKX's IMC), which an NMI must not take on any CPU.  So the
 * CPU that holds the event publishes snapshots of its count, and reads
 * return the latest: the snapshot timer of perfctr_sum.c (a hard hrtimer
 * on every online CPU, every PERFCTR_SUM_MS) publishes, on each tick,
 * the count of every .socket event that counts on its CPU
 * (perfctr_counting_here(): ACTIVE there), from hard interrupt context,
 * never from an NMI.  Since the event counts on one CPU at a time, and
 * the driver moves it only with that CPU's interrupts on, a snapshot has
 * one writer at a time: whichever CPU holds the event, and so the
 * snapshots follow the event through hotplug without being told.  Each
 * snapshot is a latch (perfctr_snap.h): readers never wait.
 *
 * A read is the snapshot of the reader's socket (topology_physical_
 * package_id() and topology_die_id() of the reader against those of the
 * CPUs perfctr-run named), at most PERFCTR_SUM_MS old while the timers
 * run (perfctr_age() says how old).  One older than
 * PERFCTR_SOCKET_STALE_MS is an error, not a count: the event stopped
 * counting where it lives (its socket's last CPU went offline, or perf
 * took a pinned event off the PMU for good).
 */
#ifdef PERFCTR_NSOCKET
#include <linux/topology.h>
#include "perfctr_snap.h"

#ifndef PERFCTR_SOCKET_STALE_MS
#define PERFCTR_SOCKET_STALE_MS 5000	/* stap -D PERFCTR_SOCKET_STALE_MS=N */
#endif

struct perfctr_socket {
	struct perf_event *ev;	/* NULL: no such socket */
	int pkg, die;		/* of the CPU perfctr-run named */
	struct perfctr_snap snap;
};

/* [the counter's slot among the .socket counters][its socket] */
static struct perfctr_socket perfctr_socks[PERFCTR_NSOCKET][PERFCTR_SOCKETS];
/* each slot's request, + 1 (0: not in this module); set at start */
static unsigned int perfctr_sock_req[PERFCTR_NSOCKET];

static bool perfctr_socket_is(unsigned int idx)
{
	return idx < PERFCTR_NDECLARED && perfctr_requests[idx].id &&
	       perfctr_requests[idx].scope == PERFCTR_SCOPE_SOCKET;
}

static struct perfctr_socket *perfctr_socket_of(unsigned int idx,
						unsigned int k)
{
	return &perfctr_socks[perfctr_requests[idx].tslot][k];
}

/*
 * The snapshot timer's part (perfctr_sum_take_all()), on each online CPU,
 * IRQs off, never in NMI: publishes the count of every .socket event
 * that counts on this CPU.
 */
static void perfctr_socket_tick(void)
{
	struct perfctr_snap_copy v = { .state = PERFCTR_SNAP_LIVE };
	struct perfctr_socket *s;
	unsigned int j, k, i;

	for (j = 0; j < PERFCTR_NSOCKET; j++) {
		if (!perfctr_sock_req[j])
			continue;
		i = perfctr_sock_req[j] - 1;
		for (k = 0; k < perfctr_slots[i].nsock; k++) {
			s = perfctr_socket_of(i, k);
			if (!s->ev || !perfctr_counting_here(s->ev) ||
			    perfctr_event_read(s->ev, &v.val))
				continue;
			v.ns = ktime_get_mono_fast_ns();
			perfctr_snap_write(&s->snap, &v);
		}
	}
}

/* Does a .socket event count on this CPU (its timer must run on)?  IRQs
 * off. */
static bool perfctr_socket_held_here(void)
{
	unsigned int j, k, i;

	for (j = 0; j < PERFCTR_NSOCKET; j++) {
		if (!perfctr_sock_req[j])
			continue;
		i = perfctr_sock_req[j] - 1;
		for (k = 0; k < perfctr_slots[i].nsock; k++)
			if (perfctr_socket_of(i, k)->ev &&
			    perfctr_counting_here(perfctr_socket_of(i, k)->ev))
				return true;
	}
	return false;
}

/*
 * Socket k's latest snapshot of .socket counter idx, and its age in ns.
 * Any context, NMI included: no lock, no wait.  Returns 0, -ENODEV (no
 * such socket), -ENODATA (none published yet), -EBUSY (it changed under
 * every try), -ESTALE (older than PERFCTR_SOCKET_STALE_MS).
 */
static int perfctr_socket_get(unsigned int idx, int k, u64 *val, u64 *age)
{
	struct perfctr_snap_copy v;
	u64 now;

	if (k < 0 || k >= (int)perfctr_slots[idx].nsock)
		return -ENODEV;
	if (!perfctr_snap_read(&perfctr_socket_of(idx, k)->snap, &v))
		return -EBUSY;
	if (v.state == PERFCTR_SNAP_NONE)
		return -ENODATA;
	now = ktime_get_mono_fast_ns();
	*age = now > v.ns ? now - v.ns : 0;
	if (*age > PERFCTR_SOCKET_STALE_MS * NSEC_PER_MSEC)
		return -ESTALE;
	*val = v.val;
	return 0;
}

/* This CPU's socket for .socket counter idx, or -1.  Preemption off. */
static int perfctr_socket_here(unsigned int idx)
{
	return this_cpu_ptr(perfctr_cpus)->sock[perfctr_requests[idx].tslot];
}

/* @perfctr of a .socket counter: this CPU's socket's latest snapshot.
 * Any context.  Errors as perfctr_socket_get(). */
static __always_inline int perfctr_read_socket(unsigned int idx, u64 *val)
{
	unsigned long flags;
	u64 age;
	int rc;

	if (unlikely(!perfctr_cpus || !perfctr_socket_is(idx)))
		return -ENODEV;
	local_irq_save(flags);
	rc = perfctr_socket_get(idx, perfctr_socket_here(idx), val, &age);
	local_irq_restore(flags);
	return rc;
}

/* perfctr_age(): how old, in ns, the snapshot @perfctr would read now
 * is.  Any context.  PERFCTR_RE_NOT_SOCKET: not a .socket counter. */
static __always_inline int perfctr_read_socket_age(unsigned int idx,
						   u64 *age)
{
	unsigned long flags;
	u64 val;
	int rc;

	if (unlikely(!perfctr_cpus || !perfctr_socket_is(idx)))
		return PERFCTR_RE_NOT_SOCKET;
	local_irq_save(flags);
	rc = perfctr_socket_get(idx, perfctr_socket_here(idx), &val, age);
	local_irq_restore(flags);
	return rc;
}

/* perfctr_read_socket(id, n): socket n's latest snapshot, n counting
 * the sockets perfctr-run named from 0, in the order of their CPUs.  Any
 * context.  PERFCTR_RE_NOT_SOCKET: not a .socket counter; -EDOM: no
 * socket n; else as perfctr_socket_get(). */
static __always_inline int perfctr_read_socket_n(unsigned int idx, s64 n,
						 u64 *val)
{
	u64 age;

	if (unlikely(!perfctr_cpus || !perfctr_socket_is(idx)))
		return PERFCTR_RE_NOT_SOCKET;
	if (n < 0 || n >= perfctr_slots[idx].nsock)
		return -EDOM;
	return perfctr_socket_get(idx, n, val, &age);
}

/*
 * perfctr_sum() of a .socket counter: every socket's latest snapshot
 * added up; with age, the oldest snapshot's age instead.  Any context.
 * On an error, *cpu is the CPU perfctr-run named for the socket.
 */
static int perfctr_socket_sum(unsigned int idx, u64 *val, int *cpu,
			      bool age)
{
	u64 v, a, sum = 0, oldest = 0;
	unsigned int k;
	int rc;

	for (k = 0; k < perfctr_slots[idx].nsock; k++) {
		rc = perfctr_socket_get(idx, k, &v, &a);
		if (rc) {
			*cpu = perfctr_slots[idx].sock_cpu[k];
			return rc;
		}
		sum += v;
		oldest = max(oldest, a);
	}
	*val = age ? oldest : sum;
	return 0;
}

/* Each CPU's socket for each .socket counter, from the topology of the
 * CPUs perfctr-run named.  -EINVAL when two of them share a socket. */
static int perfctr_socket_map(unsigned int idx)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];
	const struct perfctr_slot *sl = &perfctr_slots[idx];
	struct perfctr_socket *s, *t;
	unsigned int k, j;
	int cpu;

	for (k = 0; k < sl->nsock; k++) {
		s = perfctr_socket_of(idx, k);
		s->pkg = topology_physical_package_id(sl->sock_cpu[k]);
		s->die = topology_die_id(sl->sock_cpu[k]);
		for (j = 0; j < k; j++) {
			t = perfctr_socket_of(idx, j);
			if (t->pkg != s->pkg || t->die != s->die)
				continue;
			_stp_error("perfctr: %s: counter \"%s\" (%s): CPUs %u "
				   "and %u are in one socket (package %d die "
				   "%d): a .socket counter counts once per "
				   "socket\n", r->src, r->id, r->event,
				   sl->sock_cpu[j], sl->sock_cpu[k], s->pkg,
				   s->die);
			return -EINVAL;
		}
	}
	for_each_possible_cpu(cpu) {
		signed char *here = &per_cpu_ptr(perfctr_cpus, cpu)->sock[r->tslot];

		*here = -1;
		for (k = 0; k < sl->nsock; k++) {
			s = perfctr_socket_of(idx, k);
			if (s->pkg == topology_physical_package_id(cpu) &&
			    s->die == topology_die_id(cpu))
				*here = k;
		}
	}
	return 0;
}

/* With CPU hotplug read-locked, before the snapshot timers start and
 * before any probe: each .socket counter's event on each CPU perfctr-run
 * named, counting.  Sleepable. */
static int perfctr_socket_start(void)
{
	const struct perfctr_request_desc *r;
	struct perfctr_socket *s;
	struct perf_event *ev;
	unsigned int i, k, cpu;
	int rc;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_socket_is(i))
			continue;
		r = &perfctr_requests[i];
		perfctr_sock_req[r->tslot] = i + 1;
		rc = perfctr_socket_map(i);
		for (k = 0; !rc && k < perfctr_slots[i].nsock; k++) {
			cpu = perfctr_slots[i].sock_cpu[k];
			if (!cpu_online(cpu)) {
				_stp_error("perfctr: %s: counter \"%s\" (%s): "
					   "CPU %u of its PMU's cpumask is "
					   "offline\n", r->src, r->id, r->event,
					   cpu);
				return -ENODEV;
			}
			ev = perfctr_event_new(i, cpu, 1);
			if (IS_ERR(ev))
				return PTR_ERR(ev);
			s = perfctr_socket_of(i, k);
			s->ev = ev;
			if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE) {
				_stp_error("perfctr: %s: counter \"%s\" (%s) is "
					   "not counting for the socket of CPU "
					   "%u (state %d): no free counter in "
					   "its PMU\n", r->src, r->id, r->event,
					   cpu, (int)READ_ONCE(ev->state));
				return -EBUSY;
			}
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* After the snapshot timers are gone, once no probe runs.  Sleepable;
 * idempotent. */
static void perfctr_socket_stop(void)
{
	struct perfctr_socket *s;
	unsigned int i, k;

	for (i = 0; i < PERFCTR_NSOCKET; i++) {
		perfctr_sock_req[i] = 0;
		for (k = 0; k < PERFCTR_SOCKETS; k++) {
			s = &perfctr_socks[i][k];
			if (s->ev)
				perfctr_release_event(s->ev);
			s->ev = NULL;
		}
	}
}

#else /* !PERFCTR_NSOCKET */
static inline bool perfctr_socket_is(unsigned int idx) { return false; }
static int perfctr_socket_start(void) { return 0; }
static void perfctr_socket_stop(void) { }
static inline void perfctr_socket_tick(void) { }
static inline bool perfctr_socket_held_here(void) { return false; }
static inline int perfctr_read_socket(unsigned int idx, u64 *val)
{
	return -ENODEV;
}
static inline int perfctr_read_socket_age(unsigned int idx, u64 *age)
{
	return PERFCTR_RE_NOT_SOCKET;
}
static inline int perfctr_read_socket_n(unsigned int idx, s64 n, u64 *val)
{
	return PERFCTR_RE_NOT_SOCKET;
}
static int perfctr_socket_sum(unsigned int idx, u64 *val, int *cpu,
			      bool age)
{
	return -EINVAL;
}
#endif

/* Why a .socket counter cannot be read; only on the error path. */
static const char * __maybe_unused perfctr_socket_why(int rc)
{
	switch (rc) {
	case -ENODEV:
		return "has no counter for this CPU's socket: its PMU's "
		       "cpumask named no CPU of it when perfctr-run ran";
	case -ENODATA:
		return "has no snapshot yet";
	case -EBUSY:
		return "changed its snapshot under every try";
	case -ESTALE:
		return "has no snapshot newer than PERFCTR_SOCKET_STALE_MS: it "
		       "stopped counting where it lives (its socket's CPUs "
		       "went offline, or perf took it off its PMU)";
	}
	return "cannot be read";
}
