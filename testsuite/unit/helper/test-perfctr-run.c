/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-perfctr-run.c - perfctr-run in front of a fake staprun (a script
 * that records its argv, NUL-separated): untouched pass-through for
 * everything that is not a perfctr module load; exactly one more
 * argument, perfctr_assign=..., for one; a refusal (exit 1, one line
 * per problem, staprun never run) when a counter cannot be had; with
 * the end-of-run report (STAP_PERFCTR_REPORT), staprun as a child whose
 * stderr comes through but for the report's lines, its status (or
 * STAP_PERFCTR_STATUS's) and its signals.
 */
#include <errno.h>
#include <sys/wait.h>
#include "libperfctr.h"
#include "tap.h"
#include "util.h"

#define HASH "0123456789abcdef"
#define INFO "#define INFO(tag, s) static const char tag[] " \
	"__attribute__((section(\".modinfo\"), used, aligned(1))) = s\n"
#define TABLE(n) "INFO(t, \"perfctr_table=v=1;n=" #n ";hash=" HASH ";priv=stapusr\");\n"
#define REQ(tag, idx, id, ev, plm, line) \
	"INFO(" tag ", \"perfctr_req=idx=" #idx ";id=" id ";event=" ev \
	";plm=" plm ";src=x.stp:" #line ":22\");\n"

/* The same with more fields after src (", scope=2"). */
#define REQX(tag, idx, id, ev, line, more) \
	"INFO(" tag ", \"perfctr_req=idx=" #idx ";id=" id ";event=" ev \
	";plm=uk;src=x.stp:" #line ":22;" more "\");\n"

static const struct {
	const char *name, *source;
} modules[] = {
	{ "plain.ko", INFO "INFO(l, \"license=GPL\");\n" },
	{ "sw.ko", INFO TABLE(2) REQ("a", 0, "tc", "task-clock", "uk", 3)
		   REQ("b", 1, "pf", "page-faults", "u", 4) },
	{ "cycles.ko", INFO TABLE(1) REQ("a", 0, "c", "cycles", "uk", 3) },
	{ "typo.ko", INFO TABLE(1) REQ("a", 0, "c", "cylces", "uk", 3) },
	{ "corrupt.ko", INFO TABLE(1) REQ("a", 1, "c", "cycles", "uk", 3) },
	{ "mixed.ko", INFO TABLE(4) REQ("a", 0, "tc", "task-clock", "uk", 3)
		      REQ("b", 1, "c", "cylces", "uk", 4)
		      REQ("c", 3, "d", "cycles", "k", 5) },
	{ "empty.ko", INFO TABLE(1) },
	{ "sysfs.ko", INFO TABLE(1) REQ("a", 0, "cs", "my-cs", "uk", 3) },
	/* fixtures/adl: a per-socket PMU, one core type's event per CPU,
	 * a raw event (cpu_core's) per task */
	{ "topo.ko", INFO TABLE(3) REQ("a", 0, "e", "power/energy-pkg/", "uk", 3)
		     REQ("b", 1, "c", "cpu_core/cpu-cycles/", "uk", 4)
		     REQX("c", 2, "t", "r00c0", 5, "scope=2") },
	/* a RAPL event whose sysfs scale is malformed */
	{ "unit.ko", INFO TABLE(1)
		     REQX("a", 0, "e", "power/energy-pkg/", 3, "scope=4") },
};

static const char *fake, *out, *fds, *errfile, *outfile;
static int as_nobody;		/* run perfctr-run as user nobody */

/* Runs perfctr-run with args and env ("NAME=value", NULL-ended lists);
 * returns its exit status, or -1 if it did not exit. */
