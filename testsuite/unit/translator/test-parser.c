// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-parser.c - finding perfctr clauses and reads: what is recorded,
 * what is blanked, and every error with its line:column.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit.h"
#include "parser.h"
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
	int errors;
};

static char *args[] = { "cycles", "c0" };

static void run(struct run *r, const char *text)
{
	FILE *out = open_memstream(&r->msgs, &r->msgs_len);

	source__from_string(&r->src, SRC_FILE, "t.stp", text, -1);
	model__init(&r->m, args, 2);
	diag__init(&r->d, out);
	r->errors = parser__run(&r->src, &r->m, &r->d);
	fclose(out);
}

static void done(struct run *r)
{
	source__free(&r->src);
	model__free(&r->m);
	free(r->msgs);
}

static void simple_clause(void)
{
	struct run r;
	const char *text = "probe perfctr.event(\"cycles\")\n"
			   "   .counter(\"c\") {}\n"
			   "probe begin { x = @perfctr(\"c\") }\n";

	run(&r, text);
	is_int(r.errors, 0, "simple clause parses");
	is_int(r.m.ncounters, 1, "one counter");
	is_str(r.m.counters[0].id, "c", "id");
	is_str(r.m.counters[0].event, "cycles", "event");
	is_int(r.m.counters[0].plm, PERFCTR_PLM_ALL, "counts user and kernel");
	is_int(r.m.counters[0].where.line, 1, "declared on line 1");
	is_int(r.m.nreads, 1, "one read");
	is_str(r.m.reads[0].id, "c", "read of c");
	ok(r.m.reads[0].kind == READ_MACRO, "through @perfctr");
	is_int(r.m.reads[0].where.line, 3, "read on line 3");
	is_int(r.m.reads[0].where.col, 28, "read at column 28 (the id)");
	is_int(strlen(r.src.text), strlen(text), "length kept");
	ok(strncmp(r.src.text, "                             \n"
		   "                   \nprobe begin", 61) == 0,
	   "clause blanked, newlines kept, other code untouched");
	done(&r);
}

static void multiplex(void)
{
	struct run r;

	run(&r, "probe perfctr.event(\"cycles\").user.multiplex.counter(\"a\") {}\n"
		"probe perfctr.event(\"cycles\").counter(\"b\") {}\n");
	ok(r.errors == 0 && r.m.ncounters == 2 && r.m.counters[0].mux &&
	   r.m.counters[0].plm == PERFCTR_PLM_USER && !r.m.counters[1].mux,
	   ".multiplex marks only its own counter");
	done(&r);
}

static void scopes(void)
{
	struct run r;

	run(&r, "probe perfctr.event(\"a\").counter(\"a\") {}\n"
		"probe perfctr.event(\"b\").user.cpu.counter(\"b\") {}\n"
		"probe perfctr.event(\"c\").thread.counter(\"c\") {}\n"
		"probe perfctr.event(\"d\").process(\"/bin/ls\").counter(\"d\") {}\n"
		"probe perfctr.event(\"e\").process.counter(\"e\") {}\n"
		"probe perfctr.event(\"f\").user.cgroup(\"/s.slice/x\").group"
		"(\"g\").counter(\"f\") {}\n");
	is_int(r.errors, 0, "scopes parse");
	ok(r.m.ncounters == 6 && r.m.counters[5].scope == PERFCTR_SCOPE_CGROUP &&
	   r.m.counters[5].scope_given &&
	   !strcmp(r.m.counters[5].target, "/s.slice/x") &&
	   !strcmp(r.m.counters[5].group, "g") &&
	   r.m.counters[5].target_tok.line == 6 &&
	   r.m.counters[5].target_tok.col == 38,
	   ".user.cgroup(\"PATH\").group(\"G\"): the path, and where it is");
	ok(r.m.ncounters == 6 && !r.m.counters[0].scope_given &&
	   r.m.counters[1].scope == PERFCTR_SCOPE_CPU &&
	   r.m.counters[1].scope_given &&
	   r.m.counters[1].plm == PERFCTR_PLM_USER,
	   "no scope: left to the checker; .user.cpu");
	ok(r.m.ncounters == 6 &&
	   r.m.counters[2].scope == PERFCTR_SCOPE_THREAD &&
	   r.m.counters[3].scope == PERFCTR_SCOPE_PROCESS &&
	   !strcmp(r.m.counters[3].target, "/bin/ls") &&
	   r.m.counters[4].scope == PERFCTR_SCOPE_PROCESS &&
	   !r.m.counters[4].target[0],
	   ".thread, .process(\"PATH\"), .process (the target)");
	done(&r);
	run(&r, "probe perfctr.event(\"a\").thread.cpus(\"cpu_atom\").counter(\"a\") {}\n"
		"probe perfctr.event(\"b\").cpus(\"0,1,2-3,8\").group(\"g\").counter(\"b\") {}\n"
		"probe perfctr.event(\"c\").cpus(@1).counter(\"c\") {}\n");
	is_int(r.errors, 0, ".cpus parses");
	ok(r.m.ncounters == 3 && !strcmp(r.m.counters[0].cpus, "cpu_atom") &&
	   r.m.counters[0].scope == PERFCTR_SCOPE_THREAD &&
	   !strcmp(r.m.counters[1].cpus, "0,1,2-3,8") &&
	   !strcmp(r.m.counters[1].group, "g") &&
	   r.m.counters[0].cpus_tok.line == 1 &&
	   r.m.counters[0].cpus_tok.col == 38,
	   ".thread.cpus(\"cpu_atom\"), .cpus(\"0,1,2-3,8\").group: the list, "
	   "and where it is");
	done(&r);
}

