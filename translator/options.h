/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - stap's command line, read the way stap reads it (the same
 * getopt_long table and permutation), to find the script text and the few
 * options that matter to perfctr.  argv itself is never modified.
 */
#ifndef PERFCTR_OPTIONS_H
#define PERFCTR_OPTIONS_H

#define OPTIONS_MAX_E 32
#define OPTIONS_MAX_I 32
#define OPTIONS_MAX_B 16
#define OPTIONS_MAX_OURS 16

struct cmdline {
	int argc;
	char *const *argv;	/* the original, untouched */
	int parse_failed;	/* an option stap does not know, or bad use */
	int script_index;	/* argv index of the script file, or -1 */
	int e_index;		/* argv index of the -e text, or -1 */
	int big_e_index[OPTIONS_MAX_E];	/* argv indices of -E texts */
	int n_big_e;
	char *include_dirs[OPTIONS_MAX_I];	/* -I DIR, in order */
	int n_include;
	char **args;		/* script arguments, in stap's order (owned) */
	int nargs;
	int last_pass;		/* -p N, default 5 */
	int end_of_options;	/* argv index of the "--" that ends them, or -1 */
	int dump_mode;		/* -l, -L, --dump-* */
	int n_dump;		/* how many of those (stap takes one) */
	int dump_functions;	/* --dump-functions: lists our tapset too */
	const char *list_pattern;	/* -l/-L PATTERN, the last one */
	int list_vars;		/* it was -L */
	const char *dump_counters;	/* ours: --dump-counters[=FMT], FMT or "" */
	const char *counter_report;	/* ours: --counter-report=FILE */
	int counter_status;	/* ours: --counter-status */
	/* argv indices of those two and their values, which stap never
	 * sees (cmdline__is_ours) */
	int ours[OPTIONS_MAX_OURS];
	int n_ours;
	int suppress_warnings;	/* -w */
	int verbose;		/* -v, each one */
	int has_runtime_dir;	/* -R */
	const char *release;	/* -r RELEASE or -r DIR, the last one */
	const char *arch;	/* -a ARCH, the last one */
	char *kbuild_args[OPTIONS_MAX_B];	/* -B NAME=VALUE, in order */
	int n_kbuild;
	int remote;		/* --remote: the module runs on another host */
	int use_server;		/* --use-server, --use-http-server: a
				 * compile server builds the module */
	const char *runtime;	/* --runtime=, --bpf, --dyninst; NULL = kernel */
	const char *privilege;	/* --privilege= / --unprivileged */
	int mentions_perfctr;	/* some option argument contains "perfctr" */
	int has_target;		/* -c CMD or -x PID */
	int help;		/* -h, --help */
	int version;		/* -V, --version */
};

/* Reads argv.  Returns 0, or -ENOMEM; sets parse_failed when stap itself
 * should judge the command line. */
int cmdline__parse(struct cmdline *cl, int argc, char *const *argv);
/* Is argv[i] an option of ours (or its value) that stap must not get? */
int cmdline__is_ours(const struct cmdline *cl, int i);
void cmdline__free(struct cmdline *cl);

#endif /* PERFCTR_OPTIONS_H */
