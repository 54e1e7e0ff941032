/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr-run - stands in for staprun (stap runs it in pass 5 through
 * SYSTEMTAP_STAPRUN, or a user runs it on a module built with -p4).
 * For a module with a perfctr request table it resolves each event for
 * this machine, checks that the set can be counted on every online CPU,
 * and runs the real staprun with the same arguments plus one more,
 * perfctr_assign=...; any other run goes to the real staprun untouched.
 * This file is staprun's side (its options, the staprun it runs); the
 * plan for the counters is in run_*.c (run.h says which file has what).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "run.h"

#ifndef REAL_STAPRUN
#define REAL_STAPRUN "/usr/bin/staprun"
#endif

/* staprun's own option string (staprun/common.c, stap 4.8). */
#define STAPRUN_OPTS "ALu::vihb:t:dc:o:x:N:S:DwRr:VT:C:M:F:"
/* staprun keeps at most this many module options and drops the rest. */
#define STAPRUN_MODOPTS_MAX 63

struct cmdline {
	int mod;		/* argv index of the module, or -1 */
	int nopts;		/* module options after it */
	int loads;		/* staprun would load the module */
	int verbose;
	char detach;		/* -D or -L: staprun leaves the module */
	int quiet;		/* -w */
	char remote[32];	/* stap --remote's host index (-r ID:URI) */
};

/* Which staprun options mean the module is not loaded by this run. */
static const char no_load_opts[] = "AdVh";

/* Parses staprun's options on a copy (GNU getopt permutes argv). */
static int cmdline_parse(struct cmdline *c, int argc, char **argv)
{
	char **copy = malloc((argc + 1) * sizeof(*copy));
	int opt, i;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, argv, (argc + 1) * sizeof(*copy));
	memset(c, 0, sizeof(*c));
	c->mod = -1;
	c->loads = 1;
	opterr = 0;		/* staprun will say what is wrong */
	while ((opt = getopt(argc, copy, STAPRUN_OPTS)) != -1) {
		if (opt == '?' || opt == ':' || strchr(no_load_opts, opt))
			c->loads = 0;
		c->verbose += opt == 'v';
		if (opt == 'D' || opt == 'L')
			c->detach = opt;
		c->quiet |= opt == 'w';
		if (opt == 'r' && optarg)
			snprintf(c->remote, sizeof(c->remote), "%.*s",
				 (int)strcspn(optarg, ":"), optarg);
	}
	if (optind < argc) {
		for (i = 1; i < argc; i++)
			if (argv[i] == copy[optind])
				c->mod = i;
		c->nopts = argc - optind - 1;
	}
	free(copy);
	return 0;
}

/* Where staprun finds the module (its parse_modpath): a path if it has
 * a '/' or ends in .ko, else a name under /lib/modules/RELEASE/systemtap. */
static int module_path(const char *arg, char *buf, size_t len)
{
	size_t n = strlen(arg);
	struct utsname u;

	if (strchr(arg, '/') || (n > 3 && !strcmp(arg + n - 3, ".ko")))
		return snprintf(buf, len, "%s", arg) < (int)len ? 0 : -1;
	if (uname(&u))
		return -1;
	return snprintf(buf, len, "/lib/modules/%s/systemtap/%s.ko",
			u.release, arg) < (int)len ? 0 : -1;
}

static const char *staprun_path(void)
{
	const char *s = getenv("STAP_PERFCTR_STAPRUN");

	return s && *s ? s : REAL_STAPRUN;
}

