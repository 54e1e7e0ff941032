/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr-run - stands in for staprun (stap runs it in pass 5 through
 * SYSTEMTAP_STAPRUN, or a user runs it on a module built with -p4).
 * For a module with a perfctr request table it resolves each event for
 * this machine, checks that the set can be counted on every online CPU,
 * and runs the real staprun with the same arguments plus one more,
 * perfctr_assign=...; any other run goes to the real staprun untouched.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "libperfctr.h"
#include "perfctr_payload.h"
#include "perfctr_topdown.h"

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
	int *set_pos;			/* where each request is in it, or -1 */
	int *res;
	/* Groups: each request's leader (itself when it is not in a
	 * group); the online CPUs; the events left open on each (fd, or
	 * -1: [cpu position][request]); each leader's first fd once they
	 * sit in one block. */
	unsigned int *leader;
	int *cpus, ncpus, groups;
	int *gfd;
	unsigned int *fd0;
	/* .socket requests: the CPUs of their PMU's cpumask, one a socket */
	int **sock, *nsock;
	struct perfctr_unit *unit;	/* each request's sysfs unit, scale */
	/* on a hybrid machine, each core PMU's encoding, for its CPUs */
	struct perfctr_core_enc (*cenc)[PERFCTR_CORE_PMUS_MAX];
	int *ncenc;
	/* .cpus("LIST") requests: the CPUs of the list, ascending */
	int **rcpus, *nrcpus;
};

static int plan_alloc(struct plan *p, const struct perfctr_modtab *tab)
{
	size_t n = tab->n + 1;
	unsigned int i, j;

	memset(p, 0, sizeof(*p));
	p->tab = tab;
	p->enc = calloc(n, sizeof(*p->enc));
	p->ok = calloc(n, sizeof(*p->ok));
	p->why = calloc(n, sizeof(*p->why));
	p->set = calloc(n, sizeof(*p->set));
	p->set_idx = calloc(n, sizeof(*p->set_idx));
	p->set_pos = calloc(n, sizeof(*p->set_pos));
	p->res = calloc(n, sizeof(*p->res));
	p->leader = calloc(n, sizeof(*p->leader));
	p->fd0 = calloc(n, sizeof(*p->fd0));
	p->sock = calloc(n, sizeof(*p->sock));
	p->nsock = calloc(n, sizeof(*p->nsock));
	p->unit = calloc(n, sizeof(*p->unit));
	p->cenc = calloc(n, sizeof(*p->cenc));
	p->ncenc = calloc(n, sizeof(*p->ncenc));
	p->rcpus = calloc(n, sizeof(*p->rcpus));
	p->nrcpus = calloc(n, sizeof(*p->nrcpus));
	if (!p->rcpus || !p->nrcpus || !p->cenc || !p->ncenc || !p->unit || !p->enc || !p->ok || !p->why || !p->set || !p->set_idx ||
	    !p->set_pos || !p->res || !p->leader || !p->fd0 || !p->sock ||
	    !p->nsock)
		return -ENOMEM;
	for (i = 0; i < tab->n; i++) {
		for (j = 0; j < i && (!tab->reqs[i].group[0] ||
				      strcmp(tab->reqs[j].group,
					     tab->reqs[i].group)); j++)
			;
		p->leader[i] = j;
		p->groups += j == i && tab->reqs[i].group[0];
	}
	return 0;
}

static void plan_free(struct plan *p)
{
	int i;

	for (i = 0; p->gfd && i < p->ncpus * (int)p->tab->n; i++)
		if (p->gfd[i] >= 0)
			close(p->gfd[i]);
	free(p->enc);
	free(p->ok);
	free(p->why);
	free(p->set);
	free(p->set_idx);
	free(p->set_pos);
	free(p->res);
	free(p->leader);
	free(p->cpus);
	free(p->gfd);
	free(p->fd0);
	for (i = 0; p->sock && i < (int)p->tab->n; i++)
		free(p->sock[i]);
	free(p->sock);
	free(p->nsock);
	free(p->unit);
	free(p->cenc);
	free(p->ncenc);
	for (i = 0; p->rcpus && i < (int)p->tab->n; i++)
		free(p->rcpus[i]);
	free(p->rcpus);
	free(p->nrcpus);
}

