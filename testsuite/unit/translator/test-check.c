// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-check.c - what the checker decides and what follows from it: the
 * scope a counter gets without one (per CPU, target or not; a sampling
 * clause follows the target), the probes each read sits in and the reads
 * a scope cannot answer there, the -v notes, and each read rewritten as a
 * call of its own site.  What the emitter writes for them is golden.test's
 * (golden/: the generated tapset, whole).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "emit.h"
#include "events.h"
#include "parser.h"
#include "rewrite.h"
#include "tap.h"

/* The runtime's text, as the emitter embeds it (test-embed reads the
 * real one). */
static char fake_head[] = "/* runtime head */\n";
static char fake_body[] = "/* runtime body */\n";
static const struct runtime_text fake_runtime = {
	.head = { fake_head, sizeof(fake_head) - 1, sizeof(fake_head) },
	.body = { fake_body, sizeof(fake_body) - 1, sizeof(fake_body) },
};

struct run {
	struct source src;
	struct model m;
	struct diag d;
	char *msgs;
	size_t msgs_len;
	int errors;		/* parse and check */
};

/* Parses text as t.stp and, if that went well, checks it; has_target as
 * stap -c/-x sets it. */
static void run(struct run *r, const char *text, int has_target)
{
	FILE *out = open_memstream(&r->msgs, &r->msgs_len);

	source__from_string(&r->src, SRC_FILE, "t.stp", text, -1);
	model__init(&r->m, NULL, 0);
	r->m.has_target = has_target;
	diag__init(&r->d, out);
	r->errors = parser__run(&r->src, &r->m, &r->d);
	if (!r->errors)
		r->errors = check__run(&r->m, &r->d);
	fclose(out);
}

static void done(struct run *r)
{
	source__free(&r->src);
	model__free(&r->m);
	free(r->msgs);
}

/* ------------------------------------------ a target, a per-CPU count */

/* stap -c/-x and a counter that counts every task on the CPU, read where
 * only the target's count makes sense: one warning, with the fix. */
static const struct {
	const char *text;
	int has_target;
	const char *msg;	/* NULL: no warning */
} wanted_cases[] = {
	{ "probe perfctr.event(\"x\").counter(\"c\") {}\n"
	  "probe end { println(@perfctr(\"c\")) }", 1,
	  "counter \"c\" counts every task on each CPU, not only "
	  "the target of stap -c/-x, and the script reads it only in end "
	  "probes: declare it .process and read perfctr_total(\"c\"), the "
	  "target's tasks together, or write .cpu to say per CPU is meant: "
	  "string \"c\" at t.stp:1:34" },
	{ "probe perfctr.event(\"x\").counter(\"c\") {}\n"
	  "probe end { println(@perfctr(\"c\")) }", 0, NULL },
	{ "probe perfctr.event(\"x\").cpu.counter(\"c\") {}\n"
	  "probe end { println(@perfctr(\"c\")) }", 1, NULL },
	{ "probe perfctr.event(\"x\").cpus(\"0\").counter(\"c\") {}\n"
	  "probe end { println(@perfctr(\"c\")) }", 1, NULL },
	{ "probe perfctr.event(\"x\").counter(\"c\") {}\n"
	  "probe begin, end { println(@perfctr(\"c\")) }", 1,
	  "reads it only in begin or end probes" },
	{ "probe perfctr.event(\"x\").counter(\"c\") {}\n"
	  "probe end { println(@perfctr(\"c\")) }\n"
	  "probe kprobe.function(\"f\") { x = @perfctr(\"c\") }", 1, NULL },
	{ "probe perfctr.event(\"x\").counter(\"c\") {}\n"
	  "probe timer.s(1) { if (target()) println(@perfctr(\"c\")) }", 1,
	  "reads it only in timer probes while it filters on target()" },
	{ "probe perfctr.event(\"x\").counter(\"c\") {}\n"
	  "probe timer.s(1) { println(@perfctr(\"c\")) }", 1, NULL },
	{ "probe perfctr.event(\"x\").counter(\"c\") {}\n"
	  "probe kprobe.function(\"f\") { if (pid() == target()) "
	  "x = @perfctr(\"c\") }", 1, NULL },
	{ "probe end { println(cpu_cycles()) }", 1,
	  "cpu_cycles() counts every task on each CPU, not only "
	  "the target of stap -c/-x, and the script reads it only in end "
	  "probes: a .process clause read with perfctr_total(ID) counts the "
	  "target's tasks together: identifier 'cpu_cycles' at t.stp:1:21" },
	{ "probe end { println(thread_cpu_cycles()) }", 1, NULL },
};

static void target_wanted(void)
{
	size_t i;

	for (i = 0; i < sizeof(wanted_cases) / sizeof(wanted_cases[0]); i++) {
		const char *msg = wanted_cases[i].msg;
		struct run r;
		int good;

		run(&r, wanted_cases[i].text, wanted_cases[i].has_target);
		good = !r.errors && r.d.warnings == (msg ? 1 : 0) &&
		       (!msg || strstr(r.msgs, msg));
		ok(good, "%s, %s: %s", strchr(wanted_cases[i].text, '\n') ?
		   strchr(wanted_cases[i].text, '\n') + 1 :
		   wanted_cases[i].text, wanted_cases[i].has_target ?
		   "-c" : "no target", msg ? "warned" : "no warning");
		if (!good)
			printf("# %s\n", r.msgs);
		done(&r);
	}
	/* two such counters: one warning, at the first */
	{
		struct run r;

		run(&r, "probe perfctr.event(\"x\").counter(\"a\") {}\n"
		    "probe perfctr.event(\"y\").counter(\"b\") {}\n"
		    "probe end { println(@perfctr(\"a\") + @perfctr(\"b\")) }",
		    1);
		ok(!r.errors && r.d.warnings == 1 && strstr(r.msgs, "\"a\""),
		   "two per-CPU counters read in end: one warning, the first's");
		done(&r);
	}
}

/* ------------------------------------------------------- default scopes */

