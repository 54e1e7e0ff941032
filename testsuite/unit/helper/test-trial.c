/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-trial.c - trial opens against this machine's kernel: software
 * events open (as root), hardware ones fail here when there is no PMU,
 * the reasons are worded, nothing is left open, a .process request is
 * tried as this process's own on each CPU and leaves its CPUs as they
 * were.  Where a PMU exists, an over-full pinned set must show a misfit.
 * (test-trial-fake: the same code against a kernel the test makes up.)
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include "libperfctr.h"
#include "tap.h"
#include "util.h"

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		test_die("/proc/self/fd");
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static int paranoid(void)
{
	char *s = test_read(PARANOID, NULL);
	int v = s ? atoi(s) : 99;

	free(s);
	return v;
}

static int have_pmu(void)
{
	struct stat st;

	return !stat("/sys/bus/event_source/devices/cpu", &st) ||
	       !stat("/sys/bus/event_source/devices/cpu_core", &st) ||
	       !stat("/sys/bus/event_source/devices/armv8_pmuv3_0", &st);
}

static const struct perfctr_encoding task_clock = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, 0, 0 };
static const struct perfctr_encoding sw[] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, 0, 0 },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 0, PERFCTR_F_EXCLUDE_KERNEL | PERFCTR_F_EXCLUDE_HV },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, PERFCTR_F_EXCLUDE_USER },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, 0, 0 },
};

/* n counters per CPU, the first per_task of them .process requests. */
static void trials(struct perfctr_trial *t, const struct perfctr_encoding *e,
		   int n, int per_task)
{
	int i;

	for (i = 0; i < n; i++) {
		perfctr_trial__init(&t[i], NULL, &e[i]);
		t[i].per_task = i < per_task;
	}
}

static int cpus_now(cpu_set_t *set)
{
	CPU_ZERO(set);
	return sched_getaffinity(0, sizeof(*set), set);
}

static void software(int *cpus, int ncpus)
{
	struct perfctr_trial t[4];
	cpu_set_t before, after;
	char err[512];
	int res[4], i, ret;

	for (i = 0; i < ncpus; i++) {
		err[0] = '\0';
		ret = perfctr_encoding__trial_open(&task_clock, cpus[i], err, sizeof(err));
		is_int(ret, 0, "task-clock opens on CPU %d %s", cpus[i], err);
		trials(t, sw, 4, 0);
		ret = perfctr_trials__open(t, 4, cpus[i], res);
		ok(ret == 0 && !res[0] && !res[1] && !res[2] && !res[3],
		   "four software events open together on CPU %d", cpus[i]);
		/* two of them as a .process target's, on this CPU */
		trials(t, sw, 4, 2);
		cpus_now(&before);
		ret = perfctr_trials__open(t, 4, cpus[i], res);
		cpus_now(&after);
		ok(ret == 0 && !res[0] && !res[1] && !res[2] && !res[3],
		   "two per-task and two per-CPU events on CPU %d", cpus[i]);
		ok(CPU_EQUAL(&before, &after), "  this process's CPUs as before");
	}
	is_int(perfctr_trials__open(t, 0, 0, res), 0, "an empty set fits");
}

static void failures(void)
{
	struct perfctr_encoding cycles = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0 };
	struct perfctr_encoding notype = { 1234, 0, 0, 0, 0 };
	struct perfctr_encoding nosw = { PERF_TYPE_SOFTWARE, 999, 0, 0, 0 };
	struct perfctr_encoding set[3] = { sw[0], notype, sw[1] };
	struct perfctr_trial t[3];
	char err[512] = "";
	int ret, res[3];

	ret = perfctr_encoding__trial_open(&cycles, 0, err, sizeof(err));
	if (have_pmu()) {
		is_int(ret, 0, "cycles opens on CPU 0 (this machine has a PMU) %s", err);
		tap_ok(1, "# SKIP no-PMU message: this machine has a PMU");
	} else {
		ok(ret == -ENOENT || ret == -EOPNOTSUPP, "cycles fails here: no PMU (%d)", ret);
		is_str(err, "the kernel has no such event on this machine", "and says so");
	}
	is_int(perfctr_encoding__trial_open(&notype, 0, err, sizeof(err)), -ENOENT,
	       "an unknown PMU type: -ENOENT");
	is_int(perfctr_encoding__trial_open(&nosw, 0, err, sizeof(err)), -ENOENT,
	       "an unknown software event: -ENOENT");
	trials(t, set, 3, 0);
	ret = perfctr_trials__open(t, 3, 0, res);
	is_int(ret, -ENOENT, "a set with one bad event: its error");
	ok(res[0] == 0 && res[1] == -ENOENT && res[2] == 0, "and only it is marked");
	is_int(perfctr_encoding__trial_open(&task_clock, 1 << 20, err, sizeof(err)),
	       -EINVAL, "a CPU that does not exist: -EINVAL");
}

