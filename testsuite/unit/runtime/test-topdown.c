// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-topdown.c - Intel's topdown metrics (runtime/perfctr_topdown.h)
 * against the kernel's own definitions: the INTEL_TD_* encodings read
 * from the kernel build tree's arch/x86/include/asm/perf_event.h
 * (KERNEL_BUILD, or its Debian common tree), is_metric_event() and
 * is_slots_event() restated, and the counts the kernel gives a group's
 * metrics (icl_get_metrics_event_value(): slots * byte / 0xff) decoded
 * into the shares perf stat prints (td_metric_ratio()).  No machine here
 * has the PMU: this is what can be checked without one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfctr_topdown.h"
#include "tap.h"

static const struct {
	const char *name;	/* the kernel's */
	unsigned long long config;
	int kind;
} encodings[] = {
	{ "INTEL_TD_SLOTS", PERFCTR_TD_SLOTS, PERFCTR_TD_SLOTS_KIND },
	{ "INTEL_TD_METRIC_RETIRING", 0x8000, PERFCTR_TD_RETIRING },
	{ "INTEL_TD_METRIC_BAD_SPEC", 0x8100, PERFCTR_TD_BAD_SPEC },
	{ "INTEL_TD_METRIC_FE_BOUND", 0x8200, PERFCTR_TD_FE_BOUND },
	{ "INTEL_TD_METRIC_BE_BOUND", 0x8300, PERFCTR_TD_BE_BOUND },
	{ "INTEL_TD_METRIC_HEAVY_OPS", 0x8400, PERFCTR_TD_HEAVY_OPS },
	{ "INTEL_TD_METRIC_BR_MISPREDICT", 0x8500, PERFCTR_TD_BR_MISPREDICT },
	{ "INTEL_TD_METRIC_FETCH_LAT", 0x8600, PERFCTR_TD_FETCH_LAT },
	{ "INTEL_TD_METRIC_MEM_BOUND", 0x8700, PERFCTR_TD_MEM_BOUND },
};
#define NENC (sizeof(encodings) / sizeof(encodings[0]))

/* The kernel's x86 perf_event.h: in the build tree, or in the common
 * tree its Makefile includes (Debian). */
static FILE *kernel_header(char *path, size_t len)
{
	const char *kb = getenv("KERNEL_BUILD");
	const char *rel = "arch/x86/include/asm/perf_event.h";
	char mk[4096], line[4096], common[4096];
	FILE *f;

	if (!kb || !*kb)
		return NULL;
	snprintf(path, len, "%s/%s", kb, rel);
	if ((f = fopen(path, "r")))
		return f;
	snprintf(mk, sizeof(mk), "%s/Makefile", kb);
	if (!(f = fopen(mk, "r")))
		return NULL;
	common[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "include %4095s", common) == 1)
			break;
	fclose(f);
	if (!common[0] || strlen(common) < 9)
		return NULL;
	common[strlen(common) - 9] = '\0';	/* "/Makefile" */
	snprintf(path, len, "%s/%s", common, rel);
	return fopen(path, "r");
}

/* The number "#define NAME" is in f, or -1. */
static long long kernel_define(FILE *f, const char *name)
{
	char line[512], n[128];
	long long v;

	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "#define %127s %lli", n, &v) == 2 &&
		    !strcmp(n, name))
			return v;
	return -1;
}

static void kernel_encodings(void)
{
	char path[8192];
	FILE *f = kernel_header(path, sizeof(path));
	size_t i;

	if (!f) {
		for (i = 0; i <= NENC; i++)
			ok(1, "# SKIP no x86 kernel build tree (KERNEL_BUILD)");
		return;
	}
	for (i = 0; i < NENC; i++)
		is_int(kernel_define(f, encodings[i].name),
		       (long long)encodings[i].config, "%s is %#llx, as in %s",
		       encodings[i].name, encodings[i].config, path);
	is_int(kernel_define(f, "INTEL_TD_METRIC_NUM"), PERFCTR_TD_SLOTS_KIND,
	       "INTEL_TD_METRIC_NUM: 8 metrics, RETIRING to MEM_BOUND");
	fclose(f);
}

