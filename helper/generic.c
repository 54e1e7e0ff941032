/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * generic.c - perf's generic event names, as tables: the hardware and
 * software events, and the hardware cache events built from caches x
 * operations x results.  Same names and encodings as perf.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>
#include "internal.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} events[] = {
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },

	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
};

/* Hardware cache events (perf's evsel__hw_cache* tables): the first
 * name of each row is the one perf lists, the others its aliases. */
#define ALIASES 5
static const char *const caches[PERF_COUNT_HW_CACHE_MAX][ALIASES] = {
	[PERF_COUNT_HW_CACHE_L1D]  = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I]  = { "L1-icache", "l1-i", "l1i", "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL]   = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU]  = { "branch", "branches", "bpu", "btb", "bpc" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};

/* The listed forms are "<cache>-loads" and "<cache>-load-misses". */
static const char *const ops[PERF_COUNT_HW_CACHE_OP_MAX][ALIASES] = {
	[PERF_COUNT_HW_CACHE_OP_READ]     = { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE]    = { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches",
					      "speculative-read", "speculative-load" },
};
static const char *const op_plural[PERF_COUNT_HW_CACHE_OP_MAX] = {
	"loads", "stores", "prefetches",
};

static const char *const results[PERF_COUNT_HW_CACHE_RESULT_MAX][ALIASES] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops", "access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS]   = { "misses", "miss" },
};

#define R (1u << PERF_COUNT_HW_CACHE_OP_READ)
#define W (1u << PERF_COUNT_HW_CACHE_OP_WRITE)
#define P (1u << PERF_COUNT_HW_CACHE_OP_PREFETCH)
/* Which operations perf accepts for each cache (evsel__hw_cache_stat). */
static const unsigned int valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]  = R | W | P,
	[PERF_COUNT_HW_CACHE_L1I]  = R | P,
	[PERF_COUNT_HW_CACHE_LL]   = R | W | P,
	[PERF_COUNT_HW_CACHE_DTLB] = R | W | P,
	[PERF_COUNT_HW_CACHE_ITLB] = R,
	[PERF_COUNT_HW_CACHE_BPU]  = R,
	[PERF_COUNT_HW_CACHE_NODE] = R | W | P,
};

/* Longest alias in rows[0..n) that starts s and ends at '-' or at the
 * end of s, as perf matches them (case-insensitive).  Returns its row
 * and its length in *len, or -1. */
static int match(const char *s, const char *const rows[][ALIASES], int n,
		 size_t *len)
{
	int i, j, best = -1;
	size_t l;

	*len = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < ALIASES && rows[i][j]; j++) {
			l = strlen(rows[i][j]);
			if (l > *len && !strncasecmp(s, rows[i][j], l) &&
			    (s[l] == '-' || s[l] == '\0')) {
				*len = l;
				best = i;
			}
		}
	return best;
}

/* "<cache>[-<op or result>[-<op or result>]]": op defaults to read,
 * result to access. */
static int cache_resolve(const char *base, struct perfctr_encoding *enc,
			 char *err, size_t errlen)
{
	int cache, op = -1, result = -1, k, i;
	const char *s = base;
	size_t len;

	cache = match(s, caches, PERF_COUNT_HW_CACHE_MAX, &len);
	if (cache < 0)
		return -ENOENT;
	for (i = 0; i < 2 && s[len] == '-'; i++) {
		s += len + 1;
		if (op < 0 && (k = match(s, ops, PERF_COUNT_HW_CACHE_OP_MAX, &len)) >= 0)
			op = k;
		else if (result < 0 &&
			 (k = match(s, results, PERF_COUNT_HW_CACHE_RESULT_MAX, &len)) >= 0)
			result = k;
		else
			return -ENOENT;
	}
	if (s[len] != '\0')
		return -ENOENT;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!(valid_ops[cache] & (1u << op)))
		return pc_err(err, errlen, -EINVAL,
			      "\"%s\": perf has no %s events for %s",
			      base, ops[op][0], caches[cache][0]);
	enc->type = PERF_TYPE_HW_CACHE;
	enc->config = cache | (op << 8) | (result << 16);
	return 0;
}

int pc_generic_resolve(const char *base, struct perfctr_encoding *enc,
		       char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (!strcmp(base, events[i].name)) {
			enc->type = events[i].type;
			enc->config = events[i].config;
			return 0;
		}
	return cache_resolve(base, enc, err, errlen);
}

/* Every name perf lists: the table's, and each valid cache x op in its
 * two listed forms. */
void pc_generic_names(pc_name_fn *fn, void *ctx)
{
	char name[PERFCTR_NAME_MAX];
	int c, o;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		fn(events[i].name, ctx);
	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++) {
			if (!(valid_ops[c] & (1u << o)))
				continue;
			snprintf(name, sizeof(name), "%s-%s", caches[c][0], op_plural[o]);
			fn(name, ctx);
			snprintf(name, sizeof(name), "%s-%s-misses", caches[c][0], ops[o][0]);
			fn(name, ctx);
		}
}