static void sampling(void)
{
	struct run r;
	const char *text = "probe perfctr.event(\"cycles\").user.sample(100000)"
			   ".precise(2) { n++ }\n"
			   "probe perfctr.event(\"cpu-clock\").hz(@2) if (x) "
			   "{ print(@perfctr(\"c\")) }\n"
			   "probe perfctr.event(\"x\").counter(\"c\") {}\n";
	static char *hz_args[] = { "cycles", "99" };

	source__from_string(&r.src, SRC_FILE, "t.stp", text, -1);
	model__init(&r.m, hz_args, 2);
	r.msgs = NULL;
	{
		FILE *out = open_memstream(&r.msgs, &r.msgs_len);

		diag__init(&r.d, out);
		r.errors = parser__run(&r.src, &r.m, &r.d);
		fclose(out);
	}
	is_int(r.errors, 0, "sampling clauses parse");
	ok(r.m.ncounters == 3 && r.m.counters[0].sample == 100000 &&
	   r.m.counters[0].precise == 2 && !r.m.counters[0].hz &&
	   r.m.counters[0].plm == PERFCTR_PLM_USER && r.m.counters[0].used,
	   ".sample(N).precise(L): period, level, used");
	ok(r.m.ncounters == 3 && r.m.counters[1].hz == 99 &&
	   !r.m.counters[1].sample && !strcmp(r.m.counters[1].id, "__sample1"),
	   ".hz(@2): the frequency from the argument, an id of its own");
	ok(strncmp(r.src.text, "probe __perfctr_sample0     ", 28) == 0 &&
	   strstr(r.src.text, " { n++ }\n") &&
	   strstr(r.src.text, "probe __perfctr_sample1") &&
	   strstr(r.src.text, " if (x) { print(@perfctr(\"c\")) }"),
	   "probe point rewritten in place, condition and body kept");
	is_int(strlen(r.src.text), strlen(text), "length kept");
	ok(r.m.nreads == 1, "reads in a sampling body are found");
	done(&r);
}

static void levels(void)
{
	static const struct {
		const char *text;
		unsigned int plm;
	} cases[] = {
		{ "probe perfctr.event(\"cycles\").user.counter(\"a\") {}",
		  PERFCTR_PLM_USER },
		{ "probe perfctr.event(\"cycles\").kernel.counter(\"a\") {}",
		  PERFCTR_PLM_KERNEL },
		{ "probe perfctr.event(\"instructions:u\").counter(\"a\") {}",
		  PERFCTR_PLM_USER },
		{ "probe perfctr.event(\"cycles:k\").kernel.counter(\"a\") {}",
		  PERFCTR_PLM_KERNEL },
		{ "probe perfctr.event(@1).counter(@2) {}", PERFCTR_PLM_ALL },
		{ "probe perfctr.event(\"cycles:uh\").counter(\"a\") {}",
		  PERFCTR_PLM_USER },
		{ "probe perfctr.event(\"cycles:h\").user.counter(\"a\") {}",
		  PERFCTR_PLM_USER },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;

		run(&r, cases[i].text);
		ok(r.errors == 0 && r.m.ncounters == 1 &&
		   r.m.counters[0].plm == cases[i].plm,
		   "plm %u: %s", cases[i].plm, cases[i].text);
		if (r.errors)
			printf("# %s", r.msgs);
		done(&r);
	}
}

