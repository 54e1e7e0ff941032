// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sample.c - what perfctr-run allows a sampling clause (sample.c):
 * periods and frequencies against perf_event_max_sample_rate, and
 * .precise against the PMU's caps/max_precise, on a made-up machine.
 */
#include <linux/perf_event.h>

#include "libperfctr.h"
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
				   test_path("proc"), err, sizeof(err));
	if (!want)
		ok(rc == 0, "%s: allowed", what);
	else
		ok(rc == -EINVAL && strstr(err, want), "%s: \"%s\"", what, want);
	if (want ? !(rc == -EINVAL && strstr(err, want)) : rc)
		printf("# rc %d: %s\n", rc, err);
}

int main(void)
{
	test_mkdtemp();
	test_write("proc/sys/kernel/perf_event_max_sample_rate", "50000\n");
	test_write(DEV "cpu/type", "4\n");
	test_write(DEV "cpu/caps/max_precise", "2\n");
	test_write(DEV "software/type", "1\n");

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
	expect("frequency at the limit", 0, 50000, 0, &clock, NULL);
	expect("frequency above it", 0, 50001, 0, &clock,
	       "at most .hz(50000)");
	expect(".precise(2) on a PMU with 2", 200000, 0, 2, &cycles, NULL);
	expect(".precise(3) on a PMU with 2", 200000, 0, 3, &cycles,
	       ".precise(3): the PMU \"cpu\" goes up to .precise(2)");
	expect(".precise on a PMU without caps", 20000, 0, 1, &clock,
	       "the PMU \"software\" has none (no caps/max_precise)");
	test_write(DEV "cpu/type", "8\n");	/* as arm64: no type-4 PMU */
	expect(".precise with no core PMU of type 4", 200000, 0, 1, &cycles,
	       "the PMU of type 0 has none");

	test_cleanup();
	return tap_done();
}
