/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-dump.c - the dump (stap --dump-counters) against a fake sysfs
 * tree: PMUs with cpus/cpumask, caps, format terms and events (.unit,
 * .scale); loaded perfctr modules with their perfctr_requests and
 * perfctr_assign parameters, good and broken; the text and JSON writers
 * (the JSON parsed back with jansson); and the dump of this machine
 * against the library's own trial opens.
 */
#include <errno.h>
#include <jansson.h>
#include "dump.h"
#include "tap.h"
#include "util.h"

#define DEV "bus/event_source/devices/"
#define MOD "module/"
#define SCALE "2.3283064365386962890625e-10"

static const char *const tree[][2] = {
	{ DEV "cpu/type", "4\n" },
	{ DEV "cpu/cpus", "0-1\n" },
	{ DEV "cpu/caps/max_precise", "3\n" },
	{ DEV "cpu/caps/pmu_name", "skylake\n" },
	{ DEV "cpu/format/umask", "config:8-15\n" },
	{ DEV "cpu/format/event", "config:0-7\n" },
	{ DEV "cpu/events/instructions", "event=0xc0\n" },
	{ DEV "cpu/events/cpu-cycles", "event=0x3c\n" },
	{ DEV "power/type", "20\n" },
	{ DEV "power/cpumask", "0\n" },
	{ DEV "power/format/event", "config:0-7\n" },
	{ DEV "power/events/energy-pkg", "event=0x02\n" },
	{ DEV "power/events/energy-pkg.unit", "Joules\n" },
	{ DEV "power/events/energy-pkg.scale", SCALE "\n" },
	{ DEV "software/type", "1\n" },
	{ "devices/system/cpu/online", "0-1\n" },
	{ MOD "ext4/parameters/other", "1\n" },
	{ MOD "stap_bad/parameters/perfctr_requests", "idx=0;id=x\n" },
	{ MOD "stap_bad/parameters/perfctr_assign", "\n" },
	{ MOD "stap_empty/parameters/perfctr_requests", "" },
	{ MOD "stap_empty/parameters/perfctr_assign", "\n" },
};

static const struct perfctr_request reqs_a[] = {
	{ .idx = 0, .id = "c", .event = "cycles", .plm = PERFCTR_PLM_USER,
	  .src = "a.stp:1:1" },
	{ .idx = 2, .id = "pf", .event = "page-faults", .plm = PERFCTR_PLM_ALL,
	  .src = "a.stp:2:1" },
};
static const struct perfctr_encoding encs_a[] = {
	{ 0, 0, 0, 0, PERFCTR_F_EXCLUDE_KERNEL | PERFCTR_F_EXCLUDE_HV },
	{ 1, 2, 0, 0, 0 },
};
static const struct perfctr_request reqs_b[] = {
	{ .idx = 1, .id = "m", .event = "cpu/event=0xc0/", .plm = PERFCTR_PLM_KERNEL,
	  .src = "b.stp:3:5", .mux = 1 },
};
static const struct perfctr_encoding encs_b[] = {
	{ 4, 0xc0, 0x1234567890abcdefull, 0, 5 },
};

/* Writes a module's two parameters; hash NULL: the right table hash. */
static void module(const char *name, const struct perfctr_request *r,
		   const struct perfctr_encoding *e, unsigned int n,
		   const char *hash)
{
	char rel[256], text[8192] = "", assign[4096], line[PERFCTR_REQ_FMT_MAX];
	unsigned int i;

	if (perfctr_table__hash(r, n, assign))
		test_die("hash");
	if (hash)
		strcpy(assign, hash);
	for (i = 0; i < n; i++) {
		if (perfctr_request__format(&r[i], line, sizeof(line)) < 0 ||
		    perfctr_assign__append(assign, sizeof(assign), r[i].idx, &e[i]))
			test_die("format");
		strcat(text, line);
		strcat(text, "\n");
	}
	strcat(assign, "\n");
	snprintf(rel, sizeof(rel), MOD "%s/parameters/perfctr_requests", name);
	test_write(rel, text);
	snprintf(rel, sizeof(rel), MOD "%s/parameters/perfctr_assign", name);
	test_write(rel, assign);
}

