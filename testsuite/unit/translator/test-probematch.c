/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-probematch.c - stap -l / -L patterns over perfctr probe points:
 * which patterns are ours, parse errors, globs, '**', the optional
 * components (-l only when named, -L always), implied tails, counter ids,
 * quoting, the forms the scope table allows, an event only .socket
 * counts, one of a hybrid core PMU, one without .precise, and the
 * pieces the "no match" messages use, with the reasons.
 */
#include <errno.h>
#include "probematch.h"
#include "tap.h"

static char got[8192], err[256];

static void collect(const char *point, void *ctx)
{
	strcat(got, point);
	strcat(got, "\n");
}

/* The points pattern matches for event with mark (the names format's:
 * PERFCTR_NAMES_*, or NULL), one a line. */
static const char *points_of(const char *pattern, const char *event,
			     int forms, const char *mark)
{
	struct pm_pattern p;

	got[0] = '\0';
	if (probematch__parse(pattern, &p, err, sizeof(err)))
		return err;
	probematch__event(&p, event, mark, forms, collect, NULL);
	return got;
}

static const char *points(const char *pattern, const char *event, int forms)
{
	return points_of(pattern, event, forms, NULL);
}

static const struct {
	const char *pattern, *event;
	int forms;
	const char *want;
} cases[] = {
	{ "perfctr.**", "cycles", 0, "perfctr.event(\"cycles\").counter(\"ID\")\n" },
	{ "perfctr", "cycles", 0, "perfctr.event(\"cycles\").counter(\"ID\")\n" },
	/* -L: every form, of counters and sampling probes */
	{ "perfctr.event(\"cycles\").kernel.**.hz(*)", "cycles", 1,
	  "perfctr.event(\"cycles\").kernel.hz(F)\n"
	  "perfctr.event(\"cycles\").kernel.hz(F).precise\n"
	  "perfctr.event(\"cycles\").kernel.cpu.hz(F)\n"
	  "perfctr.event(\"cycles\").kernel.cpu.hz(F).precise\n"
	  "perfctr.event(\"cycles\").kernel.process.hz(F)\n"
	  "perfctr.event(\"cycles\").kernel.process.hz(F).precise\n"
	  "perfctr.event(\"cycles\").kernel.process(\"PATH\").hz(F)\n"
	  "perfctr.event(\"cycles\").kernel.process(\"PATH\").hz(F).precise\n" },
	{ "perfctr.event(\"cycles\").kernel.**.counter(\"c\")", "cycles", 1,
	  "perfctr.event(\"cycles\").kernel.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.multiplex.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.group(\"G\").multiplex.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpus(\"LIST\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpus(\"LIST\").multiplex.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpu.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpu.multiplex.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpu.group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpu.group(\"G\").multiplex.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpu.cpus(\"LIST\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpu.cpus(\"LIST\").multiplex.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.thread.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.thread.cpus(\"LIST\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.process.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.process(\"PATH\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cgroup(\"PATH\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cgroup(\"PATH\").cpus(\"LIST\").counter(\"c\")\n" },
	/* scopes, and sampling probes where the pattern names them */
	{ "perfctr.event(\"cycles\").thread", "cycles", 0,
	  "perfctr.event(\"cycles\").thread.counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").process(\"/bin/ls\").counter(\"c\")", "cycles", 0,
	  "perfctr.event(\"cycles\").process(\"/bin/ls\").counter(\"c\")\n" },
	{ "perfctr.event(\"cycles\").process(\"/bin/*\")", "cycles", 0,
	  "perfctr.event(\"cycles\").process(\"PATH\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").user.process", "cycles", 0,
	  "perfctr.event(\"cycles\").user.process.counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").sample(100000)", "cycles", 0,
	  "perfctr.event(\"cycles\").sample(100000)\n" },
	{ "perfctr.event(\"cycles\").cpu.hz(*)", "cycles", 0,
	  "perfctr.event(\"cycles\").cpu.hz(F)\n" },
	{ "perfctr.event(\"cycles\").sample(1000).precise(2)", "cycles", 0,
	  "perfctr.event(\"cycles\").sample(1000).precise(2)\n" },
	{ "perfctr.event(\"cycles\").sample(1000).precise", "cycles", 0,
	  "perfctr.event(\"cycles\").sample(1000).precise\n" },
	{ "perfctr.event(\"cycles\").cgroup(\"/ctr/a\")", "cycles", 0,
	  "perfctr.event(\"cycles\").cgroup(\"/ctr/a\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").cgroup", "cycles", 0,
	  "perfctr.event(\"cycles\").cgroup(\"PATH\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cyc*\")", "cycles", 0,
	  "perfctr.event(\"cycles\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cyc*\")", "instructions", 0, "" },
	{ "perfctr.event(\"[cd]?cles\")", "cycles", 0,
	  "perfctr.event(\"cycles\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").user", "cycles", 0,
	  "perfctr.event(\"cycles\").user.counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").user.*.counter(\"c\")", "cycles", 1,
	  "perfctr.event(\"cycles\").user.multiplex.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.cpus(\"LIST\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.cpu.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.thread.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.process.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.process(\"PATH\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.cgroup(\"PATH\").counter(\"c\")\n" },
	{ "perfctr.event(\"cycles\").*.counter(\"c\")", "cycles", 0, "" },
	{ "perfctr.event(\"cycles\").*.counter(\"c\")", "cycles", 1,
	  "perfctr.event(\"cycles\").multiplex.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").cpus(\"LIST\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").cpu.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").thread.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").process.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").process(\"PATH\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").cgroup(\"PATH\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.counter(\"c\")\n" },
	{ "perfctr.event(\"cycles\").counter(\"c\")", "cycles", 0,
	  "perfctr.event(\"cycles\").counter(\"c\")\n" },
	{ "perfctr.event(\"cycles\").multiplex.counter(\"c*\")", "cycles", 0,
	  "perfctr.event(\"cycles\").multiplex.counter(\"ID\")\n" },
	/* .process's path: -l where the pattern gives one, -L both */
	{ "perfctr.event(\"cycles\").process.counter(\"c\")", "cycles", 1,
	  "perfctr.event(\"cycles\").process.counter(\"c\")\n"
	  "perfctr.event(\"cycles\").process(\"PATH\").counter(\"c\")\n" },
	/* .cpus and .group: named by -l, where the scope table allows */
	{ "perfctr.event(\"cycles\").group(\"g\")", "cycles", 0,
	  "perfctr.event(\"cycles\").group(\"g\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").cpu.group(\"g\").multiplex", "cycles", 0,
	  "perfctr.event(\"cycles\").cpu.group(\"g\").multiplex.counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").cpus(\"0\")", "cycles", 0,
	  "perfctr.event(\"cycles\").cpus(\"0\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").thread.cpus(\"0-3\").counter(\"t\")", "cycles", 0,
	  "perfctr.event(\"cycles\").thread.cpus(\"0-3\").counter(\"t\")\n" },
	{ "perfctr.event(\"cycles\").cgroup(\"/a\").cpus", "cycles", 0,
	  "perfctr.event(\"cycles\").cgroup(\"/a\").cpus(\"LIST\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cycles\").**.group(*).counter(\"c\")", "cycles", 1,
	  "perfctr.event(\"cycles\").group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").cpu.group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").user.cpu.group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.group(\"G\").counter(\"c\")\n"
	  "perfctr.event(\"cycles\").kernel.cpu.group(\"G\").counter(\"c\")\n" },
	{ "perfctr.user", "cycles", 1, "" },
	{ "perfctr.event", "cycles", 0, "perfctr.event(\"cycles\").counter(\"ID\")\n" },
	{ "perfctr.ev*(\"cycles\")", "cycles", 0,
	  "perfctr.event(\"cycles\").counter(\"ID\")\n" },
	{ " perfctr . event ( \"inst_retired.any\" ) ", "inst_retired.any", 0,
	  "perfctr.event(\"inst_retired.any\").counter(\"ID\")\n" },
	{ "perfctr.event(\"cpu/event=0x3c/\")", "cpu/event=0x3c/", 0,
	  "perfctr.event(\"cpu/event=0x3c/\").counter(\"ID\")\n" },
	{ "perfctr.event(\"a\\\"b\")", "a\"b", 0,
	  "perfctr.event(\"a\\\"b\").counter(\"ID\")\n" },
	{ "perfctr.event(\"x\").counter(\"c\").**", "x", 0,
	  "perfctr.event(\"x\").counter(\"c\")\n" },
	{ "perfctr.event(\"x\").counter(\"c\").foo", "x", 1, "" },
	{ "perfctr.event(\"x\"", "x", 0, "expected ')' at 'end of pattern'" },
	{ "perfctr.event(x)", "x", 0, "expected a string literal or a number at 'x)'" },
	{ "perfctr..event", "x", 0, "expected a probe point component at '.event'" },
	{ "perfctr.event(\"x\") y", "x", 0, "expected '.' or the end at 'y'" },
	{ "perfctr.event(\"x)", "x", 0, "unterminated string" },
	{ "perfctr.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q", "x", 0, "too many components" },
};

