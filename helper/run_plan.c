/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_plan.c - perfctr-run's plan: each request of the module's table
 * resolved for this machine, then held to the PMUs' topology, Intel's
 * topdown rule and perf's privilege rules, then tried on every online
 * CPU as the module will open it.  A request that fails is out of the
 * plan, with why (said by plan__report).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run.h"
#include "perfctr_topdown.h"

int plan__init(struct plan *p, const struct perfctr_modtab *tab, FILE *out)
{
	size_t n = tab->n + 1;
	unsigned int i, j;

	memset(p, 0, sizeof(*p));
	p->tab = tab;
	p->out = out;
	p->req = calloc(n, sizeof(*p->req));
	p->set = calloc(n, sizeof(*p->set));
	p->res = calloc(n, sizeof(*p->res));
	p->set_idx = calloc(n, sizeof(*p->set_idx));
	if (!p->req || !p->set || !p->res || !p->set_idx)
		return -ENOMEM;
	for (i = 0; i < tab->n; i++) {
		for (j = 0; j < i && (!tab->reqs[i].group[0] ||
				      strcmp(tab->reqs[j].group,
					     tab->reqs[i].group)); j++)
			;
		p->req[i].leader = j;
		p->groups += j == i && tab->reqs[i].group[0];
	}
	return 0;
}

void plan__free(struct plan *p)
{
	int i;

	for (i = 0; p->gfd && i < p->ncpus * (int)p->tab->n; i++)
		if (p->gfd[i] >= 0)
			close(p->gfd[i]);
	for (i = 0; p->req && i < (int)p->tab->n; i++) {
		free(p->req[i].sock);
		free(p->req[i].rcpus);
	}
	free(p->req);
	free(p->set);
	free(p->res);
	free(p->set_idx);
	free(p->cpus);
	free(p->gfd);
}

void plan__fail(struct plan *p, unsigned int i, const char *what)
{
	snprintf(p->req[i].why, WHY_MAX, "%s", what);
	p->req[i].ok = 0;
	p->bad++;
}

/* A group is counted whole or not at all: its other counters are out
 * too, said once (at i). */
void plan__fail_group(struct plan *p, unsigned int i, const char *what)
{
	unsigned int j;

	plan__fail(p, i, what);
	for (j = 0; plan__grouped(p, i) && j < p->tab->n; j++)
		if (j != i && p->req[j].leader == p->req[i].leader &&
		    p->req[j].ok)
			plan__fail(p, j, "");
}

void plan__resolve(struct plan *p, struct perfctr_resolver *r,
		   const char *sysfs_root)
{
	const char *proc = getenv("PERFCTR_PROC_ROOT");
	const struct perfctr_request *req;
	struct plan_req *pr;
	char err[1024], why[512];
	unsigned int i;
	int rc;

	for (i = 0; i < p->tab->n; i++) {
		req = &p->tab->reqs[i];
		pr = &p->req[i];
		pr->ok = 1;
		rc = 0;
		if (perfctr_resolver__resolve_request(r, req, &pr->enc, err,
						      sizeof(err)))
			plan__fail(p, i, err);
		else if (perfctr_unit__read(sysfs_root, req->event,
					    &pr->unit, why, sizeof(why))) {
			snprintf(err, sizeof(err), "event \"%s\": %s",
				 req->event, why);
			plan__fail(p, i, err);
		}
		else if ((req->sample || req->hz) &&
			 (rc = perfctr_sample__check(req, &pr->enc, sysfs_root,
						     proc && *proc ? proc :
						     "/proc", p->tab->throttle,
						     err, sizeof(err))) < 0)
			plan__fail(p, i, err);
		else if (req->sample && rc > 0)	/* the kernel throttles */
			fprintf(p->out, PROG ": %s: %s\n", req->src, err);
		else if (req->mux)
			pr->enc.flags |= PERFCTR_F_MULTIPLEX;
	}
}

/* Request i's CPUs and encodings from the PMUs' topology t (see
 * plan__topology); 0, or -1 when it failed (said). */