/* The name's :G/:H go to the counter as they are, from a clause and
 * from an event function's name (into both tables: golden/cpu.stp,
 * golden/event-fns.stp). */
static void guest_host(void)
{
	struct run r;
	int errors;

	run(&r, "probe perfctr.event(\"cycles:uG\").counter(\"a\") {}\n"
		"probe begin { println(@perfctr(\"a\"), "
		"perfctr_read_event(\"instructions:HG\")) }\n");
	errors = r.errors + check__run(&r.m, &r.d);
	ok(errors == 0 && r.m.ncounters == 2 &&
	   r.m.counters[0].plm == PERFCTR_PLM_USER &&
	   r.m.counters[0].gh == PERFCTR_GH_GUEST &&
	   r.m.counters[1].plm == PERFCTR_PLM_ALL &&
	   r.m.counters[1].gh == (PERFCTR_GH_GUEST | PERFCTR_GH_HOST),
	   ":G, :HG: the counters' gh");
	done(&r);
}

struct bad {
	const char *text;
	const char *msg;
	const char *where;	/* "t.stp:L:C" */
};

static const struct bad bad[] = {
	{ "probe perfctr.event(cycles).counter(\"c\") {}",
	  "expected a string literal or @N", "t.stp:1:21" },
	{ "probe perfctr.evnt(\"x\").counter(\"c\") {}",
	  "unknown perfctr probe point component, expected one of 'event'; "
	  "did you mean 'event'?\n", "t.stp:1:15" },
	/* all that may come there, none cut off, and the nearest */
	{ "probe perfctr.event(\"x\").countr(\"c\") {}",
	  "unknown perfctr probe point component, expected one of 'user', "
	  "'kernel', 'cpu', 'thread', 'process', 'cgroup', 'socket', 'cpus', "
	  "'group', 'multiplex', 'counter', 'sample', 'hz'; did you mean "
	  "'counter'?\n", "t.stp:1:26" },
	{ "probe perfctr.event(\"x\").process.cpux.counter(\"c\") {}",
	  "expected one of 'cpus', 'group', 'multiplex', 'counter', 'sample', "
	  "'hz'; did you mean 'cpu' or 'cpus'?\n", "t.stp:1:34" },
	{ "probe perfctr.event(\"x\").group(\"g\").x.counter(\"c\") {}",
	  "expected one of 'multiplex', 'counter'\n", "t.stp:1:37" },
	{ "probe perfctr.event(\"x\").hz(99).Precise {}",
	  "expected one of 'precise'; did you mean 'precise'?\n",
	  "t.stp:1:33" },
	{ "probe perfctr.event(\"x\").sample(9).precise.x {}",
	  "unknown perfctr probe point component: nothing may follow "
	  "'.precise'\n", "t.stp:1:44" },
	{ "probe perfctr.event(\"x\") {}",
	  "incomplete perfctr probe point, expected '.' and one of 'user', "
	  "'kernel', 'cpu', 'thread', 'process', 'cgroup', 'socket', 'cpus', "
	  "'group', 'multiplex', 'counter', 'sample', 'hz'\n",
	  "t.stp:1:26" },
	{ "probe perfctr.event(\"x\").group(\"g\") {}",
	  "incomplete perfctr probe point, expected '.' and one of "
	  "'multiplex', 'counter'\n", "t.stp:1:37" },
	{ "probe perfctr.event(\"x\").thread.cpu.counter(\"c\") {}",
	  "'.cpu' conflicts with '.thread'", "t.stp:1:33" },
	{ "probe perfctr.event(\"x\").cgroup(\"/a\").thread.counter(\"c\") {}",
	  "'.thread' conflicts with '.cgroup'", "t.stp:1:39" },
	{ "probe perfctr.event(\"x\").cgroup.counter(\"c\") {}",
	  "expected '(' after 'cgroup'", "t.stp:1:32" },
	{ "probe perfctr.event(\"x\").cgroup(1).counter(\"c\") {}",
	  "expected a string literal or @N", "t.stp:1:33" },
	{ "probe perfctr.event(\"x\").multiplex.thread.counter(\"c\") {}",
	  "'.thread' must come before '.multiplex'", "t.stp:1:36" },
	{ "probe perfctr.event(\"x\").thread.user.counter(\"c\") {}",
	  "'.user' must come before '.thread'", "t.stp:1:33" },
	{ "probe perfctr.event(\"x\").process(7).counter(\"c\") {}",
	  "expected a string literal or @N", "t.stp:1:34" },
	{ "probe perfctr.event(\"x\").sample(0) {}",
	  "expected a number from 1 to 4294967295", "t.stp:1:33" },
	{ "probe perfctr.event(\"x\").sample(\"9\") {}",
	  "expected a number from 1 to 4294967295, or @N", "t.stp:1:33" },
	{ "probe perfctr.event(\"x\").hz(10).precise(4) {}",
	  "expected a number from 1 to 3", "t.stp:1:41" },
	{ "probe perfctr.event(\"x\").counter(\"c\").precise {}",
	  "'.precise' needs '.sample(N)' or '.hz(F)' before it", "t.stp:1:39" },
	{ "probe perfctr.event(\"x\").sample(9).hz(9) {}",
	  "'.hz' conflicts with '.sample'", "t.stp:1:36" },
	{ "probe perfctr.event(\"x\").sample(9), perfctr.event(\"y\").sample(9) {}",
	  "a sampling perfctr probe has one probe point", "t.stp:1:66" },
	{ "probe perfctr.event(\"x\").multiplex.user.counter(\"c\") {}",
	  "'.user' must come before '.multiplex'", "t.stp:1:36" },
	{ "probe perfctr.event(\"x\").multiplex.multiplex.counter(\"c\") {}",
	  "'.multiplex' given twice", "t.stp:1:36" },
	{ "probe perfctr.counter(\"c\") {}",
	  "expected 'event(\"NAME\")' first", "t.stp:1:15" },
	{ "probe perfctr.event(\"x\").counter(\"c\").user {}",
	  "'.user' must come before '.counter'", "t.stp:1:39" },
	{ "probe perfctr.event(\"x\").user.kernel.counter(\"c\") {}",
	  "'.kernel' conflicts with '.user'", "t.stp:1:31" },
	{ "probe perfctr.event(\"x\").counter \"c\" {}",
	  "expected '(' after 'counter'", "t.stp:1:34" },
	{ "probe perfctr.event(\"x\".counter(\"c\") {}",
	  "expected ')'", "t.stp:1:24" },
	{ "probe perfctr.event(\"x\").counter(\"c\") { print(1) }",
	  "body of a perfctr counter probe must be empty", "t.stp:1:41" },
	{ "probe perfctr.event(\"x\").counter(\"c\") if (1) {}",
	  "takes no condition", "t.stp:1:39" },
	{ "probe perfctr.event(\"x\").counter(\"c\")? {}",
	  "cannot be optional", "t.stp:1:38" },
	{ "probe begin, perfctr.event(\"x\").counter(\"c\") {}",
	  "cannot be combined with other probe points", "t.stp:1:1" },
	{ "probe a = perfctr.event(\"x\").counter(\"c\") {}",
	  "or used in an alias", "t.stp:1:1" },
	{ "probe perfctr.event(\"x\").counter(\"c\") {}\n"
	  "probe perfctr.event(\"y\").counter(\"c\") {}",
	  "counter \"c\" already declared at t.stp:1:34", "t.stp:2:34" },
	{ "probe perfctr.event(\"x\").counter(\"\") {}",
	  "counter id must not be empty", "t.stp:1:34" },
	{ "probe perfctr.event(\"x\").counter(\"a b\") {}",
	  "may contain only letters", "t.stp:1:34" },
	/* fuzz/regressions/translator/reserved-id.stp: two "__cpu_cycles" */
	{ "probe perfctr.event(\"x\").counter(\"__cpu_cycles\") {}",
	  "starting with '__' are stap-perfctr's own", "t.stp:1:34" },
	{ "probe perfctr.event(\"\").counter(\"c\") {}",
	  "event name must not be empty", "t.stp:1:21" },
	{ "probe perfctr.event(\"cycles:u\").kernel.counter(\"c\") {}",
	  "modifier ':u' in \"cycles:u\" contradicts '.kernel'", "t.stp:1:21" },
	{ "probe perfctr.event(\"cycles:h\").counter(\"c\") {}",
	  "counts neither user nor kernel mode", "t.stp:1:21" },
	{ "probe perfctr.event(\"cycles:z\").counter(\"c\") {}",
	  "cycles:z", "t.stp:1:21" },
	{ "probe perfctr.event(@3).counter(\"c\") {}",
	  "script argument @3 not given", "t.stp:1:21" },
	{ "probe begin { x = @perfctr(c) }",
	  "expected a counter id: @perfctr(\"ID\"), or perfctr_read(ID) for "
	  "an id known at run time\n", "t.stp:1:28" },
	{ "probe begin { x = @perfctr }",
	  "expected '(' after @perfctr", "t.stp:1:28" },
	{ "@define m %( probe perfctr.event(\"x\").counter(\"c\") {} %)",
	  "inside @define bodies", "t.stp:1:14" },
	{ "%( @m %? probe perfctr.event(\"x\").counter(\"c\") {} %)",
	  "under a conditional that uses a macro", "t.stp:1:10" },
	/* fuzz/regressions/translator/cond-depth-9: ran past cond[] */
	{ "%(%(%(%(%(%(%(%(%( probe perfctr.event(\"x\").counter(\"c\") {}",
	  "under more than 8 nested conditionals", "t.stp:1:20" },
	/* testsuite/bad-input: one error for a clause under 20, none for
	 * 20 around other probes (below) */
	{ "%(%(%(%(%(%(%(%(%(%(%(%(%(%(%(%(%(%(%(%( "
	  "probe perfctr.event(\"x\").counter(\"c\") {}",
	  "under more than 8 nested conditionals", "t.stp:1:42" },
	{ "function f() { probe perfctr.event(\"x\").counter(\"c\") {} }",
	  "belong at the top level of the script", "t.stp:1:16" },
	{ "probe perfctr.event(\"x:p\").counter(\"c\") {}",
	  "modifier 'p' in \"x:p\"", "t.stp:1:21" },
	{ "probe perfctr.event(\"x\").sample(@2) {}",
	  "expected a number from 1 to 4294967295, @2 is \"c0\"", "t.stp:1:33" },
	/* .cpus("LIST") after the scope, before .group */
	{ "probe perfctr.event(\"x\").cpus(\"0\").thread.counter(\"c\") {}",
	  "'.thread' must come before '.cpus'", "t.stp:1:36" },
	{ "probe perfctr.event(\"x\").group(\"g\").cpus(\"0\").counter(\"c\") {}",
	  "'.cpus' must come before '.group'", "t.stp:1:37" },
	{ "probe perfctr.event(\"x\").cpus.counter(\"c\") {}",
	  "expected '(' after 'cpus'", "t.stp:1:30" },
	{ "probe perfctr.event(\"x\").cpus(0).counter(\"c\") {}",
	  "expected a string literal or @N", "t.stp:1:31" },
	{ "probe perfctr.event(\"x\").cpus(\"\").counter(\"c\") {}",
	  "\"\" in .cpus: expected a CPU list as sysfs writes it (\"0-3,8\": "
	  "CPUs in ascending order) or a core PMU's name (\"cpu_atom\", "
	  "\"armv8_cortex_a55\")", "t.stp:1:31" },
	{ "probe perfctr.event(\"x\").cpus(\"3-1\").counter(\"c\") {}",
	  "\"3-1\" in .cpus: expected a CPU list", "t.stp:1:31" },
	{ "probe perfctr.event(\"x\").cpus(\"4,2\").counter(\"c\") {}",
	  "\"4,2\" in .cpus: expected a CPU list", "t.stp:1:31" },
	{ "probe perfctr.event(\"x\").cpus(\"0-3,\").counter(\"c\") {}",
	  "\"0-3,\" in .cpus: expected a CPU list", "t.stp:1:31" },
	{ "probe perfctr.event(\"x\").cpus(\"cpu atom\").counter(\"c\") {}",
	  "\"cpu atom\" in .cpus: expected a CPU list", "t.stp:1:31" },
	{ "probe perfctr.event(\"x\").cpus(\"0,2,4,6,8,10,12,14,16\")"
	  ".counter(\"c\") {}", "\"0,2,4,6,8,10,12,14,16\" in .cpus: at most "
	  "8 ranges of CPUs", "t.stp:1:31" },
	{ "probe perfctr.event(\"x\").cpus(\"0\").cpus(\"1\").counter(\"c\") {}",
	  "'.cpus' given twice", "t.stp:1:36" },
	/* groups: .group("G") after the scope, before .multiplex */
	{ "probe perfctr.event(\"x\").group(\"g\").cpu.counter(\"c\") {}",
	  "'.cpu' must come before '.group'", "t.stp:1:37" },
	{ "probe perfctr.event(\"x\").multiplex.group(\"g\").counter(\"c\") {}",
	  "'.group' must come before '.multiplex'", "t.stp:1:36" },
	{ "probe perfctr.event(\"x\").group(\"g\").group(\"h\").counter(\"c\") {}",
	  "'.group' given twice", "t.stp:1:37" },
	{ "probe perfctr.event(\"x\").group(g).counter(\"c\") {}",
	  "expected a string literal or @N", "t.stp:1:32" },
	{ "probe perfctr.event(\"x\").group(\"\").counter(\"c\") {}",
	  "group name must not be empty", "t.stp:1:32" },
	{ "probe perfctr.event(\"x\").group(\"a b\").counter(\"c\") {}",
	  "group name may contain only letters", "t.stp:1:32" },
	{ "probe perfctr.event(\"x\").group(\"__g\").counter(\"c\") {}",
	  "group names starting with '__' are stap-perfctr's own",
	  "t.stp:1:32" },
	{ "probe perfctr.event(\"x\").group(\"g\").sample(9) {}",
	  "a sampling perfctr probe is not in a group", "t.stp:1:37" },
	{ "probe perfctr.event(\"x\").group(\"g\").hz(9) {}",
	  "a sampling perfctr probe is not in a group", "t.stp:1:37" },
};