static int grouped(const struct plan *p, unsigned int i)
{
	return p->tab->reqs[i].group[0] != '\0';
}

static void fail(struct plan *p, unsigned int i, const char *what)
{
	snprintf(p->why[i], WHY_MAX, "%s", what);
	p->ok[i] = 0;
	p->bad++;
}

/* A group is counted whole or not at all: its other counters are out
 * too, said once (at i). */
static void fail_group(struct plan *p, unsigned int i, const char *what)
{
	unsigned int j;

	fail(p, i, what);
	for (j = 0; grouped(p, i) && j < p->tab->n; j++)
		if (j != i && p->leader[j] == p->leader[i] && p->ok[j])
			fail(p, j, "");
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
	char err[1024], why[512];
	unsigned int i;

	for (i = 0; i < p->tab->n; i++) {
		req = &p->tab->reqs[i];
		p->ok[i] = 1;
		if (perfctr_resolver__resolve_request(r, req, &p->enc[i], err,
						      sizeof(err)))
			fail(p, i, err);
		else if (perfctr_unit__read(sysfs_root, req->event,
					    &p->unit[i], why, sizeof(why))) {
			snprintf(err, sizeof(err), "event \"%s\": %s",
				 req->event, why);
			fail(p, i, err);
		}
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
 * The module creates a counter on every CPU (or per task, or per
 * socket): refused here, before any trial open, are the counters that
 * cannot be had that way on this machine's PMUs (topology.c): per-socket
 * PMUs but in .socket, anything else in .socket, and on a hybrid machine
 * one core type's events (unless .cpus("LIST") keeps them to its
 * CPUs), and hardware events per task.  A .socket counter's CPUs are
 * its PMU's cpumask; on a hybrid machine a generic hardware event per
 * CPU gets each core PMU's encoding for its CPUs; a .cpus("LIST")
 * counter is opened (and its CPU records name) only the list's CPUs.
 */
static void topology_all(struct plan *p, const char *sysfs_root)
{
	struct perfctr_topology *t;
	char err[1024];
	unsigned int i;

	if (perfctr_topology__read(sysfs_root, &t)) {
		for (i = 0; i < p->tab->n; i++)
			if (p->ok[i])
				fail(p, i, "out of memory reading the PMUs");
		return;
	}
	for (i = 0; i < p->tab->n; i++) {
		if (!p->ok[i])
			continue;
		if (perfctr_topology__check(t, &p->tab->reqs[i], &p->enc[i],
					    err, sizeof(err)))
			fail_group(p, i, err);
		else if (p->tab->reqs[i].scope == PERFCTR_SCOPE_SOCKET &&
			 (p->nsock[i] = perfctr_topology__socket_cpus(
				  t, &p->enc[i], &p->sock[i])) <= 0)
			fail(p, i, "cannot read its PMU's cpumask");
		else if ((p->ncenc[i] = perfctr_topology__core_encodings(
				  t, &p->tab->reqs[i], &p->enc[i], p->cenc[i],
				  err, sizeof(err))) < 0) {
			p->ncenc[i] = 0;
			fail(p, i, err);
		} else if ((p->nrcpus[i] = perfctr_topology__restrict(
				  t, &p->tab->reqs[i], &p->rcpus[i], err,
				  sizeof(err))) < 0) {
			p->nrcpus[i] = 0;
			fail(p, i, err);
		}
	}
	perfctr_topology__free(t);
}

/*
 * Intel's topdown metrics count only in a group led by slots (the kernel
 * refuses them elsewhere, with EINVAL): said here, with what to write.
 * In a group, slots and the metrics are marked for the module's
 * perfctr_topdown().
 */
static void topdown_all(struct plan *p, const char *sysfs_root)
{
	const struct perfctr_request *req;
	char msg[WHY_MAX];
	unsigned int i, l;
	int k, lk;

	for (i = 0; i < p->tab->n; i++) {
		req = &p->tab->reqs[i];
		l = p->leader[i];
		k = p->ok[i] ? perfctr_topdown__kind(sysfs_root, &p->enc[i]) :
		    PERFCTR_TD_NONE;
		lk = grouped(p, i) && p->ok[l] ?
		     perfctr_topdown__kind(sysfs_root, &p->enc[l]) :
		     PERFCTR_TD_NONE;
		if (k == PERFCTR_TD_NONE)
			continue;
		if (lk == PERFCTR_TD_SLOTS_KIND) {
			p->enc[i].flags |= PERFCTR_F_TOPDOWN;
			continue;
		}
		if (k == PERFCTR_TD_SLOTS_KIND)
			continue;
		snprintf(msg, sizeof(msg), "\"%s\" is one of Intel's topdown "
			 "metrics, which the kernel counts only in a group led "
			 "by \"slots\" (TOPDOWN.SLOTS): give it and a \"slots\" "
			 "counter declared before it the same .group(\"NAME\")",
			 req->event);
		fail_group(p, i, msg);
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

/* Appends to buf[0..len) at n, as far as it goes; returns the new n. */
static size_t __attribute__((format(printf, 4, 5)))
addf(char *buf, size_t len, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n >= len)
		return n;
	va_start(ap, fmt);
	k = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return k < 0 ? len : n + k;
}

/* ` "a", group "g" ("b", "c")`: the pinned events a holder holds, a
 * group's together. */
static size_t holder_events(const struct perfctr_holder *h, char *buf,
			    size_t len, size_t n)
{
	const struct perfctr_request *r = h->reqs;
	const char *sep = "", *in;
	unsigned int j, k;

	for (j = 0; j < h->n; j++) {
		if (h->encs && (h->encs[j].flags & PERFCTR_F_MULTIPLEX))
			continue;
		if (!r[j].group[0]) {
			n = addf(buf, len, n, "%s \"%s\"", sep, r[j].event);
			sep = ",";
			continue;
		}
		for (k = 0; k < j && strcmp(r[k].group, r[j].group); k++)
			;
		if (k < j)
			continue;	/* named with its group's first */
		n = addf(buf, len, n, "%s group \"%s\" (", sep, r[j].group);
		for (k = j, in = ""; k < h->n; k++)
			if (!strcmp(r[k].group, r[j].group)) {
				n = addf(buf, len, n, "%s\"%s\"", in,
					 r[k].event);
				in = ", ";
			}
		n = addf(buf, len, n, ")");
		sep = ",";
	}
	return n;
}

/* "; script X.stp holds "a", "b"" for every other loaded perfctr
 * module with pinned counters: read from the kernel (sysfs), never stale. */
static size_t name_holders(const char *sysfs_root, char *buf, size_t len)
{
	struct perfctr_holder *h = NULL;
	int nh = perfctr_holders__read(sysfs_root, &h), i;
	size_t n = 0;

	for (i = 0; i < nh; i++) {
		n = addf(buf, len, n, "; %s (%s) holds", h[i].module,
			 h[i].n ? h[i].reqs[0].src : "?");
		n = holder_events(&h[i], buf, len, n);
	}
	if (nh > 0)
		perfctr_holders__free(h, nh);
	return n < len ? n : len - 1;
}

/* Why an event, or a group (name: `its events ("a", "b")`), does not
 * fit: what else wants the counters. */
static void explain_no_room(const struct plan *p, unsigned int k,
			    const char *what, const char *sysfs_root,
			    char *buf, size_t len)
{
	const char *sep = "";
	size_t n = 0;
	unsigned int i;

	n = addf(buf, len, n, "%s does not fit: the PMU has no free counter "
		 "for %s next to this script's other pinned events (", what,
		 strcmp(what, "it") ? "them" : "it");
	for (i = 0; i < k; i++)
		if (perfctr_trial__pinned(&p->set[i]) ||
		    (p->set[i].group && perfctr_trial__pinned(
				&p->set[p->set[i].group - 1]))) {
			n = addf(buf, len, n, "%s\"%s\"", sep,
				 p->tab->reqs[p->set_idx[i]].event);
			sep = ", ";
		}
	n = addf(buf, len, n, ")");
	if (n < len)
		n += name_holders(sysfs_root, buf + n, len - n);
	if (perfctr_watchdog__holds_counter())
		n = addf(buf, len, n, "; kernel.nmi_watchdog is 1: the NMI "
			 "watchdog may hold one counter per CPU");
	addf(buf, len, n, "; add .multiplex to the probe point%s to "
	     "time-share counters, with scaled counts", strcmp(what, "it") ?
	     "s of the group" : "");
}

/* `"a", "b", "c"`: the events of the group request r leads, and how
 * many of them count on the PMU (software events need no counter). */
static size_t group_events(const struct plan *p, unsigned int r, char *buf,
			   size_t len, unsigned int *hw)
{
	const char *sep = "";
	unsigned int i;
	size_t n = 0;

	*hw = 0;
	buf[0] = '\0';
	for (i = 0; i < p->tab->n; i++)
		if (p->leader[i] == r && grouped(p, i)) {
			n = addf(buf, len, n, "%s\"%s\"", sep,
				 p->tab->reqs[i].event);
			sep = ", ";
			*hw += p->enc[i].type != 1;	/* PERF_TYPE_SOFTWARE */
		}
	return n;
}

/*
 * Set entry k, a group's, did not open or fit on cpu: why, in msg, said
 * at the request it returns (the leader for what is the group's).  Perf's
 * rules decide: a sibling that opens alone and next to its leader but not
 * after the others makes the group too large for the PMU.
 */
static unsigned int explain_group(const struct plan *p, unsigned int k,
				  int cpu, const char *sysfs_root, char *msg,
				  size_t len)
{
	unsigned int r = p->set_idx[k], l = p->leader[r], hw, m = 0, i;
	const struct perfctr_request *req = &p->tab->reqs[r];
	struct perfctr_trial t[PERFCTR_GROUP_MAX];
	char events[WHY_MAX / 4], why[WHY_MAX / 2], what[WHY_MAX / 4];
	int err, res = p->res[k];

	group_events(p, l, events, sizeof(events), &hw);
	if (res == -ENOSPC) {
		snprintf(what, sizeof(what), "its events (%s)", events);
		explain_no_room(p, k, what, sysfs_root, why, sizeof(why));
		snprintf(msg, len, "group \"%s\" cannot be counted on CPU %d: "
			 "%s", req->group, cpu, why);
		return l;
	}
	if (r != l) {
		for (i = 0; i < p->tab->n && m < PERFCTR_GROUP_MAX; i++)
			if (p->leader[i] == l && p->set_pos[i] >= 0 &&
			    (unsigned int)p->set_pos[i] <= k)
				t[m++] = p->set[p->set_pos[i]];
		for (i = 0; i < m; i++)
			t[i].group = 1;
		switch (perfctr_trials__group_why(t, m - 1, cpu, &err)) {
		case PERFCTR_GROUP_PAIR:
			perfctr_trial__explain(err, why, sizeof(why));
			snprintf(msg, len, "event \"%s\" cannot be in group "
				 "\"%s\" with \"%s\", which leads it: perf puts "
				 "a group's events on one PMU (software events "
				 "may join any group), and refuses it there on "
				 "CPU %d (%s)", req->event, req->group,
				 p->tab->reqs[l].event, cpu, why);
			return r;
		case PERFCTR_GROUP_SIZE:
			snprintf(msg, len, "group \"%s\" needs %u counters at "
				 "once (%s) and does not fit the PMU: perf "
				 "refuses \"%s\" on CPU %d next to the %u events "
				 "before it; a group is scheduled whole: make it "
				 "smaller, or split it", req->group, hw, events,
				 req->event, cpu, m - 1);
			return l;
		}
		res = err;
	}
	perfctr_trial__explain(res, why, sizeof(why));
	snprintf(msg, len, "event \"%s\" cannot be counted on CPU %d: %s",
		 req->event, cpu, why);
	return r;
}

/* Set entry k, a sampling clause, did not open on cpu: when the kernel
 * refuses the payload its body reads (a PMU without a branch stack), say
 * so in msg.  Returns 1 if it did. */
static int explain_payload(const struct plan *p, unsigned int k, int cpu,
			   char *msg, size_t len)
{
	const struct perfctr_request *req = &p->tab->reqs[p->set_idx[k]];
	char why[WHY_MAX / 2];
	unsigned int bit;
	int err;

	if (!perfctr_trials__payload_why(&p->set[k], cpu, &bit, &err))
		return 0;
	snprintf(why, sizeof(why), "perf_event_open: %s", strerror(-err));
	if (bit == PERFCTR_PL_BRANCH)
		snprintf(msg, len, "%s reads the branch stack of each sample, "
			 "and the PMU records none for \"%s\" on CPU %d "
			 "(Intel's LBR, AMD's BRS or LbrExtV2, Arm's BRBE): "
			 "the kernel refuses PERF_SAMPLE_BRANCH_STACK for it "
			 "(%s)", perfctr_payload__fn(bit), req->event, cpu,
			 why);
	else
		snprintf(msg, len, "%s: the kernel refuses the sample type it "
			 "needs for \"%s\" on CPU %d (%s)",
			 perfctr_payload__fn(bit), req->event, cpu, why);
	return 1;
}

/* Is request i opened on cpu: every CPU, but a .socket counter only on
 * its sockets' CPUs, and a .cpus("LIST") one on its list's. */
static int opened_on(const struct plan *p, unsigned int i, int cpu)
{
	int k;

	if (p->nrcpus[i]) {
		for (k = 0; k < p->nrcpus[i]; k++)
			if (p->rcpus[i][k] == cpu)
				return 1;
		return 0;
	}
	if (p->tab->reqs[i].scope != PERFCTR_SCOPE_SOCKET)
		return 1;
	for (k = 0; k < p->nsock[i]; k++)
		if (p->sock[i][k] == cpu)
			return 1;
	return 0;
}

/* Request i's encoding on cpu, as the module opens it there: on a hybrid
 * machine its core PMU's, else its one. */
static const struct perfctr_encoding *enc_on(const struct plan *p,
					     unsigned int i, int cpu)
{
	int j;

	for (j = 0; j < p->ncenc[i]; j++)
		if (perfctr_cpus__has(p->cenc[i][j].cpus, cpu) > 0)
			return &p->cenc[i][j].enc;
	return &p->enc[i];
}

/* The set for one CPU: the good requests opened there, a group's with
 * its leader's place (the leader comes first: it has the lowest
 * index). */
static unsigned int trial_set(struct plan *p, int cpu)
{
	unsigned int i, k = 0;

	for (i = 0; i < p->tab->n; i++)
		p->set_pos[i] = -1;
	for (i = 0; i < p->tab->n; i++) {
		if (!p->ok[i] || !opened_on(p, i, cpu) ||
		    (grouped(p, i) && p->set_pos[p->leader[i]] < 0 &&
		     p->leader[i] != i))
			continue;
		perfctr_trial__init(&p->set[k], &p->tab->reqs[i],
				    enc_on(p, i, cpu));
		p->set_pos[i] = k;
		if (grouped(p, i)) {
			p->set[k].group = 1 + p->set_pos[p->leader[i]];
			p->set[k].keep = 1;
		}
		p->set_idx[k++] = i;
	}
	return k;
}

/* Opens the resolved requests together on the CPU at position pos, as
 * the module will hold them while a followed task runs there; reports
 * (once per request, once per group) those that cannot be counted there.
 * A request whose PMU refused exclude_guest is assigned without it.  A
 * group's events stay open, for the module. */
static void trial_cpu(struct plan *p, int pos, const char *sysfs_root)
{
	int ret, cpu = p->cpus[pos];
	unsigned int i, r, k = trial_set(p, cpu);
	char why[WHY_MAX - 128], msg[WHY_MAX];

	ret = perfctr_trials__open(p->set, k, cpu, p->res);
	for (i = 0; i < k; i++) {
		p->enc[p->set_idx[i]].flags = p->set[i].enc.flags;
		if (p->set[i].fd >= 0)
			p->gfd[pos * p->tab->n + p->set_idx[i]] = p->set[i].fd;
	}
	if (!ret)
		return;
	for (i = 0; i < k; i++) {
		r = p->set_idx[i];
		if (!p->res[i] || !p->ok[r])
			continue;	/* fine, or its group is out already */
		if (grouped(p, r)) {
			fail_group(p, explain_group(p, i, cpu, sysfs_root, msg,
						    sizeof(msg)), msg);
			continue;
		}
		if (p->res[i] == -ENOSPC)
			explain_no_room(p, k, "it", sysfs_root, why,
					sizeof(why));
		else if (explain_payload(p, i, cpu, why, sizeof(why))) {
			fail(p, r, why);
			continue;
		} else
			perfctr_trial__explain(p->res[i], why, sizeof(why));
		/* a long explanation may be cut: the start says what */
		if (snprintf(msg, sizeof(msg),
			     "event \"%s\" cannot be counted on CPU %d: %s",
			     p->tab->reqs[r].event, cpu, why) >=
		    (int)sizeof(msg))
			msg[sizeof(msg) - 2] = '.';
		fail(p, r, msg);
	}
}

static int trial_all(struct plan *p, const char *sysfs_root)
{
	int n, i;

	n = perfctr_cpus__online(sysfs_root, &p->cpus);
	if (n < 0) {
		fprintf(stderr, PROG ": cannot read the online CPUs under %s: %s\n",
			sysfs_root, strerror(-n));
		return -1;
	}
	p->ncpus = n;
	p->gfd = malloc((n * p->tab->n + 1) * sizeof(*p->gfd));
	if (!p->gfd) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	for (i = 0; i < n * (int)p->tab->n; i++)
		p->gfd[i] = -1;
	for (i = 0; i < n; i++)
		trial_cpu(p, i, sysfs_root);
	return 0;
}

/* The highest fd open here, or -1. */
static int highest_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int fd, max = -1;

	if (!d)
		return sysconf(_SC_OPEN_MAX) - 1;	/* every one may be */
	while ((e = readdir(d)))
		if ((fd = atoi(e->d_name)) > max)
			max = fd;
	closedir(d);
	return max;
}

/*
 * The groups' events, in one block above every fd open here: each
 * group's from fd0 on, CPU by CPU (ascending), in the group's order;
 * without FD_CLOEXEC (dup2), so that staprun and stapio inherit them
 * and the module finds them in stapio (runtime/perfctr_group.c).
 */
static int groups_place(struct plan *p)
{
	unsigned int i, j, m, next = highest_fd() + 1, n = p->tab->n;
	int k, *fd;

	for (i = 0; i < n; i++) {
		if (!grouped(p, i) || p->leader[i] != i)
			continue;
		p->fd0[i] = next;
		for (k = 0; k < p->ncpus; k++)
			for (j = i, m = 0; j < n; j++) {
				if (p->leader[j] != i)
					continue;
				fd = &p->gfd[k * n + j];
				if (*fd < 0 || dup2(*fd, next) < 0) {
					fprintf(stderr, PROG ": cannot place "
						"group \"%s\"'s events at fd %u: "
						"%s\n", p->tab->reqs[i].group,
						next, strerror(*fd < 0 ? EBADF :
							       errno));
					return -1;
				}
				close(*fd);
				*fd = -1;
				next++;
				m++;
			}
	}
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

/* Room for the .socket counters', the units' and the CPU records. */
static size_t sockets_len(const struct plan *p)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < p->tab->n; i++)
		len += (p->nsock[i] ? PERFCTR_ASSIGN_GROUP_MAX +
			p->nsock[i] * 8 : 0) + PERFCTR_ASSIGN_UNIT_MAX +
		       p->ncenc[i] * PERFCTR_ASSIGN_CPU_MAX;
	return len;
}

