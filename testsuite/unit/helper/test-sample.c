// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sample.c - what perfctr-run allows a sampling clause (sample.c):
 * periods and frequencies against perf_event_max_sample_rate, and
 * .precise against the PMU's caps/max_precise, on a made-up machine.
 */
#include <linux/perf_event.h>

#include "libperfctr.h"
#include "perfctr_payload.h"
#include "tap.h"
#include "util.h"

#define DEV "sys/bus/event_source/devices/"

static const struct perfctr_encoding cycles = { .type = PERF_TYPE_HARDWARE };
static const struct perfctr_encoding clock = {
	.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK };
static const struct perfctr_encoding misses = {
	.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CACHE_MISSES };
static const struct perfctr_encoding faults = {
	.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS };

/* rc is 0 (want NULL), or -EINVAL with a message err that contains want */
static void judge(const char *what, int rc, const char *err, const char *want)
{
	if (!want)
		ok(rc == 0, "%s: allowed", what);
	else
		ok(rc == -EINVAL && strstr(err, want), "%s: \"%s\"", what, want);
	if (want ? !(rc == -EINVAL && strstr(err, want)) : rc)
		printf("# rc %d: %s\n", rc, err);
}

/* check: 0, or -EINVAL with a message that contains want */
static void expect(const char *what, unsigned int sample, unsigned int hz,
		   unsigned int precise, const struct perfctr_encoding *enc,
		   const char *want)
{
	struct perfctr_request req = { .sample = sample, .hz = hz,
				       .precise = precise };
	char err[512] = "";
	int rc;

	snprintf(req.event, sizeof(req.event), "ev");
	rc = perfctr_sample__check(&req, enc, test_path("sys"),
				   test_path("proc"), 0, err, sizeof(err));
	judge(what, rc, err, want);
}

/* -D PERFCTR_SAMPLE_THROTTLE: a period below the smallest goes through,
 * said; every other check still refuses. */
static void throttled(void)
{
	struct perfctr_request req = { .sample = 1000 };
	char err[512] = "";
	int rc;

	snprintf(req.event, sizeof(req.event), "ev");
	rc = perfctr_sample__check(&req, &cycles, test_path("sys"),
				   test_path("proc"), 1, err, sizeof(err));
	ok(rc == 1 && strstr(err, "sampling \"ev\" every 1000 is below the "
			     "smallest period, 200000, for at most 50000 "
			     "samples a second") &&
	   strstr(err, "the kernel throttles it"),
	   "throttle: .sample(1000) goes through, said");
	if (rc != 1)
		printf("# rc %d: %s\n", rc, err);
	req.precise = 3;
	rc = perfctr_sample__check(&req, &cycles, test_path("sys"),
				   test_path("proc"), 1, err, sizeof(err));
	ok(rc == -EINVAL && strstr(err, ".precise(3)"),
	   "throttle: .precise(3) is still refused");
	req.precise = 0;
	req.sample = 200000;
	rc = perfctr_sample__check(&req, &cycles, test_path("sys"),
				   test_path("proc"), 1, err, sizeof(err));
	is_int(rc, 0, "throttle: a period at the limit: nothing to say");
}

/* A payload (PERFCTR_PL_*): 0, or -EINVAL with a message with want. */
static void payload(const char *what, unsigned int precise, unsigned int pl,
		    const struct perfctr_encoding *enc, const char *want)
{
	struct perfctr_request req = { .sample = 1000000, .precise = precise,
				       .payload = pl };
	char err[1024] = "";
	int rc;

	snprintf(req.event, sizeof(req.event), "ev");
	rc = perfctr_sample__payload(&req, enc, test_path("sys"), err,
				     sizeof(err));
	judge(what, rc, err, want);
}