/* .group("G"): the names, @N among them; a group read through one
 * counter is created whole (its tables and reads: golden/group.stp). */
static void groups(void)
{
	struct run r;
	const char *text =
		"probe perfctr.event(\"cycles\").cpu.group(\"ipc\")"
		".multiplex.counter(\"c\") {}\n"
		"probe perfctr.event(\"x\").counter(\"x\") {}\n"
		"probe perfctr.event(\"instructions\").group(@2).multiplex"
		".counter(\"i\") {}\n"
		"probe begin { v = @perfctr(\"i\") + @perfctr(\"x\") }\n";

	run(&r, text);
	is_int(r.errors, 0, "a group's clauses parse");
	ok(r.m.ncounters == 3 && !strcmp(r.m.counters[0].group, "ipc") &&
	   !strcmp(r.m.counters[2].group, "c0") &&
	   !r.m.counters[1].group[0] && r.m.counters[0].mux,
	   "group names, @N among them; a counter in none");
	done(&r);
	text = "probe perfctr.event(\"cycles\").group(\"ipc\")"
	       ".counter(\"c\") {}\n"
	       "probe perfctr.event(\"x\").counter(\"x\") {}\n"
	       "probe perfctr.event(\"instructions\").group(\"ipc\")"
	       ".counter(\"i\") {}\n"
	       "probe begin { v = @perfctr(\"i\") + @perfctr(\"x\") + "
	       "perfctr_topdown(\"i\") }\n";
	run(&r, text);
	if (!r.errors)
		r.errors = check__run(&r.m, &r.d);
	ok(!r.errors && r.m.ngroups == 1 && r.m.ngslots == 2 &&
	   r.m.counters[0].used && r.m.counters[0].group_no == 1 &&
	   r.m.counters[0].gslot == 0 && r.m.counters[2].gslot == 1 &&
	   !r.m.counters[1].group_no,
	   "a group read through one counter is created whole: its leader "
	   "too, numbered first");
	done(&r);
}