/* Running ourselves in its place would loop forever. */
static int is_self(const char *path)
{
	struct stat a, b;

	return !stat(path, &a) && !stat("/proc/self/exe", &b) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * Runs staprun with argv[1..] and, if given, the module options extra
 * (NULL-ended, at most two): in place of perfctr-run, or with the
 * end-of-run report (report, run_report.c) as its child.
 */
static int run_staprun(const char *staprun, int argc, char **argv,
		       const char *const *extra, const char *report)
{
	char **args = calloc(argc + 3, sizeof(*args));
	int i, ret;

	if (!args) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	args[0] = (char *)staprun;
	memcpy(args + 1, argv + 1, (argc - 1) * sizeof(*args));
	for (i = 0; extra && extra[i] && i < 2; i++)
		args[argc + i] = (char *)extra[i];
	if (report) {
		ret = report__run(staprun, args, report);
		free(args);
		return ret;
	}
	execv(staprun, args);
	fprintf(stderr, PROG ": cannot run %s: %s\n", staprun, strerror(errno));
	free(args);
	return 1;
}

static int exec_staprun(const char *staprun, int argc, char **argv)
{
	return run_staprun(staprun, argc, argv, NULL, NULL);
}

/* Where the end-of-run report goes (STAP_PERFCTR_REPORT), or NULL. */
static const char *report_where(void)
{
	const char *s = getenv(PERFCTR_ENV_REPORT);

	return s && *s ? s : NULL;
}

/* The report needs staprun to stay perfctr-run's child to the module's
 * end, and the module's warnings: not with -D or -L (staprun leaves the
 * module running, and stapio's stderr is no longer ours) or -w (stapio
 * drops every warning). */
static int report_refused(const struct cmdline *c)
{
	if (!c->detach && !c->quiet)
		return 0;
	fprintf(stderr, PROG ": the counter report (--counter-report, "
		PERFCTR_ENV_REPORT ") cannot be had with staprun's -%c: %s\n",
		c->detach ? c->detach : 'w', c->detach ?
		"staprun leaves the module running" :
		"it drops the module's warnings, which carry the report");
	return 1;
}

/* The perfctr_assign argument for this machine, or NULL (said on out). */
static char *assign_build(const struct perfctr_modtab *tab, int verbose,
			  FILE *out)
{
	const char *root = getenv("PERFCTR_SYSFS_ROOT");
	struct perfctr_resolver_opts opts = { .sz = sizeof(opts) };
	struct perfctr_resolver *r = NULL;
	char *assign = NULL;
	struct plan p;

	opts.sysfs_root = root && *root ? root : "/sys";
	if (plan__init(&p, tab, out) || perfctr_resolver__new(&opts, &r)) {
		fprintf(out, PROG ": out of memory\n");
		goto done;
	}
	plan__resolve(&p, r, opts.sysfs_root);
	plan__topology(&p, opts.sysfs_root);
	plan__topdown(&p, opts.sysfs_root);
	plan__priv(&p);
	if (plan__trial(&p, opts.sysfs_root) == 0 && !p.bad &&
	    plan__place_groups(&p) == 0)
		assign = plan__assign(&p, verbose);
	plan__report(&p);
done:
	perfctr_resolver__free(r);
	plan__free(&p);
	return assign;
}

/*
 * Groups keep an fd per event and CPU open (a few thousand on a large
 * machine): as perf does, open them under the hard limit.  staprun gets
 * the user's own limit back; the fds above it stay open.
 */
static int nofile_raise(const struct perfctr_modtab *tab, struct rlimit *old)
{
	struct rlimit r;
	unsigned int i;

	for (i = 0; i < tab->n && !tab->reqs[i].group[0]; i++)
		;
	if (i == tab->n || getrlimit(RLIMIT_NOFILE, old))
		return 0;
	r = *old;
	r.rlim_cur = r.rlim_max;
	return r.rlim_cur != old->rlim_cur && !setrlimit(RLIMIT_NOFILE, &r);
}

/* perfctr-run --dump-counters[=FORMAT]: stap-perfctr runs it for its own
 * --dump-counters and, with FORMAT names, for -l/-L (it links none of
 * the listing code); a machine that runs modules without stap asks it. */
static int dump_counters(const char *arg)
{
	const char *root = getenv("PERFCTR_SYSFS_ROOT");
	char err[256];

	if (perfctr_dump__print(arg[0] == '=' ? arg + 1 : arg,
				root && *root ? root : NULL, stdout, err,
				sizeof(err)) == 0)
		return 0;
	fprintf(stderr, PROG ": %s\n", err);
	return 1;
}

/*
 * perfctr-run --check-events[=here] NAME...: stap-perfctr asks it before
 * it builds a module (it links no libpfm4).  One line a name, in order:
 * "ok", or "unknown" (no machine knows it) or "not-here" (this machine
 * cannot count it; said only with =here), a tab and why.
 */
static int check_events(int here, int n, char **names)
{
	const char *root = getenv("PERFCTR_SYSFS_ROOT");
	struct perfctr_resolver_opts opts = { .sz = sizeof(opts) };
	struct perfctr_resolver *r;
	char err[1024];
	int i, ret;

	opts.sysfs_root = root && *root ? root : "/sys";
	if (perfctr_resolver__new(&opts, &r)) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		ret = perfctr_resolver__check(r, names[i], here, err,
					      sizeof(err));
		if (!ret)
			printf(PERFCTR_CHECK_OK "\n");
		else
			printf("%s\t%s\n", ret == -ENOENT ? PERFCTR_CHECK_UNKNOWN :
			       PERFCTR_CHECK_NOT_HERE, err);
	}
	perfctr_resolver__free(r);
	return fflush(stdout) || ferror(stdout);
}

