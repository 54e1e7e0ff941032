/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-trial-fake.c - trial opens against a kernel this test makes up,
 * so that what real machines do (a full PMU on one CPU, a PMU without
 * precise sampling or without guest/host filtering) can be asked for:
 * the test defines perf_event_open (syscall) and the scheduler's
 * affinity calls, which the library's trial.c then calls.
 *
 * What it shows: a trial opens the attr the module will open (byte for
 * byte against the module's own code, module-attr.c) as the module will
 * (per CPU, or as a task's event while the task runs on each CPU), so a
 * request the module would refuse is refused before load, and one it
 * would accept is not.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "libperfctr.h"
#include "module-attr.h"
#include "perfctr_payload.h"
#include "tap.h"

#define NCPU 2
#define HASH "0123456789abcdef"
#define HW PERF_TYPE_RAW	/* events that take a counter */
#define UNCORE 17		/* a PMU that refuses exclude_guest/host */
#define MAX_OPENS 32

/* The made-up kernel. */
static struct {
	int cpu;			/* where this process runs */
	cpu_set_t allowed;		/* its affinity */
	int counters[NCPU];		/* hardware counters per CPU */
	int used[NCPU];			/* taken by the events open now */
	unsigned int max_precise;
	int no_branch_stack;		/* PERF_SAMPLE_BRANCH_STACK refused */
	int still;			/* reads before a task's clock moves */
	int not_running;		/* task events enabled, never running */
	int group_max;			/* hardware events a group may have */
	int n;				/* the opens since fake_reset() */
	struct perf_event_attr attr[MAX_OPENS];
	int pid[MAX_OPENS], on_cpu[MAX_OPENS], ran_on[MAX_OPENS];
	int fd[MAX_OPENS], group_fd[MAX_OPENS];
	unsigned long flags[MAX_OPENS];
} k;

static void fake_reset(int c0, int c1)
{
	memset(&k, 0, sizeof(k));
	for (k.cpu = 0; k.cpu < NCPU; k.cpu++)
		CPU_SET(k.cpu, &k.allowed);
	k.cpu = 0;
	k.counters[0] = c0;
	k.counters[1] = c1;
	k.max_precise = 3;
	k.group_max = 8;
}

/* perf's group rules, as far as the tests need them: a sibling joins a
 * leader of its own PMU (a hardware one here), is never pinned, and a
 * group holds at most k.group_max hardware events (the PMU's
 * validate_group()). */
static int fake_group(const struct perf_event_attr *a, int group_fd)
{
	int i, leader = -1, hw = a->type == HW;

	if (group_fd < 0)
		return 0;
	for (i = 0; i < k.n - 1; i++)
		if (k.fd[i] == group_fd)
			leader = i;	/* the latest open with that fd */
	if (leader < 0 || k.group_fd[leader] >= 0)
		return -EBADF;
	if (a->pinned || (a->type == UNCORE && k.attr[leader].type == HW))
		return -EINVAL;
	hw += k.attr[leader].type == HW;
	for (i = leader + 1; i < k.n - 1; i++)
		hw += k.group_fd[i] == group_fd && k.fd[i] >= 0 &&
		      k.attr[i].type == HW;
	return hw > k.group_max ? -EINVAL : 0;
}

/* An event's reads, as the kernel would give them: nothing for a pinned
 * event in ERROR state; with read_format, enabled and running times,
 * both 0 for the first k.still reads (a scheduler clock that stands). */
static int fake_fd(const struct perf_event_attr *a, int error, int running)
{
	uint64_t v[3] = { 1000, 5000, running ? 5000 : 0 }, v0[3] = { 0 };
	size_t n = a->read_format ? sizeof(v) : sizeof(v[0]);
	int p[2], i;

	if (pipe(p))
		return -1;
	for (i = 0; !error && a->read_format && i < k.still; i++)
		if (write(p[1], v0, n) != (ssize_t)n)
			return -1;
	if (!error && write(p[1], v, n) != (ssize_t)n)
		return -1;
	close(p[1]);
	return p[0];
}

/* perf_event_open: a hardware event takes a counter of the CPU it is
 * scheduled on (a task's: where the task runs now, if it may count
 * there); a pinned one that finds none is in ERROR state, a flexible
 * one waits. */
long syscall(long nr, ...)
{
	struct perf_event_attr *a;
	int pid, cpu, group_fd, where, runs, fits, slot = k.n, err;
	va_list ap;

	if (nr != __NR_perf_event_open) {
		errno = ENOSYS;
		return -1;
	}
	va_start(ap, nr);
	a = va_arg(ap, struct perf_event_attr *);
	pid = va_arg(ap, int);
	cpu = va_arg(ap, int);
	group_fd = va_arg(ap, int);
	k.flags[slot] = va_arg(ap, unsigned long);
	va_end(ap);
	if (k.n == MAX_OPENS) {
		errno = EMFILE;
		return -1;
	}
	k.attr[slot] = *a;
	k.pid[slot] = pid;
	k.on_cpu[slot] = cpu;
	k.group_fd[slot] = group_fd;
	k.fd[slot] = -1;
	k.n++;
	err = fake_group(a, group_fd);
	if (err) {
		errno = -err;
		return -1;
	}
	if (a->precise_ip > k.max_precise ||
	    (k.no_branch_stack &&
	     (a->sample_type & PERF_SAMPLE_BRANCH_STACK))) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (a->type == UNCORE && (a->exclude_guest || a->exclude_host ||
				  a->config == 0xdead)) {
		errno = EINVAL;
		return -1;
	}
	where = pid == -1 ? cpu : k.cpu;
	runs = pid == -1 || cpu == -1 || cpu == k.cpu;
	k.ran_on[slot] = runs ? where : -1;
	fits = a->type != HW || !runs || k.used[where] < k.counters[where];
	if (a->type == HW && runs && fits)
		k.used[where]++;
	return k.fd[slot] = fake_fd(a, a->pinned && !fits,
				    runs && fits && !(pid != -1 &&
						      k.not_running));
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	CPU_ZERO_S(size, set);
	for (int c = 0; c < NCPU; c++)
		if (CPU_ISSET(c, &k.allowed))
			CPU_SET_S(c, size, set);
	return 0;
}

/* One CPU: this process goes there.  Several: its mask is restored. */
int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	int c, n = 0, last = -1;

	CPU_ZERO(&k.allowed);
	for (c = 0; c < NCPU; c++)
		if (CPU_ISSET_S(c, size, set)) {
			CPU_SET(c, &k.allowed);
			n++;
			last = c;
		}
	if (n == 1)
		k.cpu = last;
	return n ? 0 : (errno = EINVAL, -1);
}

int sched_getcpu(void)
{
	return k.cpu;
}

/* ------------------------------------------------------------ requests */

static struct perfctr_request request(const char *event, unsigned int plm)
{
	struct perfctr_request r;

	memset(&r, 0, sizeof(r));
	snprintf(r.id, sizeof(r.id), "c");
	snprintf(r.event, sizeof(r.event), "%s", event);
	r.plm = plm;
	return r;
}

static void resolve(const struct perfctr_request *r,
		    struct perfctr_encoding *e)
{
	struct perfctr_resolver_opts o = { .sz = sizeof(o), .no_libpfm = 1,
					   .sysfs_root = "/nonexistent" };
	struct perfctr_resolver *res;
	char err[256];

	if (perfctr_resolver__new(&o, &res) ||
	    perfctr_resolver__resolve_request(res, r, e, err, sizeof(err))) {
		printf("Bail out! %s: %s\n", r->event, err);
		exit(99);
	}
	perfctr_resolver__free(res);
	if (r->mux)
		e->flags |= PERFCTR_F_MULTIPLEX;	/* as perfctr-run */
}

/* ------------------------------------------------- module and trial agree */

/* The attr the module opens for r (assigned e) equals the one the trial
 * opened, read_format aside (a task trial's, to see it ran); per-CPU
 * events on the CPU, per-task ones as this process's while it ran on
 * the CPU. */
static void same_attr(const char *what, struct perfctr_request r)
{
	struct module_req m = { 0, r.plm, r.gh, r.mux, r.scope, r.sample,
				r.hz, r.precise, r.payload };
	struct perf_event_attr mod, got;
	struct perfctr_encoding e;
	struct perfctr_trial t;
	char assign[256] = HASH, err[128] = "";
	int res, ret, cpu, task = r.scope == PERFCTR_SCOPE_PROCESS;

	resolve(&r, &e);
	perfctr_assign__append(assign, sizeof(assign), 0, &e);
	ret = module_attr(assign, HASH, &m, &mod, err, sizeof(err));
	is_int(ret, 0, "%s: the module takes the assignment %s", what, err);
	for (cpu = 0; cpu < NCPU; cpu++) {
		fake_reset(4, 4);
		perfctr_trial__init(&t, &r, &e);
		is_int(perfctr_trials__open(&t, 1, cpu, &res), 0,
		       "%s: tried on CPU %d", what, cpu);
		got = k.attr[0];
		if (task)
			got.read_format = 0;
		ok(k.n == 1 && !memcmp(&got, &mod, sizeof(mod)),
		   "  the module's attr (pinned %u, period %llu, freq %u, "
		   "precise %u, excludes %u%u%u%u%u)", mod.pinned,
		   (unsigned long long)mod.sample_period, mod.freq,
		   mod.precise_ip, mod.exclude_user, mod.exclude_kernel,
		   mod.exclude_hv, mod.exclude_guest, mod.exclude_host);
		ok(task ? k.pid[0] == 0 && k.on_cpu[0] == -1 &&
			  k.ran_on[0] == cpu && CPU_COUNT(&k.allowed) == NCPU :
			  k.pid[0] == -1 && k.on_cpu[0] == cpu,
		   "  %s", task ? "this task's event, run on the CPU, then "
		   "back on all its CPUs" : "a per-CPU event on the CPU");
	}
}

static void attrs(void)
{
	struct perfctr_request r;

	same_attr("cycles", request("cycles", PERFCTR_PLM_ALL));
	same_attr(".user", request("cycles", PERFCTR_PLM_USER));
	r = request("cycles:G", PERFCTR_PLM_KERNEL);
	r.gh = PERFCTR_GH_GUEST;
	same_attr(":G.kernel", r);
	r = request("cycles", PERFCTR_PLM_ALL);
	r.mux = 1;
	same_attr(".multiplex", r);
	r = request("instructions", PERFCTR_PLM_USER);
	r.scope = PERFCTR_SCOPE_PROCESS;
	same_attr(".process", r);
	r = request("cycles", PERFCTR_PLM_KERNEL);
	r.sample = 100000;
	r.precise = 2;
	same_attr(".sample(100000).precise(2)", r);
	r = request("cpu-clock", PERFCTR_PLM_ALL);
	r.hz = 99;
	r.scope = PERFCTR_SCOPE_PROCESS;
	same_attr(".process.hz(99)", r);
	r = request("cycles", PERFCTR_PLM_USER);
	r.sample = 100000;
	r.precise = 1;
	r.payload = PERFCTR_PL_ALL;
	same_attr(".user.sample(100000).precise, every payload", r);
}

/* --------------------------------------------------- refused, or not */

/* Tries n requests (hardware raw events unless given) on every CPU, as
 * perfctr-run does; returns the first failure and its CPU. */
static int trial_all(struct perfctr_request *r, struct perfctr_encoding *e,
		     unsigned int n, int c0, int c1, int *where)
{
	struct perfctr_trial t[4];
	int res[4], ret = 0, cpu;
	unsigned int i;

	for (cpu = 0; cpu < NCPU && !ret; cpu++) {
		fake_reset(c0, c1);
		for (i = 0; i < n; i++)
			perfctr_trial__init(&t[i], &r[i], &e[i]);
		ret = perfctr_trials__open(t, n, cpu, res);
		*where = cpu;
		for (i = 0; i < n; i++)
			e[i] = t[i].enc;
	}
	return ret;
}

static void raw(struct perfctr_request *r, struct perfctr_encoding *e,
		unsigned int scope, unsigned int sample)
{
	*r = request("r1c0", PERFCTR_PLM_ALL);
	r->scope = scope;
	r->sample = sample;
	resolve(r, e);
}

static void refusals(void)
{
	struct perfctr_request r[2];
	struct perfctr_encoding e[2];
	int ret, cpu;

	/* CPU 1 has one counter, which the .cpu counter takes: the task's
	 * counter cannot count there (the module would make it; its reads
	 * would fail whenever the task ran on CPU 1). */
	raw(&r[0], &e[0], PERFCTR_SCOPE_CPU, 0);
	raw(&r[1], &e[1], PERFCTR_SCOPE_PROCESS, 0);
	ret = trial_all(r, e, 2, 2, 1, &cpu);
	ok(ret == -ENOSPC && cpu == 1,
	   ".process next to a .cpu counter, one counter on CPU 1: refused "
	   "on CPU 1 (%d on %d)", ret, cpu);
	ret = trial_all(r, e, 2, 2, 2, &cpu);
	is_int(ret, 0, "  with two counters on each CPU: fits");

	/* A process may not run on CPU 1: its task events are not tried
	 * there (the target, its child, may not run there either). */
	fake_reset(2, 1);
	CPU_CLR(1, &k.allowed);
	{
		struct perfctr_trial t[2];
		int res[2];

		perfctr_trial__init(&t[0], &r[0], &e[0]);
		perfctr_trial__init(&t[1], &r[1], &e[1]);
		ret = perfctr_trials__open(t, 2, 1, res);
		ok(ret == 0 && k.n == 1 && k.cpu == 0 &&
		   !CPU_ISSET(1, &k.allowed),
		   ".process on a CPU this process may not use: not tried, "
		   "not moved there");
	}

	/* A sampling clause is flexible: no room is no refusal (the module
	 * would start; it samples when it gets a counter). */
	raw(&r[0], &e[0], PERFCTR_SCOPE_CPU, 0);
	raw(&r[1], &e[1], PERFCTR_SCOPE_CPU, 100000);
	ret = trial_all(r, e, 2, 1, 1, &cpu);
	is_int(ret, 0, "a sampling clause on a full PMU: not refused");

	/* Beyond the PMU's precision: the module's event would fail too. */
	raw(&r[0], &e[0], PERFCTR_SCOPE_CPU, 100000);
	r[0].precise = 2;
	ret = trial_all(r, e, 1, 4, 4, &cpu);
	is_int(ret, 0, ".precise(2) where the PMU has it: fits");
	{
		struct perfctr_trial t;
		int res;

		fake_reset(4, 4);
		k.max_precise = 1;
		perfctr_trial__init(&t, &r[0], &e[0]);
		ret = perfctr_trials__open(&t, 1, 0, &res);
		is_int(ret, -EOPNOTSUPP, ".precise(2) on a PMU with 1: refused");
	}
}

/* A payload the PMU refuses (no branch stack): the trial fails, and
 * opened again without it, then with each payload alone, says which. */
static void payload_refused(void)
{
	struct perfctr_request r;
	struct perfctr_encoding e;
	struct perfctr_trial t;
	unsigned int bit;
	int res, ret, err;

	raw(&r, &e, PERFCTR_SCOPE_CPU, 100000);
	r.payload = PERFCTR_PL_ADDR | PERFCTR_PL_BRANCH;
	fake_reset(4, 4);
	k.no_branch_stack = 1;
	perfctr_trial__init(&t, &r, &e);
	ret = perfctr_trials__open(&t, 1, 0, &res);
	is_int(ret, -EOPNOTSUPP, "a branch stack where the PMU has none: "
	       "refused");
	ok(k.attr[0].sample_type == (PERF_SAMPLE_ADDR |
				     PERF_SAMPLE_BRANCH_STACK) &&
	   k.attr[0].branch_sample_type == (PERF_SAMPLE_BRANCH_ANY |
					    PERF_SAMPLE_BRANCH_USER |
					    PERF_SAMPLE_BRANCH_KERNEL |
					    PERF_SAMPLE_BRANCH_HV),
	   "  tried with the probe's sample type and branch sample type");
	ok(perfctr_trials__payload_why(&t, 0, &bit, &err) == 1 &&
	   bit == PERFCTR_PL_BRANCH && err == -EOPNOTSUPP,
	   "  the branch stack is why (the event opens without it)");
	k.no_branch_stack = 0;
	r.payload = PERFCTR_PL_BRANCH;
	perfctr_trial__init(&t, &r, &e);
	ok(perfctr_trials__payload_why(&t, 0, &bit, &err) == 0,
	   "  where the PMU has one: not the payload");
	raw(&r, &e, PERFCTR_SCOPE_CPU, 100000);
	r.precise = 3;
	r.payload = PERFCTR_PL_BRANCH;
	fake_reset(4, 4);
	k.max_precise = 1;
	perfctr_trial__init(&t, &r, &e);
	ok(perfctr_trials__payload_why(&t, 0, &bit, &err) == 0,
	   "  an event that fails without its payload too: not the payload");
}

/* A pinned task event is refused where it was enabled and never ran;
 * while its clock has not moved (enabled time 0 too: an unstable TSC in
 * a VM on a loaded host stops the scheduler's clock for a tick), the
 * trial reads again rather than refuse. */
static void task_clock(void)
{
	struct perfctr_request r;
	struct perfctr_encoding e;
	struct perfctr_trial t;
	int res, ret;

	raw(&r, &e, PERFCTR_SCOPE_PROCESS, 0);
	fake_reset(4, 4);
	k.still = 3;
	perfctr_trial__init(&t, &r, &e);
	ret = perfctr_trials__open(&t, 1, 1, &res);
	is_int(ret, 0, ".process, its clock still for 3 reads, then running: fits");
	fake_reset(4, 4);
	k.still = 3;
	k.not_running = 1;
	perfctr_trial__init(&t, &r, &e);
	ret = perfctr_trials__open(&t, 1, 1, &res);
	is_int(ret, -ENOSPC, "  enabled after 3 still reads, never running: refused");
	fake_reset(4, 4);
	k.not_running = 1;
	perfctr_trial__init(&t, &r, &e);
	ret = perfctr_trials__open(&t, 1, 1, &res);
	is_int(ret, -ENOSPC, "  enabled, never running, at the first read: refused");
}

/* A PMU that cannot tell guest from host: perf's default exclude_guest
 * goes, an asked-for :H refuses. */
static void guest_filter(void)
{
	struct perfctr_encoding e = { UNCORE, 0x304, 0, 0,
				      PERFCTR_F_EXCLUDE_GUEST };
	struct perfctr_request r = request("uncore_imc_0/cas_count_read/",
					   PERFCTR_PLM_ALL);
	struct perfctr_trial t;
	int res, ret;

	fake_reset(4, 4);
	perfctr_trial__init(&t, &r, &e);
	ret = perfctr_trials__open(&t, 1, 0, &res);
	ok(ret == 0 && t.enc.flags == 0 && k.n == 2 &&
	   k.attr[0].exclude_guest && !k.attr[1].exclude_guest,
	   "exclude_guest refused (EINVAL), no :G/:H: opened without it, "
	   "flags %#x", t.enc.flags);
	fake_reset(4, 4);
	r.gh = PERFCTR_GH_HOST;
	perfctr_trial__init(&t, &r, &e);
	ret = perfctr_trials__open(&t, 1, 0, &res);
	ok(ret == -EINVAL && t.enc.flags == PERFCTR_F_EXCLUDE_GUEST &&
	   k.n == 1, ":H asked for it: refused, as perf");
	fake_reset(4, 4);
	e.config = 0xdead;	/* refused for another reason too */
	r.gh = 0;
	perfctr_trial__init(&t, &r, &e);
	ret = perfctr_trials__open(&t, 1, 0, &res);
	ok(ret == -EINVAL && t.enc.flags == PERFCTR_F_EXCLUDE_GUEST,
	   "refused without it too: refused, exclude_guest kept");
	fake_reset(4, 4);
	e.type = PERF_TYPE_SOFTWARE;
	e.config = PERF_COUNT_SW_CPU_CLOCK;
	perfctr_trial__init(&t, &r, &e);
	ret = perfctr_trials__open(&t, 1, 0, &res);
	ok(ret == 0 && t.enc.flags == PERFCTR_F_EXCLUDE_GUEST && k.n == 1,
	   "a PMU that takes exclude_guest keeps it");
}

/* A set of n: a group of those with lead (1 + its leader's place), kept
 * open when all fit; the others alone. */
static void group_set(struct perfctr_trial *t, const unsigned int *type,
		      const unsigned int *lead, unsigned int n, int mux)
{
	struct perfctr_encoding e = { 0 };
	unsigned int i;

	for (i = 0; i < n; i++) {
		e.type = type[i];
		e.config = type[i] == PERF_TYPE_SOFTWARE ?
			   PERF_COUNT_SW_CPU_CLOCK : 0xc0;
		e.flags = mux ? PERFCTR_F_MULTIPLEX : 0;
		perfctr_trial__init(&t[i], NULL, &e);
		t[i].group = lead[i];
		t[i].keep = lead[i] != 0;
	}
}

/* Groups: the leader first, its siblings with its fd, never pinned (the
 * leader is unless .multiplex); left open, without FD_CLOEXEC, when the
 * whole set fits; a group too large for the PMU, or with an event of
 * another PMU, found out as perf finds it. */
static void groups(void)
{
	static const unsigned int hw3[] = { HW, HW, HW, HW },
				  lead3[] = { 1, 1, 1, 0 };
	struct perfctr_trial t[4];
	int res[4], ret, err, i;

	fake_reset(4, 4);
	group_set(t, hw3, lead3, 4, 0);
	ret = perfctr_trials__open(t, 4, 1, res);
	ok(ret == 0 && k.n == 4 && k.group_fd[0] == -1 &&
	   k.group_fd[1] == k.fd[0] && k.group_fd[2] == k.fd[0] &&
	   k.group_fd[3] == -1, "a group of three: siblings opened with "
	   "the leader's fd (%d)", ret);
	ok(k.attr[0].pinned && !k.attr[1].pinned && !k.attr[2].pinned &&
	   k.attr[3].pinned, "  only its leader pinned");
	ok(k.flags[0] == 0 && k.flags[2] == 0 &&
	   k.flags[3] == PERF_FLAG_FD_CLOEXEC, "  its fds not closed on exec, "
	   "the others' are");
	ok(t[0].fd == k.fd[0] && t[2].fd == k.fd[2] && t[3].fd == -1 &&
	   fcntl(t[0].fd, F_GETFD) == 0 && fcntl(k.fd[3], F_GETFD) < 0,
	   "  its fds left open, the other closed");
	for (i = 0; i < 3; i++)
		close(t[i].fd);

	fake_reset(4, 4);
	group_set(t, hw3, lead3, 4, 1);
	ret = perfctr_trials__open(t, 4, 0, res);
	ok(ret == 0 && !k.attr[0].pinned, "a .multiplex group: its leader "
	   "is not pinned either");
	for (i = 0; i < 3; i++)
		close(t[i].fd);

	fake_reset(4, 4);
	k.group_max = 2;
	group_set(t, hw3, lead3, 4, 1);
	ret = perfctr_trials__open(t, 4, 0, res);
	ok(ret == -EINVAL && res[0] == 0 && res[1] == 0 && res[2] == -EINVAL &&
	   t[0].fd == -1 && fcntl(k.fd[0], F_GETFD) < 0,
	   "a group of three on a PMU that takes two: the third refused, "
	   "nothing left open");
	is_int(perfctr_trials__group_why(t, 2, 0, &err), PERFCTR_GROUP_SIZE,
	       "  it opens alone and next to its leader: the group does not "
	       "fit the PMU");

	{
		static const unsigned int type[] = { HW, UNCORE, HW },
					  lead[] = { 1, 1, 1 };
		struct perfctr_trial u[3];

		fake_reset(4, 4);
		group_set(u, type, lead, 3, 0);
		ret = perfctr_trials__open(u, 3, 0, res);
		ok(ret == -EINVAL && res[1] == -EINVAL && res[2] == 0,
		   "an event of another PMU in a hardware group: refused");
		ok(perfctr_trials__group_why(u, 1, 0, &err) ==
		   PERFCTR_GROUP_PAIR && err == -EINVAL,
		   "  next to its leader already: another PMU");
	}
	{
		static const unsigned int type[] = { UNCORE, HW },
					  lead[] = { 1, 1 };
		struct perfctr_trial u[2];

		fake_reset(4, 4);
		group_set(u, type, lead, 2, 0);
		u[0].enc.config = 0xdead;	/* the leader cannot open */
		u[0].enc.flags = 0;
		ret = perfctr_trials__open(u, 2, 0, res);
		ok(ret == -EINVAL && res[0] == -EINVAL &&
		   res[1] == -ECANCELED && k.n == 1,
		   "a group whose leader does not open: its siblings are not "
		   "tried");
	}
	{
		static const unsigned int type[] = { PERF_TYPE_SOFTWARE, HW,
						     HW },
					  lead[] = { 1, 1, 1 };
		struct perfctr_trial u[3];

		fake_reset(4, 4);
		group_set(u, type, lead, 3, 0);
		ret = perfctr_trials__open(u, 3, 0, res);
		ok(ret == 0 && k.group_fd[2] == k.fd[0],
		   "a software leader leads hardware events");
		for (i = 0; i < 3; i++)
			close(u[i].fd);
	}
}

int main(void)
{
	attrs();
	groups();
	refusals();
	payload_refused();
	task_clock();
	guest_filter();
	return tap_done();
}