static void errors(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run r;

		run(&r, bad[i].text);
		ok(r.errors == 1 && strstr(r.msgs, bad[i].msg) &&
		   strstr(r.msgs, bad[i].where),
		   "error \"%s\" at %s", bad[i].msg, bad[i].where);
		if (!(r.errors == 1 && strstr(r.msgs, bad[i].msg) &&
		      strstr(r.msgs, bad[i].where)))
			printf("# %d errors:\n# %s\n", r.errors, r.msgs);
		done(&r);
	}
}

static void error_layout(void)
{
	struct run r;

	run(&r, "probe begin {}\nprobe perfctr.event(\"x\").countr(\"c\") {}");
	like(r.msgs, "parse error: unknown perfctr probe point component",
	     "stap's 'parse error:' prefix");
	like(r.msgs, "\n        saw: identifier 'countr' at t.stp:2:26\n",
	     "saw: line names the token and its position");
	like(r.msgs, "     source: probe perfctr.event(\"x\").countr(\"c\") {}\n"
	     "                                      ^\n",
	     "source line with a caret under column 26");
	done(&r);
}

/* testsuite/bad-input: a clause is blanked before the checker reports on
 * it; the message still quotes what the script says. */
static void blanked_clause_quoted(void)
{
	struct run r;
	char *msgs;
	size_t len;
	FILE *out;

	run(&r, "probe perfctr.event(\"x\").thread.multiplex.counter(\"c\") {}\n"
		"probe begin { x = @perfctr(\"c\") }\n");
	out = open_memstream(&msgs, &len);
	r.d.out = out;
	is_int(check__run(&r.m, &r.d), 1, "a blanked clause's semantic error");
	fclose(out);
	like(msgs, ": identifier 'probe' at t.stp:1:1\n"
	     "        source: probe perfctr.event(\"x\").thread",
	     "quotes the clause as written, not the blanks");
	free(msgs);
	done(&r);
}