static void make_tree(void)
{
	size_t i;

	for (i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		test_write(tree[i][0], tree[i][1]);
	module("stap_aaa", reqs_a, encs_a, 2, NULL);
	module("stap_bbb", reqs_b, encs_b, 1, NULL);
	test_write(MOD "stap_dup/parameters/perfctr_requests",
		   "idx=0;id=a;event=cycles;plm=uk;src=d.stp:1:1\n");
	test_write(MOD "stap_dup/parameters/perfctr_assign",
		   "0000000000000000;0,0,0,0,0,0;0,0,0,0,0,0\n");
	test_write(MOD "stap_0x/parameters/perfctr_requests",
		   "idx=0;id=a;event=cycles;plm=uk;src=d.stp:1:1\n");
	test_write(MOD "stap_0x/parameters/perfctr_assign",
		   "0000000000000000;0,0,0x1,0,0,0\n");
}

static struct perfctr_dump *collect(int libpfm)
{
	struct perfctr_dump_opts o = {
		.sz = sizeof(o), .sysfs_root = test_dir, .no_libpfm = !libpfm,
		.no_trial = 1,
	};
	struct perfctr_dump *d;
	int ret = perfctr_dump__collect(&o, &d);

	is_int(ret, 0, "collect from the fake tree");
	if (ret)
		exit(tap_done());
	return d;
}

static const struct perfctr_dump_pmu *pmu(const struct perfctr_dump *d,
					  const char *name)
{
	unsigned int i;

	for (i = 0; i < d->n_pmus; i++)
		if (!strcmp(d->pmus[i].name, name))
			return &d->pmus[i];
	return NULL;
}

/* A sysfs "cpu" PMU that libpfm4 does not describe gets this CPU's
 * numbers (CPUID), whatever CPU runs the test (valgrind has its own). */
static int widths_of_this_cpu(const struct perfctr_dump_pmu *p)
{
	struct perfctr_dump_pmu want;
	struct pc_cpuid c;

	memset(&want, 0, sizeof(want));
	want.general = want.fixed = PERFCTR_UNKNOWN;
	want.general_bits = want.fixed_bits = PERFCTR_UNKNOWN;
	pc_cpuid_read(&c);
	pc_hw_widths(&want, pc_hw_family(NULL, 0, "cpu", &c), &c, 0);
	return p->general == want.general && p->fixed == want.fixed &&
	       p->general_bits == want.general_bits &&
	       p->fixed_bits == want.fixed_bits;
}

static void pmus(const struct perfctr_dump *d)
{
	const struct perfctr_dump_pmu *p = pmu(d, "cpu"), *w = pmu(d, "power");

	is_int(d->n_pmus, 3, "three PMUs");
	if (d->n_pmus != 3 || !p || !w)
		return;
	ok(!strcmp(d->pmus[0].name, "cpu") && !strcmp(d->pmus[1].name, "power") &&
	   !strcmp(d->pmus[2].name, "software"), "PMUs sorted by name");
	is_int(p->type, 4, "cpu: type");
	is_str(p->cpus, "0-1", "cpu: CPUs from its cpus file");
	is_str(w->cpus, "0", "power: CPUs from its cpumask file");
	ok(d->pmus[2].cpus == NULL && d->pmus[2].software, "software: all CPUs, software");
	ok(!p->software && !w->software, "cpu and power are not software");
	is_int(p->n_caps, 2, "cpu: two caps");
	if (p->n_caps == 2) {
		is_str(p->caps[0].name, "max_precise", "caps sorted");
		is_str(p->caps[0].desc, "3", "cap value");
	}
	is_int(p->n_terms, 2, "cpu: two format terms");
	if (p->n_terms == 2) {
		is_str(p->terms[0].name, "event", "terms sorted");
		is_str(p->terms[1].desc, "config:8-15", "term bits");
		is_int(p->terms[1].kind, PERFCTR_ATTR_TERM, "term kind");
	}
	is_int(p->n_events, 2, "cpu: two events");
	if (p->n_events == 2) {
		is_str(p->events[0].name, "cpu/cpu-cycles/", "events sorted, as scripts name them");
		is_str(p->events[0].desc, "event=0x3c", "event terms");
		is_int(p->events[0].source, PERFCTR_SRC_SYSFS, "source sysfs");
	}
	is_int(w->n_events, 1, "power: .unit and .scale are not events");
	if (w->n_events == 1)
		is_str(w->events[0].desc, "event=0x02 (unit Joules, scale " SCALE ")",
		       "power: unit and scale in the description");
	ok(p->pfm_name == NULL, "without libpfm4: no libpfm4 name");
	ok(widths_of_this_cpu(p), "without libpfm4: counters as this CPU says");
}

static int enc_eq(const struct perfctr_encoding *a,
		  const struct perfctr_encoding *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2 &&
	       a->flags == b->flags;
}

static void holders(const struct perfctr_dump *d)
{
	const struct perfctr_holder *h = d->holders;

	is_int(d->n_holders, 6, "six perfctr modules, ext4 is not one");
	if (d->n_holders != 6)
		return;
	is_str(h[0].module, "stap_0x", "sorted by module name");
	like(h[0].problem, "malformed record", "0x in a record is refused");
	is_str(h[1].module, "stap_aaa", "stap_aaa");
	ok(!h[1].problem, "stap_aaa: no problem%s%s", h[1].problem ? ": " : "",
	   h[1].problem ? h[1].problem : "");
	is_int(h[1].n, 2, "stap_aaa: two counters");
	if (h[1].n == 2 && h[1].encs) {
		is_str(h[1].reqs[1].event, "page-faults", "request event");
		is_str(h[1].reqs[0].src, "a.stp:1:1", "request src");
		ok(enc_eq(&h[1].encs[0], &encs_a[0]) && enc_eq(&h[1].encs[1], &encs_a[1]),
		   "encodings read back");
	}
	is_str(h[2].module, "stap_bad", "stap_bad listed");
	is_str(h[2].problem, "perfctr_requests line 1: field \"event\" missing or "
	       "out of order", "stap_bad: problem, with the reason");
	ok(h[3].encs && h[3].reqs[0].mux && enc_eq(&h[3].encs[0], &encs_b[0]),
	   "stap_bbb: multiplex, 64-bit config1, flags");
	like(h[4].problem, "counter 0 twice", "stap_dup: duplicate record");
	ok(h[5].n == 0, "stap_empty: no counters");
	like(h[5].problem, "perfctr_assign is empty", "stap_empty: not started by perfctr-run");
}

/* More requests than a page holds: the kernel shows the first page-1
 * bytes of perfctr_requests, and the last line is cut. */
static void cut_requests(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *text = calloc(1, page + 256);
	struct perfctr_holder *h;
	int i, n;

	if (!text)
		test_die("calloc");
	for (i = 0; strlen(text) < (size_t)page; i++)
		sprintf(text + strlen(text),
			"idx=%d;id=c%d;event=cycles;plm=uk;src=x.stp:%d:1\n", i, i, i);
	text[page - 1] = '\0';
	test_write(MOD "stap_zbig/parameters/perfctr_requests", text);
	test_write(MOD "stap_zbig/parameters/perfctr_assign", "\n");
	n = perfctr_holders__read(test_dir, &h);
	ok(n > 0 && !strcmp(h[n - 1].module, "stap_zbig"), "a module with many counters");
	if (n > 0)
		like(h[n - 1].problem, "perfctr_requests is cut at one page",
		     "a cut perfctr_requests is said to be cut");
	perfctr_holders__free(h, n < 0 ? 0 : n);
	free(text);
}

static void holder_hash(void)
{
	struct perfctr_holder *h;
	int n;

	module("stap_hash", reqs_b, encs_b, 1, "0123456789abcdef");
	n = perfctr_holders__read(test_dir, &h);

	is_int(n, 7, "holders__read: seven modules with the wrong-hash one");
	if (n == 7) {
		is_str(h[6].module, "stap_hash", "stap_hash");
		like(h[6].problem, "perfctr_assign is for another table (hash 0123456789abcdef",
		     "a hash that does not match the requests");
		ok(h[6].encs == NULL, "no encodings from a mismatched table");
	}
	perfctr_holders__free(h, n < 0 ? 0 : n);
	is_int(perfctr_holders__read(test_path("nowhere"), &h), 0,
	       "no module directory: none");
	cut_requests();
}

/* d as text (json 0), JSON (1) or names (2). */
static char *text_of(const struct perfctr_dump *d, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		test_die("open_memstream");
	is_int(json == 2 ? perfctr_dump__write_names(d, f) :
	       json ? perfctr_dump__write_json(d, f) :
	       perfctr_dump__write_text(d, f), 0, "%s writer",
	       json == 2 ? "names" : json ? "JSON" : "text");
	fclose(f);
	return buf;
}

/* Where what first comes in t, or NULL. */
static const char *at(const char *t, const char *what)
{
	return t ? strstr(t, what) : NULL;
}

static void text(const struct perfctr_dump *d)
{
	char *t = text_of(d, 0), *again;
	struct perfctr_dump *d2 = collect(0);
	const char *cpu;
	char want[128];

	like(t, "PMUs (perf type, CPUs, counters, events):\n"
	     "  cpu       type 4, CPUs 0-1 [cpus: core PMU], ", "text: the summary's PMU line, names aligned");
	like(t, "; 2 events\n  power     type 20, CPUs 0 [cpumask: per socket], ", "text: the PMU's events counted");
	like(t, "\n  software  type 1, all CPUs, software events, no counter limit\n",
	     "text: software PMU");
	snprintf(want, sizeof(want), "\nGeneric events (%u, not tried):\n"
		 "  hardware: branch-instructions ", d->n_generic);
	like(t, want, "text: generic events grouped by answer, then type");
	like(t, "\n  software: alignment-faults ", "text: software generic events");
	like(t, "\nCounters in use:\n  nmi_watchdog: ", "text: NMI watchdog");
	like(t, "\n  stap_aaa: counter \"c\" cycles (user) at a.stp:1:1: "
	     "type 0 config 0x0 config1 0x0 config2 0x0 flags 0x6 (user only, "
	     "no hypervisor)\n", "text: counter in use, its flags in words");
	like(t, "\n  stap_bbb: counter \"m\" cpu/event=0xc0/ (kernel, multiplex)",
	     "text: multiplex counter");
	like(t, "\n  stap_bad: problem: perfctr_requests line 1", "text: problem");
	cpu = at(t, "\n\ncpu (type 4, CPUs 0-1 [cpus: core PMU]):\n");
	ok(cpu != NULL, "text: the cpu PMU's section");
	like(cpu, "\n  caps:\n    max_precise             3\n", "text: cap");
	like(cpu, "\n  terms, cpu/NAME=N/:\n    event                   config:0-7\n"
	     "    umask                   config:8-15\n", "text: format terms");
	like(cpu, "\n  events:\n    cpu/cpu-cycles/         event=0x3c\n",
	     "text: events with their terms");
	like(t, "\n\npower (type 20, CPUs 0 [cpumask: per socket]):\n",
	     "text: power's section");
	like(t, "\n    power/energy-pkg/       event=0x02 (unit Joules", "text: event");
	ok(!at(t, "\nsoftware (type"), "text: no section for a PMU with nothing to show");
	ok(at(t, "PMUs (") < at(t, "\nGeneric events") &&
	   at(t, "\nGeneric events") < at(t, "\nCounters in use:") &&
	   at(t, "\nCounters in use:") < cpu && cpu < at(t, "\npower (type"),
	   "text: summary, then each PMU's section, by name");
	again = text_of(d2, 0);
	is_str(again, t, "text: stable from one dump to the next");
	free(again);
	free(t);
	perfctr_dump__free(d2);
}

static void json(const struct perfctr_dump *d)
{
	char *t = text_of(d, 1);
	json_error_t e;
	json_t *j = json_loads(t, 0, &e), *p, *c, *m;

	ok(j != NULL, "JSON parses back (%s)", j ? "" : e.text);
	if (!j) {
		free(t);
		return;
	}
	is_int(json_integer_value(json_object_get(j, "version")), 1, "JSON: version");
	p = json_array_get(json_object_get(j, "pmus"), 0);
	is_str(json_string_value(json_object_get(p, "name")), "cpu", "JSON: first PMU");
	is_int(json_integer_value(json_object_get(p, "type")), 4, "JSON: type");
	is_str(json_string_value(json_object_get(p, "cpus")), "0-1", "JSON: cpus");
	is_str(json_string_value(json_object_get(p, "cpus_from")), "cpus",
	       "JSON: which file named them");
	is_str(json_string_value(json_object_get(p, "span")), "core",
	       "JSON: span");
	is_str(json_string_value(json_object_get(json_object_get(p, "caps"),
						 "max_precise")), "3", "JSON: caps");
	is_str(json_string_value(json_object_get(json_object_get(p, "terms"),
						 "event")), "config:0-7", "JSON: terms");
	ok(json_is_null(json_object_get(json_object_get(p, "counters"), "general")) ||
	   json_is_integer(json_object_get(json_object_get(p, "counters"), "general")),
	   "JSON: counters null or a number");
	c = json_array_get(json_object_get(p, "events"), 1);
	is_str(json_string_value(json_object_get(c, "name")), "cpu/instructions/",
	       "JSON: events");
	is_str(json_string_value(json_object_get(c, "source")), "sysfs", "JSON: source");
	m = json_object_get(json_object_get(j, "in_use"), "modules");
	is_int(json_array_size(m), 6, "JSON: modules in use");
	c = json_array_get(json_object_get(json_array_get(m, 3), "counters"), 0);
	is_str(json_string_value(json_object_get(json_object_get(c, "encoding"),
						 "config1")), "0x1234567890abcdef",
	       "JSON: 64-bit encodings as hex strings");
	ok(json_is_true(json_object_get(c, "multiplex")), "JSON: multiplex");
	is_str(json_string_value(json_object_get(json_array_get(m, 2), "problem")),
	       "perfctr_requests line 1: field \"event\" missing or out of order",
	       "JSON: problem");
	ok(json_is_boolean(json_object_get(json_object_get(j, "in_use"), "nmi_watchdog")),
	   "JSON: nmi_watchdog");
	json_decref(j);
	free(t);
}

struct names {
	char all[4096];
	int n, sorted;
	char last[PERFCTR_NAME_MAX];
};

static void name_fn(const char *name, void *ctx)
{
	struct names *s = ctx;

	s->n++;
	s->sorted &= strcmp(s->last, name) < 0;
	snprintf(s->last, sizeof(s->last), "%s", name);
	if (strlen(s->all) + strlen(name) + 2 < sizeof(s->all)) {
		strcat(s->all, name);
		strcat(s->all, "\n");
	}
}

static void names(const struct perfctr_dump *d)
{
	struct names s = { .sorted = 1 };

	is_int(perfctr_dump__names(d, name_fn, &s), 0, "names");
	ok(s.sorted, "names sorted, each once");
	is_int(s.n, (int)d->n_generic + 3, "names: the generic events (untried) and three sysfs");
	like(s.all, "\ncpu/cpu-cycles/\n", "names: sysfs PMU/EVENT/");
	like(s.all, "\npage-faults\n", "names: generic");
}

/* A generic event whose trial open found no such event: not among the
 * names, and the names format says why (the trial's own words). */
static void closed_names(struct perfctr_dump *d)
{
	struct names s = { .sorted = 1 };
	struct perfctr_dump_generic *g = NULL;
	char *buf = NULL, want[512], why[256];
	size_t len = 0, i;
	FILE *f;

	for (i = 0; i < d->n_generic; i++)
		if (!strcmp(d->generic[i].name, "branch-misses"))
			g = &d->generic[i];
	if (!g)
		return (void)ok(0, "branch-misses among the generic events");
	g->tried = 1;
	g->open_err = -ENOENT;
	perfctr_dump__names(d, name_fn, &s);
	is_int(s.n, (int)d->n_generic + 2, "names: an event the kernel lacks is not one");
	ok(!strstr(s.all, "\nbranch-misses\n"), "names: branch-misses left out");
	f = open_memstream(&buf, &len);
	if (!f)
		test_die("open_memstream");
	is_int(perfctr_dump__write_names(d, f), 0, "names writer");
	fclose(f);
	perfctr_trial__explain(-ENOENT, why, sizeof(why));
	snprintf(want, sizeof(want), "\nbranch-misses\t%s\n", why);
	like(buf, want, "names format: the name, a tab, why");
	like(buf, "\ncpu/cpu-cycles/\n", "names format: a name that opens, alone");
	like(buf, "\npower/energy-pkg/\t" PERFCTR_NAMES_SOCKET "\n",
	     "names format: a cpumask PMU's name, a tab, .socket");
	like(buf, "\npage-faults\t" PERFCTR_NAMES_IMPRECISE "\n",
	     "names format: a software event, a tab, .imprecise");
	like(buf, "\ncycles\n", "names format: a hardware event of a PMU "
	     "with caps/max_precise, alone");
	like(s.all, "\npower/energy-pkg/\n",
	     "names: a cpumask PMU's event is one that opens");
	g->tried = 0;
	g->open_err = 0;
	free(buf);
}

/* This machine: whatever it has, the dump agrees with the library. */
static void host(void)
{
	struct perfctr_dump_opts o = { .sz = sizeof(o), .no_libpfm = 1 };
	struct perfctr_dump *d;
	unsigned int i;
	int found = 0;

	is_int(perfctr_dump__collect(&o, &d), 0, "host: collect");
	for (i = 0; i < d->n_pmus; i++)
		if (!strcmp(d->pmus[i].name, "software"))
			found = d->pmus[i].type == 1 && d->pmus[i].software;
	ok(found, "host: the software PMU, type 1");
	for (i = 0; i < d->n_generic; i++)
		if (!strcmp(d->generic[i].name, "page-faults"))
			found = d->generic[i].tried && d->generic[i].open_err ==
				perfctr_encoding__trial_open(&d->generic[i].enc,
							     d->trial_cpu, NULL, 0);
	ok(found, "host: page-faults opens as a trial open says");
	is_int(d->nmi_watchdog, perfctr_watchdog__holds_counter(), "host: NMI watchdog");
	perfctr_dump__free(d);
	o.sz = 1;
	is_int(perfctr_dump__collect(&o, &d), -EINVAL, "opts too small: -EINVAL");
}

/* A module with a group: its g record is checked, the text and JSON
 * name each counter's group. */
static const struct perfctr_request reqs_g[] = {
	{ .idx = 0, .id = "cyc", .event = "cycles", .plm = PERFCTR_PLM_ALL,
	  .src = "g.stp:1:1", .group = "ipc" },
	{ .idx = 1, .id = "x", .event = "cpu-clock", .plm = PERFCTR_PLM_ALL,
	  .src = "g.stp:2:1" },
	{ .idx = 2, .id = "ins", .event = "instructions", .plm = PERFCTR_PLM_ALL,
	  .src = "g.stp:3:1", .group = "ipc" },
};
static const struct perfctr_encoding encs_g[] = {
	{ 0, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0 }, { 0, 1, 0, 0, 0 },
};

static const struct perfctr_holder *find_holder(struct perfctr_holder *h,
						int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(h[i].module, name))
			return &h[i];
	return NULL;
}