/* Patterns that match no point of "cycles", even under -L: what the
 * scope table or the grammar rules out. */
static const char *const no_points[] = {
	"perfctr.event(\"cycles\").cgroup(\"/a\").hz(99)",
	"perfctr.event(\"cycles\").cgroup(\"/a\").multiplex",
	"perfctr.event(\"cycles\").thread.multiplex",
	"perfctr.event(\"cycles\").thread.sample(1000)",
	"perfctr.event(\"cycles\").multiplex.sample(1000)",
	"perfctr.event(\"cycles\").counter(\"c\").precise",
	"perfctr.event(\"cycles\").counter(\"c\").multiplex",
	"perfctr.event(\"cycles\").process.cpus(\"0\")",
	"perfctr.event(\"cycles\").cpus(\"0\").group(\"g\")",
	"perfctr.event(\"cycles\").thread.group(\"g\")",
	"perfctr.event(\"cycles\").cgroup.group(\"g\")",
	"perfctr.event(\"cycles\").group(\"g\").sample(1000)",
	"perfctr.event(\"cycles\").cpus(\"0\").sample(1000)",
};

static void matching(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *g = points(cases[i].pattern, cases[i].event,
				       cases[i].forms);

		if (g == got)
			is_str(g, cases[i].want, "%s %s on \"%s\"",
			       cases[i].forms ? "-L" : "-l", cases[i].pattern,
			       cases[i].event);
		else
			like(g, cases[i].want, "parse error: %s", cases[i].pattern);
	}
	for (i = 0; i < sizeof(no_points) / sizeof(no_points[0]); i++)
		is_str(points(no_points[i], "cycles", 1), "", "-L %s on \"cycles\": "
		       "none", no_points[i]);
}

