/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_records.c - what perfctr-run hands the module: the groups' events
 * at fds it will find in stapio, and the perfctr_assign argument that
 * says each counter's encoding, unit, CPUs and sockets and where each
 * group's fds are ("The assignment" in docs/design.md).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run.h"

#define ASSIGN_KEY "perfctr_assign="

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

/* Moves fd *fd to next (closing *fd); 0, or -1 when it cannot (said). */
static int place_fd(const struct plan *p, unsigned int leader, int *fd,
		    unsigned int next)
{
	if (*fd < 0 || dup2(*fd, next) < 0) {
		fprintf(p->out, PROG ": cannot place group \"%s\"'s events "
			"at fd %u: %s\n", p->tab->reqs[leader].group, next,
			strerror(*fd < 0 ? EBADF : errno));
		return -1;
	}
	close(*fd);
	*fd = -1;
	return 0;
}

/*
 * The groups' events, in one block above every fd open here: each
 * group's from fd0 on, CPU by CPU (ascending), in the group's order;
 * without FD_CLOEXEC (dup2), so that staprun and stapio inherit them
 * and the module finds them in stapio (runtime/perfctr_group.c).
 */
int plan__place_groups(struct plan *p)
{
	unsigned int i, j, next = highest_fd() + 1, n = p->tab->n;
	int k;

	for (i = 0; i < n; i++) {
		if (!plan__grouped(p, i) || p->req[i].leader != i)
			continue;
		p->req[i].fd0 = next;
		for (k = 0; k < p->ncpus; k++)
			for (j = i; j < n; j++) {
				if (p->req[j].leader != i)
					continue;
				if (place_fd(p, i, &p->gfd[k * n + j], next))
					return -1;
				next++;
			}
	}
	return 0;
}

static void show(FILE *out, const struct perfctr_request *req,
		 const struct perfctr_encoding *e)
{
	char words[PERFCTR_FLAGS_WORDS_MAX];

	perfctr_flags__words(e->flags, words, sizeof(words));
	fprintf(out, PROG ": counter \"%s\": event \"%s\" is type %u "
		"config %#llx config1 %#llx config2 %#llx flags %#x (%s)\n",
		req->id, req->event, e->type, (unsigned long long)e->config,
		(unsigned long long)e->config1, (unsigned long long)e->config2,
		e->flags, words);
}

/* Room for the assignment, the bound the module's buffer has for its
 * table (perfctr_iface.h): the module declares at least these requests,
 * groups and .socket counters. */
static size_t assign_len(const struct plan *p)
{
	unsigned int i, nsocket = 0, sockets = 0;

	for (i = 0; i < p->tab->n; i++) {
		nsocket += p->req[i].nsock > 0;
		if ((unsigned int)p->req[i].nsock > sockets)
			sockets = p->req[i].nsock;
	}
	return sizeof(ASSIGN_KEY) - 1 +
	       PERFCTR_ASSIGN_LEN(p->tab->n, p->groups, nsocket, sockets);
}

/* The c records: request i's encoding per core PMU. */
static int append_cpus(const struct plan *p, unsigned int i, int verbose,
		       char *buf, size_t len)
{
	const struct perfctr_request *req = &p->tab->reqs[i];
	const struct perfctr_core_enc *c;
	int bad = 0, j;

	for (j = 0; j < p->req[i].ncenc; j++) {
		c = &p->req[i].cenc[j];
		bad |= perfctr_assign__append_cpu(buf, len, req->idx, c);
		if (verbose)
			fprintf(p->out, PROG ": counter \"%s\": on CPUs %s "
				"(\"%s\") type %u config %#llx\n", req->id,
				c->cpus, c->pmu, c->enc.type,
				(unsigned long long)c->enc.config);
	}
	return bad;
}

/* The g record of the group request i leads. */
static int append_group(const struct plan *p, unsigned int i, int verbose,
			char *buf, size_t len)
{
	unsigned int fd0 = p->req[i].fd0, j, m = 0;
	int bad;

	bad = perfctr_assign__append_group(buf, len, p->tab->reqs[i].idx, fd0,
					   p->ncpus);
	for (j = 0; j < p->tab->n; j++)
		m += p->req[j].leader == i;
	if (verbose)
		fprintf(p->out, PROG ": group \"%s\": %u events on %d CPUs at "
			"fds %u to %u\n", p->tab->reqs[i].group, m, p->ncpus,
			fd0, fd0 + m * p->ncpus - 1);
	return bad;
}

/* The perfctr_assign argument, every record of one kind before the
 * next's; verbose lists each counter's encoding on the way. */
char *plan__assign(const struct plan *p, int verbose)
{
	const struct perfctr_modtab *tab = p->tab;
	const struct plan_req *pr;
	size_t len = assign_len(p);
	char *buf = malloc(len);
	unsigned int i;
	int bad = 0;

	if (!buf)
		return NULL;
	snprintf(buf, len, ASSIGN_KEY "%s", tab->hash);
	for (i = 0; i < tab->n; i++) {
		bad |= perfctr_assign__append(buf, len, tab->reqs[i].idx,
					      &p->req[i].enc);
		if (verbose)
			show(p->out, &tab->reqs[i], &p->req[i].enc);
	}
	for (i = 0; i < tab->n; i++)
		bad |= perfctr_assign__append_unit(buf, len, tab->reqs[i].idx,
						   &p->req[i].unit);
	for (i = 0; i < tab->n; i++)
		bad |= append_cpus(p, i, verbose, buf, len);
	for (i = 0; i < tab->n; i++) {
		pr = &p->req[i];
		if (!pr->nsock)
			continue;
		bad |= perfctr_assign__append_socket(buf, len, tab->reqs[i].idx,
						     pr->sock, pr->nsock);
		if (verbose)
			fprintf(p->out, PROG ": counter \"%s\": %d sockets, "
				"from CPU %d on\n", tab->reqs[i].id, pr->nsock,
				pr->sock[0]);
	}
	for (i = 0; i < tab->n; i++)
		if (plan__grouped(p, i) && p->req[i].leader == i)
			bad |= append_group(p, i, verbose, buf, len);
	if (bad) {
		fprintf(p->out, PROG ": perfctr_assign overflows\n");
		free(buf);
		return NULL;
	}
	return buf;
}
