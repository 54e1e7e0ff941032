/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_holders.c - the loaded modules that hold counters.  A perfctr
 * module has two read-only parameters: perfctr_requests (its perfctr_req
 * values, one a line) and perfctr_assign (what perfctr-run gave it,
 * docs/design.md).  They go with the module: nothing here can go stale.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dump.h"

#define REQUESTS "parameters/perfctr_requests"
#define ASSIGN "parameters/perfctr_assign"

/* The fields of an assign record, in order, and how each is written. */
static const struct {
	int base;
	uint64_t max;
} rec_fields[] = {
	{ 10, PERFCTR_REQ_MAX - 1 },	/* idx */
	{ 10, UINT32_MAX },		/* type */
	{ 16, UINT64_MAX },		/* config */
	{ 16, UINT64_MAX },		/* config1 */
	{ 16, UINT64_MAX },		/* config2 */
	{ 16, UINT32_MAX },		/* flags */
};
#define NFIELDS ARRAY_SIZE(rec_fields)

/* Records the first problem only.  Returns 0, or -ENOMEM. */
static int __attribute__((format(printf, 2, 3)))
problem(struct perfctr_holder *h, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (h->problem)
		return 0;
	va_start(ap, fmt);
	n = vasprintf(&h->problem, fmt, ap);
	va_end(ap);
	if (n < 0) {
		h->problem = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int req_cmp(const void *a, const void *b)
{
	const struct perfctr_request *x = a, *y = b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The kernel shows a parameter in one page at most (its get callback
 * writes into a page): a longer perfctr_requests is cut. */
static int cut(size_t len)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 && len + 1 >= (size_t)page;
}

static int parse_requests(struct perfctr_holder *h, char *text)
{
	struct perfctr_request *r;
	char *line, *next, why[256];
	unsigned int i, lineno = 0;
	size_t len = strlen(text);

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		r = PC_PUSH(h->reqs, h->n);
		if (!r)
			return -ENOMEM;
		if (!pc_request_parse(line, strlen(line), r, why, sizeof(why)))
			continue;
		h->n--;
		if (!next && cut(len))
			return problem(h, "perfctr_requests is cut at one page "
				       "(%zu bytes): more counters than it shows",
				       len);
		return problem(h, "perfctr_requests line %u: %s", lineno, why);
	}
	if (h->n)
		qsort(h->reqs, h->n, sizeof(*h->reqs), req_cmp);
	for (i = 1; i < h->n; i++)
		if (h->reqs[i].idx == h->reqs[i - 1].idx)
			return problem(h, "perfctr_requests has counter %u twice",
				       h->reqs[i].idx);
	return 0;
}

/* One field: digits only (no sign, no 0x), then ',' or, last, the end. */
static int number(char **p, int base, uint64_t max, int last, uint64_t *v)
{
	size_t len = strspn(*p, base == 10 ? "0123456789" :
				"0123456789abcdefABCDEF");
	char *end;

	if (!len || len > 20 || (*p)[len] != (last ? '\0' : ','))
		return -EINVAL;
	errno = 0;
	*v = strtoull(*p, &end, base);
	if (errno || end != *p + len || *v > max)
		return -EINVAL;
	*p = last ? end : end + 1;
	return 0;
}

static int find_req(const struct perfctr_holder *h, uint64_t idx)
{
	unsigned int i;

	for (i = 0; i < h->n; i++)
		if (h->reqs[i].idx == idx)
			return (int)i;
	return -1;
}

/* "idx,type,config,config1,config2,flags" into h->encs. */
static int parse_record(struct perfctr_holder *h, char *rec,
			unsigned char *seen)
{
	uint64_t v[NFIELDS];
	struct perfctr_encoding *e;
	size_t i;
	int at;

	for (i = 0; i < NFIELDS; i++)
		if (number(&rec, rec_fields[i].base, rec_fields[i].max,
			   i == NFIELDS - 1, &v[i]))
			return problem(h, "perfctr_assign has a malformed record");
	at = find_req(h, v[0]);
	if (at < 0)
		return problem(h, "perfctr_assign has a record for counter %u, "
			       "which perfctr_requests lacks", (unsigned int)v[0]);
	if (seen[at]++)
		return problem(h, "perfctr_assign has counter %u twice",
			       (unsigned int)v[0]);
	e = &h->encs[at];
	e->type = v[1];
	e->config = v[2];
	e->config1 = v[3];
	e->config2 = v[4];
	e->flags = v[5];
	return 0;
}

/* Does request at lead a group (the first of its counters)? */
static int leads_group(const struct perfctr_holder *h, unsigned int at)
{
	unsigned int i;

	if (!h->reqs[at].group[0])
		return 0;
	for (i = 0; i < at; i++)
		if (!strcmp(h->reqs[i].group, h->reqs[at].group))
			return 0;
	return 1;
}

/* "gidx,fd0,ncpu": where perfctr-run left a group's events for the
 * module (which holds them now); only checked. */
static int parse_group(struct perfctr_holder *h, char *rec,
		       unsigned char *gseen)
{
	uint64_t v[3];
	size_t i;
	int at;

	for (i = 0; i < 3; i++)
		if (number(&rec, 10, i ? UINT32_MAX : PERFCTR_REQ_MAX - 1,
			   i == 2, &v[i]))
			return problem(h, "perfctr_assign has a malformed group "
				       "record");
	at = find_req(h, v[0]);
	if (at < 0 || !leads_group(h, at))
		return problem(h, "perfctr_assign has a group record for "
			       "counter %u, which leads no group",
			       (unsigned int)v[0]);
	if (gseen[at]++)
		return problem(h, "perfctr_assign has group \"%s\" twice",
			       h->reqs[at].group);
	return 0;
}

static int check_assign(struct perfctr_holder *h, const unsigned char *seen,
			const unsigned char *gseen)
{
	char want[17];
	unsigned int i;

	for (i = 0; i < h->n; i++) {
		if (!seen[i])
			return problem(h, "perfctr_assign has no record for "
				       "counter %u", h->reqs[i].idx);
		if (leads_group(h, i) && !gseen[i])
			return problem(h, "perfctr_assign has no record for "
				       "group \"%s\"", h->reqs[i].group);
	}
	if (perfctr_table__hash(h->reqs, h->n, want) || strcmp(want, h->hash))
		return problem(h, "perfctr_assign is for another table (hash "
			       "%s, the requests hash to %s)", h->hash, want);
	return 0;
}

static int parse_assign(struct perfctr_holder *h, char *text)
{
	char *rec = strchr(text, ';'), *next;
	unsigned char *seen, *gseen;
	size_t hlen = rec ? (size_t)(rec - text) : strlen(text);
	int ret = 0;

	if (!*text)
		return problem(h, "perfctr_assign is empty: not started by "
			       "perfctr-run");
	if (hlen != 16 || strspn(text, "0123456789abcdef") < 16)
		return problem(h, "perfctr_assign does not start with a table "
			       "hash");
	memcpy(h->hash, text, 16);
	h->encs = calloc(h->n ? h->n : 1, sizeof(*h->encs));
	seen = calloc(h->n ? h->n : 1, 1);
	gseen = calloc(h->n ? h->n : 1, 1);
	if (!h->encs || !seen || !gseen) {
		free(seen);
		free(gseen);
		return -ENOMEM;
	}
	for (rec = rec ? rec + 1 : NULL; !ret && !h->problem && rec; rec = next) {
		next = strchr(rec, ';');
		if (next)
			*next++ = '\0';
		if (rec[0] && strchr("csu", rec[0]))
			continue;	/* CPU, socket, unit: the dump shows the
					 * counter's own record */
		ret = rec[0] == 'g' ? parse_group(h, rec + 1, gseen) :
		      parse_record(h, rec, seen);
	}
	if (!ret && !h->problem)
		ret = check_assign(h, seen, gseen);
	free(seen);
	free(gseen);
	if (h->problem) {
		free(h->encs);
		h->encs = NULL;
	}
	return ret;
}

/* Reads NAME/parameters/what; a failure becomes the holder's problem. */
static int read_param(struct perfctr_holder *h, int dfd, const char *what,
		      char **text)
{
	char path[PATH_MAX];
	int n;

	snprintf(path, sizeof(path), "%s/%s", h->module, what);
	n = pc_dump_read(dfd, path, text);
	if (n == -ENOMEM)
		return n;
	if (n < 0)
		return problem(h, "cannot read %s: %s", what, strerror(-n));
	return 0;
}

static int read_holder(struct perfctr_holder *h, int dfd)
{
	char *text = NULL;
	int ret = read_param(h, dfd, REQUESTS, &text);

	if (!ret && text)
		ret = parse_requests(h, text);
	free(text);
	text = NULL;
	if (!ret && !h->problem)
		ret = read_param(h, dfd, ASSIGN, &text);
	if (!ret && text && !h->problem)
		ret = parse_assign(h, text);
	free(text);
	return ret;
}

static int dirent_ok(const struct dirent *e)
{
	return pc_sysfs_name_ok(e->d_name);
}

int perfctr_holders__read(const char *sysfs_root, struct perfctr_holder **out)
{
	char path[PATH_MAX];
	struct perfctr_holder *hs = NULL, *h;
	struct dirent **list;
	unsigned int nh = 0;
	int n, i, dfd, ret = 0;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/module", sysfs_root ? sysfs_root : "/sys");
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	n = scandir(path, &list, dirent_ok, alphasort);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/" REQUESTS, list[i]->d_name);
		if (!ret && !faccessat(dfd, path, F_OK, 0)) {
			h = PC_PUSH(hs, nh);
			if (!h || !(h->module = strdup(list[i]->d_name)))
				ret = -ENOMEM;
			else
				ret = read_holder(h, dfd);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	close(dfd);
	if (ret) {
		perfctr_holders__free(hs, nh);
		return ret;
	}
	*out = hs;
	return (int)nh;
}

void perfctr_holders__free(struct perfctr_holder *h, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		free(h[i].module);
		free(h[i].reqs);
		free(h[i].encs);
		free(h[i].problem);
	}
	free(h);
}