static int run(const char *const *args, const char *const *env)
{
	const char *argv[128];
	int i, status, fd;
	pid_t pid;

	argv[0] = PERFCTR_RUN;
	for (i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	unlink(out);
	unlink(fds);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv("STAP_PERFCTR_STAPRUN", fake, 1);
		setenv("FAKE_OUT", out, 1);
		unsetenv("PERFCTR_SYSFS_ROOT");
		for (i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(98);
		close(fd);
		fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(98);
		close(fd);
		if (as_nobody && (setgid(65534) || setuid(65534)))
			_exit(96);
		execv(PERFCTR_RUN, (char **)argv);
		_exit(97);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		test_die("fork");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* What the fake staprun was given: its path, then args, then extra. */
static void expect_argv(const char *what, const char *const *args, const char *extra)
{
	char want[16384], *got;
	size_t n = 0, len = 0, l;
	int i;

	memcpy(want, fake, strlen(fake) + 1);
	n = strlen(fake) + 1;
	for (i = 0; args[i]; i++) {
		l = strlen(args[i]) + 1;
		memcpy(want + n, args[i], l);
		n += l;
	}
	if (extra) {
		memcpy(want + n, extra, strlen(extra) + 1);
		n += strlen(extra) + 1;
	}
	got = test_read(out, &len);
	ok(got && len == n && !memcmp(got, want, n), "%s: staprun got %s", what,
	   extra ? "the arguments plus perfctr_assign" : "the identical arguments");
	if (got && (len != n || memcmp(got, want, n))) {
		for (l = 0; l < len; l += strlen(got + l) + 1)
			printf("#   got arg \"%s\"\n", got + l);
		if (extra)
			printf("#   want last \"%s\"\n", extra);
	}
	free(got);
}

static char *stderr_text(void)
{
	char *s = test_read(errfile, NULL);

	return s ? s : strdup("");
}

static void expect_refusal(const char *what, const char *const *args,
			   const char *const *env, const char *msg)
{
	char *err;
	int status = run(args, env);

	is_int(status, 1, "%s: exit status 1", what);
	ok(access(out, F_OK) != 0, "%s: staprun never ran", what);
	err = stderr_text();
	like(err, msg, "%s: message", what);
	free(err);
}

static void pass_through(void)
{
	const char *plain = test_path("plain.ko"), *sw = test_path("sw.ko");
	const char *a1[] = { "-v", "-o", "my out", "-x", "123", plain, "a=1",
			     "b=two words", "-c", "ls -l", "w=\xff\n", NULL };
	const char *a2[] = { "-A", sw, NULL };
	const char *a3[] = { "-d", sw, NULL };
	const char *a4[] = { "-V", NULL };
	const char *a5[] = { NULL };
	const char *a6[] = { "stap_no_such_module_xyz", "x=1", NULL };
	const char *a7[] = { "/nonexistent/x.ko", NULL };
	const char *a8[] = { "-Q", sw, NULL };
	const char *a9[] = { "-h", NULL };
	const char *a10[] = { "-L", "-A", sw, NULL };
	const char *a11[] = { "-u", "--", test_path("text.ko"), NULL };
	const struct {
		const char *what;
		const char *const *args;
	} cases[] = {
		{ "a module without a table", a1 },
		{ "-A (attach: loaded already)", a2 },
		{ "-d (delete)", a3 },
		{ "-V", a4 },
		{ "no arguments", a5 },
		{ "a module name that is not installed", a6 },
		{ "a path that does not exist", a7 },
		{ "an option staprun does not know", a8 },
		{ "-h", a9 },
		{ "-L with -A", a10 },
		{ "a file that is not ELF", a11 },
	};
	size_t i;

	test_write("text.ko", "not an ELF file\n");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		is_int(run(cases[i].args, NULL), 0, "%s: runs staprun", cases[i].what);
		expect_argv(cases[i].what, cases[i].args, NULL);
	}
}

/* --help and --version: who answers, then staprun's -h or -V. */
static void introductions(void)
{
	const char *help[] = { "--help", NULL }, *version[] = { "--version", NULL };
	const char *staprun_h[] = { "-h", NULL }, *staprun_v[] = { "-V", NULL };
	char *text;

	is_int(run(help, NULL), 0, "--help: exit status 0");
	expect_argv("--help", staprun_h, NULL);
	text = test_read(outfile, NULL);
	ok(text && !strncmp(text, "perfctr-run " PERFCTR_VERSION
			    " (systemtap-perfctr): resolves the counters", 52),
	   "--help: says who answers, first");
	like(text ? text : "", "--dump-counters", "--help: names --dump-counters");
	free(text);
	is_int(run(version, NULL), 0, "--version: exit status 0");
	expect_argv("--version", staprun_v, NULL);
	text = stderr_text();
	like(text, "perfctr-run " PERFCTR_VERSION " (systemtap-perfctr), "
	     "running ", "--version: our version, then staprun's");
	free(text);
}

static void assignments(void)
{
	const char *sw = test_path("sw.ko");
	const char *a1[] = { "-u", "-o", "o", sw, "g=1", NULL };
	const char *a2[] = { sw, "g=1", "-v", NULL };	/* options after: GNU getopt permutes */
	const char *a3[] = { "-L", test_path("empty.ko"), NULL };
	const char *a4[] = { test_path("sysfs.ko"), NULL };
	const char *sysfs_env[] = { NULL, NULL };
	char env0[600], *fds0, *fds1, *err;

	is_int(run(a1, NULL), 0, "software events: staprun runs");
	expect_argv("software events", a1,
		    "perfctr_assign=" HASH ";0,1,1,0,0,10;1,1,2,0,0,16");
	fds0 = test_read(fds, NULL);
	ok(fds0 && !strstr(fds0, "perf_event"), "no perf_event descriptor reaches staprun");

	is_int(run(a2, NULL), 0, "options after the module: staprun runs");
	expect_argv("options after the module", a2,
		    "perfctr_assign=" HASH ";0,1,1,0,0,10;1,1,2,0,0,16");
	err = stderr_text();
	like(err, "perfctr-run: counter \"pf\": event \"page-faults\" is type 1 config 0x2",
	     "-v: each counter's encoding on stderr");
	like(err, "page-faults\" is type 1 config 0x2 config1 0 config2 0 "
	     "flags 0x16 (user only, no hypervisor, no guest)\n",
	     "-v: the flags in words");
	free(err);

	run((const char *[]){ test_path("plain.ko"), NULL }, NULL);
	fds1 = test_read(fds, NULL);
	is_str(fds0, fds1, "staprun gets the same descriptors as in a pass-through");
	free(fds0);
	free(fds1);

	is_int(run(a3, NULL), 0, "a table with no counter present (-L)");
	expect_argv("no counter present", a3, "perfctr_assign=" HASH);

	/* A sysfs PMU from PERFCTR_SYSFS_ROOT; its CPU list too. */
	test_write("sys/bus/event_source/devices/software/type", "1\n");
	test_write("sys/bus/event_source/devices/software/events/my-cs", "config=3\n");
	test_write("sys/devices/system/cpu/online", "0\n");
	snprintf(env0, sizeof(env0), "PERFCTR_SYSFS_ROOT=%s", test_path("sys"));
	sysfs_env[0] = env0;
	is_int(run(a4, sysfs_env), 0, "an event from the sysfs root given");
	expect_argv("PERFCTR_SYSFS_ROOT", a4, "perfctr_assign=" HASH ";0,1,3,0,0,10");
}

static void refusals(void)
{
	const char *self[] = { "STAP_PERFCTR_STAPRUN=" PERFCTR_RUN, NULL };
	const char *missing[] = { "STAP_PERFCTR_STAPRUN=/nonexistent/staprun", NULL };
	const char *many[70];
	char env0[600];
	const char *cpus[] = { env0, NULL };
	int i;

	expect_refusal("cycles, no PMU here",
		       (const char *[]){ test_path("cycles.ko"), NULL }, NULL,
		       "perfctr-run: x.stp:3:22: counter \"c\": event \"cycles\" cannot be counted on CPU 0: the kernel has no such event on this machine\n");
	expect_refusal("a misspelled event",
		       (const char *[]){ test_path("typo.ko"), NULL }, NULL,
		       "perfctr-run: x.stp:3:22: counter \"c\": unknown event \"cylces\"; did you mean \"cycles\"?\n");
	expect_refusal("a corrupt table",
		       (const char *[]){ test_path("corrupt.ko"), NULL }, NULL,
		       "corrupt.ko: counter \"c\" has index 1, but the table declares 1\n");
	expect_refusal("two bad counters and a good one",
		       (const char *[]){ test_path("mixed.ko"), NULL }, NULL,
		       "perfctr-run: x.stp:4:22: counter \"c\": unknown event \"cylces\"; did you mean \"cycles\"?\n"
		       "perfctr-run: x.stp:5:22: counter \"d\": event \"cycles\" cannot be counted on CPU 0");
	expect_refusal("itself as staprun",
		       (const char *[]){ test_path("sw.ko"), NULL }, self,
		       "is perfctr-run itself");
	expect_refusal("a staprun that is not there",
		       (const char *[]){ test_path("plain.ko"), NULL }, missing,
		       "perfctr-run: cannot run /nonexistent/staprun: No such file or directory");

	/* staprun keeps 63 module options: ours must be one of them. */
	many[0] = test_path("sw.ko");
	for (i = 1; i <= 63; i++)
		many[i] = "x=1";
	many[64] = NULL;
	expect_refusal("63 module options already", many, NULL,
		       "63 module options: staprun passes at most 63");
	many[63] = NULL;
	is_int(run(many, NULL), 0, "62 module options: room for ours");

	test_write("cpus/devices/system/cpu/online", "0,4095\n");
	snprintf(env0, sizeof(env0), "PERFCTR_SYSFS_ROOT=%s", test_path("cpus"));
	expect_refusal("an online CPU the kernel does not have",
		       (const char *[]){ test_path("sw.ko"), NULL }, cpus,
		       "event \"task-clock\" cannot be counted on CPU 4095");
	snprintf(env0, sizeof(env0), "PERFCTR_SYSFS_ROOT=%s", test_path("nowhere"));
	expect_refusal("no online CPU list",
		       (const char *[]){ test_path("sw.ko"), NULL }, cpus,
		       "cannot read the online CPUs under");
}

/* Does every line of TEXT (at least one) start with PREFIX? */
static int all_lines_start(const char *text, const char *prefix)
{
	const char *p = text;

	if (!*p)
		return 0;
	for (; *p; p = strchrnul(p, '\n') + !!*strchrnul(p, '\n'))
		if (strncmp(p, prefix, strlen(prefix)))
			return 0;
	return 1;
}

/* A run for stap --remote (staprun's -r ID:URI): every line of ours
 * starts with "ID: ", the encodings are listed without -v, and staprun
 * gets the arguments as they came. */
static void remote(void)
{
	const char *sw[] = { "-r", "1:unix:/tmp/s.sock", test_path("sw.ko"), NULL };
	const char *mixed[] = { "-R", "-r", "12:ssh://h", test_path("mixed.ko"), NULL };
	char *err;

	is_int(run(sw, NULL), 0, "remote: staprun runs");
	expect_argv("remote", sw,
		    "perfctr_assign=" HASH ";0,1,1,0,0,10;1,1,2,0,0,16");
	err = stderr_text();
	like(err, "1: perfctr-run: counter \"tc\": event \"task-clock\" is type 1 config 0x1 ",
	     "remote: each counter's encoding, prefixed with the host's index");
	like(err, "\n1: perfctr-run: counter \"pf\": event \"page-faults\" is type 1 config 0x2 ",
	     "remote: the second counter's too");
	ok(all_lines_start(err, "1: "), "remote: every line prefixed");
	free(err);
	expect_refusal("remote: two bad counters", mixed, NULL,
		       "12: perfctr-run: x.stp:4:22: counter \"c\": unknown event \"cylces\"; did you mean \"cycles\"?\n");
	err = stderr_text();
	like(err, "\n12: perfctr-run: x.stp:5:22: counter \"d\": event \"cycles\" cannot be counted on CPU 0",
	     "remote: the second refusal");
	ok(all_lines_start(err, "12: "), "remote: every line of the refusal prefixed");
	free(err);
}

/* Counters the module cannot create per CPU or per task on the
 * machine's PMUs: refused before any trial open, at the script's line. */
static void topology(void)
{
	char env0[600];
	const char *adl[] = { env0, NULL };

	snprintf(env0, sizeof(env0), "PERFCTR_SYSFS_ROOT=%s/adl/sys", FIXTURES);
	expect_refusal("hybrid and per-socket PMUs",
		       (const char *[]){ test_path("topo.ko"), NULL }, adl,
		       "perfctr-run: x.stp:3:22: counter \"e\": event "
		       "\"power/energy-pkg/\" is of PMU \"power\", whose "
		       "cpumask \"0\" names the one CPU per socket (or die, "
		       "or core) that reads its counters: each counts for the "
		       "whole socket, once, and a copy per CPU would be "
		       "wrong; count it .socket (one counter per socket, read "
		       "from any CPU of it)\n"
		       "perfctr-run: x.stp:4:22: counter \"c\": event "
		       "\"cpu_core/cpu-cycles/\" is of core PMU \"cpu_core\" "
		       "(CPUs 0-15) only, and this machine is hybrid: .cpu needs "
		       "a copy on every CPU, and the kernel cannot create it on "
		       "CPUs 16-23 (\"cpu_atom\"); restrict it to its PMU's "
		       "CPUs with .cpus(\"cpu_core\"), or count a generic "
		       "event (\"cycles\", \"instructions\"...), which each "
		       "CPU's core PMU takes\n"
		       "perfctr-run: x.stp:5:22: counter \"t\": .process of "
		       "\"r00c0\" on a hybrid machine: a per-task event binds "
		       "to one core PMU (\"cpu_core\", CPUs 0-15) and would "
		       "miss the task's time on CPUs 16-23 (\"cpu_atom\"); "
		       "count a generic event (\"cycles\", \"instructions\"...): "
		       "a task event per core PMU, summed");
}

/* A sysfs .scale that is not a number: refused before load, at the
 * clause, naming the file and its value. */
static void units(void)
{
	char env0[600], want[1200];
	const char *bad[] = { env0, NULL };
	const char *dev = "badsys/bus/event_source/devices/power/";
	char path[256];
	static const char *const files[][2] = {
		{ "type", "20\n" }, { "cpumask", "0\n" },
		{ "format/event", "config:0-7\n" },
		{ "events/energy-pkg", "event=0x02\n" },
		{ "events/energy-pkg.unit", "Joules\n" },
		{ "events/energy-pkg.scale", "2.3e-10 J\n" },
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dev, files[i][0]);
		test_write(path, files[i][1]);
	}
	test_write("badsys/devices/system/cpu/online", "0-1\n");
	snprintf(env0, sizeof(env0), "PERFCTR_SYSFS_ROOT=%s",
		 test_path("badsys"));
	snprintf(want, sizeof(want), "perfctr-run: x.stp:3:22: counter \"e\": "
		 "event \"power/energy-pkg/\": %s/bus/event_source/devices/"
		 "power/events/energy-pkg.scale: \"2.3e-10 J\" is not a number "
		 "above 0, as perf reads a scale (strtod)\n",
		 test_path("badsys"));
	expect_refusal("a malformed sysfs scale",
		       (const char *[]){ test_path("unit.ko"), NULL }, bad, want);
}

/* Debian's perf_event_paranoid keeps users from CPU-wide counters (and
 * from counting in kernel mode at 2, from any counter at 3). */
static void unprivileged(void)
{
	const char *sw = test_path("sw.ko"), *hidden = test_path("hidden.ko");
	const char *a1[] = { sw, NULL }, *a2[] = { hidden, "x=1", NULL };
	char want[128], *p = test_read("/proc/sys/kernel/perf_event_paranoid", NULL), *err;

	if (chmod(test_dir, 0777))
		test_die("chmod");
	as_nobody = 1;
	if (p && atoi(p) > 0) {
		/* the table says stapusr: priv.c refuses before a trial */
		snprintf(want, sizeof(want), "refused: "
			 "kernel.perf_event_paranoid is %d, and ", atoi(p));
		expect_refusal("as nobody", a1, NULL, want);
	} else {
		tap_ok(1, "# SKIP as nobody: perf_event_paranoid allows CPU-wide counters");
	}
	free(p);
	/* A module nobody cannot read: staprun (setuid) might. */
	test_compile("hidden.ko", modules[1].source);
	if (chmod(hidden, 0600))
		test_die("chmod");
	is_int(run(a2, NULL), 0, "as nobody, an unreadable module: staprun runs");
	expect_argv("an unreadable module", a2, NULL);
	err = stderr_text();
	like(err, "perfctr-run: warning: ", "and a warning says it was not checked");
	like(err, "Permission denied", "and why");
	free(err);
	as_nobody = 0;
}

/* The module's lines as stapio prints them, around others of staprun's
 * (one without its newline, last). */
#define JSON_LOST "{\"kind\":\"sampling\",\"src\":\"x.stp:3:1\"," \
	"\"not_run\":4,\"incomplete\":true}"
#define JSON_WHOLE "{\"kind\":\"sampling\",\"src\":\"x.stp:4:1\"," \
	"\"not_run\":0,\"incomplete\":false}"
#define OTHERS_1 "staprun says hello\nWARNING: perfctr: x.stp:3:1: " \
	"sampling task-clock: 1 samples\n"
#define OTHERS_2 "perfctr-report: not a warning\nlast words"

/* Each argument staprun got, NUL-separated, is last the last? */
static int last_arg_is(const char *last)
{
	size_t len = 0, l, at = 0;
	char *got = test_read(out, &len);
	int yes;

	for (l = 0; got && l < len; l += strlen(got + l) + 1)
		at = l;
	yes = got && len && !strcmp(got + at, last);
	free(got);
	return yes;
}

/* With root, a module with counters (sw.ko); without, one without a
 * table, which runs as perfctr-run's child all the same. */
static void reports(int root)
{
	const char *sw = test_path(root ? "sw.ko" : "plain.ko");
	const char *plain = test_path("plain.ko");
	const char *a1[] = { sw, NULL };
	const char *a2[] = { plain, "x=1", NULL };
	const char *a3[] = { "-D", sw, NULL };
	const char *a4[] = { "-w", sw, NULL };
	char rep_env[600], inc_env[600], *text;
	const char *lost_env[] = { rep_env, inc_env,
		"FAKE_STDERR=" OTHERS_1 "WARNING: perfctr-report: " JSON_LOST
		"\\nWARNING: perfctr-report: " JSON_WHOLE "\\n" OTHERS_2,
		NULL, NULL };
	const char *whole_env[] = { rep_env, inc_env, "STAP_PERFCTR_STATUS=1",
		"FAKE_STDERR=WARNING: perfctr-report: " JSON_WHOLE "\\n",
		NULL };
	const char *plain_env[] = { rep_env, NULL };
	const char *term_env[] = { rep_env, "FAKE_TERM=1", NULL };
	const char *kill_env[] = { rep_env, "FAKE_SELFKILL=1", NULL };
	const char *stderr_env[] = { "STAP_PERFCTR_REPORT=-",
		"FAKE_STDERR=a\\nWARNING: perfctr-report: " JSON_LOST "\\nb\\n",
		NULL };
	const char *none_env[] = { lost_env[2], NULL };

	snprintf(rep_env, sizeof(rep_env), "STAP_PERFCTR_REPORT=%s",
		 test_path("report"));
	snprintf(inc_env, sizeof(inc_env), "STAP_PERFCTR_INCOMPLETE=%s",
		 test_path("incomplete"));

	/* no report asked for: staprun's stderr is perfctr-run's, as is */
	is_int(run(a1, none_env), 0, "no report: staprun's status");
	expect_argv("no report", a1, root ?
		    "perfctr_assign=" HASH ";0,1,1,0,0,10;1,1,2,0,0,16" : NULL);
	text = stderr_text();
	is_str(text, OTHERS_1 "WARNING: perfctr-report: " JSON_LOST "\n"
	       "WARNING: perfctr-report: " JSON_WHOLE "\n" OTHERS_2,
	       "no report: stderr untouched");
	free(text);

	unlink(test_path("incomplete"));
	is_int(run(a1, lost_env), 0, "report: staprun's status without "
	       "STAP_PERFCTR_STATUS");
	ok(!root || last_arg_is("perfctr_report=1"), "report: the module "
	   "is asked for it (perfctr_report=1, after perfctr_assign)%s",
	   root ? "" : " # SKIP a module with counters needs root");
	text = test_read(fds, NULL);
	ok(text && !strstr(text, test_path("report")) &&
	   strstr(text, "\n2 pipe"), "report: staprun's stderr is a pipe, "
	   "and the report's fd is not staprun's");
	free(text);
	text = stderr_text();
	is_str(text, OTHERS_1 OTHERS_2, "report: stderr has every other "
	       "line, as it was, in order");
	free(text);
	text = test_read(test_path("report"), NULL);
	is_str(text, JSON_LOST "\n" JSON_WHOLE "\n", "report: the objects, "
	       "one a line, without the prefix");
	free(text);
	text = test_read(test_path("incomplete"), NULL);
	is_str(text, "incomplete\n", "report: an object that says "
	       "incomplete marks STAP_PERFCTR_INCOMPLETE's file");
	free(text);

	lost_env[3] = "STAP_PERFCTR_STATUS=1";
	is_int(run(a1, lost_env), PERFCTR_EXIT_INCOMPLETE,
	       "STAP_PERFCTR_STATUS=1: incomplete counts, exit status 3");
	lost_env[3] = NULL;
	unlink(test_path("incomplete"));
	is_int(run(a1, whole_env), 0, "STAP_PERFCTR_STATUS=1: whole "
	       "counts, exit status 0");
	ok(access(test_path("incomplete"), F_OK) != 0,
	   "whole counts: STAP_PERFCTR_INCOMPLETE's file not written");
	lost_env[3] = "FAKE_EXIT=1";
	is_int(run(a1, lost_env), 1, "a staprun that fails: its status");
	lost_env[3] = NULL;

	is_int(run(a2, plain_env), 0, "report, a module without a table: runs");
	expect_argv("report, a module without a table", a2, NULL);
	text = test_read(test_path("report"), NULL);
	is_str(text, "", "report, a module without a table: empty");
	free(text);

	is_int(run(a1, stderr_env), 0, "report on stderr (-)");
	text = stderr_text();
	is_str(text, "a\n" JSON_LOST "\nb\n", "report on stderr: the "
	       "object without the prefix, where it came");
	free(text);

	is_int(run(a1, term_env), 7, "a SIGTERM sent to perfctr-run reaches "
	       "staprun; its status is perfctr-run's");
	text = stderr_text();
	is_str(text, "staprun got TERM\n", "SIGTERM: staprun's last words "
	       "come through");
	free(text);
	is_int(run(a1, kill_env), -1, "a staprun killed by a signal: "
	       "perfctr-run dies of it too");

	expect_refusal("report with -D", a3, plain_env, "cannot be had with "
		       "staprun's -D");
	expect_refusal("report with -w", a4, plain_env, "cannot be had with "
		       "staprun's -w");
}

int main(void)
{
	size_t i;

	test_mkdtemp();
	fake = strdup(test_path("fake-staprun"));
	out = strdup(test_path("out"));
	fds = strdup(test_path("out.fds"));
	errfile = strdup(test_path("stderr"));
	outfile = strdup(test_path("stdout"));
	test_write("fake-staprun",
		   "#!/bin/sh\n"
		   "printf '%s\\0' \"$0\" \"$@\" > \"$FAKE_OUT\"\n"
		   "for f in /proc/$$/fd/*; do\n"
		   "  echo \"${f##*/} $(readlink \"$f\" | sed 's/:\\[.*//')\"\n"
		   "done > \"$FAKE_OUT.fds\"\n"
		   "[ -n \"$FAKE_STDERR\" ] && printf '%b' \"$FAKE_STDERR\" >&2\n"
		   "if [ -n \"$FAKE_TERM\" ]; then\n"
		   "  trap 'echo staprun got TERM >&2; exit 7' TERM\n"
		   "  kill -TERM $PPID; sleep 5 >/dev/null 2>&1 & wait\n"
		   "fi\n"
		   "[ -n \"$FAKE_SELFKILL\" ] && kill -KILL $$\n"
		   "exit ${FAKE_EXIT:-0}\n");
	if (chmod(fake, 0755))
		test_die("chmod");
	for (i = 0; i < sizeof(modules) / sizeof(modules[0]); i++)
		if (test_compile(modules[i].name, modules[i].source))
			test_die(modules[i].name);
	pass_through();
	introductions();
	if (geteuid() == 0) {
		assignments();
		refusals();
		remote();
		topology();
		units();
		unprivileged();
	} else {
		tap_ok(1, "# SKIP the rest opens CPU-wide counters and changes user: needs root");
	}
	reports(geteuid() == 0);
	test_cleanup();
	free((char *)fake);
	free((char *)out);
	free((char *)fds);
	free((char *)errfile);
	free((char *)outfile);
	return tap_done();
}
