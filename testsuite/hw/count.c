/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * count.c - counts in this process, through the encodings the library
 * resolves, of work whose count is known: the loop (hw_loop_insns user
 * instructions an iteration) and fresh page touches (one fault each).
 *
 * Each event is opened disabled as a counter of this task, pinned, and
 * each run is reset, enable, work, disable, read.  A run of 2N and one of
 * N take the same path, so the difference of their counts is the work
 * of N alone: what the ioctls and the call around the loop retire
 * cancels out.  Each run's error is that difference minus what N must
 * retire; the median error must be within the tolerance (judge.c).
 * Events with no exact count (cycles, task-clock) run N and 8N.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include "hwcheck.h"

/* The tolerance of an instruction count: 1 ppm + 16 (some x86 CPUs add
 * one user instruction per hardware interrupt that hits the window).
 * Page faults are software events: exact. */
#define INSN_PPM 1
#define INSN_SLACK 16
/* The run past 2^32 instructions: 2^31 + 2^20 iterations. */
#define WIDE_ITERATIONS ((1L << 31) + (1L << 20))
/* A time or cycle count has no exact value: it must grow from N to
 * 8 x N iterations, far enough that a loaded host's noise in the runs of
 * N (a TCG vCPU preempted for milliseconds) cannot hide the growth. */
#define COUNTS_FACTOR 8L

enum work { WORK_LOOP, WORK_PAGES };
enum expect {
	EXPECT_EXACT,	/* the loop's instructions, or the pages' faults */
	EXPECT_COUNTS,	/* more than 0, and more for COUNTS_FACTOR x N than N */
};

struct check {
	const char *name;
	unsigned int plm;
	enum work work;
	enum expect expect;
};

/* perf's generic events, as scripts name them; all in user mode (.user),
 * which perf_event_paranoid 2 still allows a user for its own task. */
static const struct check generic_checks[] = {
	{ "instructions", PERFCTR_PLM_USER, WORK_LOOP, EXPECT_EXACT },
	{ "cycles", PERFCTR_PLM_USER, WORK_LOOP, EXPECT_COUNTS },
	{ "page-faults", PERFCTR_PLM_USER, WORK_PAGES, EXPECT_EXACT },
	{ "task-clock", PERFCTR_PLM_USER, WORK_LOOP, EXPECT_COUNTS },
};

/* The CPU's own names for retired instructions, as the dump's names
 * end: a sysfs PMU's events, libpfm4's events of Intel, AMD and Arm
 * (INST_RETIRED:ANY is Intel's fixed counter, ANY_P a general one). */
static const char *const insn_names[] = {
	"/instructions/", "/inst_retired/",
	"::INST_RETIRED:ANY", "::INST_RETIRED:ANY_P", "::INSTRUCTION_RETIRED",
	"::RETIRED_INSTRUCTIONS", "::INST_RETIRED",
};

struct tally {
	unsigned int ok, failed, skipped;
};

struct ctx {
	const struct hw_count_opts *o;
	struct perfctr_resolver *r;
	FILE *out, *keys;
	struct tally t;
	long page;
	int cpu;		/* where the task runs while it counts */
};

struct result {
	char key[PERFCTR_NAME_MAX];
	char what[PERFCTR_NAME_MAX + 64];	/* name, encoding */
	const char *status;
	char reason[1024];
};

static void report(struct ctx *c, struct result *res)
{
	fprintf(c->out, "count %s: %s: %s\n", res->what, res->status,
		res->reason);
	if (c->keys) {
		fprintf(c->keys, "count.%s=%s\n", res->key, res->status);
		fprintf(c->keys, "count.%s.reason=%s\n", res->key, res->reason);
	}
	if (!strcmp(res->status, "ok"))
		c->t.ok++;
	else if (!strcmp(res->status, "fail"))
		c->t.failed++;
	else
		c->t.skipped++;
}

