/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample.c - can this machine sample as a sampling clause asks?  The
 * kernel's sample-rate limit bounds periods and frequencies; precise
 * sampling needs a PMU that says it has it (caps/max_precise: PEBS, IBS;
 * arm_pmu has no such file and ignores precise_ip, so it is refused).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "internal.h"

#define MAX_RATE_FILE "sys/kernel/perf_event_max_sample_rate"
#define DEFAULT_MAX_RATE 100000ULL	/* the kernel's default */

/* Samples per second the kernel allows, per CPU. */
static unsigned long long max_rate(const char *procfs_root)
{
	char path[4096], buf[32];
	unsigned long long r = 0;
	int fd, n;

	snprintf(path, sizeof(path), "%s/%s", procfs_root, MAX_RATE_FILE);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = '\0';
			r = strtoull(buf, NULL, 10);
		}
		close(fd);
	}
	return r ? r : DEFAULT_MAX_RATE;
}

/* Events per second an event can reach, per CPU: clocks count
 * nanoseconds; other software events are rare; misses and cache events
 * stay under 10^9; cycles, instructions, branches and what we cannot
 * tell (raw, PMU terms) under 10^10. */
static unsigned long long rate_bound(const struct perfctr_encoding *enc)
{
	if (enc->type == PERF_TYPE_SOFTWARE)
		return enc->config == PERF_COUNT_SW_CPU_CLOCK ||
		       enc->config == PERF_COUNT_SW_TASK_CLOCK ?
		       1000000000ULL : 0;
	if (enc->type == PERF_TYPE_HW_CACHE ||
	    (enc->type == PERF_TYPE_HARDWARE &&
	     (enc->config == PERF_COUNT_HW_CACHE_REFERENCES ||
	      enc->config == PERF_COUNT_HW_CACHE_MISSES ||
	      enc->config == PERF_COUNT_HW_BRANCH_MISSES)))
		return 1000000000ULL;
	return 10000000000ULL;
}

unsigned long long perfctr_sample__min_period(
	const struct perfctr_encoding *enc, const char *procfs_root)
{
	unsigned long long rate = max_rate(procfs_root), bound = rate_bound(enc);

	return bound ? (bound + rate - 1) / rate : 1;
}

static int check_precise(const struct perfctr_request *req,
			 const struct perfctr_encoding *enc,
			 const char *sysfs_root, char *err, size_t len)
{
	char pmu[256], what[300], buf[16];
	int fd, n = -ENOENT;

	if (pc_sysfs_pmu_of_type(sysfs_root, enc->type, pmu, sizeof(pmu))) {
		snprintf(what, sizeof(what), "of type %u", enc->type);
	} else {
		snprintf(what, sizeof(what), "\"%s\"", pmu);
		fd = pc_sysfs_pmu_open(sysfs_root, pmu);
		if (fd >= 0) {
			n = pc_sysfs_read(fd, "caps/max_precise", buf,
					  sizeof(buf));
			close(fd);
		}
	}
	if (n <= 0) {
		snprintf(err, len, ".precise needs skid-free sampling (PEBS, "
			 "IBS): the PMU %s has none (no caps/max_precise); "
			 "drop .precise", what);
		return -EINVAL;
	}
	if ((unsigned int)atoi(buf) < req->precise) {
		snprintf(err, len, ".precise(%u): the PMU %s goes up to "
			 ".precise(%s)", req->precise, what, buf);
		return -EINVAL;
	}
	return 0;
}

int perfctr_sample__check(const struct perfctr_request *req,
			  const struct perfctr_encoding *enc,
			  const char *sysfs_root, const char *procfs_root,
			  char *err, size_t len)
{
	unsigned long long rate = max_rate(procfs_root), min;

	if (req->hz && req->hz > rate) {
		snprintf(err, len, ".hz(%u) is above what this machine allows: "
			 "at most .hz(%llu) (%s/%s)", req->hz, rate,
			 procfs_root, MAX_RATE_FILE);
		return -EINVAL;
	}
	min = perfctr_sample__min_period(enc, procfs_root);
	if (req->sample && req->sample < min) {
		snprintf(err, len, ".sample(%u) is too small for this machine: "
			 "the smallest period for \"%s\" is .sample(%llu) (at "
			 "most %llu samples a second: %s/%s)", req->sample,
			 req->event, min, rate, procfs_root, MAX_RATE_FILE);
		return -EINVAL;
	}
	if (req->precise)
		return check_precise(req, enc, sysfs_root, err, len);
	return 0;
}