static void group_holders(void)
{
	static const struct {
		const char *module, *records, *problem;
	} cases[] = {
		{ "stap_g_ok", ";g0,10,2", NULL },
		{ "stap_g_crec", ";g0,10,2;c1,1,0,0,0,1;u1,1,0,x;s1,0", NULL },
		{ "stap_g_none", "", "no record for group \"ipc\"" },
		{ "stap_g_member", ";g2,10,2", "group record for counter 2, "
		  "which leads no group" },
		{ "stap_g_twice", ";g0,10,2;g0,16,2", "group \"ipc\" twice" },
		{ "stap_g_bad", ";g0,10", "malformed group record" },
	};
	char rel[256], assign[4096];
	const struct perfctr_holder *g;
	struct perfctr_holder *h;
	struct perfctr_dump d = { 0 };
	char *t;
	size_t i;
	int n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		module(cases[i].module, reqs_g, encs_g, 3, NULL);
		snprintf(rel, sizeof(rel), MOD "%s/parameters/perfctr_assign",
			 cases[i].module);
		t = test_read(test_path(rel), NULL);
		if (!t)
			test_die("read");
		snprintf(assign, sizeof(assign), "%.*s", (int)strcspn(t, "\n"),
			 t);
		free(t);
		strcat(assign, cases[i].records);
		strcat(assign, "\n");
		test_write(rel, assign);
	}
	n = perfctr_holders__read(test_dir, &h);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		g = find_holder(h, n, cases[i].module);
		if (!cases[i].problem)
			ok(g && !g->problem && g->n == 3 &&
			   !strcmp(g->reqs[2].group, "ipc") &&
			   !g->reqs[1].group[0], "%s: a group's record read, "
			   "its counters' group names", cases[i].module);
		else
			ok(g && g->problem && strstr(g->problem,
						     cases[i].problem),
			   "%s: %s", cases[i].module, cases[i].problem);
	}
	g = find_holder(h, n, "stap_g_ok");
	d.n_holders = 1;
	d.holders = (struct perfctr_holder *)g;
	t = g ? text_of(&d, 0) : NULL;
	like(t, "  stap_g_ok: counter \"cyc\" cycles (user+kernel, group "
	     "\"ipc\") at g.stp:1:1", "text: a counter's group");
	free(t);
	t = g ? text_of(&d, 1) : NULL;
	like(t, "\"group\": \"ipc\"", "JSON: a counter's group");
	like(t, "\"group\": null", "JSON: a counter in none");
	free(t);
	perfctr_holders__free(h, n < 0 ? 0 : n);
}

