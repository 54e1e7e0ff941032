/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.h - what perfctr-run's files share; private to perfctr-run, not
 * part of libperfctr.
 *   perfctr-run.c   main: staprun's options, and the staprun it runs
 *   run_plan.c      the plan: each request resolved, held to the PMUs'
 *                   topology, topdown's and perf's rules, then tried
 *   run_explain.c   why a counter is refused, one line per problem
 *   run_records.c   the groups' fds put in place, the perfctr_assign
 *                   argument
 *   run_remote.c    a run's messages for stap --remote, prefixed
 *   run_report.c    staprun as a child, for the end-of-run report
 * Messages go to the stream the plan is given (plan.out), never to the
 * global stderr: a remote run hands it a buffer.
 */
#ifndef PERFCTR_RUN_H
#define PERFCTR_RUN_H

#include <stdio.h>
#include "libperfctr.h"

#define PROG "perfctr-run"
#define WHY_MAX 2048

/* One request of the module's table: its encoding, and whether it is
 * still good. */
struct plan_req {
	struct perfctr_encoding enc;
	int ok;				/* resolved, and fits so far */
	char why[WHY_MAX];		/* else what is wrong with it */
	/* Its group's leader (itself when it is not in a group); a
	 * leader's first fd once its events sit in one block. */
	unsigned int leader, fd0;
	int set_pos;			/* where it is in a CPU's set, or -1 */
	struct perfctr_unit unit;	/* its sysfs unit, scale */
	/* .socket: the CPUs of its PMU's cpumask, one a socket */
	int *sock, nsock;
	/* on a hybrid machine, each core PMU's encoding, for its CPUs */
	struct perfctr_core_enc cenc[PERFCTR_CORE_PMUS];
	int ncenc;
	/* .cpus("LIST"): the CPUs of the list, ascending */
	int *rcpus, nrcpus;
};

struct plan {
	const struct perfctr_modtab *tab;
	struct plan_req *req;		/* tab->n, in table order */
	int bad;
	FILE *out;			/* where its messages go */
	/* One CPU's trial: the good requests' events and results, as
	 * perfctr_trials__open takes them, and which request each is. */
	struct perfctr_trial *set;
	int *res;
	unsigned int *set_idx;
	/* The online CPUs; the groups' events left open on each (fd, or
	 * -1: [cpu position][request]). */
	int *cpus, ncpus, groups;
	int *gfd;
};

static inline int plan__grouped(const struct plan *p, unsigned int i)
{
	return p->tab->reqs[i].group[0] != '\0';
}

/* run_plan.c */
int plan__init(struct plan *p, const struct perfctr_modtab *tab, FILE *out);
void plan__free(struct plan *p);
void plan__fail(struct plan *p, unsigned int i, const char *what);
void plan__fail_group(struct plan *p, unsigned int i, const char *what);
void plan__resolve(struct plan *p, struct perfctr_resolver *r,
		   const char *sysfs_root);
void plan__topology(struct plan *p, const char *sysfs_root);
void plan__topdown(struct plan *p, const char *sysfs_root);
void plan__priv(struct plan *p);
int plan__trial(struct plan *p, const char *sysfs_root);

/* run_explain.c: each writes its explanation in buf (msg). */
void explain__no_room(const struct plan *p, unsigned int k,
		      const char *what, const char *sysfs_root, char *buf,
		      size_t len);
unsigned int explain__group(const struct plan *p, unsigned int k, int cpu,
			    const char *sysfs_root, char *msg, size_t len);
int explain__payload(const struct plan *p, unsigned int k, int cpu,
		     char *msg, size_t len);
void plan__report(const struct plan *p);

/* run_records.c */
int plan__place_groups(struct plan *p);
char *plan__assign(const struct plan *p, int verbose);

/* run_remote.c: a run for stap --remote (staprun's -r ID:URI). */
struct remote {
	FILE *to, *buf;
	const char *id;
	char *text;
	size_t len;
};
FILE *remote__open(struct remote *r, const char *id, FILE *to);
void remote__close(struct remote *r);

/* run_report.c: runs staprun with args (args[0] is staprun) as a child,
 * its stderr copied through but for the module's report lines, whose
 * objects go to where (a file, or "-": stderr); returns staprun's exit
 * status, or PERFCTR_EXIT_INCOMPLETE (STAP_PERFCTR_STATUS=1). */
int report__run(const char *staprun, char **args, const char *where);

#endif /* PERFCTR_RUN_H */