static void default_scopes(void)
{
	static const char text[] =
		"probe perfctr.event(\"cycles\").counter(\"c\") {}\n"
		"probe perfctr.event(\"cycles\").sample(100000) { n++ }\n"
		"probe kprobe.function(\"f\") { x = @perfctr(\"c\") + "
		"cpu_cycles() }\n";
	int target;

	for (target = 0; target < 2; target++) {
		struct run r;

		run(&r, text, target);
		ok(!r.errors && r.m.ncounters == 3 &&
		   r.m.counters[0].scope == PERFCTR_SCOPE_CPU &&
		   r.m.counters[2].scope == PERFCTR_SCOPE_CPU,
		   "%s: a counter without a scope and an event function's "
		   "count per CPU", target ? "-c/-x" : "no target");
		ok(!r.errors && r.m.counters[1].scope ==
		   (target ? PERFCTR_SCOPE_PROCESS : PERFCTR_SCOPE_CPU),
		   "%s: a sampling clause without a scope samples %s",
		   target ? "-c/-x" : "no target",
		   target ? "the target" : "per CPU");
		done(&r);
	}
}

/* The thread_ event functions count per thread, target or not; each form
 * of an event is a counter of its own, and a second call shares it. */
static void thread_event_fns(void)
{
	static const char text[] =
		"probe kprobe.function(\"f\") {\n"
		"  x = thread_cpu_cycles() + cpu_cycles() + thread_cpu_cycles()\n"
		"  y = perfctr_read_thread_event(\"instructions:u\") +\n"
		"      perfctr_read_event(\"instructions:u\")\n"
		"}\n";
	int target;

	for (target = 0; target < 2; target++) {
		const struct counter *c;
		struct run r;

		run(&r, text, target);
		c = r.m.counters;
		ok(!r.errors && r.m.ncounters == 4, "%s: four counters for two "
		   "events in two forms (got %zu)",
		   target ? "-c/-x" : "no target", r.m.ncounters);
		ok(r.m.ncounters == 4 &&
		   !strcmp(c[0].id, "__thread_cpu_cycles") &&
		   c[0].scope == PERFCTR_SCOPE_THREAD &&
		   !strcmp(c[1].id, "__cpu_cycles") &&
		   c[1].scope == PERFCTR_SCOPE_CPU &&
		   c[2].scope == PERFCTR_SCOPE_THREAD &&
		   !strcmp(c[2].event, "instructions:u") &&
		   c[2].plm == PERFCTR_PLM_USER &&
		   c[3].scope == PERFCTR_SCOPE_CPU,
		   "%s: thread_cpu_cycles() and perfctr_read_thread_event() "
		   "per thread, their plain forms per CPU",
		   target ? "-c/-x" : "no target");
		done(&r);
	}
}

/* ------------------------------------------------ where reads are made */

static void read_probes(void)
{
	static const struct {
		const char *text;
		unsigned int probes;
	} cases[] = {
		{ "probe begin { x = @perfctr(\"c\") }", PROBE_BEGIN },
		{ "probe end(9) { x = perfctr_read(\"c\") }", PROBE_END },
		{ "probe error { x = @perfctr(\"c\") }", PROBE_ERROR },
		{ "probe timer.ms(100) { x = @perfctr(\"c\") }", PROBE_TIMER },
		{ "probe kprobe.function(\"f\") { x = @perfctr(\"c\") }",
		  PROBE_OTHER },
		{ "probe begin, timer.s(1), kernel.function(\"f\")? "
		  "{ x = @perfctr(\"c\") }",
		  PROBE_BEGIN | PROBE_TIMER | PROBE_OTHER },
		{ "probe my = begin, end { x = @perfctr(\"c\") }",
		  PROBE_BEGIN | PROBE_END },
		{ "function f() { return @perfctr(\"c\") }", 0 },
		{ "probe perfctr.event(\"x\").sample(9) { y = @perfctr(\"c\") }",
		  PROBE_OTHER },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;
		struct diag d;
		FILE *null = fopen("/dev/null", "w");

		source__from_string(&r.src, SRC_FILE, "t.stp", cases[i].text, -1);
		model__init(&r.m, NULL, 0);
		diag__init(&d, null);
		r.errors = parser__run(&r.src, &r.m, &d);
		ok(!r.errors && r.m.nreads == 1 &&
		   r.m.reads[0].probes == cases[i].probes,
		   "read's probes %#x: %s", cases[i].probes, cases[i].text);
		fclose(null);
		source__free(&r.src);
		model__free(&r.m);
	}
}

/* ------------------------------------- .thread reads at context switches */

/* A thread's first .thread read counts from its switch-in only where the
 * script may read a .thread counter in a probe that runs at a context
 * switch (or a function one calls): the runtime notes switch-ins then. */
static void switch_reads(void)
{
	static const char thr[] =
		"probe perfctr.event(\"instructions\").thread.counter(\"t\") {}\n"
		"probe perfctr.event(\"instructions\").counter(\"c\") {}\n";
	static const struct {
		const char *text;
		int want;
	} cases[] = {
		{ "probe kernel.trace(\"sched_switch\") { x = @perfctr(\"t\") }", 1 },
		{ "probe kernel.trace(\"sched:sched_switch\") { x = perfctr_read(\"t\") }", 1 },
		{ "probe scheduler.cpu_off { x = @perfctr(\"t\") }", 1 },
		{ "probe scheduler.ctxswitch? { x = perfctr_delta(\"t\", 0, 0) }", 1 },
		{ "probe kernel.trace(\"sched_*\") { x = @perfctr(\"t\") }", 1 },
		{ "probe scheduler.* { x = @perfctr(\"t\") }", 1 },
		{ "probe timer.s(1), kernel.trace(\"sched_switch\") !"
		  " { x = @perfctr(\"t\") }", 1 },
		{ "probe kernel.trace(\"sched_switch\") { x = @perfctr(\"c\") }\n"
		  "probe kprobe.function(\"f\") { y = @perfctr(\"t\") }", 0 },
		{ "probe scheduler.cpu_on { x = @perfctr(\"t\") }", 0 },
		{ "probe kernel.trace(\"sched_wakeup\") { x = @perfctr(\"t\") }", 0 },
		{ "function g() { return @perfctr(\"t\") }\n"
		  "function f() { return g() }\n"
		  "probe kernel.trace(\"sched_switch\") { if (tid()) x = f() }", 1 },
		{ "probe kernel.trace(\"sched_switch\") { x = f() }\n"
		  "function f() { return @perfctr(\"t\") }", 1 },
		{ "function f() { return @perfctr(\"t\") }\n"
		  "probe kprobe.function(\"f\") { x = f() }\n"
		  "probe kernel.trace(\"sched_switch\") { y = @perfctr(\"c\") }", 0 },
		{ "probe my_off { x = @perfctr(\"t\") }\n"
		  "probe my_off = my_sw { }\n"
		  "probe my_sw = kernel.trace(\"sched_switch\") { }", 1 },
		{ "probe my_on = scheduler.cpu_on { }\n"
		  "probe my_on { x = @perfctr(\"t\") }", 0 },
		{ "probe kernel.trace(\"sched_switch\") { x = thread_instructions() }", 1 },
		{ "probe kernel.trace(\"sched_switch\") { x = perfctr_read(id) }\n"
		  "probe kprobe.function(\"f\") { y = @perfctr(\"t\") }", 1 },
		{ "probe kprobe.function(\"f\") { x = perfctr_read(id) + @perfctr(\"t\") }\n"
		  "probe kernel.trace(\"sched_switch\") { y = @perfctr(\"c\") }", 0 },
		{ "@define rd(id) %( @perfctr(@id) %)\n"
		  "probe kernel.trace(\"sched_switch\") { x = @rd(\"c\") }", 1 },
	};
	char text[1024], name[512], *nl;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;

		snprintf(text, sizeof(text), "%s%s\n", thr, cases[i].text);
		snprintf(name, sizeof(name), "%s", cases[i].text);
		while ((nl = strchr(name, '\n')))	/* one TAP line */
			*nl = ' ';
		run(&r, text, 0);
		ok(!r.errors && r.m.thread_switch_reads == cases[i].want,
		   "%s at a switch: %s", cases[i].want ? "a .thread read" :
		   "no .thread read", name);
		done(&r);
	}
}