/* A counter in use has its encoding's flags in words, each bit said. */
static void flag_words(void)
{
	static const struct {
		uint32_t flags;
		const char *words;
	} cases[] = {
		{ PERFCTR_F_EXCLUDE_KERNEL | PERFCTR_F_EXCLUDE_HV |
		  PERFCTR_F_EXCLUDE_GUEST,
		  "flags 0x16 (user only, no hypervisor, no guest)\n" },
		{ 0, "flags 0x0 (user and kernel)\n" },
		{ PERFCTR_F_EXCLUDE_USER | PERFCTR_F_EXCLUDE_HOST |
		  PERFCTR_F_MULTIPLEX | PERFCTR_F_TOPDOWN,
		  "flags 0x69 (kernel only, no host, multiplexed, topdown)\n" },
		{ PERFCTR_F_EXCLUDE_USER | PERFCTR_F_EXCLUDE_KERNEL,
		  "flags 0x3 (neither user nor kernel)\n" },
		{ 0x180, "flags 0x180 (user and kernel, unknown 0x180)\n" },
	};
	struct perfctr_request r = { .id = "c", .event = "cycles",
				     .src = "f.stp:1:1" };
	struct perfctr_encoding e = { 0 };
	struct perfctr_holder h = { .module = (char *)"stap_f", .n = 1,
				    .reqs = &r, .encs = &e };
	struct perfctr_dump d = { .n_holders = 1, .holders = &h };
	char *t;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		e.flags = cases[i].flags;
		t = text_of(&d, 0);
		like(t, cases[i].words, "text: flags %#x in words",
		     cases[i].flags);
		free(t);
	}
}