/* Deeper %( %) than the parser keeps is stap's business until a clause
 * sits under it: no error, not one per level. */
static void deep_conditionals(void)
{
	struct run r;
	char text[512] = "";
	int i;

	for (i = 0; i < 40; i++)
		strcat(text, "%( 1 %? ");
	strcat(text, "probe begin {}\n");
	for (i = 0; i < 40; i++)
		strcat(text, "%) ");
	strcat(text, "\nprobe perfctr.event(\"x\").counter(\"c\") {}\n");
	run(&r, text);
	ok(r.errors == 0 && r.m.ncounters == 1 && r.m.counters[0].ncond == 0,
	   "40 nested conditionals around other probes: no error");
	done(&r);
}

static void not_clauses(void)
{
	struct run r;

	run(&r, "# probe perfctr.event(\"x\").counter(\"c\") {}\n"
		"/* probe perfctr.event(\"x\").counter(\"c\") {} */\n"
		"probe begin { s = \"probe perfctr.event(\\\"x\\\")\" }\n"
		"probe kernel.function(\"perfctr\") { }\n");
	ok(r.errors == 0 && r.m.ncounters == 0 && !model__active(&r.m),
	   "comments, strings and other probes are not clauses");
	ok(!r.src.changed, "and nothing is blanked");
	done(&r);
}

