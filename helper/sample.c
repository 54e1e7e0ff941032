/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample.c - can this machine sample as a sampling clause asks?  The
 * kernel's sample-rate limit bounds periods and frequencies; precise
 * sampling needs a PMU that says it has it (caps/max_precise: PEBS, IBS;
 * arm_pmu has no such file and ignores precise_ip, so it is refused).
 * A payload needs an event whose samples carry it: the kernel accepts
 * PERF_SAMPLE_ADDR, _DATA_SRC and _WEIGHT_STRUCT on any event and fills
 * them only where the PMU or the event has them (perfctr_sample__payload
 * below); the branch stack the PMU itself refuses when it has none, which
 * the trial open finds (helper/trial.c, perfctr_trial__payload_why).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <linux/perf_event.h>
#include "internal.h"
#include "perfctr_payload.h"

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

/* .sample(N) below the smallest period: refused, with the way to have
 * perf record -c's behaviour; or (throttle) let through, and said. */
static int check_period(const struct perfctr_request *req,
			unsigned long long min, unsigned long long rate,
			const char *procfs_root, int throttle, char *err,
			size_t len)
{
	if (throttle) {
		snprintf(err, len, "sampling \"%s\" every %u is below the "
			 "smallest period, %llu, for at most %llu samples a "
			 "second (%s/%s): the kernel throttles it "
			 "(-D PERFCTR_SAMPLE_THROTTLE), and the end-of-run "
			 "report counts the overflows not run", req->event,
			 req->sample, min, rate, procfs_root, MAX_RATE_FILE);
		return 1;
	}
	snprintf(err, len, ".sample(%u) is too small for this machine: the "
		 "smallest period for \"%s\" is .sample(%llu) (at most %llu "
		 "samples a second: %s/%s); stap -D PERFCTR_SAMPLE_THROTTLE "
		 "lets the kernel throttle it instead, as perf record -c does",
		 req->sample, req->event, min, rate, procfs_root,
		 MAX_RATE_FILE);
	return -EINVAL;
}

int perfctr_sample__check(const struct perfctr_request *req,
			  const struct perfctr_encoding *enc,
			  const char *sysfs_root, const char *procfs_root,
			  int throttle, char *err, size_t len)
{
	unsigned long long rate = max_rate(procfs_root), min;
	int below = 0;

	if (req->hz && req->hz > rate) {
		snprintf(err, len, ".hz(%u) is above what this machine allows: "
			 "at most .hz(%llu) (%s/%s)", req->hz, rate,
			 procfs_root, MAX_RATE_FILE);
		return -EINVAL;
	}
	min = perfctr_sample__min_period(enc, procfs_root);
	if (req->sample && req->sample < min) {
		below = check_period(req, min, rate, procfs_root, throttle,
				     err, len);
		if (below < 0)
			return below;
	}
	if (req->precise && check_precise(req, enc, sysfs_root, err, len))
		return -EINVAL;
	if (req->payload &&
	    perfctr_sample__payload(req, enc, sysfs_root, err, len))
		return -EINVAL;
	return below;
}

/* The functions that read each payload, for messages. */
static const struct {
	unsigned int bit;
	const char *fn;
} payload_fns[] = {
	{ PERFCTR_PL_ADDR, "perfctr_sample_addr()" },
	{ PERFCTR_PL_PHYS, "perfctr_sample_phys_addr()" },
	{ PERFCTR_PL_WEIGHT, "perfctr_sample_weight()" },
	{ PERFCTR_PL_SRC, "perfctr_sample_data_src()" },
	{ PERFCTR_PL_BRANCH, "perfctr_sample_branches()" },
	{ PERFCTR_PL_CALLCHAIN, "perfctr_sample_callchain()" },
};

const char *perfctr_payload__fn(unsigned int bit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(payload_fns); i++)
		if (payload_fns[i].bit == bit)
			return payload_fns[i].fn;
	return "?";
}

/* Software events whose samples carry the faulting data address
 * (perf_sw_event(..., addr) in the fault handlers). */
static int faults_with_address(const struct perfctr_encoding *enc)
{
	switch (enc->config) {
	case PERF_COUNT_SW_PAGE_FAULTS:
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
	case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
	case PERF_COUNT_SW_ALIGNMENT_FAULTS:
	case PERF_COUNT_SW_EMULATION_FAULTS:
		return enc->type == PERF_TYPE_SOFTWARE;
	}
	return 0;
}

/* Does the PMU record where a sampled access went (Intel's PEBS with
 * .precise, AMD's IBS op PMU)? */
static int records_accesses(const struct perfctr_request *req,
			    const char *pmu)
{
	return req->precise || !strncmp(pmu, "ibs_op", 6);
}

int perfctr_sample__payload(const struct perfctr_request *req,
			    const struct perfctr_encoding *enc,
			    const char *sysfs_root, char *err, size_t len)
{
	unsigned int pl = req->payload, addr = PERFCTR_PL_ADDR | PERFCTR_PL_PHYS;
	unsigned int mem = PERFCTR_PL_WEIGHT | PERFCTR_PL_SRC;
	char pmu[256] = "", what[300];
	size_t n = 0;

	if (!pc_sysfs_pmu_of_type(sysfs_root, enc->type, pmu, sizeof(pmu)))
		snprintf(what, sizeof(what), "the PMU \"%s\"", pmu);
	else if (enc->type == PERF_TYPE_HARDWARE ||
		 enc->type == PERF_TYPE_HW_CACHE)
		snprintf(what, sizeof(what), "the CPU's PMU");
	else
		snprintf(what, sizeof(what), "the PMU of type %u", enc->type);
	if ((pl & addr) && !faults_with_address(enc) &&
	    enc->type != PERF_TYPE_BREAKPOINT && !records_accesses(req, pmu))
		n += snprintf(err + n, len - n, "%s reads the data address a "
			      "sample records, which only page, alignment and "
			      "emulation faults, breakpoints and precise memory "
			      "events have (Intel's PEBS: .precise; AMD: an "
			      "ibs_op event): \"%s\" records none",
			      perfctr_payload__fn(pl & PERFCTR_PL_ADDR ?
						  PERFCTR_PL_ADDR :
						  PERFCTR_PL_PHYS), req->event);
	if ((pl & mem) && !records_accesses(req, pmu) && n < len)
		n += snprintf(err + n, len - n, "%s%s needs a PMU that records "
			      "the memory access it samples (Intel's PEBS: "
			      ".precise on a memory event such as mem-loads; "
			      "AMD: an ibs_op event); %s has none for \"%s\" "
			      "(Arm's SPE writes its records to a trace buffer, "
			      "never into the sample an overflow handler gets)",
			      n ? "; " : "", perfctr_payload__fn(
				      pl & PERFCTR_PL_SRC ? PERFCTR_PL_SRC :
				      PERFCTR_PL_WEIGHT), what, req->event);
	return n ? -EINVAL : 0;
}
