/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trial.c - can this machine count these events now?  Open them as the
 * module will (runtime/perfctr_attr.h builds both attrs): counters
 * pinned unless multiplexed, sampling clauses flexible with their
 * period, frequency and precision, per CPU or, for .process requests,
 * as a task's events while the task runs on the CPU (this process,
 * moved there).  All at once, read each once, close.  A pinned event
 * that cannot be scheduled is in ERROR state, and a read of it returns
 * 0 bytes.  A group opens leader first, its siblings with its fd (never
 * pinned: perf pins a group by its leader); perfctr-run keeps its
 * groups' events open for the module.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include "internal.h"
#include "perfctr_attr.h"

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define PARANOID_UNKNOWN (-100)
/* A task event's read: did it run on this CPU? */
#define TASK_READ (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
/* how long a task trial waits for its clock to move (several ticks) */
#define TRIAL_CLOCK_WAIT_NS (200 * 1000000ull)

void perfctr_encoding__attr(const struct perfctr_encoding *enc,
			    struct perf_event_attr *a)
{
	perfctr_attr_counter(a, enc->type, enc->config, enc->config1,
			     enc->config2, enc->flags);
}

void perfctr_trial__init(struct perfctr_trial *t,
			 const struct perfctr_request *req,
			 const struct perfctr_encoding *enc)
{
	memset(t, 0, sizeof(*t));
	t->enc = *enc;
	t->fd = -1;
	if (!req)
		return;
	t->per_task = req->scope == PERFCTR_SCOPE_PROCESS;
	t->sample = req->sample;
	t->hz = req->hz;
	t->precise = req->precise;
	t->payload = req->payload;
	t->gh = req->gh;
}

/* The module's attr for t (perfctr_attr.h). */
static void trial_attr(const struct perfctr_trial *t,
		       struct perf_event_attr *a)
{
	perfctr_attr_counter(a, t->enc.type, t->enc.config, t->enc.config1,
			     t->enc.config2, t->enc.flags);
	if (t->sample || t->hz)
		perfctr_attr_sample(a, t->sample, t->hz, t->precise,
				    t->payload);
}

int perfctr_trial__pinned(const struct perfctr_trial *t)
{
	return !(t->enc.flags & PERFCTR_F_MULTIPLEX) && !t->sample && !t->hz;
}

