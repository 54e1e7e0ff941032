/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr_direct.h - a CPU counter's count read straight from the PMU.
 *
 * The kernel's read of an event that counts on this CPU (pmu->read) folds
 * what the hardware counter has counted since prev_count into the count:
 * on arm64 armpmu_event_update() does it with a cmpxchg loop over
 * prev_count, through two more indirect calls.  A reader that only wants
 * the value needs none of that: count + ((counter - prev_count) & width),
 * what perf's user-space self-monitoring computes from its mmap page.
 *
 * The direct read loads count and prev_count, reads the register, and
 * loads both again: only a PMU interrupt on this CPU (an NMI on x86, a
 * pseudo-NMI on arm64, or the IRQ the reader's own IRQs-off excludes)
 * writes them under a reader, and if either moved the reader falls back
 * to pmu->read.  It is taken only where the state is plain: the event is
 * ACTIVE on this CPU (the caller's test), neither stopped nor marked up
 * to date by its PMU (PERF_HES_STOPPED, PERF_HES_UPTODATE: perf is moving
 * it), perf is not inside its PMU-disabled section on this CPU (its
 * pmu_disable_count: a reader inside it, a kprobe in perf's own code or an
 * NMI, may find an index half reassigned), PMUv3 counts (not its
 * interrupt handler: perfctr_pmu_moving()), and the index names a plain
 * counter.  Whether an event may be read so is decided once, when its
 * CPU's pair is set (perfctr_direct_able()), from facts that never change
 * for the event (its PMU, its width), and kept in the bit of the pair's
 * index PERFCTR_CUR_DIRECT; its counter's index is read each time, as
 * multiplexing and rescheduling move it between counters.
 *
 * arm64: a PMUv3 event counter or the cycle counter of a 32-bit event
 * (not config1's "long", which chains two counters or uses a 64-bit one
 * the driver may bias).  The register is named by a tree of tests on the
 * counter's number, never a jump table or PMSELR (which an interrupted
 * kernel may be using).  The index mapping changed in Linux 6.11: before,
 * index 0 was the cycle counter and index N event counter N - 1
 * (arch/arm64/kernel/perf_event.c, later drivers/perf/arm_pmuv3.c,
 * ARMV8_IDX_TO_COUNTER); since, index N is event counter N and the cycle
 * counter 31, the instruction counter (FEAT_PMUv3_ICNTR) 32
 * (ARMV8_PMU_CYCLE_IDX, ARMV8_PMU_INSTR_IDX in linux/perf/arm_pmuv3.h).
 * A kernel probe of the driver's structure tells which, at build time,
 * and each module checks the answer at start (perfctr_direct_checked()).
 *
 * x86_64 (-D PERFCTR_DIRECT_X86 only, until shown on real hardware):
 * rdpmc of the event's event_base_rdpmc, for a general or fixed counter
 * but the topdown slots counter, of a counting event without PEBS, on the
 * core PMU ("cpu") of a CPU that is not hybrid, outside Xen PV.  The
 * width is the kernel's, asked once at the start (perfctr_direct_start():
 * perf_get_x86_pmu_capability()) and kept where the read loads it; where
 * the kernel reports none, or exports the question to KVM's modules alone
 * (7.2; the kernel probe PERFCTR_HAVE_X86_PMU_CAP, translator/kconf.c,
 * reads Module.symvers), no direct read.  perfctr_width.h has the rules.
 *
 * pmu_disable_count lives per CPU in struct pmu (6.1, 6.12), in the CPU's
 * struct perf_cpu_pmu_context later (7.2: through a per-CPU pointer); the
 * kernel probes (translator/kconf.c) say which.  A kernel where none compiles gets no
 * direct read.  docs/design.md, "Direct reads", has the rest.
 */
#ifndef PERFCTR_DIRECT_H
#define PERFCTR_DIRECT_H

#include "perfctr_width.h"	/* the delta at the counter's width */

#if defined(PERFCTR_HAVE_PMU_DISABLE_COUNT)
#define PERFCTR_PMU_DISABLE_COUNT(pmu) (*this_cpu_ptr((pmu)->pmu_disable_count))
#elif defined(PERFCTR_HAVE_CPC_DISABLE_COUNT)
#define PERFCTR_PMU_DISABLE_COUNT(pmu) \
	(this_cpu_ptr((pmu)->cpu_pmu_context)->pmu_disable_count)