/* ---------------------------------------- reads a scope cannot answer */

struct scope_case {
	const char *clause;	/* the counter "c" */
	const char *probe;	/* a probe with a read of it */
	int errors, warnings;
	const char *msg, *at;
};

static const struct scope_case scope_cases[] = {
	{ "", "probe end { x = perfctr_total(\"c\") }", 1, 0,
	  "perfctr_total(\"c\"): counter \"c\" counts .cpu (per CPU: every "
	  "task on the CPU), and only a .process counter has a total: "
	  "declare it .process", "t.stp:2:17" },
	{ ".thread", "probe timer.s(1) { x = perfctr_total(\"c\") }", 1, 0,
	  "counter \"c\" counts .thread (per thread: each thread's own "
	  "count), and only a .process counter has a total", "t.stp:2:24" },
	{ ".process", "probe end { x = perfctr_total(\"c\") }", 0, 0, NULL,
	  NULL },
	{ ".process", "probe begin { x = @perfctr(\"c\") }", 1, 0,
	  "@perfctr(\"c\") reads this thread's count of the .process counter "
	  "\"c\", and begin probes never run in a followed task: read "
	  "perfctr_total(\"c\"), the target's tasks together", "t.stp:2:19" },
	{ ".process", "probe end { x = perfctr_read(\"c\") }", 1, 0,
	  "perfctr_read(\"c\") reads this thread's count of the .process "
	  "counter \"c\", and end probes never run", "t.stp:2:17" },
	{ ".process", "probe error { x = perfctr_delta(\"c\", 0, 1) }", 1, 0,
	  "perfctr_delta(\"c\", ...) reads this thread's count of the .process "
	  "counter \"c\", and error probes never run", "t.stp:2:19" },
	{ ".process", "probe begin, end { x = @perfctr(\"c\") }", 1, 0,
	  "and begin or end probes never run in a followed task",
	  "t.stp:2:24" },
	{ ".process", "probe timer.ms(10) { x = @perfctr(\"c\") }", 0, 1,
	  "@perfctr(\"c\") in a timer probe reads the .process counter \"c\" "
	  "of the task the timer interrupts, and fails unless it is a "
	  "followed task", "t.stp:2:26" },
	{ ".process", "probe kprobe.function(\"f\") { x = @perfctr(\"c\") }",
	  0, 0, NULL, NULL },
	{ ".process", "probe begin, kprobe.function(\"f\") "
	  "{ x = @perfctr(\"c\") }", 0, 0, NULL, NULL },
	{ ".process", "function f() { return @perfctr(\"c\") }\n"
	  "probe begin { x = f() }", 0, 0, NULL, NULL },
	{ ".process(\"/no/such/prog\")", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  "end probes never run in a followed task", "t.stp:2:17" },
};

static void read_scopes(void)
{
	size_t i;

	for (i = 0; i < sizeof(scope_cases) / sizeof(scope_cases[0]); i++) {
		const struct scope_case *c = &scope_cases[i];
		char text[512];
		struct run r;
		int good;

		snprintf(text, sizeof(text), "probe perfctr.event(\"x\")%s"
			 ".counter(\"c\") {}\n%s\n", c->clause, c->probe);
		run(&r, text, 1);
		good = r.errors == c->errors && r.d.warnings == c->warnings &&
		       (!c->msg || (strstr(r.msgs, c->msg) &&
				    strstr(r.msgs, c->at)));
		ok(good, "%.*s: %d error(s), %d warning(s)%s%s",
		   (int)strcspn(c->probe, "\n"), c->probe, c->errors,
		   c->warnings, c->at ? " at " : "", c->at ? c->at : "");
		if (!good)
			printf("# %s\n", r.msgs);
		done(&r);
	}
}

/* ------------------------------------------------------------ .cgroup */

/* Each case's clause and probe checked: its errors, warnings and
 * message at its position. */
static void run_scope_cases(const struct scope_case *cases, size_t n)
{
	struct run r;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct scope_case *c = &cases[i];
		char buf[512];
		int good;

		snprintf(buf, sizeof(buf), "probe perfctr.event(\"x\")%s%s {}\n"
			 "%s\n", c->clause, strstr(c->clause, "sample") ? "" :
			 ".counter(\"c\")", c->probe);
		run(&r, buf, 0);
		good = r.errors == c->errors && r.d.warnings == c->warnings &&
		       (!c->msg || (strstr(r.msgs, c->msg) &&
				    strstr(r.msgs, c->at)));
		ok(good, "%s %s: %d error(s)%s%s", c->clause, c->probe,
		   c->errors, c->at ? " at " : "", c->at ? c->at : "");
		if (!good)
			printf("# %s\n", r.msgs);
		done(&r);
	}
}