/* t, which is t[self] of its set, in the group of leader_fd (-1: none). */
static int open_one(const struct perfctr_trial *t, unsigned int self,
		    int cpu, int leader_fd)
{
	struct perf_event_attr a;
	int fd;

	trial_attr(t, &a);
	if (t->per_task)
		a.read_format = TASK_READ;	/* the one field added */
	if (t->group && t->group - 1 != self)
		a.pinned = 0;		/* only a leader may be pinned */
	fd = syscall(__NR_perf_event_open, &a, t->per_task ? 0 : -1,
		     t->per_task ? -1 : cpu, leader_fd,
		     t->keep ? 0 : PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* As perf does: a PMU that cannot tell guest from host refuses
 * exclude_guest; unless the name asked (:G/:H), count without it. */
static int open_trial(struct perfctr_trial *t, unsigned int self, int cpu,
		      int leader_fd)
{
	int fd = open_one(t, self, cpu, leader_fd);

	if (fd != -EINVAL || t->gh || !(t->enc.flags & PERFCTR_F_EXCLUDE_GUEST))
		return fd;
	t->enc.flags &= ~PERFCTR_F_EXCLUDE_GUEST;
	fd = open_one(t, self, cpu, leader_fd);
	if (fd < 0)		/* that was not the reason */
		t->enc.flags |= PERFCTR_F_EXCLUDE_GUEST;
	return fd;
}

static int read_values(int fd, uint64_t *v, size_t want)
{
	ssize_t n = read(fd, v, want);

	if (n == 0)
		return -ENOSPC;		/* a pinned event in ERROR state */
	if (n < 0)
		return -errno;
	return (size_t)n == want ? 0 : -EIO;
}

/* Nanoseconds on CLOCK_MONOTONIC. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int read_once(const struct perfctr_trial *t, int fd)
{
	uint64_t v[3], until;
	size_t want = t->per_task ? sizeof(v) : sizeof(v[0]);
	int ret = read_values(fd, v, want);

	if (ret || !t->per_task || !perfctr_trial__pinned(t))
		return ret;
	/*
	 * A task event's times come from the scheduler's clock, which may
	 * stand still for a tick (an unstable TSC clamps it to the tick's
	 * window: VMs on a loaded host): while enabled time has not moved
	 * either, nothing is known yet; spin here (a sleep would stop the
	 * task's clock too) and read again, a while.
	 */
	for (until = now_ns() + TRIAL_CLOCK_WAIT_NS; !v[1] && !v[2] &&
	     now_ns() < until;)
		if ((ret = read_values(fd, v, want)))
			return ret;
	/* a pinned task event that was enabled and never ran here is not
	 * counting here; one whose clock never moved is not known not to */
	return v[1] && !v[2] ? -ENOSPC : 0;
}

/* This process alone on cpu, now.  -EAGAIN: the scheduler did not move
 * it there. */
static int run_on(int cpu, size_t size)
{
	cpu_set_t *one = CPU_ALLOC(PC_CPUS_MAX);
	int ret = 0;

	if (!one)
		return -ENOMEM;
	CPU_ZERO_S(size, one);
	CPU_SET_S(cpu, size, one);
	if (sched_setaffinity(0, size, one)) {
		ret = -errno;
	} else if (sched_getcpu() != cpu) {
		sched_yield();		/* let the migration happen */
		if (sched_getcpu() != cpu)
			ret = -EAGAIN;
	}
	CPU_FREE(one);
	return ret;
}

/* Opens and reads the set; per-task events only when task_ok (res 0 for
 * them otherwise), from this process, which runs on cpu by then.  A
 * group member whose leader did not open is not tried (-ECANCELED).
 * Kept events stay open when all opened and fit. */
static void open_all(struct perfctr_trial *t, unsigned int n, int cpu,
		     int task_ok, int *fd, int *res)
{
	unsigned int i;
	int leader_fd, all = 1;

	for (i = 0; i < n; i++) {
		fd[i] = -1;
		res[i] = 0;
		t[i].fd = -1;
		if (t[i].per_task && !task_ok)
			continue;
		leader_fd = t[i].group && t[i].group - 1 != i ?
			    fd[t[i].group - 1] : -1;
		if (t[i].group && t[i].group - 1 != i && leader_fd < 0) {
			res[i] = -ECANCELED;
			continue;
		}
		fd[i] = open_trial(&t[i], i, cpu, leader_fd);
		res[i] = fd[i] < 0 ? fd[i] : 0;
	}
	/* Only now, with all of them in place, does a misfit show. */
	for (i = 0; i < n; i++)
		if (fd[i] >= 0)
			res[i] = read_once(&t[i], fd[i]);
	for (i = 0; i < n; i++)
		all &= !res[i];
	for (i = 0; i < n; i++) {
		if (fd[i] < 0)
			continue;
		if (all && t[i].keep)
			t[i].fd = fd[i];
		else
			close(fd[i]);
	}
}

static int any_per_task(const struct perfctr_trial *t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t[i].per_task)
			return 1;
	return 0;
}

/* Where the set is tried from: per-task events need this process on
 * cpu (task_ok), and only on a CPU it may use (its children may not
 * either).  Returns 0, or why it could not get there. */
static int go_to(int cpu, cpu_set_t *old, size_t size, int *task_ok)
{
	*task_ok = 0;
	if (sched_getaffinity(0, size, old))
		return -errno;
	if (cpu < 0 || cpu >= PC_CPUS_MAX || !CPU_ISSET_S(cpu, size, old))
		return 0;
	*task_ok = 1;
	return run_on(cpu, size);
}

int perfctr_trials__open(struct perfctr_trial *t, unsigned int n, int cpu,
			 int *res)
{
	size_t size = CPU_ALLOC_SIZE(PC_CPUS_MAX);
	int *fd, ret = 0, task_ok = 0, tried = 0;
	cpu_set_t *old = NULL;
	unsigned int i;

	if (n == 0)
		return 0;
	fd = calloc(n, sizeof(*fd));
	if (fd && any_per_task(t, n)) {
		old = CPU_ALLOC(PC_CPUS_MAX);
		ret = old ? go_to(cpu, old, size, &task_ok) : -ENOMEM;
	}
	if (!fd)
		ret = -ENOMEM;
	if (!ret) {
		open_all(t, n, cpu, task_ok, fd, res);
		tried = 1;
	}
	/* the module's target must not inherit this one CPU */
	if (task_ok && sched_setaffinity(0, size, old) && !ret)
		ret = -errno;
	for (i = 0; i < n; i++) {
		if (!tried)
			res[i] = ret;
		else if (!ret)
			ret = res[i];
	}
	if (old)
		CPU_FREE(old);
	free(fd);
	return ret;
}