/* An event of a PMU with a cpumask: one point, .socket named by -l and
 * -L alike; no level, scope, .multiplex or sampling form.  Other events
 * have no .socket point. */
static void socket(void)
{
	static const char E[] = "power/energy-pkg/";
	static const struct {
		const char *pattern;
		int forms, socket;
		const char *want;
	} sc[] = {
		{ "perfctr.**", 0, 1,
		  "perfctr.event(\"power/energy-pkg/\").socket.counter(\"ID\")\n" },
		{ "perfctr.**", 1, 1,
		  "perfctr.event(\"power/energy-pkg/\").socket.counter(\"ID\")\n" },
		{ "perfctr.event(\"power/*\")", 0, 1,
		  "perfctr.event(\"power/energy-pkg/\").socket.counter(\"ID\")\n" },
		{ "perfctr.event(\"power/*\").socket.counter(\"e\")", 0, 1,
		  "perfctr.event(\"power/energy-pkg/\").socket.counter(\"e\")\n" },
		/* .socket is no optional component: a point without it is
		 * none of this event's */
		{ "perfctr.event(\"power/*\").counter(\"e\")", 1, 1, "" },
		{ "perfctr.event(\"power/energy-pkg/\").socket", 0, 1,
		  "perfctr.event(\"power/energy-pkg/\").socket.counter(\"ID\")\n" },
		{ "perfctr.*.so*", 0, 1,
		  "perfctr.event(\"power/energy-pkg/\").socket.counter(\"ID\")\n" },
		{ "perfctr.event(\"power/energy-pkg/\").cpu", 1, 1, "" },
		{ "perfctr.event(\"power/energy-pkg/\").user", 1, 1, "" },
		{ "perfctr.event(\"power/energy-pkg/\").socket.multiplex", 1, 1, "" },
		{ "perfctr.event(\"power/energy-pkg/\").socket.sample(1000)", 1, 1, "" },
		{ "perfctr.event(\"power/energy-pkg/\").hz(*)", 1, 1, "" },
		{ "perfctr.event(\"power/energy-pkg/\").socket", 1, 0, "" },
		{ "perfctr.**.socket.**", 1, 0, "" },
	};
	size_t i;

	for (i = 0; i < sizeof(sc) / sizeof(sc[0]); i++)
		is_str(points_of(sc[i].pattern, E, sc[i].forms, sc[i].socket ?
				 PERFCTR_NAMES_SOCKET : NULL),
		       sc[i].want, "%s %s on \"%s\"%s", sc[i].forms ? "-L" : "-l",
		       sc[i].pattern, E, sc[i].socket ? ", a socket PMU's" :
		       ", no cpumask");
}