/* What a .cgroup("PATH") clause may be and the reads it answers: each a
 * clause for counter "c", a read of it, the errors, and the message and
 * where. */
static const struct scope_case cgroup_cases[] = {
	{ ".cgroup(\"system.slice\")", "probe end { x = @perfctr(\"c\") }", 1,
	  0, "perfctr counter \"c\": .cgroup(\"system.slice\") needs an "
	  "absolute path below the cgroup2 mount", "t.stp:1:33" },
	{ ".cgroup(\"\")", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  "needs an absolute path", "t.stp:1:33" },
	{ ".cgroup(\"/a/../b\")", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  ".cgroup(\"/a/../b\") needs a path without '.' or '..' components",
	  "t.stp:1:33" },
	{ ".cgroup(\"/a/.\")", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  "without '.' or '..'", "t.stp:1:33" },
	{ ".cgroup(\"/a\").sample(1000)", "", 1, 0, "a sampling perfctr probe "
	  "samples per CPU or per process: drop .thread, .cgroup, .socket or "
	  ".multiplex", "t.stp:1:1" },
	{ ".cgroup(\"/a\").multiplex", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  ".multiplex counts per CPU only; drop .thread/.process/.cgroup",
	  "t.stp:1:1" },
	{ ".cgroup(\"/a\")", "probe end { x = perfctr_sum(\"c\") }", 1, 0,
	  "perfctr_sum(\"c\") sums a .cpu counter over the CPUs (a .socket "
	  "counter over the sockets); counter \"c\" "
	  "is .cgroup (@perfctr reads its sum over the CPUs)", "t.stp:2:29" },
	{ ".cgroup(\"/a\")", "probe end { x = perfctr_total(\"c\") }", 1, 0,
	  "counter \"c\" counts .cgroup(\"/a\") (every task in the cgroup and "
	  "below it), and only a .process counter has a total", "t.stp:2:17" },
	{ ".cgroup(\"/\")", "probe begin, end, timer.s(1) { x = @perfctr(\"c\") "
	  "+ perfctr_read(\"c\") + perfctr_delta(\"c\", 0, 0) }", 0, 0, NULL,
	  NULL },
	{ ".user.cgroup(\"/system.slice/a b.service\")",
	  "probe end { x = @perfctr(\"c\") }", 0, 0, NULL, NULL },
};

static void cgroups(void)
{
	static const char text[] =
		"probe perfctr.event(\"x\").cgroup(\"/a\").counter(\"a\") {}\n"
		"probe perfctr.event(\"y\").thread.counter(\"t\") {}\n"
		"probe perfctr.event(\"z\").cgroup(\"/a/b\").counter(\"b\") {}\n"
		"probe timer.s(1) { x = @perfctr(\"a\") + @perfctr(\"t\") + "
		"perfctr_delta(\"b\", 0, 0) }\n";
	struct run r;

	run_scope_cases(cgroup_cases,
			sizeof(cgroup_cases) / sizeof(cgroup_cases[0]));
	run(&r, text, 0);
	is_int(r.errors, 0, ".cgroup counters read anywhere");
	is_int(rewrite__reads(&r.m), 3, "three sites");
	done(&r);
}

/* ------------------------------------------------------------ .socket */

/* What a .socket clause may be and the reads it answers (each a clause
 * for counter "c", a read of it, the errors, the message and where). */
static const struct scope_case socket_cases[] = {
	{ ".socket.sample(1000)", "", 1, 0, "a sampling perfctr probe "
	  "samples per CPU or per process: drop .thread, .cgroup, .socket or "
	  ".multiplex", "t.stp:1:1" },
	{ ".socket.multiplex", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  ".multiplex counts per CPU only; drop .thread/.process/.cgroup/"
	  ".socket, or .multiplex", "t.stp:1:1" },
	{ ".socket.group(\"g\")", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  "a group counts per CPU only (perfctr-run opens it on each CPU); "
	  "drop .thread/.process/.cgroup/.socket, or .group", "t.stp:1:39" },
	{ ".cpu.socket", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  "", "t.stp:1:30" },
	{ ".socket", "probe end { x = perfctr_total(\"c\") }", 1, 0,
	  "counter \"c\" counts .socket (per socket: a PMU's counter the "
	  "socket shares, read from a snapshot), and only a .process counter "
	  "has a total", "t.stp:2:17" },
	{ ".socket", "probe end { x = perfctr_count(\"c\") }", 1, 0,
	  "perfctr_count(\"c\"): counter \"c\" counts .socket (per socket: "
	  "a PMU's counter the socket shares, read from a snapshot), and a "
	  ".socket counter has no times of its own on this CPU",
	  "t.stp:2:17" },
	{ ".socket", "probe end { x = perfctr_running(\"c\") }", 1, 0,
	  "has no times of its own", "t.stp:2:17" },
	{ ".cpu", "probe end { x = perfctr_age(\"c\") }", 1, 0,
	  "perfctr_age(\"c\"): counter \"c\" counts .cpu (per CPU: every "
	  "task on the CPU), and only a .socket counter is read from a "
	  "snapshot with an age: read it live with @perfctr", "t.stp:2:17" },
	{ ".cpu", "probe end { x = perfctr_read_socket(\"c\", 0) }", 1, 0,
	  "perfctr_read_socket(\"c\", ...): counter \"c\" counts .cpu (per "
	  "CPU: every task on the CPU), and only a .socket counter has a count "
	  "per socket: read it with @perfctr (this CPU's), or perfctr_sum",
	  "t.stp:2:17" },
	{ ".thread", "probe end { x = perfctr_read_socket(\"c\", 1) }", 1, 0,
	  "only a .socket counter has a count per socket", "t.stp:2:17" },
	{ ".socket", "probe begin, end, timer.s(1) { x = @perfctr(\"c\") + "
	  "perfctr_read(\"c\") + perfctr_delta(\"c\", 0, 0) + "
	  "perfctr_sum(\"c\") + perfctr_sum_age(\"c\") + "
	  "perfctr_age(\"c\") + perfctr_read_socket(\"c\", 1) }", 0, 0,
	  NULL, NULL },
};

