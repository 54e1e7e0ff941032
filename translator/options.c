// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - the stap option table, as data.  It is the union of the
 * tables of stap 4.8, 5.1, 5.2 and 5.6 (cmdline.cxx): releases only add
 * options, so the union reads every version's command line correctly;
 * an option a given stap lacks is still rejected by that stap.
 * testsuite/unit/translator/stap-options.test reads the table out of the
 * real stap binaries (the configured one; run-suite: each stack's) and
 * fails when one has an option, or an argument kind, this table lacks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define STAP_SHORT_OPTIONS "hVvtp:I:e:E:o:R:r:a:m:kgPc:x:D:bs:uqiwl:d:L:FS:B:J:jWG:T:"

enum {
	OPT_RUNTIME = 256, OPT_BPF, OPT_DYNINST, OPT_PRIVILEGE,
	OPT_UNPRIVILEGED, OPT_DUMP, OPT_OTHER, OPT_DUMP_COUNTERS,
	OPT_DUMP_FUNCTIONS, OPT_HELP, OPT_VERSION, OPT_SERVER, OPT_REMOTE,
	OPT_COUNTER_REPORT, OPT_COUNTER_STATUS,
};

static const struct option long_options[] = {
	{ "skip-badvars",            no_argument,       NULL, OPT_OTHER },
	{ "vp",                      required_argument, NULL, OPT_OTHER },
	{ "unprivileged",            no_argument,       NULL, OPT_UNPRIVILEGED },
	{ "build-as",                optional_argument, NULL, OPT_OTHER },	/* 5.1 */
	{ "client-options",          no_argument,       NULL, OPT_OTHER },
	{ "help",                    no_argument,       NULL, OPT_HELP },
	{ "disable-cache",           no_argument,       NULL, OPT_OTHER },
	{ "poison-cache",            no_argument,       NULL, OPT_OTHER },
	{ "clean-cache",             no_argument,       NULL, OPT_OTHER },
	{ "compatible",              required_argument, NULL, OPT_OTHER },
	{ "ldd",                     no_argument,       NULL, OPT_OTHER },
	{ "use-server",              optional_argument, NULL, OPT_SERVER },
	{ "list-servers",            optional_argument, NULL, OPT_OTHER },
	{ "trust-servers",           optional_argument, NULL, OPT_OTHER },
	{ "use-server-on-error",     optional_argument, NULL, OPT_OTHER },
	{ "use-http-server",         required_argument, NULL, OPT_SERVER },
	{ "all-modules",             no_argument,       NULL, OPT_OTHER },
	{ "sign-module",             optional_argument, NULL, OPT_OTHER },
	{ "remote",                  required_argument, NULL, OPT_REMOTE },
	{ "remote-prefix",           no_argument,       NULL, OPT_OTHER },
	{ "check-version",           no_argument,       NULL, OPT_OTHER },
	{ "version",                 no_argument,       NULL, OPT_VERSION },
	{ "tmpdir",                  required_argument, NULL, OPT_OTHER },
	{ "download-debuginfo",      optional_argument, NULL, OPT_OTHER },
	{ "dump-probe-types",        no_argument,       NULL, OPT_DUMP },
	{ "dump-probe-aliases",      no_argument,       NULL, OPT_DUMP },
	{ "dump-functions",          no_argument,       NULL, OPT_DUMP_FUNCTIONS },
	{ "privilege",               required_argument, NULL, OPT_PRIVILEGE },
	{ "suppress-handler-errors", no_argument,       NULL, OPT_OTHER },
	{ "modinfo",                 required_argument, NULL, OPT_OTHER },
	{ "rlimit-as",               required_argument, NULL, OPT_OTHER },
	{ "rlimit-cpu",              required_argument, NULL, OPT_OTHER },
	{ "rlimit-nproc",            required_argument, NULL, OPT_OTHER },
	{ "rlimit-stack",            required_argument, NULL, OPT_OTHER },
	{ "rlimit-fsize",            required_argument, NULL, OPT_OTHER },
	{ "sysroot",                 required_argument, NULL, OPT_OTHER },
	{ "sysenv",                  required_argument, NULL, OPT_OTHER },
	{ "suppress-time-limits",    no_argument,       NULL, OPT_OTHER },
	{ "runtime",                 required_argument, NULL, OPT_RUNTIME },
	{ "dyninst",                 no_argument,       NULL, OPT_DYNINST },
	{ "bpf",                     no_argument,       NULL, OPT_BPF },
	{ "benchmark-sdt",           no_argument,       NULL, OPT_OTHER },
	{ "benchmark-sdt-loops",     required_argument, NULL, OPT_OTHER },
	{ "benchmark-sdt-threads",   required_argument, NULL, OPT_OTHER },
	{ "color",                   optional_argument, NULL, OPT_OTHER },
	{ "colour",                  optional_argument, NULL, OPT_OTHER },
	{ "prologue-searching",      optional_argument, NULL, OPT_OTHER },
	{ "save-uprobes",            no_argument,       NULL, OPT_OTHER },
	{ "target-namespaces",       required_argument, NULL, OPT_OTHER },
	{ "monitor",                 optional_argument, NULL, OPT_OTHER },
	{ "interactive",             no_argument,       NULL, OPT_OTHER },
	{ "example",                 no_argument,       NULL, OPT_OTHER },
	{ "no-global-var-display",   no_argument,       NULL, OPT_OTHER },
	{ "language-server",         no_argument,       NULL, OPT_OTHER },	/* 5.1 */
	{ "debug",                   no_argument,       NULL, OPT_OTHER },	/* 5.6 */
	{ "semantic-keep-going",     no_argument,       NULL, OPT_OTHER },	/* 5.6 */
	{ "dump-counters",           optional_argument, NULL, OPT_DUMP_COUNTERS },	/* ours */
	{ "counter-report",          required_argument, NULL, OPT_COUNTER_REPORT },	/* ours */
	{ "counter-status",          no_argument,       NULL, OPT_COUNTER_STATUS },	/* ours */
	{ NULL, 0, NULL, 0 },
};

/* getopt_long wants char **; it permutes a copy, never the caller's argv.
 * Index i of the copy is traced back to argv through a parallel array of
 * original indices, permuted identically (we compare pointers). */
static int original_index(char *const *argv, int argc, const char *p)
{
	int i;

	for (i = 0; i < argc; i++)
		if (argv[i] == p)
			return i;
	return -1;
}

static void take_option(struct cmdline *cl, int opt)
{
	const char *arg = optarg;
	int at = arg ? original_index(cl->argv, cl->argc, arg) : -1;

	if (arg && strstr(arg, "perfctr"))
		cl->mentions_perfctr = 1;
	/* "-efoo": optarg points into argv[i]; only whole slots are ours */
	switch (opt) {
	case 'e':
		cl->e_index = at;
		break;
	case 'E':
		if (cl->n_big_e < OPTIONS_MAX_E)
			cl->big_e_index[cl->n_big_e++] = at;
		else
			cl->parse_failed = 1;
		break;
	case 'I':
		if (cl->n_include < OPTIONS_MAX_I)
			cl->include_dirs[cl->n_include++] = (char *)arg;
		else
			cl->parse_failed = 1;
		break;
	case 'p':
		cl->last_pass = atoi(arg);
		break;
	case 'l': case 'L':
		cl->list_pattern = arg;
		cl->list_vars = opt == 'L';
		cl->dump_mode = 1;
		cl->n_dump++;
		break;
	case OPT_DUMP_FUNCTIONS:
		cl->dump_functions = 1;
		/* fall through */
	case OPT_DUMP:
		cl->dump_mode = 1;
		cl->n_dump++;
		break;
	case OPT_DUMP_COUNTERS:
		cl->dump_counters = arg ? arg : "";
		break;
	case OPT_COUNTER_REPORT:
		cl->counter_report = arg;
		break;
	case OPT_COUNTER_STATUS:
		cl->counter_status = 1;
		break;
	case 'h': case OPT_HELP:
		cl->help = 1;
		break;
	case 'V': case OPT_VERSION:
		cl->version = 1;
		break;
	case 'w':
		cl->suppress_warnings = 1;
		break;
	case 'v':
		cl->verbose++;
		break;
	case 'c': case 'x':
		cl->has_target = 1;
		break;
	case 'R':
		cl->has_runtime_dir = 1;
		break;
	case 'r':
		cl->release = arg;
		break;
	case 'a':
		cl->arch = arg;
		break;
	case 'B':
		if (cl->n_kbuild < OPTIONS_MAX_B)
			cl->kbuild_args[cl->n_kbuild++] = (char *)arg;
		else
			cl->parse_failed = 1;
		break;
	case OPT_SERVER:
		cl->use_server = 1;
		break;
	case OPT_REMOTE:
		cl->remote = 1;
		break;
	case OPT_RUNTIME:
		cl->runtime = arg;
		break;
	case OPT_BPF:
		cl->runtime = "bpf";
		break;
	case OPT_DYNINST:
		cl->runtime = "dyninst";
		break;
	case OPT_PRIVILEGE:
		cl->privilege = arg;
		break;
	case OPT_UNPRIVILEGED:
		cl->privilege = "stapusr";
		break;
	case '?': case ':':
		cl->parse_failed = 1;
		break;
	}
}

/*
 * The argv slots of an option of ours that stap must not see (stap would
 * refuse it): the option's, and its value's when that has a slot of its
 * own ("--counter-report FILE").  copy[optind - 1] is the last slot the
 * option took, as GNU getopt leaves it when it returns the option.
 */
static void take_ours(struct cmdline *cl, char **copy, const char *arg)
{
	int last = original_index(cl->argv, cl->argc, copy[optind - 1]);

	if (cl->n_ours + 2 > OPTIONS_MAX_OURS) {
		cl->parse_failed = 1;
		return;
	}
	if (arg && arg == copy[optind - 1] && optind >= 2)
		cl->ours[cl->n_ours++] = original_index(cl->argv, cl->argc,
							copy[optind - 2]);
	cl->ours[cl->n_ours++] = last;
}

/* An -e/-E text glued to its option ("-e'probe...'") has no argv slot of
 * its own to rewrite: leave such command lines to stap. */
static void check_slots(struct cmdline *cl, int e_given)
{
	int i;

	if (e_given && cl->e_index < 0)
		cl->parse_failed = 1;
	for (i = 0; i < cl->n_big_e; i++)
		if (cl->big_e_index[i] < 0)
			cl->parse_failed = 1;
}

int cmdline__parse(struct cmdline *cl, int argc, char *const *argv)
{
	char **copy = malloc((argc + 1) * sizeof(*copy));
	const char *last_arg = NULL;
	int opt, i, e_given = 0;

	memset(cl, 0, sizeof(*cl));
	cl->argc = argc;
	cl->argv = argv;
	cl->script_index = cl->e_index = cl->end_of_options = -1;
	cl->last_pass = 5;
	cl->args = calloc(argc + 1, sizeof(*cl->args));
	if (!copy || !cl->args) {
		free(copy);
		free(cl->args);
		return -ENOMEM;
	}
	memcpy(copy, argv, (argc + 1) * sizeof(*copy));
	optind = 0;		/* full reinitialisation, GNU getopt */
	opterr = 0;
	while ((opt = getopt_long(argc, copy, STAP_SHORT_OPTIONS, long_options,
				  NULL)) != -1) {
		if (opt == 'e')
			e_given = 1;
		last_arg = optarg;
		take_option(cl, opt);
		if (opt == OPT_COUNTER_REPORT || opt == OPT_COUNTER_STATUS)
			take_ours(cl, copy, optarg);
	}
	/* "--" ended the options, unless it was the last option's value */
	if (optind > 0 && optind <= argc && !strcmp(copy[optind - 1], "--") &&
	    copy[optind - 1] != last_arg)
		cl->end_of_options = original_index(argv, argc,
						    copy[optind - 1]);
	for (i = optind; i < argc; i++) {
		if (strstr(copy[i], "perfctr"))
			cl->mentions_perfctr = 1;
		if (!e_given && !cl->dump_mode && cl->script_index < 0)
			cl->script_index = original_index(argv, argc, copy[i]);
		else
			cl->args[cl->nargs++] = copy[i];
	}
	check_slots(cl, e_given);
	free(copy);
	return 0;
}

int cmdline__is_ours(const struct cmdline *cl, int i)
{
	int k;

	for (k = 0; k < cl->n_ours; k++)
		if (cl->ours[k] == i)
			return 1;
	return 0;
}

void cmdline__free(struct cmdline *cl)
{
	free(cl->args);
	cl->args = NULL;
}