static char *assign_format(const struct plan *p, int verbose)
{
	const struct perfctr_modtab *tab = p->tab;
	size_t len = sizeof(ASSIGN_KEY) + 16 + tab->n * PERFCTR_ASSIGN_REC_MAX +
		     p->groups * PERFCTR_ASSIGN_GROUP_MAX + sockets_len(p);
	char *buf = malloc(len);
	unsigned int i, m, j;
	int bad = 0;

	if (!buf)
		return NULL;
	snprintf(buf, len, ASSIGN_KEY "%s", tab->hash);
	for (i = 0; i < tab->n; i++) {
		bad |= perfctr_assign__append(buf, len, tab->reqs[i].idx,
					      &p->enc[i]);
		if (verbose)
			show(&tab->reqs[i], &p->enc[i]);
	}
	for (i = 0; i < tab->n; i++)
		bad |= perfctr_assign__append_unit(buf, len, tab->reqs[i].idx,
						   &p->unit[i]);
	for (i = 0; i < tab->n; i++)
		for (j = 0; j < (unsigned int)p->ncenc[i]; j++) {
			bad |= perfctr_assign__append_cpu(buf, len,
							  tab->reqs[i].idx,
							  &p->cenc[i][j]);
			if (verbose)
				fprintf(stderr, PROG ": counter \"%s\": on "
					"CPUs %s (\"%s\") type %u config "
					"%#llx\n", tab->reqs[i].id,
					p->cenc[i][j].cpus, p->cenc[i][j].pmu,
					p->cenc[i][j].enc.type,
					(unsigned long long)
					p->cenc[i][j].enc.config);
		}
	for (i = 0; i < tab->n; i++) {
		if (!p->nsock[i])
			continue;
		bad |= perfctr_assign__append_socket(buf, len, tab->reqs[i].idx,
						     p->sock[i], p->nsock[i]);
		if (verbose)
			fprintf(stderr, PROG ": counter \"%s\": %d sockets, "
				"from CPU %d on\n", tab->reqs[i].id,
				p->nsock[i], p->sock[i][0]);
	}
	for (i = 0; i < tab->n; i++) {
		if (!grouped(p, i) || p->leader[i] != i)
			continue;
		bad |= perfctr_assign__append_group(buf, len, tab->reqs[i].idx,
						    p->fd0[i], p->ncpus);
		for (j = 0, m = 0; j < tab->n; j++)
			m += p->leader[j] == i;
		if (verbose)
			fprintf(stderr, PROG ": group \"%s\": %u events on %d "
				"CPUs at fds %u to %u\n", tab->reqs[i].group, m,
				p->ncpus, p->fd0[i], p->fd0[i] + m * p->ncpus - 1);
	}
	if (bad) {
		fprintf(stderr, PROG ": perfctr_assign overflows\n");
		free(buf);
		return NULL;
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
	topology_all(&p, opts.sysfs_root);
	topdown_all(&p, opts.sysfs_root);
	priv_all(&p);
	if (trial_all(&p, opts.sysfs_root) == 0 && !p.bad &&
	    groups_place(&p) == 0)
		assign = assign_format(&p, verbose);
	report(&p);
out:
	perfctr_resolver__free(r);
	plan_free(&p);
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

/*
 * A run for stap --remote (staprun's -r ID:URI, which stap gives every
 * remote host): our lines start with the host's index as --remote-prefix
 * writes standard output ("ID: "), since stap prefixes only that stream,
 * and every counter's encoding is listed, so a run on many hosts says
 * what each one counts.  The lines are gathered and written at the end.
 */
static FILE *remote_stderr;
static char *remote_text;
static size_t remote_len;

static void remote_begin(void)
{
	FILE *mem = open_memstream(&remote_text, &remote_len);

	if (!mem)
		return;
	remote_stderr = stderr;
	stderr = mem;
}

static void remote_end(const char *id)
{
	const char *p, *nl;

	if (!remote_stderr)
		return;
	fclose(stderr);
	stderr = remote_stderr;
	remote_stderr = NULL;
	for (p = remote_text; p && *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		fprintf(stderr, "%s: %.*s\n", id, (int)(nl - p), p);
		if (!*nl)
			break;
	}
	free(remote_text);
	remote_text = NULL;
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
	struct rlimit nofile;
	struct cmdline c;
	int ret, raised;

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
	raised = nofile_raise(&tab, &nofile);
	if (c.remote[0])
		remote_begin();
	assign = assign_build(&tab, c.verbose || c.remote[0]);
	remote_end(c.remote);
	if (raised)
		setrlimit(RLIMIT_NOFILE, &nofile);
	perfctr_modtab__free(&tab);
	if (!assign)
		return 1;
	ret = exec_staprun(staprun, argc, argv, assign);
	free(assign);
	return ret;
}