static int open_counter(const struct perfctr_encoding *enc)
{
	struct perf_event_attr a;
	int fd;

	perfctr_encoding__attr(enc, &a);
	a.disabled = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Fresh pages for one run of n touches (mapped, not yet touched). */
static char *pages_map(struct ctx *c, long n)
{
	char *p = mmap(NULL, n * c->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, n * c->page, MADV_NOHUGEPAGE);
	return p;
}

/* One run: reset, enable, the work of n, disable, read.  Returns 0,
 * -ENOSPC when the counter was not scheduled (ERROR state: no bytes),
 * -EAGAIN when it ran only part of the time (multiplexed), -ENOMEM. */
static int measure(struct ctx *c, int fd, enum work w, long n, uint64_t *val)
{
	uint64_t v[3];
	char *p = NULL;
	ssize_t got;

	if (w == WORK_PAGES && !(p = pages_map(c, n)))
		return -ENOMEM;
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (w == WORK_PAGES)
		hw_loop_touch(p, n, c->page);
	else
		hw_loop_run(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	got = read(fd, v, sizeof(v));
	if (p)
		munmap(p, n * c->page);
	if (got != (ssize_t)sizeof(v))
		return got < 0 ? -errno : -ENOSPC;
	if (v[2] < v[1])
		return -EAGAIN;
	*val = v[0];
	return 0;
}

static const char *measure_reason(int err)
{
	switch (err) {
	case -ENOSPC:
		return "the counter was not scheduled (ERROR state: no room on the PMU)";
	case -EAGAIN:
		return "the counter ran only part of the time (multiplexed)";
	default:
		return strerror(-err);
	}
}

/* Runs of n and factor x n, r times: the counts of each into small[],
 * big[]. */
static int measure_pairs(struct ctx *c, int fd, enum work w, long n,
			 long factor, uint64_t *small, uint64_t *big)
{
	unsigned int i;
	uint64_t warm;
	int err = measure(c, fd, w, n, &warm);	/* code and stack touched */

	for (i = 0; !err && i < c->o->runs; i++) {
		err = measure(c, fd, w, n, &small[i]);
		if (!err)
			err = measure(c, fd, w, factor * n, &big[i]);
	}
	return err;
}

static void key_set(struct ctx *c, const char *key, const char *field,
		    long long v)
{
	if (c->keys)
		fprintf(c->keys, "count.%s.%s=%lld\n", key, field, v);
}

/* One more run, of WIDE_ITERATIONS: past 2^32 instructions (the
 * counters' width: 48 bits on x86, 32-bit Arm event counters the kernel
 * chains or folds).  overhead: what the path around the loop retires. */
static void wide(struct ctx *c, int fd, const struct result *base,
		 int64_t overhead)
{
	struct result res = { .status = "ok" };
	uint64_t want = (uint64_t)hw_loop_insns * WIDE_ITERATIONS + overhead;
	uint64_t tol = hw_judge_tolerance(want, INSN_PPM, INSN_SLACK), got;
	int64_t off;
	int err = measure(c, fd, WORK_LOOP, WIDE_ITERATIONS, &got);

	snprintf(res.key, sizeof(res.key), "%s_wide", base->key);
	snprintf(res.what, sizeof(res.what), "%s, past 2^32", base->what);
	if (err) {
		res.status = "fail";
		snprintf(res.reason, sizeof(res.reason), "%s", measure_reason(err));
		report(c, &res);
		return;
	}
	off = hw_judge_delta(want, got);
	if ((uint64_t)(off < 0 ? -off : off) > tol)
		res.status = "fail";
	snprintf(res.reason, sizeof(res.reason),
		 "%llu counted for %ld iterations, %llu expected "
		 "(%u x N + the path around the loop, %lld), off by %lld, "
		 "tolerance %llu", (unsigned long long)got, WIDE_ITERATIONS,
		 (unsigned long long)want, hw_loop_insns, (long long)overhead,
		 (long long)off, (unsigned long long)tol);
	key_set(c, res.key, "expected", want);
	key_set(c, res.key, "counted", got);
	report(c, &res);
}

/* The verdict of an exact check from the pairs of counts. */
static void exact(struct ctx *c, const struct check *k, int fd, long n,
		  const uint64_t *small, const uint64_t *big,
		  struct result *res)
{
	unsigned int i, runs = c->o->runs;
	uint64_t want = k->work == WORK_PAGES ? (uint64_t)n
					       : (uint64_t)hw_loop_insns * n;
	uint64_t tol = k->work == WORK_PAGES ? 0 :
		       hw_judge_tolerance(want, INSN_PPM, INSN_SLACK);
	int64_t err[runs], over[runs];
	struct hw_verdict v, ov;

	for (i = 0; i < runs; i++) {
		err[i] = hw_judge_delta(small[i], big[i]) - (int64_t)want;
		over[i] = hw_judge_delta(want, small[i]);
	}
	hw_judge_errors(err, runs, tol, &v);
	hw_judge_errors(over, runs, 0, &ov);
	res->status = v.within ? "ok" : "fail";
	snprintf(res->reason, sizeof(res->reason),
		 "%s %ld: %llu expected, median error %lld (runs %lld..%lld "
		 "of %u), tolerance %llu%s; the path around it: %lld",
		 k->work == WORK_PAGES ? "pages" : "iterations", n,
		 (unsigned long long)want, (long long)v.median,
		 (long long)v.min, (long long)v.max, runs,
		 (unsigned long long)tol, v.exact ? ", exact" : "",
		 (long long)ov.median);
	key_set(c, res->key, "expected", want);
	key_set(c, res->key, "error", v.median);
	key_set(c, res->key, "tolerance", tol);
	key_set(c, res->key, "exact", v.exact);
	report(c, res);
	if (v.within && k->work == WORK_LOOP && c->o->wide)
		wide(c, fd, res, ov.median);
}

static void counts(struct ctx *c, long n, const uint64_t *small,
		   const uint64_t *big, struct result *res)
{
	uint64_t a, b;
	int ok = hw_judge_counts(small, big, c->o->runs, &a, &b);

	res->status = ok ? "ok" : "fail";
	snprintf(res->reason, sizeof(res->reason),
		 "%s: least %llu for %ld iterations, %llu for %ld",
		 ok ? "counts" : "does not count the work",
		 (unsigned long long)a, n, (unsigned long long)b,
		 COUNTS_FACTOR * n);
	key_set(c, res->key, "small", a);
	key_set(c, res->key, "big", b);
	report(c, res);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* best effort */
}

static void check_one(struct ctx *c, const struct check *k, int cpu)
{
	struct perfctr_encoding enc;
	struct result res = { .status = "skip" };
	char why[512], encs[160];
	long n = k->work == WORK_PAGES ? c->o->pages : c->o->iterations;
	uint64_t small[c->o->runs], big[c->o->runs];
	int fd, err;

	hw_util_key(k->name, res.key, sizeof(res.key) - 2);
	if (k->plm == PERFCTR_PLM_USER)
		strcat(res.key, "_u");
	snprintf(res.what, sizeof(res.what), "%s%s", k->name,
		 k->plm == PERFCTR_PLM_USER ? " (user)" : "");
	err = perfctr_resolver__resolve(c->r, k->name, k->plm, &enc, why,
					sizeof(why));
	if (err) {
		res.status = "fail";
		snprintf(res.reason, sizeof(res.reason), "does not resolve: %s", why);
		report(c, &res);
		return;
	}
	hw_util_encoding(&enc, encs, sizeof(encs));
	snprintf(res.what + strlen(res.what), sizeof(res.what) - strlen(res.what),
		 ", %s", encs);
	pin(cpu);
	fd = open_counter(&enc);
	if (fd < 0) {
		perfctr_trial__explain(fd, why, sizeof(why));
		snprintf(res.reason, sizeof(res.reason), "does not open here: %s", why);
		report(c, &res);
		return;
	}
	err = measure_pairs(c, fd, k->work, n,
			    k->expect == EXPECT_COUNTS ? COUNTS_FACTOR : 2,
			    small, big);
	if (err) {
		snprintf(res.reason, sizeof(res.reason), "%s", measure_reason(err));
		report(c, &res);
	} else if (k->expect == EXPECT_COUNTS) {
		counts(c, n, small, big, &res);
	} else if (k->work == WORK_LOOP && !hw_loop_insns) {
		snprintf(res.reason, sizeof(res.reason), "no loop of a known "
			 "instruction count on this architecture");
		report(c, &res);
	} else {
		exact(c, k, fd, n, small, big, &res);
	}
	close(fd);
}

struct names {
	struct ctx *c;
	const struct perfctr_dump *d;
	int cpu;
};

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* A name of the dump that is one of the CPU's own for retired
 * instructions: counted like "instructions". */
static void named(const char *name, void *arg)
{
	struct names *s = arg;
	struct check k = { name, PERFCTR_PLM_USER, WORK_LOOP, EXPECT_EXACT };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(insn_names); i++)
		if (ends_with(name, insn_names[i])) {
			check_one(s->c, &k, hw_util_first_cpu(
				hw_util_pmu_of(s->d, name), s->cpu));
			return;
		}
}

int hw_count_run(const struct hw_count_opts *o, FILE *out, FILE *keys)
{
	struct ctx c = { .o = o, .out = out, .keys = keys };
	struct perfctr_dump *d;
	struct names s;
	size_t i;
	int err;

	if (o->iterations < 1 || o->pages < 1 || o->runs < 1)
		return -EINVAL;
	c.page = sysconf(_SC_PAGESIZE);
	c.cpu = hw_util_first_online(o->sysfs_root);
	err = hw_util_machine(o->sysfs_root, &c.r, &d);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(generic_checks); i++)
		check_one(&c, &generic_checks[i], c.cpu);
	s = (struct names){ &c, d, c.cpu };
	err = perfctr_dump__names(d, named, &s);
	perfctr_dump__free(d);
	perfctr_resolver__free(c.r);
	fprintf(out, "count: %u ok, %u failed, %u skipped\n", c.t.ok,
		c.t.failed, c.t.skipped);
	if (keys)
		fprintf(keys, "count.ok=%u\ncount.failed=%u\ncount.skipped=%u\n",
			c.t.ok, c.t.failed, c.t.skipped);
	if (err)
		return err;
	return c.t.failed ? 1 : 0;
}
