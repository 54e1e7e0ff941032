// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frontend.c - stap-perfctr: stands in front of the real stap.
 *
 * A command line that does not use perfctr is exec'd to the real stap at
 * once, argv and environment untouched.  Otherwise the scripts are parsed,
 * perfctr clauses blanked and checked, a tapset generated, and the real
 * stap run with it (-I), with perfctr-run as its staprun.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "embed.h"
#include "emit.h"
#include "events.h"
#include "kconf.h"
#include "listing.h"
#include "model.h"
#include "newkernel.h"
#include "options.h"
#include "outdir.h"
#include "parser.h"
#include "perfctr_iface.h"
#include "rewrite.h"
#include "spawn.h"
#include "stapsays.h"
#include "tapsets.h"

#define MAX_SOURCES (OPTIONS_MAX_E + 2)

/* Where our pieces are: the build tree when run from it, else installed. */
struct paths {
	const char *real_stap;
	char helper[PATH_MAX];
	char runtime[PATH_MAX];
	char compat_runtime[PATH_MAX];	/* "" when stap needs no shim */
	char tapset[PATH_MAX];		/* the static tapset (cpu_cycles()...) */
};

struct frontend {
	struct cmdline cl;
	struct paths paths;
	struct source src[MAX_SOURCES];
	int nsrc;
	int script;		/* index in src of the script file, or -1 */
	int stdin_consumed;
	struct tapsets tapsets;	/* the user's -I files */
	struct model model;
	struct diag diag;
	char incomplete[PATH_MAX];	/* --counter-status's file, or "" */
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "stap-perfctr: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static int running_uninstalled(void)
{
	char self[PATH_MAX];

	return realpath("/proc/self/exe", self) &&
	       strcmp(self, ABS_BUILDDIR "/translator/stap-perfctr") == 0;
}

static void find_paths(struct paths *p)
{
	const char *over = getenv("STAP_PERFCTR_STAP");	/* tests */
	int here = running_uninstalled();

	p->real_stap = over && *over ? over : REAL_STAP;
	snprintf(p->helper, sizeof(p->helper), "%s/perfctr-run",
		 here ? ABS_BUILDDIR "/helper" : BINDIR);
	snprintf(p->runtime, sizeof(p->runtime), "%s",
		 here ? ABS_SRCDIR "/runtime" : PKGDATADIR "/runtime");
	snprintf(p->tapset, sizeof(p->tapset), "%s",
		 here ? ABS_SRCDIR "/tapset" : PKGDATADIR "/tapset");
	/* the shim is a patched copy of the configured stap's runtime:
	 * another stap (STAP_PERFCTR_STAP) never gets it */
	snprintf(p->compat_runtime, sizeof(p->compat_runtime), "%s",
		 !NEED_RUNTIME_SHIM || strcmp(p->real_stap, REAL_STAP) ? "" :
		 here ? ABS_BUILDDIR "/build/stap-runtime" :
		 PKGDATADIR "/stap-runtime");
}

/* A `stap` symlink to us must never be taken for the real stap. */
static void refuse_recursion(const char *real_stap)
{
	char self[PATH_MAX], target[PATH_MAX];

	if (realpath("/proc/self/exe", self) && realpath(real_stap, target) &&
	    strcmp(self, target) == 0)
		die("the real stap (%s) is this program; reconfigure with "
		    "--with-stap=PATH", real_stap);
}

/* Puts text back on fd 0 so the real stap can read the script we took. */
static void restore_stdin(const struct source *s)
{
	int fd = memfd_create("stap-script", MFD_CLOEXEC);

	if (fd < 0 || write(fd, s->text, s->len) != (ssize_t)s->len ||
	    lseek(fd, 0, SEEK_SET) < 0 || dup2(fd, STDIN_FILENO) < 0)
		die("cannot hand the script on stdin to stap: %s",
		    strerror(errno));
	close(fd);
}

/* argv without our own options (--counter-report, --counter-status),
 * which stap would refuse; argv itself when it has none. */
static char *const *without_ours(const struct cmdline *cl, char *const *argv)
{
	char **out;
	int i, n = 0;

	if (!cl->n_ours)
		return argv;
	out = calloc(cl->argc + 1, sizeof(*out));
	if (!out)
		die("%s", "out of memory");
	for (i = 0; i < cl->argc; i++)
		if (!cmdline__is_ours(cl, i))
			out[n++] = argv[i];
	return out;
}

static void set_staprun(const struct paths *p);
static void counter_env(struct frontend *fe, int waits);

static void __attribute__((noreturn)) pass_through(struct frontend *fe)
{
	if (fe->stdin_consumed)
		restore_stdin(&fe->src[fe->script]);
	if (fe->cl.n_ours) {
		/* no counters, nothing lost: an empty report */
		counter_env(fe, 0);
		set_staprun(&fe->paths);
	}
	spawn__exec(fe->paths.real_stap, without_ours(&fe->cl, fe->cl.argv));
	die("cannot run the real stap: %s", fe->paths.real_stap);
	exit(1);
}

/* Our part of --help: the perfctr language in brief, every component
 * of a probe point (translator/point.c) and every form of the dump. */
static const char help_text[] =
	"  probe perfctr.event(\"EVENT\")[.user|.kernel]\n"
	"        [.cpu|.thread|.process[(\"PATH\")]|.cgroup(\"PATH\")|.socket]\n"
	"        [.cpus(\"LIST\")][.group(\"G\")][.multiplex].counter(\"ID\") {}\n"
	"      declares a counter; @perfctr(\"ID\") reads it in any probe,\n"
	"      perfctr_read(ID) by an id known only at run time\n"
	"  probe perfctr.event(\"EVENT\")[.user|.kernel][.cpu|.process[(\"PATH\")]]\n"
	"        .sample(N)|.hz(F)[.precise[(L)]] { BODY }\n"
	"      samples: BODY runs every N events, or F times a second\n"
	"  cpu_cycles(), instructions(), ...   event functions, no clause needed\n"
	"  --dump-counters[=text|json|names]   the events this machine counts\n"
	"      (names: one a line, as a script writes them)\n"
	"  --counter-report=FILE|-             the end-of-run report, JSON lines\n"
	"  --counter-status                    exit 3 when counts are incomplete\n";

/* stap -h and -V: stap answers, then we say who stood in front of it,
 * on stdout, after stap's own words, so that what reads them (a version
 * check reading the first line) still finds stap's first, and one
 * stream holds both (stap 4.8 to 5.6 print their version on stdout). */
static void __attribute__((noreturn)) introduce(struct frontend *fe)
{
	int rc = spawn__run(fe->paths.real_stap,
			    without_ours(&fe->cl, fe->cl.argv));

	if (fe->cl.help)
		printf("\nstap-perfctr %s (systemtap-perfctr) stands in front "
		       "of %s and adds\nperformance counters to its "
		       "scripts:\n%s"
		       "Modules run through %s, which resolves each event "
		       "for the machine\nbefore load.  See stap-perfctr(1), "
		       "stapprobes.perfctr(3stap), perfctr-run(8).\n",
		       PERFCTR_VERSION, fe->paths.real_stap, help_text,
		       fe->paths.helper);
	else
		printf("stap-perfctr %s (systemtap-perfctr), in front of %s; "
		       "modules run through %s\n", PERFCTR_VERSION,
		       fe->paths.real_stap, fe->paths.helper);
	exit(rc);
}

/* Loads every script text; any that cannot be read is stap's to report. */
static int load_sources(struct frontend *fe)
{
	struct cmdline *cl = &fe->cl;
	int i, err = 0;

	fe->script = -1;
	for (i = 0; i < cl->n_big_e && !err; i++)
		err = source__from_string(&fe->src[fe->nsrc++], SRC_ARG_BIG_E,
					  "<input>", cl->argv[cl->big_e_index[i]],
					  cl->big_e_index[i]);
	if (!err && cl->e_index >= 0) {
		fe->script = fe->nsrc;
		err = source__from_string(&fe->src[fe->nsrc++], SRC_ARG_E,
					  "<input>", cl->argv[cl->e_index],
					  cl->e_index);
	} else if (!err && cl->script_index >= 0) {
		const char *path = cl->argv[cl->script_index];
		struct source *s = &fe->src[fe->script = fe->nsrc++];

		if (strcmp(path, "-") == 0) {
			err = source__load_fd(s, STDIN_FILENO, "<input>");
			s->origin = SRC_STDIN;
			fe->stdin_consumed = !err;
		} else {
			err = source__load_file(s, path);
		}
		s->argv_index = cl->script_index;
	}
	return err;
}

/* The user's tapsets the script needs, when any of them mentions perfctr
 * (cpu_cycles() in a tapset function): their calls declare counters too. */
static int load_tapsets(struct frontend *fe)
{
	struct tapsets *ts = &fe->tapsets;
	size_t i;
	int err;

	if (!fe->cl.n_include)
		return 0;
	err = tapsets__scan(ts, fe->cl.include_dirs, fe->cl.n_include);
	for (i = 0; i < ts->nfiles && !err; i++)
		if (parser__mentions_perfctr(ts->files[i].src.text))
			return tapsets__resolve(ts, fe->src, fe->nsrc);
	tapsets__free(ts);
	return err;
}

static int tapset_parsed(const struct tapset_file *f)
{
	return f->needed && parser__mentions_perfctr(f->src.text);
}

static int any_mention(const struct frontend *fe)
{
	size_t j;
	int i;

	for (i = 0; i < fe->nsrc; i++)
		if (parser__mentions_perfctr(fe->src[i].text))
			return 1;
	for (j = 0; j < fe->tapsets.nfiles; j++)
		if (tapset_parsed(&fe->tapsets.files[j]))
			return 1;
	return fe->cl.mentions_perfctr;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The script file stap is given: a rewritten copy of ours, or NULL. */
static const struct source *script_copied(const struct frontend *fe)
{
	const struct source *s = fe->script >= 0 ? &fe->src[fe->script] : NULL;

	return s && s->changed && s->origin != SRC_ARG_E ? s : NULL;
}

/* The generated tapset and the rewritten script, under `under` (NULL:
 * $SYSTEMTAP_DIR/perfctr).  Returns NULL, or why not. */
/* The target kernel's features (kconf.h), for a module built here: none
 * for a compile server's build, or where the kernel's build tree is not
 * there (stap says so itself). */
static int kernel_features(const struct frontend *fe, struct strbuf *sb,
			   char *why, size_t why_size)
{
	char kdir[PATH_MAX], reason[1024];
	struct stat st;

	if (fe->cl.use_server || fe->cl.last_pass < 3 ||
	    kconf__kernel_dir(&fe->cl, kdir, sizeof(kdir)) < 0 ||
	    stat(kdir, &st) < 0)
		return 0;
	if (kconf__probe(&fe->cl, kdir, sb, reason, sizeof(reason)) == 0)
		return 0;
	snprintf(why, why_size, "%s", reason);
	return -1;
}

static const char *generate(struct frontend *fe, const char *under,
			    struct outdir *out)
{
	static char why[PATH_MAX + 256];
	struct emit_opts opts = { .privilege = "stapdev" };
	const struct source *script = script_copied(fe);
	struct runtime_text rt;
	struct strbuf kconf = { 0 };
	struct generated gen;
	char rt_hash[17], rt_why[PATH_MAX + 128];
	int err;

	if (fe->cl.privilege)
		opts.privilege = fe->cl.privilege;
	if (outdir__hash_runtime(fe->paths.runtime, rt_hash) < 0) {
		snprintf(why, sizeof(why), "cannot read the perfctr runtime "
			 "in %s", fe->paths.runtime);
		return why;
	}
	if (embed__runtime(fe->paths.runtime, &rt, rt_why,
			   sizeof(rt_why)) < 0) {
		snprintf(why, sizeof(why), "cannot embed the perfctr "
			 "runtime: %s", rt_why);
		return why;
	}
	opts.runtime = &rt;
	opts.runtime_hash = rt_hash;
	/* (under: stap_first's private copy, run to pass 1 or 2 only) */
	if (!under && kernel_features(fe, &kconf, why, sizeof(why)) < 0) {
		embed__free(&rt);
		return why;
	}
	opts.kconf = kconf.buf;
	err = emit__generate(&fe->model, &opts, &gen);
	embed__free(&rt);
	strbuf__free(&kconf);
	if (err < 0)
		return "a counter request is too long for the module table";
	err = outdir__write(&gen, script, script &&
			    script->origin == SRC_FILE ?
			    base_name(script->name) : "stdin.stp", under, out);
	emit__free(&gen);
	if (!err)
		return NULL;
	snprintf(why, sizeof(why), "cannot write generated files: %s",
		 strerror(-err));
	return why;
}

/* real stap, -I GEN -I TAPSET [-R COMPAT], then the user's arguments with
 * rewritten texts in place of the originals; pass (a "-pN" of ours, or
 * NULL) after the user's options, where it wins over theirs. */
static char **stap_argv(struct frontend *fe, const struct outdir *out,
			const char *pass)
{
	int argc = fe->cl.argc, prefix = 0, i, end = fe->cl.end_of_options;
	char **argv = calloc(argc + 9, sizeof(*argv));

	if (!argv)
		die("%s", "out of memory");
	argv[prefix++] = (char *)fe->paths.real_stap;
	argv[prefix++] = "-I";
	argv[prefix++] = (char *)out->dir;
	argv[prefix++] = "-I";
	argv[prefix++] = fe->paths.tapset;
	if (fe->paths.compat_runtime[0] && !fe->cl.has_runtime_dir &&
	    !fe->cl.use_server) {
		argv[prefix++] = "-R";
		argv[prefix++] = fe->paths.compat_runtime;
	}
	for (i = 1; i < argc; i++)
		argv[prefix + i - 1] = fe->cl.argv[i];
	for (i = 0; i < fe->nsrc; i++) {
		const struct source *s = &fe->src[i];

		if (s->changed)
			argv[prefix + s->argv_index - 1] =
				s->origin == SRC_ARG_E ||
				s->origin == SRC_ARG_BIG_E ?
				s->text : (char *)out->script;
	}
	if (pass) {
		i = prefix + (end < 0 ? argc : end) - 1;
		memmove(&argv[i + 1], &argv[i], (argc + prefix - 1 - i) *
			sizeof(*argv));
		argv[i] = (char *)pass;
	}
	/* ours go; they are options, before pass's place */
	for (i = argc - 1; i > 0; i--)
		if (cmdline__is_ours(&fe->cl, i))
			memmove(&argv[prefix + i - 1], &argv[prefix + i],
				(argc + 9 - prefix - i) * sizeof(*argv));
	return argv;
}

/*
 * Our errors are about perfctr; the script may hold others, which stap
 * would have reported first.  stap runs to the pass ours failed (1 or 2)
 * on the copy it would have been given, written to a private directory
 * removed after, and its own errors go to stderr before ours.
 */
static void stap_first(struct frontend *fe, int pass)
{
	const char *tmp = getenv("TMPDIR"), *hide[4];
	const struct source *script = script_copied(fe);
	char dir[PATH_MAX], **argv;
	struct strbuf err = { 0 };
	struct spawn_map map;
	struct outdir out;

	snprintf(dir, sizeof(dir), "%s/stap-perfctr.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return;
	if (!generate(fe, dir, &out)) {
		argv = stap_argv(fe, &out, pass == 1 ? "-p1" : "-p2");
		if (fe->stdin_consumed)
			restore_stdin(&fe->src[fe->script]);
		if (spawn__capture(fe->paths.real_stap, argv, STDERR_FILENO, 1,
				   &err) > 0) {
			hide[0] = out.dir;
			hide[1] = fe->paths.tapset;
			hide[2] = fe->paths.runtime;
			hide[3] = NULL;
			map.from = out.script;
			map.to = script ? script->name : NULL;
			map.src = script;
			stapsays__relay(err.buf, err.len, script ? &map : NULL,
					hide, &fe->diag);
		}
		free(argv);
		strbuf__free(&err);
		outdir__remove(&out);
	}
	rmdir(dir);
}

/* Parses and checks; our messages wait until stap has said its own. */
static int analyse(struct frontend *fe)
{
	char *ours = NULL;
	size_t len = 0, j;
	int i, errors = 0, pass = 1;

	model__init(&fe->model, fe->cl.args, fe->cl.nargs);
	fe->model.has_target = fe->cl.has_target;
	fe->model.stapusr = fe->cl.privilege &&
			    !strcmp(fe->cl.privilege, "stapusr");
	fe->diag.out = open_memstream(&ours, &len);
	if (!fe->diag.out)
		die("%s", "out of memory");
	for (i = 0; i < fe->nsrc; i++)
		errors += parser__run(&fe->src[i], &fe->model, &fe->diag);
	for (j = 0; j < fe->tapsets.nfiles; j++)
		if (tapset_parsed(&fe->tapsets.files[j]))
			errors += parser__run(&fe->tapsets.files[j].src,
					      &fe->model, &fe->diag);
	if (!errors && model__active(&fe->model)) {
		pass = 2;
		errors = check__run(&fe->model, &fe->diag);
		if (!errors)
			errors = events__check(&fe->model, &fe->cl,
					       fe->paths.helper, &fe->diag);
	}
	if (!errors && fe->cl.verbose)
		check__describe(&fe->model, &fe->diag);
	fclose(fe->diag.out);
	fe->diag.out = stderr;
	if (errors)
		stap_first(fe, pass);
	fwrite(ours, 1, len, stderr);
	free(ours);
	if (errors) {
		diag__summary(&fe->diag);
		fprintf(stderr, "Pass %d: %s failed.  [man stap-perfctr]\n",
			pass, pass == 1 ? "parse" : "analysis");
		return -1;
	}
	rewrite__reads(&fe->model);
	return 0;
}

/* The real stap with the static tapset (-I TAPSET) before the user's
 * arguments, less our own options, nothing else changed: stap
 * --dump-functions lists its functions among the rest, and a script that
 * calls only its pure functions (perfctr_ratio() ...) needs no generated
 * tapset (and has no counters: an empty report). */
static void __attribute__((noreturn)) with_tapset(struct frontend *fe)
{
	int argc = fe->cl.argc, i, n;
	char **argv = calloc(argc + 3, sizeof(*argv));

	if (!argv)
		die("%s", "out of memory");
	if (fe->stdin_consumed)
		restore_stdin(&fe->src[fe->script]);
	if (fe->cl.n_ours) {
		counter_env(fe, 0);
		set_staprun(&fe->paths);
	}
	argv[0] = (char *)fe->paths.real_stap;
	argv[1] = "-I";
	argv[2] = fe->paths.tapset;
	for (i = 1, n = 3; i < argc; i++)
		if (!cmdline__is_ours(&fe->cl, i))
			argv[n++] = fe->cl.argv[i];
	spawn__exec(fe->paths.real_stap, argv);
	die("cannot run the real stap: %s", fe->paths.real_stap);
	exit(1);
}

/* Pass 5 runs perfctr-run in place of staprun; it runs the user's own
 * SYSTEMTAP_STAPRUN, if any, in turn. */
static void set_staprun(const struct paths *p)
{
	const char *user = getenv("SYSTEMTAP_STAPRUN");

	if (user && *user && strcmp(user, p->helper) != 0)
		setenv("STAP_PERFCTR_STAPRUN", user, 1);
	setenv("SYSTEMTAP_STAPRUN", p->helper, 1);
}

/*
 * --counter-report=FILE and --counter-status reach perfctr-run through
 * the environment (stap runs it): the report's place, "/dev/null" when
 * only the status is asked for; and for the status, a file of ours that
 * perfctr-run marks when the counts are not whole (stap's own status
 * says only whether staprun failed), when we wait for stap (waits) and
 * can read it after.  fe->incomplete names it, or is "".
 */
static void counter_env(struct frontend *fe, int waits)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (!fe->cl.counter_report && !fe->cl.counter_status)
		return;
	if (fe->cl.suppress_warnings)
		die("%s", "--counter-report and --counter-status read the "
		    "module's warnings, which carry the report: not with -w");
	if (fe->cl.remote)
		die("%s", "--counter-report and --counter-status are for a "
		    "module run here: a --remote host's perfctr-run does not "
		    "get them");
	setenv(PERFCTR_ENV_REPORT, fe->cl.counter_report ?
	       fe->cl.counter_report : "/dev/null", 1);
	unsetenv(PERFCTR_ENV_STATUS);	/* perfctr-run's own is not ours */
	unsetenv(PERFCTR_ENV_INCOMPLETE);
	if (!fe->cl.counter_status || fe->cl.last_pass < 5 || !waits)
		return;
	snprintf(fe->incomplete, sizeof(fe->incomplete),
		 "%s/stap-perfctr-status.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(fe->incomplete);
	if (fd < 0)
		die("cannot make a file for --counter-status: %s",
		    strerror(errno));
	close(fd);
	setenv(PERFCTR_ENV_INCOMPLETE, fe->incomplete, 1);
}

/* stap's status, or PERFCTR_EXIT_INCOMPLETE for a run that succeeded
 * with counts that are not whole (--counter-status). */
static int counter_status(struct frontend *fe, int rc)
{
	struct stat st;

	if (!fe->incomplete[0])
		return rc;
	if (rc == 0 && !stat(fe->incomplete, &st) && st.st_size > 0)
		rc = PERFCTR_EXIT_INCOMPLETE;
	unlink(fe->incomplete);
	return rc;
}

/*
 * A compile server gets the script, the -I directories and most options,
 * never -R (stap keeps it for a local build): the server builds with the
 * runtime it was started with.  The generated tapset embeds our runtime,
 * so that is all it needs from us; a stap runtime of ours (the compat
 * copy) must be the server's own -R.
 */
static void check_server_use(const struct frontend *fe)
{
	if (fe->cl.has_runtime_dir)
		die("%s", "-R cannot be used with a compile server: stap does "
		    "not send the runtime to it, and the server builds with "
		    "its own (start it with stap-serverd -R DIR to give it "
		    "another); see stap-perfctr(1), COMPILE SERVERS");
	if (fe->paths.compat_runtime[0] && fe->cl.verbose)
		fprintf(stderr, "stap-perfctr: not passing -R %s to a compile "
			"server: a server building for this kernel needs it "
			"as its own (stap-serverd -R %s)\n",
			fe->paths.compat_runtime, fe->paths.compat_runtime);
}

/* Everything loaded, given back before main returns (a refusal, or stap
 * run and waited for): clean under valgrind (testsuite/bad-input). */
static void release(struct frontend *fe)
{
	int i;

	for (i = 0; i < fe->nsrc; i++)
		source__free(&fe->src[i]);
	tapsets__free(&fe->tapsets);
	model__free(&fe->model);
	cmdline__free(&fe->cl);
}

int main(int argc, char **argv)
{
	struct frontend fe;
	struct outdir out;
	char **nargv;
	const struct source *script;
	const char *why;
	int rc;

	memset(&fe, 0, sizeof(fe));
	find_paths(&fe.paths);
	refuse_recursion(fe.paths.real_stap);
	if (cmdline__parse(&fe.cl, argc, argv) < 0)
		pass_through(&fe);
	if ((fe.cl.help || fe.cl.version) && !fe.cl.parse_failed)
		introduce(&fe);
	rc = listing__run(&fe.cl, fe.paths.helper);	/* --dump-counters, -l */
	if (rc >= 0) {
		cmdline__free(&fe.cl);
		return rc;
	}
	if (fe.cl.dump_functions && !fe.cl.parse_failed)
		with_tapset(&fe);
	if (fe.cl.parse_failed || fe.cl.dump_mode)
		pass_through(&fe);
	if (load_sources(&fe) < 0 || load_tapsets(&fe) < 0 ||
	    !any_mention(&fe))
		pass_through(&fe);
	diag__init(&fe.diag, stderr);
	fe.diag.quiet_warnings = fe.cl.suppress_warnings;
	if (analyse(&fe) < 0) {
		release(&fe);
		return 1;
	}
	if (!model__active(&fe.model) && model__uses_tapset(&fe.model))
		with_tapset(&fe);
	if (!model__active(&fe.model))
		pass_through(&fe);
	if (fe.cl.runtime && strcmp(fe.cl.runtime, "kernel") != 0)
		die("perfctr counters need the kernel runtime; --runtime=%s "
		    "cannot read them", fe.cl.runtime);
	if (fe.cl.use_server)
		check_server_use(&fe);
	why = generate(&fe, NULL, &out);
	if (why)
		die("%s", why);
	nargv = stap_argv(&fe, &out, NULL);
	set_staprun(&fe.paths);
	counter_env(&fe, 1);
	script = script_copied(&fe);
	if (script) {
		/* passes 1-4 print the script (-p1), its probes (-p2), C
		 * (-p3), a module path (-p4) on stdout: map it too; a run's
		 * stdout is the script's own output, not ours to touch */
		struct spawn_map map = { out.script, script->name, script };

		rc = spawn__run_mapped(fe.paths.real_stap, nargv, &map,
				       fe.cl.last_pass < 5);
	} else {
		rc = spawn__run(fe.paths.real_stap, nargv);
	}
	if (rc)
		newkernel__explain(fe.paths.real_stap, &fe.cl);
	rc = counter_status(&fe, rc);
	free(nargv);
	release(&fe);
	return rc;
}