/* perfctr-run --help (-h) and --version: ours, then staprun's own
 * usage (-h) or version (-V), which are the rest of the answer. */
static int introduce(const char *staprun, const char *arg)
{
	char *args[] = { (char *)staprun, NULL, NULL };

	if (!strcmp(arg, "--version")) {
		fprintf(stderr, PROG " %s (systemtap-perfctr), running %s\n",
			PERFCTR_VERSION, staprun);
		args[1] = "-V";
	} else {
		printf(PROG " %s (systemtap-perfctr): resolves the counters "
		       "of a module built by stap-perfctr\n"
		       "for this machine, checks that they can be counted "
		       "here, then runs %s\nwith perfctr_assign=... added.\n"
		       "  " PROG " [STAPRUN OPTIONS] MODULE.ko [NAME=VALUE ...]\n"
		       "  " PROG " --dump-counters[=json|names]   the events "
		       "this machine counts\n"
		       "  " PROG " --check-events[=here] EVENT...   known "
		       "anywhere (here)?\n"
		       "STAP_PERFCTR_STAPRUN names another staprun.  See "
		       "perfctr-run(8).\nstaprun's own options:\n",
		       PERFCTR_VERSION, staprun);
		args[1] = "-h";
	}
	fflush(NULL);
	return exec_staprun(staprun, 2, args);
}

int main(int argc, char **argv)
{
	const char *staprun = staprun_path();
	const char *report = report_where();
	const char *extra[3] = { NULL, "perfctr_report=1", NULL };
	struct perfctr_modtab tab;
	char path[4096], err[1024], *assign;
	struct rlimit nofile;
	struct remote rem;
	struct cmdline c;
	FILE *out;
	int ret, raised;

	if (argc == 2 && !strncmp(argv[1], "--dump-counters", 15) &&
	    (argv[1][15] == '\0' || argv[1][15] == '='))
		return dump_counters(argv[1] + 15);
	if (argc >= 2 && !strncmp(argv[1], "--check-events", 14) &&
	    (!argv[1][14] || !strcmp(argv[1] + 14, "=here")))
		return check_events(argv[1][14] != '\0', argc - 2, argv + 2);
	if (is_self(staprun)) {
		fprintf(stderr, PROG ": %s is perfctr-run itself; point "
			"STAP_PERFCTR_STAPRUN at the real staprun\n", staprun);
		return 1;
	}
	if (argc == 2 && (!strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--version")))
		return introduce(staprun, argv[1]);
	if (cmdline_parse(&c, argc, argv) || !c.loads || c.mod < 0 ||
	    module_path(argv[c.mod], path, sizeof(path)))
		return exec_staprun(staprun, argc, argv);
	if (report && report_refused(&c))
		return 1;
	ret = perfctr_modtab__read(path, &tab, err, sizeof(err));
	if (ret == -EINVAL || ret == -ENOMEM) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	/* A module we cannot read may still be readable by a setuid
	 * staprun; a perfctr module then refuses to start, and says why. */
	if (ret == -EACCES)
		fprintf(stderr, PROG ": warning: %s; running staprun "
			"without checking its counters\n", err);
	/* not ours: staprun's business (an empty report: nothing lost) */
	if (ret || !tab.version)
		return run_staprun(staprun, argc, argv, NULL, report);
	if (c.nopts + 1 + !!report > STAPRUN_MODOPTS_MAX) {
		fprintf(stderr, PROG ": %d module options: staprun passes at "
			"most %d, and perfctr-run needs %d of them for "
			"perfctr_assign%s\n", c.nopts, STAPRUN_MODOPTS_MAX,
			1 + !!report, report ? " and perfctr_report" : "");
		perfctr_modtab__free(&tab);
		return 1;
	}
	raised = nofile_raise(&tab, &nofile);
	/* for stap --remote, our lines are gathered and prefixed */
	out = remote__open(&rem, c.remote, stderr);
	assign = assign_build(&tab, c.verbose || c.remote[0], out);
	remote__close(&rem);
	if (raised)
		setrlimit(RLIMIT_NOFILE, &nofile);
	perfctr_modtab__free(&tab);
	if (!assign)
		return 1;
	extra[0] = assign;
	if (!report)
		extra[1] = NULL;
	ret = run_staprun(staprun, argc, argv, extra, report);
	free(assign);
	return ret;
}
