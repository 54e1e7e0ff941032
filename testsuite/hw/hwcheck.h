/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwcheck.h - what the files of perfctr-hwcheck share: the probes that
 * scripts/hw-check runs on a real machine (testsuite/hw/README.md).
 * Names are hw_<file>_<verb>.
 */
#ifndef PERFCTR_HWCHECK_H
#define PERFCTR_HWCHECK_H

#include <stdint.h>
#include <stdio.h>
#include "libperfctr.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ judge.c */

/* How far a count may be from what the work must retire: ppm parts per
 * million of it plus slack (a few events a hardware interrupt may add
 * on some x86 CPUs).  tolerance(0, ...) is slack. */
uint64_t hw_judge_tolerance(uint64_t expected, unsigned int ppm,
			    uint64_t slack);

/* The verdict on runs of one exact check: each run's error (what it
 * counted minus what was expected), their median, and whether the
 * median is within the tolerance. */
struct hw_verdict {
	int64_t median;		/* median error (lower middle for even n) */
	int64_t min, max;	/* smallest and largest error */
	uint64_t tolerance;
	int within;		/* |median| <= tolerance */
	int exact;		/* every run's error is 0 */
};

/* Judges n > 0 errors (reordered in place).  Returns 0, or -EINVAL for
 * n == 0. */
int hw_judge_errors(int64_t *err, unsigned int n, uint64_t tolerance,
		    struct hw_verdict *v);

/* The difference b - a of two counts as a signed error base, saturated
 * at INT64_MIN/MAX (a count that went backwards is negative). */
int64_t hw_judge_delta(uint64_t a, uint64_t b);

/* Whether a count that is not exact (a time, cycles) counts the work:
 * small and big hold n > 0 runs' counts of the work and of more of it.
 * Of each, the least is the run the machine disturbed least (a preempted
 * vCPU or an interrupt only adds): the bigger work's must be above the
 * smaller's, and some run of the smaller must have counted at all (a
 * clock that moves by jiffies, as sched_clock does in a guest whose
 * kernel judged its TSC unstable, may count none of a short run).  Sets
 * *least_small and *least_big. */
int hw_judge_counts(const uint64_t *small, const uint64_t *big,
		    unsigned int n, uint64_t *least_small, uint64_t *least_big);

/* ------------------------------------------------------------- loop.c */

/* User instructions one iteration of hw_loop_run retires, exactly: 2 on
 * x86_64 and aarch64 (a decrement and a conditional branch), 0 where
 * there is no such loop (the exact checks are skipped there). */
extern const unsigned int hw_loop_insns;

/* n >= 1 iterations of the loop; nothing else between call and return
 * but the call's own instructions. */
void hw_loop_run(long n);

/* Writes one byte to each of n pages at p (one minor fault each when
 * they are fresh). */
void hw_loop_touch(volatile char *p, long n, long page);

/* ------------------------------------------------------------ trial.c */

struct hw_trial_opts {
	const char *sysfs_root;	/* NULL: /sys */
	double seconds;		/* stop trying after this long; 0: no limit */
};

/* Trial-opens every generic event and every named event of this
 * machine (perfctr_dump__names) through the library's resolver, on a
 * CPU of the event's PMU.  Writes one line per event to out, a
 * summary, and key=value
 * lines to keys (may be NULL).  Returns 0, 1 when a check failed (a
 * listed name that does not resolve), or a negative errno. */
int hw_trial_run(const struct hw_trial_opts *o, FILE *out, FILE *keys);

/* ------------------------------------------------------------- priv.c */

/* As root: perf_event_open(2) as user nobody at each
 * kernel.perf_event_paranoid level (restored after) against
 * perfctr_priv_rule(), for the rows only hardware answers (a raw event
 * with Intel's AnyThread bit among them).  Returns 0, 1 when the rule
 * allows what perf refuses, or a negative errno (-EPERM: not root). */
int hw_priv_run(FILE *out, FILE *keys);

/* ------------------------------------------------------------ count.c */

struct hw_count_opts {
	const char *sysfs_root;
	long iterations;	/* N: runs of N and 2N (or 8N) iterations */
	unsigned int runs;	/* pairs of runs per event */
	long pages;		/* P: runs touching 2P and P pages */
	int wide;		/* also one run past 2^32 instructions */
};

/* Counts the loop (and the page touches) in this process through the
 * encodings the library resolves for perf's generic events and the
 * CPU's named instruction events; exact checks where the count is known.
 * Lines to out, key=value lines to keys (may be NULL).  Returns 0, 1
 * when a check failed, or a negative errno. */
int hw_count_run(const struct hw_count_opts *o, FILE *out, FILE *keys);

/* ------------------------------------------------------------- util.c */

/* A key for key=value output: name with every byte that is not
 * [A-Za-z0-9_] made '_', into buf. */
void hw_util_key(const char *name, char *buf, size_t len);

/* "type 4 config 0x1c0 config1 0x0 user": an encoding, into buf. */
void hw_util_encoding(const struct perfctr_encoding *enc, char *buf,
		      size_t len);

/* The PMU an event name of the dump belongs to: "PMU/EVENT/" (sysfs,
 * by name) or "PMU::EVENT..." (libpfm4, by its libpfm4 name); NULL for a
 * generic name or a PMU the dump does not have. */
const struct perfctr_dump_pmu *hw_util_pmu_of(const struct perfctr_dump *d,
					      const char *name);

/* The first CPU of a PMU's cpus list ("0-7,16"), or dflt when it has
 * none (every CPU). */
int hw_util_first_cpu(const struct perfctr_dump_pmu *p, int dflt);

/* The first online CPU (0 when sysfs does not say). */
int hw_util_first_online(const char *sysfs_root);

/* What both probes start from: a resolver and the dump (without its
 * trial opens: every generic name listed).  Returns 0 or a negative
 * errno (nothing to free then). */
int hw_util_machine(const char *sysfs_root, struct perfctr_resolver **r,
		    struct perfctr_dump **d);

/* Seconds since an arbitrary start (CLOCK_MONOTONIC). */
double hw_util_now(void);

#endif /* PERFCTR_HWCHECK_H */