static void payloads(void)
{
	static const struct perfctr_encoding minflt = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS_MIN };
	static const struct perfctr_encoding bp = { .type = PERF_TYPE_BREAKPOINT };
	static const struct perfctr_encoding ibs = { .type = 11 };
	static const struct perfctr_encoding other = { .type = 12 };

	payload("page-faults' address", 0, PERFCTR_PL_ADDR | PERFCTR_PL_PHYS,
		&faults, NULL);
	payload("minor-faults' address", 0, PERFCTR_PL_ADDR, &minflt, NULL);
	payload("a breakpoint's address", 0, PERFCTR_PL_ADDR, &bp, NULL);
	payload("cpu-clock's address", 0, PERFCTR_PL_ADDR, &clock,
		"perfctr_sample_addr() reads the data address a sample "
		"records, which only page, alignment and emulation faults, "
		"breakpoints and precise memory events have");
	payload("  its physical address", 0, PERFCTR_PL_PHYS, &clock,
		"perfctr_sample_phys_addr() reads the data address");
	payload("a precise event's address, weight, data source", 1,
		PERFCTR_PL_ADDR | PERFCTR_PL_WEIGHT | PERFCTR_PL_SRC, &cycles,
		NULL);
	payload("a data source without .precise", 0, PERFCTR_PL_SRC, &cycles,
		"perfctr_sample_data_src() needs a PMU that records the memory "
		"access it samples");
	payload("  the CPU's PMU named", 0, PERFCTR_PL_WEIGHT, &cycles,
		"perfctr_sample_weight() needs a PMU that records the memory "
		"access it samples (Intel's PEBS: .precise on a memory event "
		"such as mem-loads; AMD: an ibs_op event); the PMU \"cpu\" has "
		"none for \"ev\"");
	payload("  a software event's", 0, PERFCTR_PL_SRC, &clock,
		"the PMU \"software\" has none for \"ev\"");
	payload("  a PMU without a name here", 0, PERFCTR_PL_SRC, &other,
		"the PMU of type 12 has none");
	payload("  address and data source, both said", 0, PERFCTR_PL_ADDR |
		PERFCTR_PL_SRC, &clock, "have (Intel's PEBS: .precise; AMD: an "
		"ibs_op event): \"ev\" records none; perfctr_sample_data_src()");
	payload("AMD's ibs_op: address, weight, data source", 0,
		PERFCTR_PL_ADDR | PERFCTR_PL_WEIGHT | PERFCTR_PL_SRC, &ibs, NULL);
	payload("a branch stack: the trial open's to judge", 0,
		PERFCTR_PL_BRANCH, &clock, NULL);
}

int main(void)
{
	test_mkdtemp();
	test_write("proc/sys/kernel/perf_event_max_sample_rate", "50000\n");
	test_write(DEV "cpu/type", "4\n");
	test_write(DEV "cpu/caps/max_precise", "2\n");
	test_write(DEV "software/type", "1\n");
	test_write(DEV "ibs_op/type", "11\n");

	is_int((int)perfctr_sample__min_period(&cycles, test_path("proc")),
	       200000, "hardware: 10^10 events a second / 50000 samples");
	is_int((int)perfctr_sample__min_period(&clock, test_path("proc")),
	       20000, "cpu-clock: 10^9 ns a second / 50000 samples");
	is_int((int)perfctr_sample__min_period(&misses, test_path("proc")),
	       20000, "cache-misses: 10^9 a second / 50000 samples");
	is_int((int)perfctr_sample__min_period(&faults, test_path("proc")),
	       1, "other software events: any period");

	expect("period at the limit", 200000, 0, 0, &cycles, NULL);
	expect("period below it", 199999, 0, 0, &cycles,
	       ".sample(199999) is too small for this machine: the smallest "
	       "period for \"ev\" is .sample(200000)");
	expect("period below it: the way to perf's behaviour", 199999, 0, 0,
	       &cycles, "; stap -D PERFCTR_SAMPLE_THROTTLE lets the kernel "
	       "throttle it instead, as perf record -c does");
	throttled();
	expect("frequency at the limit", 0, 50000, 0, &clock, NULL);
	expect("frequency above it", 0, 50001, 0, &clock,
	       "at most .hz(50000)");
	expect(".precise(2) on a PMU with 2", 200000, 0, 2, &cycles, NULL);
	expect(".precise(3) on a PMU with 2", 200000, 0, 3, &cycles,
	       ".precise(3): the PMU \"cpu\" goes up to .precise(2)");
	expect(".precise on a PMU without caps", 20000, 0, 1, &clock,
	       "the PMU \"software\" has none (no caps/max_precise)");
	payloads();
	test_write(DEV "cpu/type", "8\n");	/* as arm64: no type-4 PMU */
	expect(".precise with no core PMU of type 4", 200000, 0, 1, &cycles,
	       "the PMU of type 0 has none");
	payload("a generic event's data source, no core PMU of type 4", 0,
		PERFCTR_PL_SRC, &cycles, "; the CPU's PMU has none for \"ev\"");

	test_cleanup();
	return tap_done();
}