static void explanations(void)
{
	char buf[512], want[128];

	perfctr_trial__explain(-EOPNOTSUPP, buf, sizeof(buf));
	is_str(buf, "the kernel has no such event on this machine", "EOPNOTSUPP");
	perfctr_trial__explain(-EACCES, buf, sizeof(buf));
	snprintf(want, sizeof(want), "permission denied: %s is %d;", PARANOID, paranoid());
	like(buf, want, "EACCES names perf_event_paranoid and its value");
	perfctr_trial__explain(-EPERM, buf, sizeof(buf));
	like(buf, want, "EPERM too");
	perfctr_trial__explain(-ENOSPC, buf, sizeof(buf));
	like(buf, "it does not fit", "ENOSPC: does not fit");
	perfctr_trial__explain(-EBUSY, buf, sizeof(buf));
	like(buf, "busy", "EBUSY");
	perfctr_trial__explain(-EINVAL, buf, sizeof(buf));
	like(buf, "rejects this encoding", "EINVAL");
	perfctr_trial__explain(-EMFILE, buf, sizeof(buf));
	is_str(buf, "perf_event_open: Too many open files", "others: strerror");
}

/* As an unprivileged user a CPU-wide counter needs paranoid <= 0. */
static void unprivileged(void)
{
	struct perfctr_encoding own = task_clock;
	struct perfctr_trial t;
	char err[512] = "";
	int fd[2], status, ret = 0;
	pid_t pid;

	if (geteuid() != 0 || paranoid() <= 0) {
		tap_ok(1, "# SKIP needs root to drop to nobody, and paranoid > 0");
		return;
	}
	if (pipe(fd))
		test_die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		if (setgid(65534) || setuid(65534))
			_exit(2);
		ret = perfctr_encoding__trial_open(&task_clock, 0, err, sizeof(err));
		if (write(fd[1], &ret, sizeof(ret)) != sizeof(ret) ||
		    write(fd[1], err, sizeof(err)) != sizeof(err))
			_exit(3);
		/* a .process request as perfctr-run tries it: this
		 * process's, user mode */
		own.flags |= PERFCTR_F_EXCLUDE_KERNEL | PERFCTR_F_EXCLUDE_HV;
		perfctr_trial__init(&t, NULL, &own);
		t.per_task = 1;
		perfctr_trials__open(&t, 1, 0, &ret);
		if (write(fd[1], &ret, sizeof(ret)) != sizeof(ret))
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	ok(read(fd[0], &ret, sizeof(ret)) == sizeof(ret) &&
	   read(fd[0], err, sizeof(err)) == sizeof(err), "child reports");
	ok(ret == -EACCES || ret == -EPERM, "as nobody: permission denied (%d)", ret);
	like(err, "perf_event_paranoid is", "and the reason names perf_event_paranoid");
	ok(read(fd[0], &ret, sizeof(ret)) == sizeof(ret), "child reports again");
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (paranoid() <= 2)
		is_int(ret, 0, "as nobody: its own user-mode task-clock opens "
		       "(a .process request)");
	else
		ok(ret == -EACCES || ret == -EPERM, "as nobody, paranoid %d: "
		   "not even its own task-clock (%d)", paranoid(), ret);
}

/* More pinned counters than the PMU has: some must be in ERROR state. */
static void misfit(void)
{
	struct perfctr_encoding many[64];
	struct perfctr_trial t[64];
	int res[64], i, nospc = 0, ret;

	if (!have_pmu()) {
		tap_ok(1, "# SKIP misfit: no PMU on this machine");
		return;
	}
	for (i = 0; i < 64; i++)
		many[i] = (struct perfctr_encoding){ PERF_TYPE_HARDWARE,
			PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 0 };
	trials(t, many, 64, 0);
	ret = perfctr_trials__open(t, 64, 0, res);
	for (i = 0; i < 64; i++)
		nospc += res[i] == -ENOSPC;
	ok(ret == -ENOSPC && nospc > 0 && res[0] == 0,
	   "64 pinned instructions counters on CPU 0: %d do not fit", nospc);
}

int main(void)
{
	int *cpus, n, before;

	n = perfctr_cpus__online("/sys", &cpus);
	ok(n > 0, "online CPUs: %d", n);
	if (n <= 0)
		return tap_done();
	before = open_fds();
	if (geteuid() == 0 || paranoid() <= 0) {
		software(cpus, n);
		failures();
	} else {
		tap_ok(1, "# SKIP CPU-wide counters: not root and perf_event_paranoid > 0");
	}
	is_int(open_fds(), before, "no descriptor left open");
	explanations();
	unprivileged();
	misfit();
	free(cpus);
	return tap_done();
}