/* .cpus("LIST"): per-CPU scopes only (each a clause for counter "c",
 * a read of it, the errors, the message and where). */
static const struct scope_case cpus_cases[] = {
	{ ".cpus(\"0-3,8\")", "probe end { x = @perfctr(\"c\") }", 0, 0,
	  NULL, NULL },
	{ ".thread.cpus(\"cpu_atom\")", "probe end { x = @perfctr(\"c\") }",
	  0, 0, NULL, NULL },
	{ ".cgroup(\"/a\").cpus(\"1\")", "probe end { x = @perfctr(\"c\") }",
	  0, 0, NULL, NULL },
	{ ".cpu.cpus(\"0\").multiplex", "probe end { x = perfctr_sum(\"c\") }",
	  0, 0, NULL, NULL },
	{ ".process(\"/bin/ls\").cpus(\"0-3\")", "probe end { x = "
	  "perfctr_total(\"c\") }", 1, 0, "perfctr counter \"c\": .cpus "
	  "restricts a counter made per CPU (.cpu, .thread, .cgroup) to some "
	  "CPUs; it cannot restrict .process (one counter per task)",
	  "t.stp:1:50" },
	{ ".socket.cpus(\"0\")", "probe end { x = @perfctr(\"c\") }", 1, 0,
	  "it cannot restrict .socket (one counter per socket)", "t.stp:1:38" },
	{ ".cpus(\"0\").sample(1000)", "", 1, 0, "error: .cpus restricts a "
	  "counter made per CPU (.cpu, .thread, .cgroup) to some CPUs; it "
	  "cannot restrict a sampling probe", "t.stp:1:31" },
	{ ".cpus(\"cpu_core\").group(\"g\")", "probe end { x = "
	  "@perfctr(\"c\") }", 1, 0, "it cannot restrict a group's counter",
	  "t.stp:1:31" },
};

static void cpus(void)
{
	struct run r;

	run_scope_cases(cpus_cases, sizeof(cpus_cases) / sizeof(cpus_cases[0]));
	run(&r, "probe perfctr.event(\"cpu_atom/event=0xc0/\").thread"
		".cpus(\"cpu_atom\").counter(\"a\") {}\n"
		"probe perfctr.event(\"cycles\").cpus(\"0-3,8\").counter(\"b\") {}\n"
		"probe timer.s(1) { x = @perfctr(\"a\") + @perfctr(\"b\") }\n", 0);
	is_int(r.errors, 0, ".cpus counters read");
	{
		char *msgs = NULL;
		size_t len = 0;
		FILE *out = r.d.out;

		r.d.out = open_memstream(&msgs, &len);
		check__describe(&r.m, &r.d);
		fclose(r.d.out);
		r.d.out = out;
		like(msgs, "t.stp:1:1: counter \"a\": cpu_atom/event=0xc0/, "
		     ".thread (per thread: each thread's own count), on "
		     ".cpus(\"cpu_atom\") only\n", "stap -v: .cpus");
		free(msgs);
	}
	done(&r);
}

/* A .process path of 170 two-byte characters (each byte escaped in the
 * table: 1,020 bytes) and a long event name: the request tables are
 * generated (the buffers hold the longest request there is). */
static void long_request(void)
{
	struct emit_opts opts = { &fake_runtime, "0123456789abcdef", "stapdev",
				  NULL };
	char text[1024], path[400], event[200];
	struct generated gen;
	struct run r;
	int i, n = 0;

	n += snprintf(path + n, sizeof(path) - n, "/opt/");
	for (i = 0; i < 170; i++)
		n += snprintf(path + n, sizeof(path) - n, "\xc3\xa9");
	snprintf(path + n, sizeof(path) - n, "/bin");
	memset(event, 'x', sizeof(event) - 1);
	event[sizeof(event) - 1] = '\0';
	snprintf(text, sizeof(text), "probe perfctr.event(\"u/%s/\").process("
		 "\"%s\").counter(\"a\") {}\nprobe end { x = perfctr_total("
		 "\"a\") }\n", event, path);
	run(&r, text, 0);
	is_int(r.errors, 0, "a long, non-ASCII .process path: no error");
	rewrite__reads(&r.m);
	ok(!emit__generate(&r.m, &opts, &gen), "its tables are generated");
	like(gen.stp.buf, "target=/opt/\\045C3\\045A9\\045C3\\045A9",
	     "the path escaped in its .modinfo entry (%% as \\045 in C)");
	emit__free(&gen);
	done(&r);
}

static void sockets(void)
{
	static const char text[] =
		"probe perfctr.event(\"u/e/\").socket.counter(\"a\") {}\n"
		"probe perfctr.event(\"y\").thread.counter(\"t\") {}\n"
		"probe perfctr.event(\"power/energy-pkg/\").socket.counter(\"b\") {}\n"
		"probe timer.s(1) { x = @perfctr(\"a\") + @perfctr(\"t\") + "
		"perfctr_age(\"b\") + perfctr_sum(\"b\") + "
		"perfctr_read_socket(\"b\", 1) }\n";
	struct run r;

	run_scope_cases(socket_cases,
			sizeof(socket_cases) / sizeof(socket_cases[0]));
	run(&r, text, 0);
	is_int(r.errors, 0, ".socket counters read anywhere");
	is_int(rewrite__reads(&r.m), 5, "five sites");
	done(&r);
}

/* ------------------------------------------------------------ -v notes */