static void conditionals(void)
{
	struct run r;

	run(&r, "%( arch == \"x86_64\" %?\n"
		"probe perfctr.event(\"cycles\").counter(\"a\") {}\n"
		"%:\n"
		"  %( kernel_v >= \"6.1\" %? probe perfctr.event(\"x\").counter(\"b\") {} %)\n"
		"%)\n");
	is_int(r.errors, 0, "clauses under conditionals parse");
	is_int(r.m.ncounters, 2, "both branches declare");
	ok(r.m.counters[0].ncond == 1 && !r.m.counters[0].cond[0].in_else,
	   "a: in the then-branch of one conditional");
	ok(r.m.counters[1].ncond == 2 && r.m.counters[1].cond[0].in_else &&
	   !r.m.counters[1].cond[1].in_else,
	   "b: else-branch, then a nested then-branch");
	ok(r.m.counters[0].cond[0].len == strlen(" arch == \"x86_64\" ") &&
	   !strncmp(r.src.text + r.m.counters[0].cond[0].off,
		    " arch == \"x86_64\" ", r.m.counters[0].cond[0].len),
	   "condition text is kept");
	like(r.src.text, "%( arch == \"x86_64\" %?\n", "conditionals stay");
	done(&r);

	/* an argument the script tests for itself: stap judges it */
	run(&r, "%( $# >= 3 %?\n"
		"probe perfctr.event(@3).counter(\"e\") {}\n"
		"probe perfctr.event(\"x\").sample(@4) { }\n"
		"%)\n");
	ok(r.errors == 0 && r.m.ncounters == 2 &&
	   r.m.counters[0].missing_arg == 3 &&
	   !strcmp(r.m.counters[0].event, "@3") &&
	   r.m.counters[1].missing_arg == 4 && r.m.counters[1].sample == 1,
	   "@3 and @4 not given, under a condition: no error, remembered%s",
	   r.msgs ? r.msgs : "");
	done(&r);
	run(&r, "%( $# >= 1 %? probe perfctr.event(@1).counter(\"e\") {} %)");
	ok(r.errors == 0 && r.m.ncounters == 1 &&
	   !r.m.counters[0].missing_arg &&
	   !strcmp(r.m.counters[0].event, "cycles"),
	   "@1 given, under a condition: the argument");
	done(&r);

	run(&r, "%(%(%(%(%(%(%(%( probe perfctr.event(\"x\").counter(\"c\") {}");
	ok(r.errors == 0 && r.m.ncounters == 1 && r.m.counters[0].ncond == 8,
	   "a clause under 8 nested conditionals keeps them all");
	done(&r);
}