#elif defined(PERFCTR_HAVE_CPC_PTR_DISABLE_COUNT)
#define PERFCTR_PMU_DISABLE_COUNT(pmu) \
	((*this_cpu_ptr((pmu)->cpu_pmu_context))->pmu_disable_count)
#endif

/*
 * Is perf reprogramming ev's counter on this CPU, where no read of either
 * kind may look?  arm_pmu's armpmu_start() clears the event's state, then
 * sets its period: prev_count first, the register after
 * (armpmu_event_set_period()); the overflow interrupt sets each
 * overflowed counter's period the same way.  Between the two stores they
 * disagree: pmu->read (armpmu_event_update()) would add the difference,
 * up to 2^32, to the count for good, and a direct read would return it.
 * perf starts an event only with the PMU disabled on this CPU
 * (pmu_disable_count: perf_pmu_disable(), and the transaction around a
 * group's add), and PMUv3's interrupt handler runs with the PMU stopped
 * (PMCR_EL0.E clear) from its start to its end.  Our one reader that
 * belongs there is a sampling body, which perf calls after the period is
 * set (perfctr_sample_run() marks it at its interrupt level); any other
 * is a probe on perf's own code.  The direct read, of PMUv3 events alone,
 * tests the enable bit itself, one instruction: a body of ours takes
 * pmu->read there.  x86 sets the period before it clears
 * PERF_HES_STOPPED, which the reads test.  IRQs off.
 */
#if defined(CONFIG_ARM64) && defined(PERFCTR_PMU_DISABLE_COUNT)
#include <asm/sysreg.h>

#define PERFCTR_PMCR_E	1	/* PMCR_EL0.E: the PMU counts */

/* arm_pmuv3.c names its PMUs armv8_* and armv9_*; Apple's and the uncore
 * PMUs have other registers */
static __always_inline bool perfctr_pmuv3(const struct pmu *pmu)
{
	return pmu->name && (!strncmp(pmu->name, "armv8_", 6) ||
			     !strncmp(pmu->name, "armv9_", 6));
}

/* Does a sampling body of ours run here, at this interrupt level? */
static __always_inline bool perfctr_sample_body_here(void)
{
#ifdef PERFCTR_HAVE_SAMPLES
	return perfctr_sample_here();
#else
	return false;
#endif
}

/* Is PMUv3 stopped on this CPU (its interrupt handler, perf's disabled
 * section)?  pmu is PMUv3's. */
static __always_inline bool perfctr_pmuv3_stopped(void)
{
	return !(read_sysreg(pmcr_el0) & PERFCTR_PMCR_E);
}

/* The reader is inside PMUv3's interrupt handler, not in a body of ours. */
static __always_inline bool perfctr_pmu_irq_stopped(const struct pmu *pmu)
{
	return unlikely(in_hardirq()) && !perfctr_sample_body_here() &&
	       perfctr_pmuv3(pmu) && perfctr_pmuv3_stopped();
}

static __always_inline bool perfctr_pmu_moving(const struct perf_event *ev)
{
	return ev->pmu->task_ctx_nr == perf_hw_context &&
	       (READ_ONCE(PERFCTR_PMU_DISABLE_COUNT(ev->pmu)) ||
		perfctr_pmu_irq_stopped(ev->pmu));
}
#else
static __always_inline bool perfctr_pmuv3_stopped(void)
{
	return false;
}

static __always_inline bool perfctr_pmu_moving(const struct perf_event *ev)
{
	return false;
}
#endif

#if defined(CONFIG_ARM64) && defined(CONFIG_ARM_PMU) && \
    defined(PERFCTR_PMU_DISABLE_COUNT) && !defined(PERFCTR_NO_DIRECT)
#include <linux/perf/arm_pmu.h>
#if __has_include(<linux/perf/arm_pmuv3.h>)
#include <linux/perf/arm_pmuv3.h>
#endif
#include <asm/sysreg.h>

/* The driver's own structure says which mapping (the kernel probe), with
 * the member that goes with it named below: a guess that is wrong (a
 * compile server's build, by release) fails the build.  KVM's header
 * defines ARMV8_PMU_CYCLE_IDX as 31 under the old mapping too. */