static void notes(void)
{
	static const char text[] =
		"probe perfctr.event(\"page-faults\").counter(\"pf\") {}\n"
		"probe perfctr.event(\"cycles\").cpu.counter(\"c\") {}\n"
		"probe perfctr.event(\"cycles\").thread.counter(\"t\") {}\n"
		"probe perfctr.event(\"cycles\").process(\"/no/such/prog\")"
		".counter(\"p\") {}\n"
		"probe perfctr.event(\"cycles\").sample(100000) { n++ }\n"
		"probe kprobe.function(\"f\") { x = @perfctr(\"pf\") + "
		"@perfctr(\"c\") + @perfctr(\"t\") + @perfctr(\"p\") + "
		"instructions() }\n";
	int target;

	for (target = 0; target < 2; target++) {
		char *msgs = NULL;
		size_t len = 0;
		struct run r;

		run(&r, text, target);
		r.d.out = open_memstream(&msgs, &len);
		check__describe(&r.m, &r.d);
		fclose(r.d.out);
		ok(!r.errors && strstr(msgs, target ?
		   "stap-perfctr: t.stp:1:1: counter \"pf\": page-faults, .cpu "
		   "(per CPU: every task on the CPU); add .process to count "
		   "only the target\n" :
		   "stap-perfctr: t.stp:1:1: counter \"pf\": page-faults, .cpu "
		   "(per CPU: every task on the CPU)\n"),
		   "%s: a counter without a scope: per CPU%s", target ?
		   "-c/-x" : "no target", target ? ", and how to count only "
		   "the target" : "");
		ok(strstr(msgs, "t.stp:2:1: counter \"c\": cycles, .cpu (per "
			  "CPU: every task on the CPU)\n") &&
		   strstr(msgs, "t.stp:3:1: counter \"t\": cycles, .thread (per "
			  "thread: each thread's own count)\n") &&
		   strstr(msgs, "t.stp:4:1: counter \"p\": cycles, "
			  ".process(\"/no/such/prog\") (counts in every task "
			  "running it)\n"),
		   "%s: scopes given: no hint", target ? "-c/-x" : "no target");
		ok(strstr(msgs, target ?
			  "t.stp:5:1: sampling probe: cycles, .process (samples "
			  "the target's tasks)\n" :
			  "t.stp:5:1: sampling probe: cycles, .cpu (samples every "
			  "task on the CPU)\n"),
		   "%s: the sampling clause's scope", target ?
		   "-c/-x" : "no target");
		ok(strstr(msgs, target ? "instructions(): instructions, .cpu "
			  "(per CPU: every task on the CPU); a clause with "
			  ".process counts only the target\n" :
			  "instructions(): instructions, .cpu (per CPU: every "
			  "task on the CPU)\n"),
		   "%s: the event function's note", target ?
		   "-c/-x" : "no target");
		is_int(r.d.warnings + r.d.errors, 0, "notes are not counted");
		free(msgs);
		done(&r);
	}
}

/* ------------------------------------------------------------ groups */

struct group_case {
	const char *text;
	int errors, warnings;
	const char *msg, *at;
};

#define G_READ "probe begin { x = @perfctr(\"a\") }\n"

static const struct group_case group_cases[] = {
	{ "probe perfctr.event(\"x\").group(\"g\").counter(\"a\") {}\n"
	  "probe perfctr.event(\"y\").thread.group(\"g\").counter(\"b\") {}\n"
	  G_READ, 1, 0, "perfctr counter \"b\": a group counts per CPU only "
	  "(perfctr-run opens it on each CPU); drop .thread/.process/.cgroup/.socket, or "
	  ".group", "t.stp:2:39" },
	{ "probe perfctr.event(\"x\").process(\"/bin/true\").group(\"g\")"
	  ".counter(\"a\") {}\n"
	  "probe kprobe.function(\"f\") { x = @perfctr(\"a\") }\n", 1, 0,
	  "a group counts per CPU only", "t.stp:1:53" },
	{ "probe perfctr.event(\"x\").group(\"g\").counter(\"a\") {}\n"
	  "probe perfctr.event(\"y\").group(\"g\").multiplex.counter(\"b\") "
	  "{}\n" G_READ, 1, 0, "perfctr counter \"b\" is .multiplex and "
	  "\"a\", which leads group \"g\" (t.stp:1:1), is not: a group is "
	  "scheduled as a unit, give .multiplex to all its counters or none",
	  "t.stp:2:32" },
	{ "probe perfctr.event(\"x\").group(\"g\").counter(\"a\") {}\n"
	  "%( 1 == 1 %? probe perfctr.event(\"y\").group(\"g\")"
	  ".counter(\"b\") {} %)\n" G_READ, 1, 0, "perfctr counter \"b\" is "
	  "under other %( %) conditions than \"a\", which leads group \"g\" "
	  "(t.stp:1:1): a group's counters exist together", "t.stp:2:45" },
	{ "%( 1 == 1 %? probe perfctr.event(\"x\").group(\"g\")"
	  ".counter(\"a\") {}\n"
	  "probe perfctr.event(\"y\").group(\"g\").counter(\"b\") {} %)\n"
	  G_READ, 0, 0, NULL, NULL },
	{ "probe perfctr.event(\"x\").group(\"g\").counter(\"a\") {}\n"
	  "probe perfctr.event(\"y\").group(\"h\").counter(\"b\") {}\n"
	  "probe perfctr.event(\"z\").group(\"h\").counter(\"c\") {}\n"
	  G_READ, 0, 1, "perfctr group \"h\" is never read, not created",
	  "t.stp:2:32" },
	{ "probe perfctr.event(\"x\").counter(\"a\") {}\n"
	  "probe begin { x = perfctr_topdown(\"a\") }\n", 1, 0,
	  "perfctr_topdown(\"a\"): counter \"a\" is in no group, and Intel's "
	  "topdown metrics count only in a group led by \"slots\"",
	  "t.stp:2:19" },
	{ "probe perfctr.event(\"x\").counter(\"a\") {}\n"
	  "probe begin { x = perfctr_topdown(v) + @perfctr(\"a\") }\n", 1, 0,
	  "perfctr_topdown(...) decodes a group's topdown metric, and this "
	  "script declares no group", "t.stp:2:19" },
	{ "probe perfctr.event(\"slots\").group(\"td\").counter(\"s\") {}\n"
	  "probe perfctr.event(\"topdown-retiring\").group(\"td\")"
	  ".counter(\"r\") {}\n"
	  "probe begin { x = perfctr_topdown(\"r\") + perfctr_topdown(v) }\n",
	  0, 0, NULL, NULL },
};

/* A group's counters: per CPU, .multiplex all or none, under the same
 * conditions, at most PERFCTR_GROUP_MAX; created whole or not at all. */
