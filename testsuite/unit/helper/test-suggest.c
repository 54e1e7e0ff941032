/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-suggest.c - edit distance and "did you mean". */
#include <errno.h>
#include "internal.h"
#include "tap.h"
#include "util.h"

static const struct {
	const char *a, *b;
	int d;
} distances[] = {
	{ "", "", 0 },
	{ "cycles", "cycles", 0 },
	{ "cylces", "cycles", 1 },	/* a swap is one edit */
	{ "cycle", "cycles", 1 },
	{ "cycless", "cycles", 1 },
	{ "CYCLES", "cycles", 0 },	/* case does not count */
	{ "cxcles", "cycles", 1 },
	{ "", "abc", 3 },
	{ "abc", "", 3 },
	{ "kitten", "sitting", 3 },
	{ "ca", "abc", 3 },		/* restricted: no edit after a swap */
};

static const struct {
	const char *name, *msg;
} typos[] = {
	{ "cylces", "unknown event \"cylces\"; did you mean \"cycles\"?" },
	{ "cylces:u", "unknown event \"cylces:u\"; did you mean \"cycles:u\"?" },
	{ "instructons", "did you mean \"instructions\"?" },
	{ "task-clok", "did you mean \"task-clock\"?" },
	{ "L1-dcache-load-mises",
	  "did you mean \"L1-dcache-load-misses\" or \"L1-icache-load-misses\"?" },
	{ "pagefaults", "did you mean \"page-faults\"?" },
	{ "context-switch", "did you mean \"context-switches\"?" },
};

static void resolver_typos(void)
{
	struct perfctr_resolver_opts o = {
		.sz = sizeof(o), .sysfs_root = test_dir, .no_libpfm = 1,
	};
	struct perfctr_resolver *r;
	struct perfctr_encoding e;
	char err[512];
	size_t i;

	if (perfctr_resolver__new(&o, &r))
		test_die("resolver");
	for (i = 0; i < sizeof(typos) / sizeof(typos[0]); i++) {
		is_int(perfctr_resolver__resolve(r, typos[i].name, 0, &e, err, sizeof(err)),
		       -ENOENT, "%s is unknown", typos[i].name);
		like(err, typos[i].msg, "%s: suggestion", typos[i].name);
	}
	perfctr_resolver__resolve(r, "xyzzy", 0, &e, err, sizeof(err));
	is_str(err, "unknown event \"xyzzy\"", "nothing near xyzzy: no suggestion");
	perfctr_resolver__free(r);
}

static void nearest_three(void)
{
	static const char *const names[] = {
		"abcdef", "abxdef", "abcdeg", "zbcdef", "abcdef", "qqqqqq", "abcdex",
	};
	struct pc_suggest s;
	char err[256] = "x";
	size_t i;

	pc_suggest_init(&s, "abcdefg");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		pc_suggest_add(names[i], &s);
	pc_suggest_append(&s, "", err, sizeof(err));
	/* distances 1, 2, 1, 2, (dup), far, 2 */
	is_str(err, "x; did you mean \"abcdef\", \"abcdeg\" or \"abxdef\"?",
	       "three nearest, nearest first, then first come, no duplicates");
	pc_suggest_init(&s, "zz");
	pc_suggest_add("zz-very-far-away", &s);
	err[1] = '\0';
	pc_suggest_append(&s, "", err, sizeof(err));
	is_str(err, "x", "nothing near: nothing appended");
}

static void public_suggest(void)
{
	static const char *const ids[] = {
		"cyclesxx", "ins", "cycels", "l3miss", NULL, "cycles",
	};
	const char *out[3];
	size_t n;

	n = perfctr_suggest("cycles", ids, 6, out, 3);
	is_int(n, 3, "perfctr_suggest: three near \"cycles\"");
	if (n == 3) {
		is_str(out[0], "cycles", "nearest first (0)");
		is_str(out[1], "cycels", "then by distance (1)");
		is_str(out[2], "cyclesxx", "then 2");
	}
	n = perfctr_suggest("cycles", ids, 6, out, 1);
	is_int(n, 1, "perfctr_suggest: max is honoured");
	is_int(perfctr_suggest("l3mis", ids, 6, out, 3), 1, "l3mis: one");
	is_str(out[0], "l3miss", "l3mis -> l3miss");
	is_int(perfctr_suggest("zzz", ids, 6, out, 3), 0, "zzz: none");
	is_int(perfctr_suggest("zzz", ids, 0, out, 3), 0, "no candidates: none");
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(distances) / sizeof(distances[0]); i++)
		is_int(pc_suggest_distance(distances[i].a, distances[i].b),
		       distances[i].d, "distance(\"%s\", \"%s\")",
		       distances[i].a, distances[i].b);
	test_mkdtemp();
	resolver_typos();
	nearest_three();
	public_suggest();
	test_cleanup();
	return tap_done();
}