/* A fixture machine's dump (fixtures/README.md), as text, JSON or
 * names (json 2). */
static char *fixture_dump(const char *machine, int json, json_t **j)
{
	char root[1024], *t = NULL;
	struct perfctr_dump_opts o = { .sz = sizeof(o), .no_libpfm = 1,
				       .no_trial = 1 };
	struct perfctr_dump *d;
	json_error_t e;

	snprintf(root, sizeof(root), "%s/%s/sys", FIXTURES, machine);
	o.sysfs_root = root;
	if (perfctr_dump__collect(&o, &d)) {
		ok(0, "%s: collect", machine);
		return strdup("");
	}
	t = text_of(d, json);
	perfctr_dump__free(d);
	if (json == 1)
		*j = json_loads(t, 0, &e);
	return t;
}

static json_t *json_pmu(json_t *j, const char *name)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(j, "pmus"), i, p)
		if (!strcmp(json_string_value(json_object_get(p, "name")), name))
			return p;
	return NULL;
}

static void expect_json_pmu(json_t *j, const char *name, const char *cpus,
			    const char *from, const char *span)
{
	json_t *p = json_pmu(j, name);

	if (cpus)
		is_str(json_string_value(json_object_get(p, "cpus")), cpus,
		       "JSON %s: cpus", name);
	else
		ok(p && json_is_null(json_object_get(p, "cpus")),
		   "JSON %s: cpus null", name);
	if (from)
		is_str(json_string_value(json_object_get(p, "cpus_from")), from,
		       "JSON %s: cpus_from", name);
	else
		ok(p && json_is_null(json_object_get(p, "cpus_from")),
		   "JSON %s: cpus_from null", name);
	is_str(json_string_value(json_object_get(p, "span")), span,
	       "JSON %s: span", name);
}