static void groups(void)
{
	char big[PERFCTR_GROUP_MAX * 80 + 128], *p = big;
	size_t i;
	struct run r;

	for (i = 0; i < sizeof(group_cases) / sizeof(group_cases[0]); i++) {
		const struct group_case *c = &group_cases[i];

		run(&r, c->text, 0);
		ok(r.d.errors == c->errors && r.d.warnings == c->warnings &&
		   (!c->msg || (strstr(r.msgs, c->msg) &&
				strstr(r.msgs, c->at))),
		   "group case %zu: %d errors, %d warnings%s%s", i, c->errors,
		   c->warnings, c->msg ? ": " : "", c->msg ? c->msg : "");
		if (c->msg && !strstr(r.msgs, c->msg))
			printf("# %s\n", r.msgs);
		done(&r);
	}
	for (i = 0; i <= PERFCTR_GROUP_MAX; i++)
		p += sprintf(p, "probe perfctr.event(\"x\").group(\"g\")"
			     ".counter(\"c%zu\") {}\n", i);
	sprintf(p, "probe begin { x = @perfctr(\"c0\") }\n");
	run(&r, big, 0);
	ok(r.d.errors == 1 && strstr(r.msgs, "more than 32 counters in "
				     "perfctr group \"g\"") &&
	   strstr(r.msgs, "t.stp:33:32"), "a group of 33 is refused at the 33rd");
	done(&r);
}

/* ------------------------------------------------------- read sites */

static void sites(void)
{
	static const char text[] =
		"probe perfctr.event(\"x\").counter(\"c\") {}\n"
		"probe perfctr.event(\"y\").thread.counter(\"t\") {}\n"
		"probe kprobe.function(\"f\") { a = @perfctr(\"c\"); "
		"b = perfctr_read(\"t\")\n"
		"  d = perfctr_delta(\"c\", a, s); e = perfctr_read(v)\n"
		"  g = cpu_cycles() + perfctr_read_event(\"cycles:u\"); "
		"h = perfctr_total(v); s = perfctr_stamp() }\n";
	static const char want[] =
		"                                        \n"
		"                                               \n"
		"probe kprobe.function(\"f\") { a = __pc0   (   ); "
		"b = __pc1       (   )\n"
		"  d = __pc2        (     a, s); e = __pc3       (v)\n"
		"  g = __pc4     () + __pc5             (          ); "
		"h = __pc6        (v); s = perfctr_stamp() }\n";
	struct run r;

	run(&r, text, 0);
	is_int(r.errors, 0, "reads of every kind check");
	is_int(rewrite__reads(&r.m), 7, "seven sites");
	is_str(r.src.text, want, "each read's name is its site's, the literal "
	       "id (and perfctr_delta's comma) blanked, all else in place");
	done(&r);
}

/* What stays as written: the script's own functions and macro, calls
 * with arguments the function does not take (each text: a first line,
 * then the read). */
static void not_rewritten(void)
{
	static const char *const texts[] = {
		"function perfctr_read:long (id:string) { return 1 }\n"
		"probe begin { x = perfctr_read(\"c\") }\n",
		"@define perfctr(x) %( 1 %)\nprobe begin { x = @perfctr(\"c\") }\n",
		"function cpu_cycles() { return 1 }\n"
		"probe begin { x = cpu_cycles() }\n",
		"# arguments the functions do not take\n"
		"probe begin { x = perfctr_read(\"c\", 1) + perfctr_delta(\"c\") "
		"+ perfctr_stamp() }\n",
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		const char *read = strchr(texts[i], '\n') + 1;
		char text[512];
		struct run r;

		snprintf(text, sizeof(text), "probe perfctr.event(\"x\")"
			 ".counter(\"c\") {}\n%s", texts[i]);
		run(&r, text, 0);
		ok(rewrite__reads(&r.m) == 0 && strstr(r.src.text, read),
		   "not rewritten: %.*s", (int)strcspn(read, "\n"), read);
		done(&r);
	}
}

static void tapset_not_rewritten(void)
{
	struct run r;
	struct source ts;
	FILE *null = fopen("/dev/null", "w");

	source__from_string(&ts, SRC_TAPSET, "/ts/a.stp",
			    "function f() { return cpu_cycles() + "
			    "@perfctr(\"c\") }\n", -1);
	source__from_string(&r.src, SRC_FILE, "t.stp",
			    "probe perfctr.event(\"x\").counter(\"c\") {}\n"
			    "probe begin { x = f() }\n", -1);
	model__init(&r.m, NULL, 0);
	diag__init(&r.d, null);
	r.errors = parser__run(&r.src, &r.m, &r.d) +
		   parser__run(&ts, &r.m, &r.d) + check__run(&r.m, &r.d);
	ok(!r.errors && rewrite__reads(&r.m) == 0 && !ts.changed,
	   "a tapset's reads are checked, never rewritten");
	fclose(null);
	source__free(&ts);
	source__free(&r.src);
	model__free(&r.m);
}

/* ------------------------------------------------------- sample payloads */

/* The payload a sampling clause asks for is what its body reads, and the
 * functions it calls (to any depth, in any order of definition); a
 * payload read straight in another probe is an error at the call. */