#if !defined(PERFCTR_HAVE_ARM_PMU_CNTR_MASK)
/* index 0 the cycle counter, N event counter N - 1 (31: the cycle counter) */
#define PERFCTR_ARM_COUNTER(idx)	(((idx) - 1) & 31)
#define PERFCTR_ARM_MAPPING_MEMBER	num_events
#define PERFCTR_DIRECT 1
#elif defined(ARMV8_PMU_CYCLE_IDX) && ARMV8_PMU_CYCLE_IDX == 31
#define PERFCTR_ARM_COUNTER(idx)	(idx)
#define PERFCTR_ARM_MAPPING_MEMBER	cntr_mask
#define PERFCTR_DIRECT 1
#endif	/* any other mapping: not verified, no direct read */

#if defined(PERFCTR_DIRECT) && defined(PERFCTR_TEST_OTHER_MAPPING)
#undef PERFCTR_ARM_COUNTER	/* the self-check's test: the other one */
#ifdef PERFCTR_HAVE_ARM_PMU_CNTR_MASK
#define PERFCTR_ARM_COUNTER(idx)	(((idx) - 1) & 31)
#else
#define PERFCTR_ARM_COUNTER(idx)	(idx)
#endif
#endif

#ifdef PERFCTR_DIRECT
#define PERFCTR_DIRECT_MASK	0xffffffffULL	/* arm_pmu_event_max_period() */

static inline void perfctr_direct_start(void)
{
}

/* The width flags an event of config1's "long" (or another PMU) has. */
#ifdef ARMPMU_EVT_63BIT
#define PERFCTR_ARM_WIDE (ARMPMU_EVT_64BIT | ARMPMU_EVT_47BIT | ARMPMU_EVT_63BIT)
#elif defined(ARMPMU_EVT_47BIT)
#define PERFCTR_ARM_WIDE (ARMPMU_EVT_64BIT | ARMPMU_EVT_47BIT)
#else
#define PERFCTR_ARM_WIDE ARMPMU_EVT_64BIT
#endif

static bool perfctr_direct_able(const struct perf_event *ev)
{
	return perfctr_pmuv3(ev->pmu) &&
	       ev->pmu->task_ctx_nr == perf_hw_context &&
	       !(ev->attr.config1 & 1) && !(ev->hw.flags & PERFCTR_ARM_WIDE);
}

#define PERFCTR_EV1(n, b) read_sysreg_s(SYS_PMEVCNTRn_EL0(b))
#define PERFCTR_EV2(n, b) ((n) & 1 ? PERFCTR_EV1(n, b + 1) : PERFCTR_EV1(n, b))
#define PERFCTR_EV4(n, b) ((n) & 2 ? PERFCTR_EV2(n, b + 2) : PERFCTR_EV2(n, b))
#define PERFCTR_EV8(n, b) ((n) & 4 ? PERFCTR_EV4(n, b + 4) : PERFCTR_EV4(n, b))

/* Counter c (0-30: event counters, 31: the cycle counter), by a tree of
 * bit tests, each leaf one MRS of a register named in the instruction. */
static __always_inline u64 perfctr_pmu_counter(unsigned int c)
{
	if (c & 16) {
		if (c == 31)
			return read_sysreg_s(SYS_PMCCNTR_EL0);
		return c & 8 ? PERFCTR_EV8(c, 24) : PERFCTR_EV8(c, 16);
	}
	return c & 8 ? PERFCTR_EV8(c, 8) : PERFCTR_EV8(c, 0);
}

/* ev's counter now, or false where its index names none we read. */
static __always_inline bool perfctr_pmu_raw(const struct perf_event *ev,
					    u64 *raw)
{
	int idx = READ_ONCE(ev->hw.idx);

	if ((unsigned int)idx > 31)
		return false;	/* unassigned, or the instruction counter */
	*raw = perfctr_pmu_counter(PERFCTR_ARM_COUNTER(idx));
	return true;
}

static_assert(sizeof_field(struct arm_pmu, PERFCTR_ARM_MAPPING_MEMBER));
#endif	/* PERFCTR_DIRECT */

#elif defined(CONFIG_X86_64) && defined(PERFCTR_DIRECT_X86) && \
      defined(PERFCTR_HAVE_X86_PMU_CAP) && \
      defined(PERFCTR_PMU_DISABLE_COUNT) && !defined(PERFCTR_NO_DIRECT)
#include <asm/cpufeature.h>
#include <asm/perf_event.h>
#include <xen/xen.h>