/* An event of one core PMU of several (mark .cpus("PMU")): per-CPU
 * counters only, with that .cpus, shown by -l and -L; an .imprecise
 * one: no .precise. */
static void marks(void)
{
	static const char A[] = "cpu_atom/cpu-cycles/";
	static const char CPUS[] = PERFCTR_NAMES_CPUS "(\"cpu_atom\")";
	static const struct {
		const char *pattern, *event, *mark;
		int forms;
		const char *want;
	} mc[] = {
		{ "perfctr.event(\"cpu_atom/*\")", A, CPUS, 0,
		  "perfctr.event(\"cpu_atom/cpu-cycles/\").cpus(\"cpu_atom\").counter(\"ID\")\n" },
		{ "perfctr.event(\"cpu_atom/*\").kernel.**", A, CPUS, 1,
		  "perfctr.event(\"cpu_atom/cpu-cycles/\").kernel.cpus(\"cpu_atom\").counter(\"ID\")\n"
		  "perfctr.event(\"cpu_atom/cpu-cycles/\").kernel.cpus(\"cpu_atom\").multiplex.counter(\"ID\")\n"
		  "perfctr.event(\"cpu_atom/cpu-cycles/\").kernel.cpu.cpus(\"cpu_atom\").counter(\"ID\")\n"
		  "perfctr.event(\"cpu_atom/cpu-cycles/\").kernel.cpu.cpus(\"cpu_atom\").multiplex.counter(\"ID\")\n"
		  "perfctr.event(\"cpu_atom/cpu-cycles/\").kernel.thread.cpus(\"cpu_atom\").counter(\"ID\")\n"
		  "perfctr.event(\"cpu_atom/cpu-cycles/\").kernel.cgroup(\"PATH\").cpus(\"cpu_atom\").counter(\"ID\")\n" },
		{ "perfctr.event(\"cpu_atom/*\").thread.cpus(\"cpu_*\")", A, CPUS, 0,
		  "perfctr.event(\"cpu_atom/cpu-cycles/\").thread.cpus(\"cpu_atom\").counter(\"ID\")\n" },
		{ "perfctr.event(\"cpu_atom/*\").cpus(\"0\")", A, CPUS, 1, "" },
		{ "perfctr.event(\"cpu_atom/*\").process", A, CPUS, 1, "" },
		{ "perfctr.event(\"cpu_atom/*\").**.sample(*)", A, CPUS, 1, "" },
		{ "perfctr.event(\"cpu_atom/*\").group(\"g\")", A, CPUS, 1, "" },
		{ "perfctr.event(\"page-faults\").user.process.sample(*).**",
		  "page-faults", PERFCTR_NAMES_IMPRECISE, 1,
		  "perfctr.event(\"page-faults\").user.process.sample(N)\n"
		  "perfctr.event(\"page-faults\").user.process(\"PATH\").sample(N)\n" },
		{ "perfctr.event(\"page-faults\").sample(1000).precise",
		  "page-faults", PERFCTR_NAMES_IMPRECISE, 1, "" },
		{ "perfctr.event(\"page-faults\").user.process.sample(*).**",
		  "page-faults", NULL, 1,
		  "perfctr.event(\"page-faults\").user.process.sample(N)\n"
		  "perfctr.event(\"page-faults\").user.process.sample(N).precise\n"
		  "perfctr.event(\"page-faults\").user.process(\"PATH\").sample(N)\n"
		  "perfctr.event(\"page-faults\").user.process(\"PATH\").sample(N).precise\n" },
	};
	size_t i;

	for (i = 0; i < sizeof(mc) / sizeof(mc[0]); i++)
		is_str(points_of(mc[i].pattern, mc[i].event, mc[i].forms,
				 mc[i].mark), mc[i].want, "%s %s on \"%s\", %s",
		       mc[i].forms ? "-L" : "-l", mc[i].pattern, mc[i].event,
		       mc[i].mark ? mc[i].mark : "no mark");
}

/* Why a pattern matches nothing, from the scope table and the event's
 * mark; nothing to say of one a rule allows. */