static int topology_one(struct plan *p, unsigned int i,
			const struct perfctr_topology *t)
{
	const struct perfctr_request *req = &p->tab->reqs[i];
	struct plan_req *pr = &p->req[i];
	char err[1024];

	if (perfctr_topology__check(t, req, &pr->enc, err, sizeof(err))) {
		plan__fail_group(p, i, err);
		return -1;
	}
	if (req->scope == PERFCTR_SCOPE_SOCKET &&
	    (pr->nsock = perfctr_topology__socket_cpus(t, &pr->enc,
						       &pr->sock)) <= 0) {
		plan__fail(p, i, "cannot read its PMU's cpumask");
		return -1;
	}
	pr->ncenc = perfctr_topology__core_encodings(t, req, &pr->enc,
						     pr->cenc, err,
						     sizeof(err));
	if (pr->ncenc < 0) {
		pr->ncenc = 0;
		plan__fail(p, i, err);
		return -1;
	}
	pr->nrcpus = perfctr_topology__restrict(t, req, &pr->rcpus, err,
						sizeof(err));
	if (pr->nrcpus < 0) {
		pr->nrcpus = 0;
		plan__fail(p, i, err);
		return -1;
	}
	return 0;
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
void plan__topology(struct plan *p, const char *sysfs_root)
{
	struct perfctr_topology *t;
	unsigned int i;

	if (perfctr_topology__read(sysfs_root, &t)) {
		for (i = 0; i < p->tab->n; i++)
			if (p->req[i].ok)
				plan__fail(p, i, "out of memory reading the PMUs");
		return;
	}
	for (i = 0; i < p->tab->n; i++)
		if (p->req[i].ok)
			topology_one(p, i, t);
	perfctr_topology__free(t);
}

/*
 * Intel's topdown metrics count only in a group led by slots (the kernel
 * refuses them elsewhere, with EINVAL): said here, with what to write.
 * In a group, slots and the metrics are marked for the module's
 * perfctr_topdown().
 */
void plan__topdown(struct plan *p, const char *sysfs_root)
{
	const struct perfctr_request *req;
	char msg[WHY_MAX];
	unsigned int i, l;
	int k, lk;

	for (i = 0; i < p->tab->n; i++) {
		req = &p->tab->reqs[i];
		l = p->req[i].leader;
		k = p->req[i].ok ?
		    perfctr_topdown__kind(sysfs_root, &p->req[i].enc) :
		    PERFCTR_TD_NONE;
		lk = plan__grouped(p, i) && p->req[l].ok ?
		     perfctr_topdown__kind(sysfs_root, &p->req[l].enc) :
		     PERFCTR_TD_NONE;
		if (k == PERFCTR_TD_NONE)
			continue;
		if (lk == PERFCTR_TD_SLOTS_KIND) {
			p->req[i].enc.flags |= PERFCTR_F_TOPDOWN;
			continue;
		}
		if (k == PERFCTR_TD_SLOTS_KIND)
			continue;
		snprintf(msg, sizeof(msg), "\"%s\" is one of Intel's topdown "
			 "metrics, which the kernel counts only in a group led "
			 "by \"slots\" (TOPDOWN.SLOTS): give it and a \"slots\" "
			 "counter declared before it the same .group(\"NAME\")",
			 req->event);
		plan__fail_group(p, i, msg);
	}
}

/*
 * A stapsys or stapusr module counts only what perf_event_open would let
 * its user count (the module checks it too): refuse here first, naming
 * the rule and perf_event_paranoid.
 */
void plan__priv(struct plan *p)
{
	const char *proc = getenv("PERFCTR_PROC_ROOT");
	unsigned int uid = getuid(), i;
	char err[1024];
	int paranoid;

	if (!perfctr_priv__applies(p->tab, uid))
		return;
	paranoid = perfctr_paranoid__read(proc);
	for (i = 0; i < p->tab->n; i++)
		if (p->req[i].ok &&
		    perfctr_priv__check(p->tab, &p->tab->reqs[i],
					&p->req[i].enc, paranoid, uid, err,
					sizeof(err)))
			plan__fail(p, i, err);
}

static int cpu_in(const int *cpus, int n, int cpu)
{
	int k;

	for (k = 0; k < n; k++)
		if (cpus[k] == cpu)
			return 1;
	return 0;
}

/* Is request i opened on cpu: every CPU, but a .socket counter only on
 * its sockets' CPUs, and a .cpus("LIST") one on its list's. */
static int opened_on(const struct plan *p, unsigned int i, int cpu)
{
	const struct plan_req *pr = &p->req[i];

	if (pr->nrcpus)
		return cpu_in(pr->rcpus, pr->nrcpus, cpu);
	if (p->tab->reqs[i].scope != PERFCTR_SCOPE_SOCKET)
		return 1;
	return cpu_in(pr->sock, pr->nsock, cpu);
}

/* Request i's encoding on cpu, as the module opens it there: on a hybrid
 * machine its core PMU's, else its one. */
static const struct perfctr_encoding *enc_on(const struct plan *p,
					     unsigned int i, int cpu)
{
	const struct plan_req *pr = &p->req[i];
	int j;

	for (j = 0; j < pr->ncenc; j++)
		if (perfctr_cpus__has(pr->cenc[j].cpus, cpu) > 0)
			return &pr->cenc[j].enc;
	return &pr->enc;
}

/* The set for one CPU: the good requests opened there, a group's with
 * its leader's place (the leader comes first: it has the lowest
 * index). */
static unsigned int trial_set(struct plan *p, int cpu)
{
	unsigned int i, l, k = 0;

	for (i = 0; i < p->tab->n; i++)
		p->req[i].set_pos = -1;
	for (i = 0; i < p->tab->n; i++) {
		l = p->req[i].leader;
		if (!p->req[i].ok || !opened_on(p, i, cpu) ||
		    (plan__grouped(p, i) && p->req[l].set_pos < 0 && l != i))
			continue;
		perfctr_trial__init(&p->set[k], &p->tab->reqs[i],
				    enc_on(p, i, cpu));
		p->req[i].set_pos = k;
		if (plan__grouped(p, i)) {
			p->set[k].group = 1 + p->req[l].set_pos;
			p->set[k].keep = 1;
		}
		p->set_idx[k++] = i;
	}
	return k;
}

/* Set entry i of k, not in a group, did not open or fit on cpu: why,
 * said at its request. */
static void trial_fail(struct plan *p, unsigned int k, unsigned int i,
		       int cpu, const char *sysfs_root)
{
	unsigned int r = p->set_idx[i];
	char why[WHY_MAX - 128], msg[WHY_MAX];

	if (p->res[i] == -ENOSPC)
		explain__no_room(p, k, "it", sysfs_root, why, sizeof(why));
	else if (explain__payload(p, i, cpu, why, sizeof(why))) {
		plan__fail(p, r, why);
		return;
	} else
		perfctr_trial__explain(p->res[i], why, sizeof(why));
	/* a long explanation may be cut: the start says what */
	if (snprintf(msg, sizeof(msg),
		     "event \"%s\" cannot be counted on CPU %d: %s",
		     p->tab->reqs[r].event, cpu, why) >= (int)sizeof(msg))
		msg[sizeof(msg) - 2] = '.';
	plan__fail(p, r, msg);
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
	char msg[WHY_MAX];

	ret = perfctr_trials__open(p->set, k, cpu, p->res);
	for (i = 0; i < k; i++) {
		p->req[p->set_idx[i]].enc.flags = p->set[i].enc.flags;
		if (p->set[i].fd >= 0)
			p->gfd[pos * p->tab->n + p->set_idx[i]] = p->set[i].fd;
	}
	if (!ret)
		return;
	for (i = 0; i < k; i++) {
		r = p->set_idx[i];
		if (!p->res[i] || !p->req[r].ok)
			continue;	/* fine, or its group is out already */
		if (plan__grouped(p, r))
			plan__fail_group(p, explain__group(p, i, cpu,
							   sysfs_root, msg,
							   sizeof(msg)), msg);
		else
			trial_fail(p, k, i, cpu, sysfs_root);
	}
}

int plan__trial(struct plan *p, const char *sysfs_root)
{
	int n, i;

	n = perfctr_cpus__online(sysfs_root, &p->cpus);
	if (n < 0) {
		fprintf(p->out, PROG ": cannot read the online CPUs under %s: %s\n",
			sysfs_root, strerror(-n));
		return -1;
	}
	p->ncpus = n;
	p->gfd = malloc((n * p->tab->n + 1) * sizeof(*p->gfd));
	if (!p->gfd) {
		fprintf(p->out, PROG ": out of memory\n");
		return -1;
	}
	for (i = 0; i < n * (int)p->tab->n; i++)
		p->gfd[i] = -1;
	for (i = 0; i < n; i++)
		trial_cpu(p, i, sysfs_root);
	return 0;
}