static void payloads(void)
{
	static const char text[] =
		"function page() { return perfctr_sample_addr() & ~4095 }\n"
		"function lat() { return helper() }\n"
		"function helper() { return perfctr_sample_weight() + "
		"perfctr_sample_branch_from(0) }\n"
		"probe perfctr.event(\"page-faults\").sample(1) { x = page() }\n"
		"probe perfctr.event(\"cycles\").sample(99999) { y = lat(); "
		"z = perfctr_sample_data_src() }\n"
		"probe perfctr.event(\"cycles\").hz(99) { p = perfctr_sample_period() "
		"+ perfctr_sample_count(); s = perfctr_mem_level(p) }\n"
		"probe timer.s(1) { w = page() }\n";
	struct run r;

	run(&r, text, 0);
	is_int(r.errors, 0, "payload reads in bodies and functions check");
	is_int((int)r.m.counters[0].payload, PERFCTR_PL_ADDR,
	       "a body calling a function that reads the address: ADDR");
	is_int((int)r.m.counters[1].payload, PERFCTR_PL_WEIGHT |
	       PERFCTR_PL_BRANCH | PERFCTR_PL_SRC, "through two functions, "
	       "the second defined after: WEIGHT, BRANCH; and its own: SRC");
	is_int((int)r.m.counters[2].payload, 0, "period and count: nothing "
	       "asked of the kernel");
	is_int(rewrite__reads(&r.m), 6, "every payload call is a site");
	done(&r);

	run(&r, "probe perfctr.event(\"x\").sample(9) { }\n"
	    "probe kprobe.function(\"f\") { a = perfctr_sample_addr() }\n", 0);
	ok(r.errors == 1 && strstr(r.msgs, "semantic error: "
				   "perfctr_sample_addr() reads the sample a "
				   "sampling probe's body runs for, and this "
				   "probe is not one") &&
	   strstr(r.msgs, "at t.stp:2:34"),
	   "a payload read straight in a kprobe: refused at the call");
	if (!strstr(r.msgs, "t.stp:2:34"))
		printf("# %s\n", r.msgs);
	done(&r);
	run(&r, "probe begin { a = perfctr_sample_period() }\n", 0);
	is_int(r.errors, 1, "  in a begin probe of a script without sampling");
	done(&r);
	run(&r, "function f() { return perfctr_sample_addr() }\n"
	    "probe kprobe.function(\"g\") { a = f() }\n", 0);
	ok(r.errors == 1 && strstr(r.msgs, "this script has no sampling "
				   "probe") && strstr(r.msgs, "t.stp:1:23"),
	   "in a function of a script without sampling: refused at the call");
	done(&r);
	run(&r, "probe perfctr.event(\"x\").sample(9) { a = "
	    "perfctr_sample_addr(1) }\n", 0);
	ok(r.errors == 1 && strstr(r.msgs, "perfctr_sample_addr() takes no "
				   "arguments"), "an argument it does not take");
	done(&r);
	run(&r, "probe perfctr.event(\"x\").sample(9) { a = "
	    "perfctr_sample_branch_to() }\n", 0);
	ok(r.errors == 1 && strstr(r.msgs, "perfctr_sample_branch_to() takes "
				   "the index of a branch record"),
	   "no index where one is needed");
	done(&r);
	run(&r, "function perfctr_sample_addr() { return 7 }\n"
	    "probe perfctr.event(\"x\").sample(9) { a = perfctr_sample_addr() }\n"
	    "probe begin { b = perfctr_sample_addr() }\n", 0);
	ok(r.errors == 0 && r.m.counters[0].payload == 0 &&
	   rewrite__reads(&r.m) == 0, "the script's own perfctr_sample_addr(): "
	   "not ours, nothing asked, nothing rewritten");
	done(&r);
}

/* ------------------------------------------------------- event names */

/* events__check with helper (a script that answers as perfctr-run
 * --check-events would, or one that is not there): the errors, and the
 * messages in r->msgs. */
static int ask(struct run *r, const char *helper)
{
	struct cmdline cl = { .release = "0.0-other" };
	FILE *out;
	int n;

	free(r->msgs);
	r->msgs = NULL;
	out = open_memstream(&r->msgs, &r->msgs_len);
	diag__init(&r->d, out);
	n = events__check(&r->m, &cl, helper, &r->d);
	fclose(out);
	return n;
}

static void event_names(void)
{
	static const char text[] =
		"probe perfctr.event(\"cycles\").counter(\"c\") {}\n"
		"probe perfctr.event(\"page-fault\").counter(\"pf\") {}\n"
		"probe perfctr.event(\"cycles\").counter(\"d\") {}\n"
		"probe begin { println(@perfctr(\"c\") + @perfctr(\"pf\") + "
		"@perfctr(\"d\")) }\n";
	char dir[] = "/tmp/test-check.XXXXXX", helper[64], args[80];
	struct run r;
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(0, "a directory for the fake perfctr-run");
		return;
	}
	snprintf(helper, sizeof(helper), "%s/perfctr-run", dir);
	snprintf(args, sizeof(args), "%s/args", dir);
	f = fopen(helper, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\necho \"$@\" >%s\necho ok\n"
			"printf 'unknown\\tunknown event \"page-fault\"; did you "
			"mean \"page-faults\"?\\n'\n", args);
		fclose(f);
	}
	chmod(helper, 0755);
	run(&r, text, 0);
	ok(ask(&r, helper) == 1 && strstr(r.msgs, "semantic error: counter "
	   "\"pf\": unknown event \"page-fault\"; did you mean \"page-faults\"?: "
	   "string \"page-fault\" at t.stp:2:21"),
	   "a name perfctr-run knows nowhere: refused at its clause's event, "
	   "with its nearest");
	f = fopen(args, "r");
	ok(f && fgets(args, sizeof(args), f) &&
	   !strcmp(args, "--check-events cycles page-fault\n"),
	   "one run for the distinct names; not for this machine (-r another "
	   "release): --check-events without =here");
	if (f)
		fclose(f);
	ok(ask(&r, "/nonexistent/perfctr-run") == 0 && !r.msgs_len,
	   "no perfctr-run: nothing refused, nothing said");
	f = fopen(helper, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\necho ok\n");
		fclose(f);
	}
	ok(ask(&r, helper) == 0 && !r.msgs_len,
	   "an answer short of a line a name: nothing refused");
	done(&r);
	/* @3 not given, under a condition: stap's to report, not asked */
	snprintf(args, sizeof(args), "%s/args", dir);
	f = fopen(helper, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\necho \"$@\" >%s\necho ok\n", args);
		fclose(f);
	}
	run(&r, "probe perfctr.event(\"cycles\").counter(\"c\") {}\n"
	    "%( $# >= 3 %? probe perfctr.event(@3).counter(\"e\") {}\n"
	    "probe end { println(@perfctr(\"e\")) } %)\n"
	    "probe begin { println(@perfctr(\"c\")) }\n", 0);
	ok(!r.errors && ask(&r, helper) == 0, "a clause's @3, not given, "
	   "under a condition: nothing refused");
	f = fopen(args, "r");
	snprintf(args, sizeof(args), "(no run)");
	ok(f && fgets(args, sizeof(args), f) &&
	   !strcmp(args, "--check-events cycles\n"),
	   "... and its name not asked: %s", args);
	if (f)
		fclose(f);
	done(&r);
	unlink(helper);
	snprintf(args, sizeof(args), "%s/args", dir);
	unlink(args);
	rmdir(dir);
}

int main(void)
{
	default_scopes();
	thread_event_fns();
	read_probes();
	switch_reads();
	read_scopes();
	target_wanted();
	cgroups();
	sockets();
	long_request();
	cpus();
	notes();
	groups();
	sites();
	not_rewritten();
	tapset_not_rewritten();
	payloads();
	event_names();
	return tap_done();
}
