// SPDX-License-Identifier: GPL-2.0-or-later
/* test-options.c - reading stap's command line as stap does. */
#include <string.h>

#include "options.h"
#include "tap.h"

#define ARGC(v) ((int)(sizeof(v) / sizeof(v[0])) - 1)


static struct cmdline cl;

static void parse(int argc, char **argv)
{
	cmdline__free(&cl);
	cmdline__parse(&cl, argc, argv);
}

#define PARSE(...) do {							\
	char *v_[] = { "stap", __VA_ARGS__, NULL };			\
	parse(ARGC(v_), v_);						\
} while (0)

static void scripts_and_args(void)
{
	PARSE("-v", "s.stp", "a", "b");
	ok(cl.script_index == 2 && cl.nargs == 2 && !strcmp(cl.args[0], "a") &&
	   !strcmp(cl.args[1], "b"), "script then its arguments");
	PARSE("s.stp", "-p2", "x");
	ok(cl.script_index == 1 && cl.last_pass == 2 && cl.nargs == 1 &&
	   !strcmp(cl.args[0], "x"), "options after the script (permuted)");
	PARSE("-e", "probe begin{}", "x", "y");
	ok(cl.e_index == 2 && cl.script_index == -1 && cl.nargs == 2,
	   "-e: every non-option is a script argument");
	PARSE("-E", "probe end{}", "-E", "probe begin{}", "s.stp");
	ok(cl.n_big_e == 2 && cl.big_e_index[0] == 2 &&
	   cl.big_e_index[1] == 4 && cl.script_index == 5,
	   "-E snippets besides a script");
	PARSE("--", "s.stp", "-v");
	ok(cl.script_index == 2 && cl.nargs == 1 && !strcmp(cl.args[0], "-v"),
	   "after --, options are arguments");
	PARSE("-", "arg");
	ok(cl.script_index == 1 && cl.nargs == 1, "- is the script (stdin)");
}

/* Where the options end (an -pN of ours goes before it), -v counted. */
static void end_and_verbose(void)
{
	PARSE("-v", "s.stp", "--", "-p4");
	ok(cl.end_of_options == 3 && cl.verbose == 1 && cl.last_pass == 5,
	   "-- after the script ends the options: argv[3]");
	PARSE("-vv", "--", "s.stp");
	ok(cl.end_of_options == 2 && cl.verbose == 2, "-- before the script");
	PARSE("-c", "--", "-v", "s.stp");
	ok(cl.end_of_options == -1 && cl.verbose == 1 && cl.script_index == 4,
	   "-c's argument \"--\" does not end the options");
	PARSE("s.stp", "a");
	is_int(cl.end_of_options, -1, "no --: -1");
}

static void option_arguments(void)
{
	PARSE("-c", "ls -l", "-x", "12", "-D", "A=1", "-I", "d", "-B", "V=1",
	      "-m", "mod", "-r", "6.1", "-a", "arm64", "-o", "out", "s.stp");
	ok(cl.script_index == 19 && cl.nargs == 0 && !cl.parse_failed,
	   "required arguments are skipped");
	PARSE("--color", "s.stp");
	ok(cl.script_index == 2, "--color takes no separate argument");
	PARSE("--color=never", "--vp", "0001", "s.stp");
	ok(cl.script_index == 4, "--vp takes one");
	PARSE("--runtime=bpf", "s.stp");
	is_str(cl.runtime, "bpf", "--runtime=bpf");
	PARSE("--dyninst", "s.stp");
	is_str(cl.runtime, "dyninst", "--dyninst");
	PARSE("--unprivileged", "s.stp");
	is_str(cl.privilege, "stapusr", "--unprivileged");
	PARSE("--privilege=stapsys", "s.stp");
	is_str(cl.privilege, "stapsys", "--privilege=");
	PARSE("-R", "/rt", "-w", "s.stp");
	ok(cl.has_runtime_dir && cl.suppress_warnings, "-R and -w noted");
	PARSE("--build-as=u", "--language-server");
	ok(!cl.parse_failed, "stap 5.1 options are known too");
}

static void modes(void)
{
	PARSE("-l", "perfctr.**");
	ok(cl.dump_mode && cl.mentions_perfctr && cl.script_index == -1,
	   "-l is a dump mode; its pattern mentions perfctr");
	PARSE("--dump-functions");
	ok(cl.dump_mode, "--dump-functions");
	PARSE("--no-such-option", "s.stp");
	ok(cl.parse_failed, "unknown option: left to stap");
	PARSE("-eprobe begin{}");
	ok(cl.parse_failed, "-e glued to its text: left to stap");
	PARSE("-p");
	ok(cl.parse_failed, "missing argument: left to stap");
}

int main(void)
{
	scripts_and_args();
	end_and_verbose();
	option_arguments();
	modes();
	cmdline__free(&cl);
	return tap_done();
}
