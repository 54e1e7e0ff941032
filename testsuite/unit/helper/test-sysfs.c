/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-sysfs.c - PMU names against a fake sysfs tree: format files with
 * split bit ranges, events files, bare names, errors; and the online
 * CPU list.
 */
#include <errno.h>
#include "internal.h"
#include "tap.h"
#include "util.h"

#define DEV "bus/event_source/devices/"
#define EU PERFCTR_F_EXCLUDE_USER
#define EK PERFCTR_F_EXCLUDE_KERNEL
#define EH PERFCTR_F_EXCLUDE_HV
#define EG PERFCTR_F_EXCLUDE_GUEST

static const char *const tree[][2] = {
	{ DEV "cpu/type", "4\n" },
	/* AMD's core PMU: the event select is split over two ranges
	 * (arch/x86/events/amd/core.c, PMU_FORMAT_ATTR(event, ...)). */
	{ DEV "cpu/format/event", "config:0-7,32-35\n" },
	{ DEV "cpu/format/umask", "config:8-15\n" },
	{ DEV "cpu/format/edge", "config:18\n" },
	{ DEV "cpu/format/inv", "config:23\n" },
	{ DEV "cpu/format/cmask", "config:24-31\n" },
	{ DEV "cpu/format/ldlat", "config1:0-15\n" },
	{ DEV "cpu/format/offcore_rsp", "config1:0-63\n" },
	{ DEV "cpu/format/xtra", "config2:4-5,0\n" },
	{ DEV "cpu/format/bad", "config:7-0\n" },
	{ DEV "cpu/format/cfg3", "config3:0-7\n" },
	{ DEV "cpu/events/inst_retired", "event=0xc0,umask=0x00\n" },
	{ DEV "cpu/events/cpu-cycles", "event=0x3c\n" },
	{ DEV "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n" },
	{ DEV "cpu/events/mem-loads.scale", "1\n" },
	{ DEV "cpu/events/mem-loads.unit", "ns\n" },
	{ DEV "cpu/events/dup", "event=0x11\n" },
	{ DEV "cpu/events/broken", "event=0x1,config1=?\n" },
	/* perf's JSON for Zen 3: ex_ret_msprd_brnch_instr_dir_msmtch is
	 * EventCode 0x1c7 (tools/perf/pmu-events/arch/x86/amdzen3/core.json) */
	{ DEV "cpu/events/ex_ret_msprd_brnch_instr_dir_msmtch", "event=0x1c7\n" },
	{ DEV "uncore_imc_0/type", "17" },
	{ DEV "uncore_imc_0/format/event", "config:0-7" },
	{ DEV "uncore_imc_0/format/umask", "config:8-15" },
	{ DEV "uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x03" },
	{ DEV "uncore_imc_0/events/dup", "event=0x22" },
	{ DEV "software/type", "1\n" },
	{ DEV "weird/type", "four\n" },
	{ "devices/system/cpu/online", "0-1\n" },
};