/* An Arm PMU's event counters are counted in no sysfs file (dump_hw.c):
 * the dump says where the number is, and an Intel PMU says nothing of
 * the kind. */
static void unknown_counters(void)
{
	json_t *j = NULL, *c;
	char *t = fixture_dump("biglittle", 0, NULL);

	like(t, "\n  armv8_cortex_a55  type 8, CPUs 0-3 [cpus: hybrid core PMU], "
	     "general-purpose counters of 32 bits, how many unknown (the "
	     "kernel says it in no sysfs file, only in its boot log: \"N "
	     "counters available\", the cycle counter among them), 1 fixed "
	     "counters of 64 bits; ",
	     "biglittle text: where an Arm PMU's event counters are counted");
	free(t);
	t = fixture_dump("biglittle", 1, &j);
	c = json_object_get(json_pmu(j, "armv8_cortex_a76"), "counters");
	ok(json_is_null(json_object_get(c, "general")) &&
	   strstr(json_string_value(json_object_get(c, "general_why")) ?: "",
		  "boot log"), "biglittle JSON: general null, and why");
	json_decref(j);
	free(t);
	t = fixture_dump("skx2s", 1, &j);
	c = json_object_get(json_pmu(j, "cpu"), "counters");
	ok(c && json_is_null(json_object_get(c, "general_why")),
	   "skx2s JSON: no why for an x86 core PMU");
	json_decref(j);
	free(t);
}

