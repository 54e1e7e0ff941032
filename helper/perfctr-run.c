/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr-run - stands in for staprun (stap runs it in pass 5 through
 * SYSTEMTAP_STAPRUN, or a user runs it on a module built with -p4).
 * For a module with a perfctr request table it resolves each event for
 * this machine, checks that the set can be counted on every online CPU,
 * and runs the real staprun with the same arguments plus one more,
 * perfctr_assign=...; any other run goes to the real staprun untouched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "libperfctr.h"

#ifndef REAL_STAPRUN
#define REAL_STAPRUN "/usr/bin/staprun"
#endif

#define PROG "perfctr-run"
/* staprun's own option string (staprun/common.c, stap 4.8). */
#define STAPRUN_OPTS "ALu::vihb:t:dc:o:x:N:S:DwRr:VT:C:M:F:"
/* staprun keeps at most this many module options and drops the rest. */
#define STAPRUN_MODOPTS_MAX 63
#define ASSIGN_KEY "perfctr_assign="

struct cmdline {
	int mod;		/* argv index of the module, or -1 */
	int nopts;		/* module options after it */
	int loads;		/* staprun would load the module */
	int verbose;
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

/* Runs staprun with argv[1..] and, if given, one more argument. */
static int exec_staprun(const char *staprun, int argc, char **argv,
			const char *extra)
{
	char **args = calloc(argc + 2, sizeof(*args));

	if (!args) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	args[0] = (char *)staprun;
	memcpy(args + 1, argv + 1, (argc - 1) * sizeof(*args));
	args[argc] = (char *)extra;
	execv(staprun, args);
	fprintf(stderr, PROG ": cannot run %s: %s\n", staprun, strerror(errno));
	free(args);
	return 1;
}

#define WHY_MAX 2048

/* Per request: its encoding, and whether it is still good. */
struct plan {
	const struct perfctr_modtab *tab;
	struct perfctr_encoding *enc;
	int *ok;			/* resolved, and fits so far */
	char (*why)[WHY_MAX];		/* else what is wrong with it */
	int bad;
	/* One CPU's trial: the good requests' events and results. */
	struct perfctr_trial *set;
	unsigned int *set_idx;		/* which request each one is */
	int *res;
};

static int plan_alloc(struct plan *p, const struct perfctr_modtab *tab)
{
	size_t n = tab->n + 1;

	memset(p, 0, sizeof(*p));
	p->tab = tab;
	p->enc = calloc(n, sizeof(*p->enc));
	p->ok = calloc(n, sizeof(*p->ok));
	p->why = calloc(n, sizeof(*p->why));
	p->set = calloc(n, sizeof(*p->set));
	p->set_idx = calloc(n, sizeof(*p->set_idx));
	p->res = calloc(n, sizeof(*p->res));
	return p->enc && p->ok && p->why && p->set && p->set_idx && p->res ?
	       0 : -ENOMEM;
}

static void plan_free(struct plan *p)
{
	free(p->enc);
	free(p->ok);
	free(p->why);
	free(p->set);
	free(p->set_idx);
	free(p->res);
}

static void fail(struct plan *p, unsigned int i, const char *what)
{
	snprintf(p->why[i], WHY_MAX, "%s", what);
	p->ok[i] = 0;
	p->bad++;
}

/* What the script wrote: a counter's id, a sampling probe, or the call
 * that declared the counter (ids the translator made start with "__"). */
static void who(const struct perfctr_request *req, char *buf, size_t len)
{
	if (req->sample || req->hz)
		snprintf(buf, len, "sampling probe on \"%s\"", req->event);
	else if (!strncmp(req->id, "__event", 7))
		snprintf(buf, len, "perfctr_read%s_event(\"%s\")",
			 req->scope == PERFCTR_SCOPE_THREAD ? "_thread" : "",
			 req->event);
	else if (!strncmp(req->id, "__", 2))
		snprintf(buf, len, "%s()", req->id + 2);
	else
		snprintf(buf, len, "counter \"%s\"", req->id);
}

/* One line per problem, in table order, naming where the script
 * declared the counter. */
static void report(const struct plan *p)
{
	const struct perfctr_request *req;
	char what[PERFCTR_ID_MAX + PERFCTR_NAME_MAX + 32];
	unsigned int i;

	for (i = 0; i < p->tab->n; i++) {
		req = &p->tab->reqs[i];
		if (!p->why[i][0])
			continue;
		who(req, what, sizeof(what));
		if (req->src[0])
			fprintf(stderr, PROG ": %s: %s: %s\n", req->src, what,
				p->why[i]);
		else
			fprintf(stderr, PROG ": %s: %s\n", what, p->why[i]);
	}
}

static void resolve_all(struct plan *p, struct perfctr_resolver *r,
			const char *sysfs_root)
{
	const char *proc = getenv("PERFCTR_PROC_ROOT");
	const struct perfctr_request *req;
	char err[1024];
	unsigned int i;

	for (i = 0; i < p->tab->n; i++) {
		req = &p->tab->reqs[i];
		p->ok[i] = 1;
		if (perfctr_resolver__resolve_request(r, req, &p->enc[i], err,
						      sizeof(err)))
			fail(p, i, err);
		else if ((req->sample || req->hz) &&
			 perfctr_sample__check(req, &p->enc[i], sysfs_root,
					       proc && *proc ? proc : "/proc",
					       err, sizeof(err)))
			fail(p, i, err);
		else if (req->mux)
			p->enc[i].flags |= PERFCTR_F_MULTIPLEX;
	}
}

/*
 * A stapsys or stapusr module counts only what perf_event_open would let
 * its user count (the module checks it too): refuse here first, naming
 * the rule and perf_event_paranoid.
 */
static void priv_all(struct plan *p)
{
	const char *proc = getenv("PERFCTR_PROC_ROOT");
	unsigned int uid = getuid(), i;
	char err[1024];
	int paranoid;

	if (!perfctr_priv__applies(p->tab, uid))
		return;
	paranoid = perfctr_paranoid__read(proc);
	for (i = 0; i < p->tab->n; i++)
		if (p->ok[i] &&
		    perfctr_priv__check(p->tab, &p->tab->reqs[i], &p->enc[i],
					paranoid, uid, err, sizeof(err)))
			fail(p, i, err);
}

/* "; script X.stp holds "a", "b"" for every other loaded perfctr
 * module with pinned counters: read from the kernel (sysfs), never stale. */
static size_t name_holders(const char *sysfs_root, char *buf, size_t len)
{
	struct perfctr_holder *h = NULL;
	int nh = perfctr_holders__read(sysfs_root, &h), i;
	unsigned int j;
	size_t n = 0;

	for (i = 0; i < nh && n < len; i++) {
		const char *sep = "";

		n += snprintf(buf + n, len - n, "; %s (%s) holds", h[i].module,
			      h[i].n ? h[i].reqs[0].src : "?");
		for (j = 0; j < h[i].n && n < len; j++, sep = ",")
			if (!h[i].encs ||
			    !(h[i].encs[j].flags & PERFCTR_F_MULTIPLEX))
				n += snprintf(buf + n, len - n, "%s \"%s\"", sep,
					      h[i].reqs[j].event);
	}
	if (nh > 0)
		perfctr_holders__free(h, nh);
	return n;
}

/* Why an event does not fit: what else wants the counters. */
static void explain_no_room(const struct plan *p, unsigned int k,
			    const char *sysfs_root, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	n += snprintf(buf, len, "it does not fit: the PMU has no free counter "
		      "for it next to this script's other pinned events (");
	for (i = 0; i < k && n < len; i++)
		if (perfctr_trial__pinned(&p->set[i]))
			n += snprintf(buf + n, len - n, "%s\"%s\"", i ? ", " : "",
				      p->tab->reqs[p->set_idx[i]].event);
	if (n < len)
		n += snprintf(buf + n, len - n, ")");
	if (n < len)
		n += name_holders(sysfs_root, buf + n, len - n);
	if (n < len && perfctr_watchdog__holds_counter())
		n += snprintf(buf + n, len - n, "; kernel.nmi_watchdog is 1: "
			      "the NMI watchdog may hold one counter per CPU");
	if (n < len)
		snprintf(buf + n, len - n, "; add .multiplex to the probe point "
			 "to time-share counters, with scaled counts");
}

/* Opens the resolved requests together on one CPU, as the module will
 * hold them while a followed task runs there; reports (once per request)
 * those that cannot be counted there.  A request whose PMU refused
 * exclude_guest is assigned without it. */
static void trial_cpu(struct plan *p, int cpu, const char *sysfs_root)
{
	unsigned int i, k = 0;
	char why[WHY_MAX - 128], msg[WHY_MAX];
	int ret;

	for (i = 0; i < p->tab->n; i++)
		if (p->ok[i]) {
			perfctr_trial__init(&p->set[k], &p->tab->reqs[i],
					    &p->enc[i]);
			p->set_idx[k++] = i;
		}
	ret = perfctr_trials__open(p->set, k, cpu, p->res);
	for (i = 0; i < k; i++)
		p->enc[p->set_idx[i]].flags = p->set[i].enc.flags;
	if (!ret)
		return;
	for (i = 0; i < k; i++) {
		if (!p->res[i])
			continue;
		if (p->res[i] == -ENOSPC)
			explain_no_room(p, k, sysfs_root, why, sizeof(why));
		else
			perfctr_trial__explain(p->res[i], why, sizeof(why));
		/* a long explanation may be cut: the start says what */
		if (snprintf(msg, sizeof(msg),
			     "event \"%s\" cannot be counted on CPU %d: %s",
			     p->tab->reqs[p->set_idx[i]].event, cpu, why) >=
		    (int)sizeof(msg))
			msg[sizeof(msg) - 2] = '.';
		fail(p, p->set_idx[i], msg);
	}
}

static int trial_all(struct plan *p, const char *sysfs_root)
{
	int *cpus, n, i;

	n = perfctr_cpus__online(sysfs_root, &cpus);
	if (n < 0) {
		fprintf(stderr, PROG ": cannot read the online CPUs under %s: %s\n",
			sysfs_root, strerror(-n));
		return -1;
	}
	for (i = 0; i < n; i++)
		trial_cpu(p, cpus[i], sysfs_root);
	free(cpus);
	return 0;
}

static void show(const struct perfctr_request *req,
		 const struct perfctr_encoding *e)
{
	fprintf(stderr, PROG ": counter \"%s\": event \"%s\" is type %u "
		"config %#llx config1 %#llx config2 %#llx flags %#x\n",
		req->id, req->event, e->type, (unsigned long long)e->config,
		(unsigned long long)e->config1, (unsigned long long)e->config2,
		e->flags);
}

static char *assign_format(const struct plan *p, int verbose)
{
	const struct perfctr_modtab *tab = p->tab;
	size_t len = sizeof(ASSIGN_KEY) + 16 + tab->n * PERFCTR_ASSIGN_REC_MAX;
	char *buf = malloc(len);
	unsigned int i;

	if (!buf)
		return NULL;
	snprintf(buf, len, ASSIGN_KEY "%s", tab->hash);
	for (i = 0; i < tab->n; i++) {
		if (perfctr_assign__append(buf, len, tab->reqs[i].idx, &p->enc[i])) {
			fprintf(stderr, PROG ": perfctr_assign overflows\n");
			free(buf);
			return NULL;
		}
		if (verbose)
			show(&tab->reqs[i], &p->enc[i]);
	}
	return buf;
}

/* The perfctr_assign argument for this machine, or NULL (reported). */
static char *assign_build(const struct perfctr_modtab *tab, int verbose)
{
	const char *root = getenv("PERFCTR_SYSFS_ROOT");
	struct perfctr_resolver_opts opts = { .sz = sizeof(opts) };
	struct perfctr_resolver *r = NULL;
	char *assign = NULL;
	struct plan p;

	opts.sysfs_root = root && *root ? root : "/sys";
	if (plan_alloc(&p, tab) || perfctr_resolver__new(&opts, &r)) {
		fprintf(stderr, PROG ": out of memory\n");
		goto out;
	}
	resolve_all(&p, r, opts.sysfs_root);
	priv_all(&p);
	if (trial_all(&p, opts.sysfs_root) == 0 && !p.bad)
		assign = assign_format(&p, verbose);
	report(&p);
out:
	perfctr_resolver__free(r);
	plan_free(&p);
	return assign;
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
		       "STAP_PERFCTR_STAPRUN names another staprun.  See "
		       "perfctr-run(8).\nstaprun's own options:\n",
		       PERFCTR_VERSION, staprun);
		args[1] = "-h";
	}
	fflush(NULL);
	return exec_staprun(staprun, 2, args, NULL);
}

int main(int argc, char **argv)
{
	const char *staprun = staprun_path();
	struct perfctr_modtab tab;
	char path[4096], err[1024], *assign;
	struct cmdline c;
	int ret;

	if (argc == 2 && !strncmp(argv[1], "--dump-counters", 15) &&
	    (argv[1][15] == '\0' || argv[1][15] == '='))
		return dump_counters(argv[1] + 15);
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
		return exec_staprun(staprun, argc, argv, NULL);
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
	if (ret || !tab.version)	/* not ours: staprun's business */
		return exec_staprun(staprun, argc, argv, NULL);
	if (c.nopts + 1 > STAPRUN_MODOPTS_MAX) {
		fprintf(stderr, PROG ": %d module options: staprun passes at "
			"most %d, and perfctr-run needs one of them for "
			"perfctr_assign\n", c.nopts, STAPRUN_MODOPTS_MAX);
		perfctr_modtab__free(&tab);
		return 1;
	}
	assign = assign_build(&tab, c.verbose);
	perfctr_modtab__free(&tab);
	if (!assign)
		return 1;
	ret = exec_staprun(staprun, argc, argv, assign);
	free(assign);
	return ret;
}