static int paranoid(void)
{
	FILE *f = fopen(PARANOID, "re");
	int v;

	if (!f)
		return PARANOID_UNKNOWN;
	if (fscanf(f, "%d", &v) != 1)
		v = PARANOID_UNKNOWN;
	fclose(f);
	return v;
}

/* What each failure means here, in words (permission: see below). */
static const struct {
	int err;
	const char *text;
} reasons[] = {
	{ ENOENT, "the kernel has no such event on this machine" },
	{ EOPNOTSUPP, "the kernel has no such event on this machine" },
	{ EINVAL, "the kernel rejects this encoding "
		  "(type, config or flags invalid for its PMU)" },
	{ EBUSY, "the PMU is busy: another user holds it exclusively" },
	{ ENOSPC, "it does not fit: the counter could not be scheduled next "
		  "to the others (too many counters, or some held elsewhere, "
		  "e.g. by the NMI watchdog)" },
	{ ENODEV, "the event's PMU does not cover this CPU" },
};

void perfctr_trial__explain(int err, char *buf, size_t len)
{
	size_t i;
	int p;

	for (i = 0; i < ARRAY_SIZE(reasons); i++)
		if (-err == reasons[i].err) {
			pc_err(buf, len, 0, "%s", reasons[i].text);
			return;
		}
	if (err != -EACCES && err != -EPERM) {
		pc_err(buf, len, 0, "perf_event_open: %s", strerror(-err));
		return;
	}
	p = paranoid();
	if (p == PARANOID_UNKNOWN)
		pc_err(buf, len, 0, "permission denied (and %s is unreadable)",
		       PARANOID);
	else
		pc_err(buf, len, 0, "permission denied: %s is %d; CPU-wide "
		       "counters need it at -1 or 0, or root (CAP_PERFMON)",
		       PARANOID, p);
}

int perfctr_trials__group_why(const struct perfctr_trial *t, unsigned int k,
			      int cpu, int *err)
{
	struct perfctr_trial two[2];
	int res[2];

	two[0] = t[k];
	two[0].group = 0;
	two[0].keep = 0;
	two[0].enc.flags |= PERFCTR_F_MULTIPLEX;	/* opens, fits or not */
	*err = perfctr_trials__open(two, 1, cpu, res);
	if (*err)
		return PERFCTR_GROUP_EVENT;
	two[0] = t[0];
	two[1] = t[k];
	two[0].group = two[1].group = 1;
	two[0].keep = two[1].keep = 0;
	*err = perfctr_trials__open(two, 2, cpu, res);
	if (res[1] && res[1] != -ENOSPC) {
		*err = res[1];
		return PERFCTR_GROUP_PAIR;
	}
	return PERFCTR_GROUP_SIZE;
}

int perfctr_trials__payload_why(const struct perfctr_trial *t, int cpu,
				unsigned int *bit, int *err)
{
	struct perfctr_trial one = *t;
	unsigned int b;
	int res;

	one.group = 0;
	one.keep = 0;
	one.payload = 0;
	*bit = 0;
	*err = 0;
	if (!t->payload || perfctr_trials__open(&one, 1, cpu, &res))
		return 0;		/* not the payload: the event itself */
	for (b = 1; b & PERFCTR_PL_ALL; b <<= 1) {
		if (!(t->payload & b))
			continue;
		one.payload = b;
		*err = perfctr_trials__open(&one, 1, cpu, &res);
		if (*err) {
			*bit = b;
			return 1;
		}
	}
	return 0;
}

int perfctr_encoding__trial_open(const struct perfctr_encoding *enc, int cpu,
				 char *err, size_t errlen)
{
	struct perfctr_trial t;
	int res, ret;

	perfctr_trial__init(&t, NULL, enc);
	ret = perfctr_trials__open(&t, 1, cpu, &res);
	if (ret)
		perfctr_trial__explain(ret, err, errlen);
	return ret;
}