static void definitions_and_dynamic_reads(void)
{
	struct run r;

	run(&r, "@define get(x) %( @perfctr(@x) %)\n"
		"function perfctr_read:long (id:string) { return 1 }\n"
		"probe begin { y = perfctr_read(\"z\") + perfctr_read(v) }\n");
	is_int(r.errors, 0, "macro and function definitions parse");
	ok(r.m.dynamic_reads, "@perfctr(@x) in a macro and perfctr_read(v) "
	   "are dynamic reads");
	ok(model__user_defined(&r.m, READ_FN_READ) &&
	   !model__user_defined(&r.m, READ_FN_COUNT),
	   "the script defines perfctr_read, not perfctr_count");
	ok(r.m.nreads == 2 && !r.m.reads[0].dynamic && r.m.reads[1].dynamic,
	   "perfctr_read(\"z\") is a literal read, perfctr_read(v) a "
	   "dynamic one");
	done(&r);
	run(&r, "probe begin { a = perfctr_enabled(\"c\"); b = perfctr_count(v) }\n");
	ok(r.m.nreads == 2 && r.m.reads[0].kind == READ_FN_ENABLED &&
	   !r.m.reads[0].dynamic && r.m.reads[1].kind == READ_FN_COUNT &&
	   r.m.reads[1].dynamic && r.m.dynamic_reads,
	   "perfctr_enabled(\"c\") is a literal read, perfctr_count(v) a "
	   "dynamic one");
	done(&r);
	run(&r, "@define perfctr(x) %( 1 %)\n");
	ok(model__user_defined(&r.m, READ_MACRO), "the script defines @perfctr");
	done(&r);
}

/* A module's table holds 512 counters: the checker stops at the 513th,
 * and the emitter has no stack array of them (fuzz/regressions/
 * translator/513-counters.stp; 7000 overflowed the stack). */
static void too_many_counters(void)
{
	struct strbuf text = { 0 };
	struct emit_opts opts = { &fake_runtime, "0123456789abcdef", "stapdev",
				  NULL };
	struct generated gen;
	struct run r;
	int i, errors;

	for (i = 0; i < 512; i++)
		strbuf__printf(&text, "probe perfctr.event(\"cycles\")"
			       ".counter(\"c%d\") {}\n", i);
	strbuf__printf(&text, "probe begin { x = perfctr_read(y) }\n");
	run(&r, text.buf);
	errors = r.errors + check__run(&r.m, &r.d);
	ok(errors == 0 && emit__generate(&r.m, &opts, &gen) == 0 &&
	   strstr(gen.stp.buf, "n=512;"), "512 counters: a table of 512");
	emit__free(&gen);
	done(&r);

	strbuf__printf(&text, "probe perfctr.event(\"cycles\").counter(\"x\") {}\n");
	run(&r, text.buf);
	free(r.msgs);
	r.d.out = open_memstream(&r.msgs, &r.msgs_len);
	errors = r.errors + check__run(&r.m, &r.d);
	fclose(r.d.out);
	ok(errors == 1 && strstr(r.msgs, "more than 512 perfctr counters in "
				 "one script") && strstr(r.msgs, "t.stp:514:1"),
	   "513 counters: refused at the 513th");
	done(&r);
	strbuf__free(&text);
}

int main(void)
{
	simple_clause();
	levels();
	guest_host();
	multiplex();
	scopes();
	sampling();
	errors();
	groups();
	error_layout();
	blanked_clause_quoted();
	deep_conditionals();
	not_clauses();
	conditionals();
	definitions_and_dynamic_reads();
	too_many_counters();
	return tap_done();
}