static void whys(void)
{
	static const struct {
		const char *pattern, *mark, *want;
	} wc[] = {
		{ "perfctr.event(\"x\").thread.sample(*)", NULL,
		  ".thread cannot sample: a sampling clause samples per CPU or "
		  "per process (.cpu, .process)" },
		{ "perfctr.event(\"x\").cgroup(\"/a\").hz(99)", NULL,
		  ".cgroup cannot sample: " },
		{ "perfctr.event(\"x\").process.cpus(\"0\")", NULL,
		  ".process cannot take .cpus: .cpus restricts a counter made "
		  "per CPU (.cpu, .thread, .cgroup)" },
		{ "perfctr.event(\"x\").thread.group(\"g\")", NULL,
		  ".thread cannot be in a group: a group counts per CPU (.cpu)" },
		{ "perfctr.event(\"x\").cgroup(\"/a\").multiplex", NULL,
		  ".cgroup cannot multiplex: .multiplex counts per CPU (.cpu)" },
		{ "perfctr.event(\"x\").cpus(\"0\").sample(1000)", NULL,
		  "a sampling probe takes no .cpus" },
		{ "perfctr.event(\"x\").multiplex.hz(99)", NULL,
		  "a sampling probe takes no .multiplex" },
		{ "perfctr.event(\"x\").cpus(\"0\").group(\"g\")", NULL,
		  "a group's counter takes no .cpus" },
		{ "perfctr.event(\"x\").counter(\"c\").precise", NULL,
		  ".precise needs .sample(N) or .hz(F)" },
		{ "perfctr.event(\"x\").process", PERFCTR_NAMES_CPUS "(\"cpu_atom\")",
		  "event \"x\" is of core PMU \"cpu_atom\", one of several: it "
		  "counts per CPU, on that PMU's CPUs only, with .cpus(\"cpu_atom\")" },
		{ "perfctr.event(\"x\").sample(1000).precise", PERFCTR_NAMES_IMPRECISE,
		  "event \"x\" samples without .precise here: its PMU has no "
		  "skid-free sampling" },
		{ "perfctr.event(\"x\").cpu.sample(1000).precise", NULL, NULL },
		{ "perfctr.event(\"x\").thread.cpus(\"0\").counter(\"c\")", NULL, NULL },
		{ "perfctr.event(\"x\").t*.sample(1000)", NULL, NULL },
	};
	struct pm_pattern p;
	char why[512];
	size_t i;
	int said;

	for (i = 0; i < sizeof(wc) / sizeof(wc[0]); i++) {
		probematch__parse(wc[i].pattern, &p, err, sizeof(err));
		said = probematch__why(&p, "x", wc[i].mark, why, sizeof(why));
		if (wc[i].want)
			like(said ? why : "(nothing)", wc[i].want, "why %s", wc[i].pattern);
		else
			ok(!said, "no rule against %s", wc[i].pattern);
	}
}

static void ours(void)
{
	static const struct {
		const char *pattern;
		int ours;
	} pats[] = {
		{ "perfctr.**", 1 }, { "perfctr", 1 }, { "  perfctr.event(\"x\")", 1 },
		{ "perfctr*", 1 }, { "perfctr**", 1 }, { "perfctr*.event", 1 },
		{ "perfctr?", 0 }, { "perfctrx*", 0 },
		{ "perfctrx.**", 0 }, { "perf*", 0 }, { "kernel.function(\"*\")", 0 },
		{ "**", 0 }, { "", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		is_int(probematch__is_perfctr(pats[i].pattern), pats[i].ours,
		       "'%s' is %s", pats[i].pattern, pats[i].ours ? "ours" : "stap's");
}

static void messages(void)
{
	struct pm_pattern p;
	char similar[128];

	probematch__parse("perfctr.evnt(\"cycles\")", &p, err, sizeof(err));
	is_str(probematch__unknown_component(&p), "evnt", "unknown component found");
	probematch__similar("evnt", similar, sizeof(similar));
	like(similar, "event", "similar: event");
	probematch__parse("perfctr.e*.counter(\"c\")", &p, err, sizeof(err));
	ok(probematch__unknown_component(&p) == NULL, "globs are not unknown");
	ok(probematch__event_literal(&p) == NULL, "no event argument: no literal");
	probematch__parse("perfctr.event(\"cycles\")", &p, err, sizeof(err));
	is_str(probematch__event_literal(&p), "cycles", "event literal");
	probematch__parse("perfctr.event(\"cyc*\")", &p, err, sizeof(err));
	ok(probematch__event_literal(&p) == NULL, "a glob is no literal");
}

int main(void)
{
	ours();
	matching();
	socket();
	marks();
	whys();
	messages();
	return tap_done();
}