static const struct {
	const char *name;
	unsigned int plm;
	int ret;
	uint32_t type;
	uint64_t config, config1, config2;
	uint32_t flags;
	const char *msg;
} cases[] = {
#define GOOD(name, plm, type, c, c1, c2, flags) \
	{ name, plm, 0, type, c, c1, c2, flags, NULL }
#define BAD(name, plm, ret, msg) { name, plm, ret, 0, 0, 0, 0, 0, msg }
	GOOD("cpu/event=0xc0,umask=1/", 0, 4, 0x1c0, 0, 0, EG),
	GOOD("cpu/event=192,umask=010/", 0, 4, 0xac0, 0, 0, EG),	/* decimal, as perf */
	GOOD("cpu/event=0x1c7/", 0, 4, 0x1000000c7, 0, 0, EG),
	GOOD("cpu/ex_ret_msprd_brnch_instr_dir_msmtch/", 0, 4, 0x1000000c7, 0, 0, EG),
	GOOD("cpu/event=0xfff/", 0, 4, 0xf000000ff, 0, 0, EG),
	GOOD("cpu/inst_retired/", 0, 4, 0xc0, 0, 0, EG),
	GOOD("inst_retired", 0, 4, 0xc0, 0, 0, EG),
	GOOD("INST_RETIRED", 0, 4, 0xc0, 0, 0, EG),
	GOOD("cpu/mem-loads/", 0, 4, 0x1cd, 3, 0, EG),
	GOOD("cpu/mem-loads,ldlat=10/", 0, 4, 0x1cd, 10, 0, EG),
	GOOD("cpu/ldlat=0x10,mem-loads/", 0, 4, 0x1cd, 0x10, 0, EG),
	GOOD("cpu/edge,event=0x3c/", 0, 4, 1 << 18 | 0x3c, 0, 0, EG),
	GOOD("cpu/event=0x3c,cmask=1,inv/", 0, 4, 1 << 24 | 1 << 23 | 0x3c, 0, 0, EG),
	GOOD("cpu/config=0x1234,config1=5,config2=0x7/", 0, 4, 0x1234, 5, 7, EG),
	GOOD("cpu/offcore_rsp=0xffffffffffffffff/", 0, 4, 0, ~0ull, 0, EG),
	GOOD("cpu/xtra=7/", 0, 4, 0, 0, 0x31, EG),	/* bits 4,5 then 0 */
	GOOD("uncore_imc_0/cas_count_read/", 0, 17, 0x304, 0, 0, EG),
	GOOD("cas_count_read", 0, 17, 0x304, 0, 0, EG),
	GOOD("software/config=3/", 0, 1, 3, 0, 0, EG),
	GOOD("cpu/event=0xc0/u", 0, 4, 0xc0, 0, 0, EK | EH | EG),
	GOOD("cpu/event=0xc0/:k", PERFCTR_PLM_KERNEL, 4, 0xc0, 0, 0, EU | EH),
	GOOD("inst_retired:u", 0, 4, 0xc0, 0, 0, EK | EH | EG),

	BAD("cpu/event=0x1fff/", 0, -EINVAL,
	    "value 0x1fff too big for term \"event\" (12 bits)"),
	BAD("cpu/event=1,event=2/", 0, -EINVAL,
	    "term \"event\" given twice"),
	BAD("cpu/foo=1/", 0, -EINVAL,
	    "unknown term \"foo\": PMU \"cpu\" has no such format or event"),
	BAD("cpu/evnt=1/", 0, -EINVAL,
	    "unknown term \"evnt\": PMU \"cpu\" has no such format or event; did you mean \"event\"?"),
	BAD("cpu/inst_retird/", 0, -EINVAL,
	    "did you mean \"inst_retired\"?"),
	BAD("cpu/event=zz/", 0, -EINVAL,
	    "bad value \"zz\" for term \"event\""),
	BAD("cpu/event=-1/", 0, -EINVAL,
	    "bad value \"-1\""),
	BAD("cpu/event=0x/", 0, -EINVAL,
	    "bad value \"0x\""),
	BAD("cpu/event=99999999999999999999/", 0, -EINVAL,
	    "bad value"),
	BAD("cpu/event=/", 0, -EINVAL,
	    "bad value \"\""),
	BAD("cpu/bad=1/", 0, -EINVAL,
	    "PMU \"cpu\": malformed format file \"bad\": \"config:7-0\""),
	BAD("cpu/cfg3=1/", 0, -EINVAL,
	    "malformed format file \"cfg3\""),
	BAD("cpu/event=0xc0", 0, -EINVAL,
	    "malformed PMU event \"cpu/event=0xc0\""),
	BAD("/event=1/", 0, -EINVAL,
	    "malformed PMU event"),
	BAD("cpu//", 0, -EINVAL,
	    "empty term"),
	BAD("cpu/event=1,,umask=1/", 0, -EINVAL,
	    "empty term in \"event=1,,umask=1\""),
	BAD("cpuu/event=1/", 0, -ENODEV,
	    "unknown PMU \"cpuu\"; did you mean \"cpu\"?"),
	BAD("../cpu/event=1/", 0, -ENODEV,
	    "unknown PMU \"..\""),
	BAD("..//", 0, -ENODEV,
	    "unknown PMU \"..\""),
	BAD("cpu/../../x=1/", 0, -EINVAL,
	    "unknown term \"../../x\""),
	BAD("weird/config=1/", 0, -EINVAL,
	    "PMU \"weird\": unreadable or malformed type file"),
	BAD("dup", 0, -EINVAL,
	    "event \"dup\" exists in several PMUs (\"cpu\", \"uncore_imc_0\"); name one, as in \"cpu/dup/\""),
	BAD("broken", 0, -EINVAL,
	    "bad value \"?\" for term \"config1\""),
	BAD("mem-loads.scale", 0, -ENOENT,
	    "unknown event \"mem-loads.scale\""),
	BAD("inst_retird", 0, -ENOENT,
	    "unknown event \"inst_retird\"; did you mean \"inst_retired\"?"),
	BAD("cpu/event=0xc0/u", PERFCTR_PLM_KERNEL, -EINVAL,
	    "contradict the request's .kernel"),
};

