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
 * The generated code defines, before including this file:
 *   PERFCTR_NDECLARED   number of counters the script declared
 *   PERFCTR_TABLE_HASH  the request table's hash, as a string
 * and, after it, perfctr_requests[PERFCTR_NDECLARED].
 */
#ifndef PERFCTR_RUNTIME_H
#define PERFCTR_RUNTIME_H

#ifdef __KERNEL__
#include <linux/cpu.h>
#include <linux/kallsyms.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#endif

#define PERFCTR_PLM_USER	1u
#define PERFCTR_PLM_KERNEL	2u
#define PERFCTR_PLM_ALL		3u

#define PERFCTR_GH_GUEST	1u
#define PERFCTR_GH_HOST		2u

#include "perfctr_attr.h"	/* the assignment's flags, the attrs */

/* One request as the translator declared it; id == NULL: not in this
 * module (never read, or its clause's %( %) condition was false). */
struct perfctr_request_desc {
	const char *id;
	const char *event;
	unsigned int plm;
	unsigned int mux;	/* .multiplex: not pinned, reads scaled */
	unsigned int scope;	/* PERFCTR_SCOPE_* */
	unsigned int tslot;	/* .thread: its slot in a thread's record */
	const char *target;	/* .process("PATH"), or "" for stap's target */
	unsigned int sample;	/* sampling clause: the period, */
	unsigned int hz;	/* or the frequency, */
	unsigned int precise;	/* and .precise(L) */
	unsigned int gh;	/* the name's :G/:H: PERFCTR_GH_*, or 0 */
	const char *src;
};

#define PERFCTR_SCOPE_CPU	0
#define PERFCTR_SCOPE_THREAD	1
#define PERFCTR_SCOPE_PROCESS	2

/* What the helper assigned to a request (docs/design.md). */
struct perfctr_slot {
	int assigned;
	unsigned int type;
	unsigned long long config, config1, config2;
	unsigned int flags;
};

/* Parses and validates a perfctr_assign value against the module's own
 * table; on failure returns -EINVAL and says why in err.  Pure C, unit
 * tested in userspace (testsuite/unit/runtime). */
int perfctr_assign_parse(char *s, const char *hash,
			 const struct perfctr_request_desc *reqs,
			 unsigned int n, struct perfctr_slot *slots,
			 char *err, size_t errlen);

#ifdef __KERNEL__

/* This CPU's counters, one slot per declared request.  base: what the
 * CPU's earlier counters counted before it went offline (hotplug), so that
 * its counts carry on where they stopped.  dead, want: hotplug work for
 * perfctr_cpus.c, under perfctr_hp_lock. */
struct perfctr_cpu {
	struct perf_event *ev[PERFCTR_NDECLARED];
	u64 base[PERFCTR_NDECLARED];
	struct perf_event *dead[PERFCTR_NDECLARED];
	int want;
	int leaving;	/* going offline: counters gone, counts final */
};

static struct perfctr_cpu __percpu *perfctr_cpus;

/*
 * Reads this CPU's count of request idx.  Any context (probe handlers,
 * NMI included): IRQs go off so the event cannot be scheduled out or
 * updated by a PMU interrupt under us; pmu->read() is the same NMI-safe
 * update perf_event_read_local() does (that function is not exported).
 * Returns 0, -ENODEV (no counter on this CPU), -EIO (not counting).
 */
static __always_inline int perfctr_read_local(unsigned int idx, u64 *val)
{
	struct perfctr_cpu *pc = NULL;
	struct perf_event *ev = NULL;
	unsigned long flags;
	int rc = 0;

	local_irq_save(flags);
	if (likely(perfctr_cpus)) {
		pc = this_cpu_ptr(perfctr_cpus);
		ev = READ_ONCE(pc->ev[idx]);
	}
	if (unlikely(!ev)) {
		/* a CPU on its way out still takes interrupts: its final
		 * count is the answer, not an error */
		if (pc && READ_ONCE(pc->leaving))
			*val = pc->base[idx];
		else
			rc = -ENODEV;
	} else if (unlikely(READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
			  READ_ONCE(ev->oncpu) != smp_processor_id()))
		rc = -EIO;
	else {
		ev->pmu->read(ev);
		*val = pc->base[idx] + local64_read(&ev->count);
	}
	local_irq_restore(flags);
	return rc;
}

/*
 * perf_event_read_local(), which also gives the times a counter was
 * enabled and running, is not exported: perfctr_start() finds it through
 * stap's kallsyms_lookup_name().  NMI-safe, no locks (kernel/events/core.c).
 */