/* is_metric_event() and is_slots_event(), restated from arch/x86/events/
 * perf_event.h: the event byte 0, event and umask between the first
 * metric and the last; slots by event and umask alone. */
static int kernel_kind(unsigned long long config)
{
	unsigned long long c = config & 0xffffULL;

	if (c == 0x0400)
		return PERFCTR_TD_SLOTS_KIND;
	if ((config & 0xff) == 0 && c >= 0x8000 && c <= 0x8700)
		return (int)((c - 0x8000) >> 8);
	return PERFCTR_TD_NONE;
}

static void kinds(void)
{
	static const unsigned long long configs[] = {
		0x0400, 0x8000, 0x8300, 0x8700, 0x8800, 0x8001, 0x7f00,
		0x00c0, 0x003c, 0x1008000, 0x5300c0, 0x0401, 0x0500, 0,
	};
	size_t i;
	int bad = 0;

	for (i = 0; i < NENC; i++)
		is_int(perfctr_topdown_kind(encodings[i].config),
		       encodings[i].kind, "%s's kind", encodings[i].name);
	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++)
		bad += perfctr_topdown_kind(configs[i]) !=
		       kernel_kind(configs[i]);
	is_int(bad, 0, "other configs (cmask above, another event, a umask "
	       "past mem_bound): as the kernel has them");
}

/* icl_get_metrics_event_value(): slots-in-metric = slots * byte / 0xff,
 * with mul_u64_u32_div()'s 128-bit product. */
static unsigned long long kernel_count(unsigned long long slots,
				       unsigned long long metrics, int k)
{
	unsigned int byte = (metrics >> (k * 8)) & 0xff;

	return (unsigned long long)((unsigned __int128)slots * byte / 0xff);
}

static unsigned long long lcg(unsigned long long *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 11;
}

/* The kernel's counts, read from one snapshot, give back perf's ratios:
 * byte k over the level-1 bytes' sum, to the rounding of the slots. */
static void decoding(void)
{
	unsigned long long seed = 42, slots, metrics, c[8], sum;
	unsigned int bytes[8], bsum, got, want, worst = 0;
	int i, k, bad = 0;

	for (i = 0; i < 10000; i++) {
		slots = (lcg(&seed) % 2 ? lcg(&seed) : lcg(&seed) % 100000) + 1;
		metrics = lcg(&seed) << 11 | lcg(&seed);
		for (k = 0, bsum = 0, sum = 0; k < 8; k++) {
			bytes[k] = (metrics >> (k * 8)) & 0xff;
			c[k] = kernel_count(slots, metrics, k);
			if (k < PERFCTR_TD_LEVEL1) {
				bsum += bytes[k];
				sum += c[k];
			}
		}
		if (!bsum || slots < 100000)
			continue;
		for (k = 0; k < 8; k++) {
			got = perfctr_topdown_permille(c[k], sum);
			want = bytes[k] * 1000 / bsum;
			if (got > want + 1 || got + 1 < want)
				bad++;
			if (got != want && (got > want ? got - want :
					    want - got) > worst)
				worst = got > want ? got - want : want - got;
		}
	}
	is_int(bad, 0, "10000 PERF_METRICS values: each metric's share, from "
	       "the kernel's counts, is its byte over the level-1 bytes' sum "
	       "(perf stat's), to 1 part per thousand (worst %u)", worst);
	is_int(perfctr_topdown_permille(250, 1000), 250, "a quarter: 250");
	is_int(perfctr_topdown_permille(7, 0), 0, "nothing counted: 0");
	is_int(perfctr_topdown_permille(~0ULL / 2, ~0ULL), 499,
	       "counts near 2^64: no overflow");
}

int main(void)
{
	kernel_encodings();
	kinds();
	decoding();
	return tap_done();
}
