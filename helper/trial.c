/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trial.c - can this machine count these events now?  Open them as the
 * module will (pinned, per CPU, all at once), read each once, close.
 * A pinned event that cannot be scheduled is in ERROR state, and a read
 * of it returns 0 bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include "internal.h"
#include "perfctr_attr.h"

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define PARANOID_UNKNOWN (-100)

static int open_one(const struct perfctr_encoding *enc, int cpu)
{
	struct perf_event_attr a;
	int fd;

	perfctr_attr_counter(&a, enc->type, enc->config, enc->config1,
			     enc->config2, enc->flags);
	fd = syscall(__NR_perf_event_open, &a,
		     enc->flags & PERFCTR_F_TRIAL_TASK ? 0 : -1, cpu, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int read_once(int fd)
{
	uint64_t v;
	ssize_t n = read(fd, &v, sizeof(v));

	if (n == sizeof(v))
		return 0;
	return n == 0 ? -ENOSPC : n < 0 ? -errno : -EIO;
}

int perfctr_encodings__trial_open(const struct perfctr_encoding *encs,
				  unsigned int n, int cpu, int *res)
{
	int *fd, ret = 0;
	unsigned int i;

	if (n == 0)
		return 0;
	fd = calloc(n, sizeof(*fd));
	if (!fd)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		fd[i] = open_one(&encs[i], cpu);
		res[i] = fd[i] < 0 ? fd[i] : 0;
	}
	/* Only now, with all of them in place, does a misfit show. */
	for (i = 0; i < n; i++)
		if (fd[i] >= 0)
			res[i] = read_once(fd[i]);
	for (i = 0; i < n; i++) {
		if (fd[i] >= 0)
			close(fd[i]);
		if (res[i] && !ret)
			ret = res[i];
	}
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

int perfctr_encoding__trial_open(const struct perfctr_encoding *enc, int cpu,
				 char *err, size_t errlen)
{
	int res, ret = perfctr_encodings__trial_open(enc, 1, cpu, &res);

	if (ret)
		perfctr_trial__explain(ret, err, errlen);
	return ret;
}