static void topology(void)
{
	json_t *j = NULL;
	char *t = fixture_dump("adl", 0, NULL);

	like(t, "\n  cpu_atom     type 10, CPUs 16-23 [cpus: hybrid core PMU], ",
	     "adl text: cpu_atom, a hybrid core PMU");
	like(t, "\n  cpu_core     type 4, CPUs 0-15 [cpus: hybrid core PMU], ",
	     "adl text: cpu_core, a hybrid core PMU");
	like(t, "\n  cstate_core  type 13, CPUs 0,2,4,6,8,10,12,14,16-23 "
	     "[cpumask: per socket], ", "adl text: cstate_core, per socket");
	like(t, "\n  power        type 12, CPUs 0 [cpumask: per socket], ",
	     "adl text: power, per socket");
	like(t, "\n  msr          type 11, all CPUs, ", "adl text: msr, every CPU");
	like(t, "\n\ncpu_core (type 4, CPUs 0-15 [cpus: hybrid core PMU]):\n",
	     "adl text: cpu_core's section says so too");
	like(t, "\n    power/energy-pkg/       event=0x02 (unit Joules, scale "
	     "2.3283064365386962890625e-10)\n", "adl text: RAPL's unit and scale");
	free(t);
	t = fixture_dump("adl", 1, &j);
	ok(j != NULL, "adl JSON parses back");
	expect_json_pmu(j, "cpu_core", "0-15", "cpus", "hybrid-core");
	expect_json_pmu(j, "cpu_atom", "16-23", "cpus", "hybrid-core");
	expect_json_pmu(j, "power", "0", "cpumask", "per-socket");
	expect_json_pmu(j, "cstate_pkg", "0", "cpumask", "per-socket");
	expect_json_pmu(j, "software", NULL, NULL, "every-cpu");
	json_decref(j);
	free(t);
	t = fixture_dump("adl", 2, NULL);
	like(t, "\ncpu_atom/cpu-cycles/\t" PERFCTR_NAMES_CPUS "(\"cpu_atom\")\n",
	     "adl names: a hybrid core PMU's event, a tab, the .cpus it needs");
	like(t, "\ncpu_core/instructions/\t" PERFCTR_NAMES_CPUS
	     "(\"cpu_core\")\n", "adl names: the other core PMU's too");
	like(t, "\ncycles\n", "adl names: a generic hardware event, alone "
	     "(cpu_core, type 4, has caps/max_precise)");
	like(t, "\nmsr/tsc/\t" PERFCTR_NAMES_IMPRECISE "\n",
	     "adl names: a PMU without caps/max_precise: .imprecise");
	free(t);

	t = fixture_dump("skx2s", 0, NULL);
	like(t, "\n  cpu           type 4, all CPUs, ", "skx2s text: cpu, every CPU");
	like(t, "\n  uncore_imc_0  type 15, CPUs 0,28 [cpumask: per socket], ",
	     "skx2s text: an IMC, per socket");
	free(t);
	t = fixture_dump("skx2s", 1, &j);
	expect_json_pmu(j, "cpu", NULL, NULL, "every-cpu");
	expect_json_pmu(j, "uncore_cha_0", "0,28", "cpumask", "per-socket");
	json_decref(j);
	free(t);

	t = fixture_dump("biglittle", 0, NULL);
	like(t, "\n  armv8_cortex_a55  type 8, CPUs 0-3 [cpus: hybrid core PMU], ",
	     "biglittle text: the A55s' PMU, a hybrid core PMU");
	free(t);
	t = fixture_dump("biglittle", 1, &j);
	expect_json_pmu(j, "armv8_cortex_a76", "4-7", "cpus", "hybrid-core");
	json_decref(j);
	free(t);
	t = fixture_dump("biglittle", 2, NULL);
	like(t, "\ncycles\t" PERFCTR_NAMES_IMPRECISE "\n", "biglittle names: "
	     "a generic hardware event, no PMU of type 4: .imprecise");
	free(t);
}

int main(void)
{
	struct perfctr_dump *d;

	test_mkdtemp();
	make_tree();
	d = collect(0);
	pmus(d);
	holders(d);
	text(d);
	json(d);
	names(d);
	closed_names(d);
	perfctr_dump__free(d);
	holder_hash();
	group_holders();
	flag_words();
	unknown_counters();
	host();
	topology();
	test_cleanup();
	return tap_done();
}