typedef int (*perfctr_kernel_read_fn)(struct perf_event *event, u64 *value,
				      u64 *enabled, u64 *running);
static perfctr_kernel_read_fn perfctr_kernel_read;

/* Count and times of this CPU's counter idx; any context.  Returns 0,
 * -ENOSYS (no perf_event_read_local), -ENODEV, or the kernel's error. */
static __always_inline int perfctr_read_times(unsigned int idx, u64 *val,
					      u64 *enabled, u64 *running)
{
	struct perf_event *ev = NULL;
	unsigned long flags;
	int rc;

	if (unlikely(!perfctr_kernel_read))
		return -ENOSYS;
	local_irq_save(flags);
	if (likely(perfctr_cpus))
		ev = READ_ONCE(this_cpu_ptr(perfctr_cpus)->ev[idx]);
	rc = ev ? perfctr_kernel_read(ev, val, enabled, running) : -ENODEV;
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

/* A multiplexed counter's estimate: its count scaled by the share of time
 * it was on the PMU.  -EAGAIN when it has not run yet (no estimate). */
static __always_inline int perfctr_read_scaled(unsigned int idx, u64 *val)
{
	u64 enabled, running;
	int rc = perfctr_read_times(idx, val, &enabled, &running);

	if (unlikely(rc == -ENODEV) &&
	    READ_ONCE(this_cpu_ptr(perfctr_cpus)->leaving)) {
		*val = this_cpu_ptr(perfctr_cpus)->base[idx];
		return 0;	/* as perfctr_read_local() */
	}
	if (unlikely(rc))
		return rc;
	if (unlikely(!running))
		return -EAGAIN;
	if (running < enabled)
		*val = perfctr_scale(*val, enabled, running);
	*val += this_cpu_ptr(perfctr_cpus)->base[idx];
	return 0;
}

/* The body of a generated read function: the count, or a catchable
 * error that names the counter.  Never a silent zero.  fn is the read of
 * the counter's kind: perfctr_read_local (per CPU, pinned),
 * perfctr_read_scaled (.multiplex), perfctr_read_thread (.thread),
 * perfctr_read_process (.process). */
#define PERFCTR_READ_BY(fn, idx, id) do {				\
	u64 v_ = 0;							\
	int rc_ = fn((idx), &v_);					\
	if (unlikely(rc_))						\
		STAP_ERROR("perfctr: counter \"%s\" %s", (id),		\
			   perfctr_read_error((idx), rc_));		\
	STAP_RETURN(v_);						\
} while (0)
#define PERFCTR_READ(idx, id) PERFCTR_READ_BY(perfctr_read_local, idx, id)
#define PERFCTR_READ_MUX(idx, id) PERFCTR_READ_BY(perfctr_read_scaled, idx, id)
#define PERFCTR_READ_THREAD(idx, id) \
	PERFCTR_READ_BY(perfctr_read_thread, idx, id)
#define PERFCTR_READ_PROCESS(idx, id) \
	PERFCTR_READ_BY(perfctr_read_process, idx, id)

/* perfctr_enabled() / perfctr_running() / perfctr_count(): nanoseconds
 * this CPU's counter was enabled, and running on the PMU, and its count as
 * is, unscaled (what = 0, 1, 2).  An estimate over an interval is
 * (count2 - count1) * (enabled2 - enabled1) / (running2 - running1). */
#define PERFCTR_TIMES(idx, what) do {					\
	u64 v_ = 0, e_ = 0, r_ = 0;					\
	int rc_ = (idx) < PERFCTR_NDECLARED ?				\
		  perfctr_read_times((idx), &v_, &e_, &r_) : -ENODEV;	\
	if (unlikely(rc_))						\
		STAP_ERROR("perfctr: counter %lld: %s", (long long)(idx),	\
			   perfctr_read_error((idx), rc_));		\
	STAP_RETURN((what) == 2 ? v_ : (what) == 1 ? r_ : e_);		\
} while (0)

/* perfctr_total(): every followed task's count of a .process counter. */
#define PERFCTR_TOTAL(idx) do {						\
	u64 v_ = 0;							\
	int rc_ = (idx) < PERFCTR_NDECLARED ?				\
		  perfctr_read_total((idx), &v_) : -EINVAL;		\
	if (unlikely(rc_))						\
		STAP_ERROR("perfctr: counter %lld: %s", (long long)(idx),	\
			   perfctr_read_error((idx), rc_));		\
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

/* Why a read failed; only on the error path. */
static const char *perfctr_read_error(unsigned int idx, int rc);

#endif /* __KERNEL__ */
#endif /* PERFCTR_RUNTIME_H */