static void resolve_cases(struct perfctr_resolver *r)
{
	struct perfctr_encoding e;
	char err[1024];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		ret = perfctr_resolver__resolve(r, cases[i].name, cases[i].plm, &e,
						err, sizeof(err));
		is_int(ret, cases[i].ret, "%s: %s", cases[i].name,
		       cases[i].ret ? "refused" : "resolves");
		if (cases[i].msg) {
			like(err, cases[i].msg, "%s: message", cases[i].name);
			continue;
		}
		if (ret)
			printf("#   %s\n", err);
		ok(e.type == cases[i].type && e.config == cases[i].config &&
		   e.config1 == cases[i].config1 && e.config2 == cases[i].config2 &&
		   e.flags == cases[i].flags,
		   "%s -> type %u config %#llx config1 %#llx config2 %#llx flags %#x",
		   cases[i].name, cases[i].type,
		   (unsigned long long)cases[i].config,
		   (unsigned long long)cases[i].config1,
		   (unsigned long long)cases[i].config2, cases[i].flags);
		if (e.config != cases[i].config || e.config1 != cases[i].config1 ||
		    e.config2 != cases[i].config2)
			printf("#   got type %u config %#llx config1 %#llx config2 %#llx\n",
			       e.type, (unsigned long long)e.config,
			       (unsigned long long)e.config1,
			       (unsigned long long)e.config2);
	}
}

static int listed(const char *want)
{
	struct pc_suggest s;

	/* A wanted name is listed if it is its own nearest suggestion. */
	pc_suggest_init(&s, want);
	pc_sysfs_names(test_dir, pc_suggest_add, &s);
	return s.n && s.dist[0] == 0 && !strcmp(s.name[0], want);
}

static void names(void)
{
	ok(listed("inst_retired"), "names: bare inst_retired");
	ok(listed("cpu/inst_retired/"), "names: cpu/inst_retired/");
	ok(listed("uncore_imc_0/cas_count_read/"), "names: uncore_imc_0/cas_count_read/");
	ok(!listed("mem-loads.scale"), "names: not mem-loads.scale");
	ok(!listed("cpu/mem-loads.unit/"), "names: not cpu/mem-loads.unit/");
}

static const struct {
	const char *text;
	int n;
	int first, last;
} cpu_lists[] = {
	{ "0-1\n", 2, 0, 1 },	/* as the kernel writes it */
	{ "0", 1, 0, 0 },
	{ "0-3,5,7-8", 7, 0, 8 },
	{ "4095", 1, 4095, 4095 },
	{ "3-1", -EINVAL, 0, 0 },
	{ "a", -EINVAL, 0, 0 },
	{ "", -EINVAL, 0, 0 },
	{ "0,,1", -EINVAL, 0, 0 },
	{ "1,0", -EINVAL, 0, 0 },
	{ "0-", -EINVAL, 0, 0 },
	{ "-1", -EINVAL, 0, 0 },
	{ "65536", -EINVAL, 0, 0 },
	{ "0 1", -EINVAL, 0, 0 },
};