#define PERFCTR_DIRECT 1
#define PERFCTR_DIRECT_MASK	READ_ONCE(perfctr_x86_mask)

/* The counters' width as a mask (perfctr_width.h), 0: no direct read.
 * Set once at the start, before any pair is. */
static u64 perfctr_x86_mask __read_mostly;

/* Sleepable; at the module's start, before any counter is made. */
static void perfctr_direct_start(void)
{
	struct x86_pmu_capability cap = { 0 };
	bool hybrid = cpu_feature_enabled(X86_FEATURE_HYBRID_CPU);

	/* it warns (WARN_ON_ONCE) on a hybrid CPU, and reports nothing */
	if (!hybrid)
		perf_get_x86_pmu_capability(&cap);
	WRITE_ONCE(perfctr_x86_mask,
		   perfctr_x86_direct_mask(cap.bit_width_gp,
					   cap.bit_width_fixed, hybrid,
					   xen_pv_domain()));
}

/* The core PMU of a CPU that is not hybrid: "cpu" (a hybrid CPU's
 * cpu_core and cpu_atom have no width the kernel reports). */
static bool perfctr_direct_able(const struct perf_event *ev)
{
	const char *name = ev->pmu->name;

	return READ_ONCE(perfctr_x86_mask) && name && !strcmp(name, "cpu") &&
	       ev->pmu->task_ctx_nr == perf_hw_context &&
	       !ev->attr.precise_ip && !ev->attr.sample_period;	/* counting */
}

static __always_inline bool perfctr_pmu_raw(const struct perf_event *ev,
					    u64 *raw)
{
	int idx = READ_ONCE(ev->hw.idx);

	/* general counters, then the fixed ones but slots; past them the
	 * metrics, BTS and LBR pseudo-counters */
	if ((unsigned int)idx >= INTEL_PMC_IDX_FIXED + INTEL_PMC_MAX_FIXED ||
	    idx == INTEL_PMC_IDX_FIXED_SLOTS || !READ_ONCE(ev->hw.event_base))
		return false;
	*raw = native_read_pmc(READ_ONCE(ev->hw.event_base_rdpmc));
	return true;
}
#endif

#ifdef PERFCTR_DIRECT
/* Test builds count which way each direct read went (perfctr_selftest.c). */
enum { PERFCTR_DIRECT_HIT, PERFCTR_DIRECT_UNSAFE, PERFCTR_DIRECT_MOVED,
       PERFCTR_DIRECT_WAYS };
#ifdef PERFCTR_SELFTEST
static void perfctr_direct_note(unsigned int way);
static void perfctr_race_direct(struct perf_event *ev);
#define PERFCTR_DIRECT_NOTE(way) perfctr_direct_note(PERFCTR_DIRECT_##way)
#define PERFCTR_RACE_DIRECT(ev) perfctr_race_direct(ev)
#else
#define PERFCTR_DIRECT_NOTE(way) do { } while (0)
#define PERFCTR_RACE_DIRECT(ev) do { } while (0)
#endif

/*
 * ev's count read from the PMU without the kernel's update, into *val;
 * false where it cannot be (the caller takes pmu->read).  ev is ACTIVE on
 * this CPU and perfctr_direct_able(); IRQs off.
 */
static __always_inline bool perfctr_direct_read(struct perf_event *ev,
						u64 *val)
{
	struct hw_perf_event *hw = &ev->hw;
	u64 count, prev, raw;

	if (unlikely((READ_ONCE(hw->state) &
		      (PERF_HES_STOPPED | PERF_HES_UPTODATE)) ||
		     READ_ONCE(PERFCTR_PMU_DISABLE_COUNT(ev->pmu)) ||
		     perfctr_pmuv3_stopped())) {
		PERFCTR_DIRECT_NOTE(UNSAFE);
		return false;
	}
	count = local64_read(&ev->count);
	prev = local64_read(&hw->prev_count);
	barrier();	/* an interrupt between here and the re-check is seen */
	PERFCTR_RACE_DIRECT(ev);
	if (unlikely(!perfctr_pmu_raw(ev, &raw))) {
		PERFCTR_DIRECT_NOTE(UNSAFE);
		return false;
	}
	barrier();
	if (unlikely(local64_read(&ev->count) != count ||
		     local64_read(&hw->prev_count) != prev)) {
		PERFCTR_DIRECT_NOTE(MOVED);
		return false;
	}
	PERFCTR_DIRECT_NOTE(HIT);
	*val = count + perfctr_width_delta(raw, prev, PERFCTR_DIRECT_MASK);
	return true;
}