static void cpus(void)
{
	char rel[64];
	int *c, n;
	size_t i;

	for (i = 0; i < sizeof(cpu_lists) / sizeof(cpu_lists[0]); i++) {
		snprintf(rel, sizeof(rel), "cpus%zu/devices/system/cpu/online", i);
		test_write(rel, cpu_lists[i].text);
		snprintf(rel, sizeof(rel), "cpus%zu", i);
		n = perfctr_cpus__online(test_path(rel), &c);
		is_int(n, cpu_lists[i].n, "online \"%.*s\": count",
		       (int)strcspn(cpu_lists[i].text, "\n"), cpu_lists[i].text);
		if (n > 0)
			ok(c[0] == cpu_lists[i].first && c[n - 1] == cpu_lists[i].last,
			   "online list %zu: %d..%d", i, cpu_lists[i].first,
			   cpu_lists[i].last);
		else
			ok(c == NULL, "online list %zu: nothing allocated", i);
		free(c);
	}
	n = perfctr_cpus__online(test_path("nowhere"), &c);
	is_int(n, -ENOENT, "no sysfs: -ENOENT");
	n = perfctr_cpus__online(test_dir, &c);
	is_int(n, 2, "the tree's own online file");
	free(c);
}

/* Intel's topdown events: known by their config only on a core PMU that
 * has them (its events slots and topdown-retiring). */
static void topdown(const char *root)
{
	struct perfctr_resolver_opts o = { .sz = sizeof(o), .no_libpfm = 1,
					   .sysfs_root = root };
	struct perfctr_encoding raw = { 4, 0x8000, 0, 0, 0 },
		uncore = { 17, 0x8000, 0, 0, 0 }, e;
	struct perfctr_resolver *r;
	char err[256];

	is_int(perfctr_topdown__kind(root, &raw), -1, "config 0x8000 on a core "
	       "PMU without topdown events: not a metric");
	test_write(DEV "cpu/events/slots", "event=0x00,umask=0x4\n");
	test_write(DEV "cpu/events/topdown-retiring", "event=0x00,umask=0x80\n");
	test_write(DEV "cpu/events/topdown-be-bound", "event=0x00,umask=0x83\n");
	if (perfctr_resolver__new(&o, &r))
		test_die("resolver");
	ok(!perfctr_resolver__resolve(r, "topdown-be-bound", 0, &e, err,
				      sizeof(err)) &&
	   perfctr_topdown__kind(root, &e) == 3, "topdown-be-bound: metric 3 "
	   "(backend bound)");
	ok(!perfctr_resolver__resolve(r, "cpu/slots/", 0, &e, err,
				      sizeof(err)) &&
	   perfctr_topdown__kind(root, &e) == 8, "cpu/slots/: the leader");
	ok(!perfctr_resolver__resolve(r, "cpu/inst_retired/", 0, &e, err,
				      sizeof(err)) &&
	   perfctr_topdown__kind(root, &e) == -1, "cpu/inst_retired/: neither");
	is_int(perfctr_topdown__kind(root, &raw), 0, "r8000 there: retiring");
	is_int(perfctr_topdown__kind(root, &uncore), -1, "0x8000 on an uncore "
	       "PMU: not a metric");
	perfctr_resolver__free(r);
}

int main(void)
{
	struct perfctr_resolver_opts o = { .sz = sizeof(o), .no_libpfm = 1 };
	struct perfctr_resolver *r;
	size_t i;

	o.sysfs_root = test_mkdtemp();
	for (i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		test_write(tree[i][0], tree[i][1]);
	if (perfctr_resolver__new(&o, &r))
		test_die("resolver");
	resolve_cases(r);
	perfctr_resolver__free(r);
	names();
	cpus();
	topdown(o.sysfs_root);
	test_cleanup();
	return tap_done();
}