/*
 * The self-check.  Which register a direct read takes is decided at build
 * time, from headers; a wrong decision reads another counter, which the
 * re-check cannot see.  So the first event placed where it may be read
 * direct, and ACTIVE on the placing CPU, is read direct, by the kernel
 * (pmu->read) and direct again: the three must not go down and must lie
 * within PERFCTR_DIRECT_SPAN of each other, or direct reads stay off in
 * this module.  Until one event has passed, none is read direct: the
 * verdict is the module's, as the mapping is the kernel's.
 */
enum { PERFCTR_DIRECT_UNCHECKED, PERFCTR_DIRECT_GOOD, PERFCTR_DIRECT_BAD };
static int perfctr_direct_verdict;
static atomic_t perfctr_direct_said;

/* far more than a few hundred instructions' worth of any event */
#define PERFCTR_DIRECT_SPAN	(1ULL << 24)

/* May ev, perfctr_direct_able(), be read direct?  On ev's CPU, IRQs off
 * (elsewhere, or while perf moves it, an unchecked module says no). */
static bool perfctr_direct_checked(struct perf_event *ev)
{
	int v = READ_ONCE(perfctr_direct_verdict);
	u64 a, b, c;

	if (v != PERFCTR_DIRECT_UNCHECKED)
		return v == PERFCTR_DIRECT_GOOD;
	if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(ev->oncpu) != smp_processor_id() ||
	    perfctr_pmu_moving(ev) || !perfctr_direct_read(ev, &a))
		return false;
	ev->pmu->read(ev);	/* no reader takes ev direct yet */
	b = local64_read(&ev->count);
	if (!perfctr_direct_read(ev, &c))
		return false;
	v = a <= b && b <= c && c - a < PERFCTR_DIRECT_SPAN ?
	    PERFCTR_DIRECT_GOOD : PERFCTR_DIRECT_BAD;
	cmpxchg(&perfctr_direct_verdict, PERFCTR_DIRECT_UNCHECKED, v);
	return READ_ONCE(perfctr_direct_verdict) == PERFCTR_DIRECT_GOOD;
}

/* Has the check decided, either way? */
static inline bool perfctr_direct_decided(void)
{
	return READ_ONCE(perfctr_direct_verdict) != PERFCTR_DIRECT_UNCHECKED;
}

/* Says, once, that the self-check turned direct reads off.  Sleepable. */
static void perfctr_direct_say(void)
{
	if (READ_ONCE(perfctr_direct_verdict) != PERFCTR_DIRECT_BAD ||
	    atomic_xchg(&perfctr_direct_said, 1))
		return;
	_stp_warn("perfctr: %s: counters are read through the kernel only: "
		  "a direct read of the PMU disagreed with the kernel's read "
		  "(this kernel's counter numbering is not the one the module "
		  "was built for)\n", THIS_MODULE->name);
}

static void perfctr_direct_check_here(void *ev)
{
	perfctr_direct_checked(ev);
}

/* perfctr_direct_checked() of ev, which counts on cpu.  Sleepable. */
static bool perfctr_direct_checked_on(struct perf_event *ev, int cpu)
{
	if (READ_ONCE(perfctr_direct_verdict) == PERFCTR_DIRECT_UNCHECKED)
		smp_call_function_single(cpu, perfctr_direct_check_here, ev, 1);
	perfctr_direct_say();
	return READ_ONCE(perfctr_direct_verdict) == PERFCTR_DIRECT_GOOD;
}
#else
static inline void perfctr_direct_start(void)
{
}

static inline bool perfctr_direct_able(const struct perf_event *ev)
{
	return false;
}

static inline bool perfctr_direct_checked(struct perf_event *ev)
{
	return false;
}

static inline void perfctr_direct_say(void)
{
}

static inline bool perfctr_direct_decided(void)
{
	return true;
}

static inline bool perfctr_direct_checked_on(struct perf_event *ev, int cpu)
{
	return false;
}

static __always_inline bool perfctr_direct_read(struct perf_event *ev,
						u64 *val)
{
	return false;
}
#endif	/* PERFCTR_DIRECT */

#endif	/* PERFCTR_DIRECT_H */
