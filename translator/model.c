// SPDX-License-Identifier: GPL-2.0-or-later
/* model.c - storage for what the parser finds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

const char *const read_kind_names[READ_NKINDS] = {
	[READ_MACRO] = "perfctr",
	[READ_FN_READ] = "perfctr_read",
	[READ_FN_COUNT] = "perfctr_count",
	[READ_FN_ENABLED] = "perfctr_enabled",
	[READ_FN_RUNNING] = "perfctr_running",
	[READ_FN_TOTAL] = "perfctr_total",
	[READ_FN_DELTA] = "perfctr_delta",
	[READ_FN_SUM] = "perfctr_sum",
	[READ_FN_SUM_AGE] = "perfctr_sum_age",
	[READ_FN_TOPDOWN] = "perfctr_topdown",
	[READ_FN_AGE] = "perfctr_age",
	[READ_FN_SOCKET] = "perfctr_read_socket",
	[READ_FN_STAMP] = "perfctr_stamp",
};

#define CPU	PERFCTR_SCOPE_CPU
#define THREAD	PERFCTR_SCOPE_THREAD
const struct event_fn event_fns[] = {
	{ "cpu_cycles",			"cycles",		CPU },
	{ "instructions",		"instructions",		CPU },
	{ "cache_references",		"cache-references",	CPU },
	{ "cache_misses",		"cache-misses",		CPU },
	{ "branch_instructions",	"branches",		CPU },
	{ "branch_misses",		"branch-misses",	CPU },
	{ "perfctr_read_event",		NULL,			CPU },
	{ "thread_cpu_cycles",		"cycles",		THREAD },
	{ "thread_instructions",	"instructions",		THREAD },
	{ "thread_cache_references",	"cache-references",	THREAD },
	{ "thread_cache_misses",	"cache-misses",		THREAD },
	{ "thread_branch_instructions",	"branches",		THREAD },
	{ "thread_branch_misses",	"branch-misses",	THREAD },
	{ "perfctr_read_thread_event",	NULL,			THREAD },
};
#undef CPU
#undef THREAD
const unsigned int nevent_fns = sizeof(event_fns) / sizeof(event_fns[0]);

/* The index of name (len bytes) in a table of n entries of size stride,
 * each starting with its name, or -1. */
static int find_name(const void *table, size_t stride, unsigned int n,
		     const char *name, size_t len)
{
	const char *const *entry;
	unsigned int i;

	for (i = 0; i < n; i++) {
		entry = (const void *)((const char *)table + i * stride);
		if (strlen(*entry) == len && !memcmp(*entry, name, len))
			return i;
	}
	return -1;
}

int model__event_fn(const char *name, size_t len)
{
	return find_name(event_fns, sizeof(event_fns[0]), nevent_fns, name,
			 len);
}

const struct decoder_fn decoder_fns[] = {
	{ "perfctr_mem_op", 1 }, { "perfctr_mem_level", 1 },
	{ "perfctr_mem_tlb", 1 }, { "perfctr_mem_snoop", 1 },
	{ "perfctr_mem_lock", 1 }, { "perfctr_branch_type", 1 },
	{ "perfctr_branch_mispred", 0 }, { "perfctr_branch_cycles", 0 },
};
const unsigned int ndecoder_fns = sizeof(decoder_fns) / sizeof(decoder_fns[0]);

int model__payload_fn(const char *name, size_t len)
{
	return find_name(perfctr_pvs, sizeof(perfctr_pvs[0]), PERFCTR_PV_N,
			 name, len);
}

int model__decoder_fn(const char *name, size_t len)
{
	return find_name(decoder_fns, sizeof(decoder_fns[0]), ndecoder_fns,
			 name, len);
}

int model__uses_payload(const struct model *m)
{
	size_t i;

	if (m->decoders)
		return 1;
	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].payload_fn)
			return 1;
	return 0;
}

const struct tapset_fn tapset_fns[] = {
	{ "perfctr_ratio", 0 }, { "perfctr_ratio_digits", 0 },
	{ "perfctr_percent", 0 },
	{ "perfctr_fold_kstack", PERFCTR_PL_CALLCHAIN },
	{ "perfctr_fold_ustack", PERFCTR_PL_CALLCHAIN },
};
const unsigned int ntapset_fns = sizeof(tapset_fns) / sizeof(tapset_fns[0]);

int model__tapset_fn(const char *name, size_t len)
{
	return find_name(tapset_fns, sizeof(tapset_fns[0]), ntapset_fns, name,
			 len);
}

int model__uses_tapset(const struct model *m)
{
	return !!(m->tapset_calls & ~m->tapset_user_defined);
}

int model__user_defined(const struct model *m, enum read_kind kind)
{
	return !!(m->user_defined & (1u << kind));
}

void model__describe_read(const struct counter_read *r, char *buf,
			  size_t len)
{
	const char *name = r->event_fn ? event_fns[r->event_fn - 1].name :
			   read_kind_names[r->kind];

	if (r->payload_fn)
		snprintf(buf, len, "%s(%s)", perfctr_pvs[r->payload_fn - 1].fn,
			 perfctr_pv_indexed(&perfctr_pvs[r->payload_fn - 1]) ?
			 "..." : "");
	else if (r->event_fn && event_fns[r->event_fn - 1].event)
		snprintf(buf, len, "%s()", name);
	else if (r->dynamic)
		snprintf(buf, len, "%s(...)", name);
	else
		snprintf(buf, len, "%s%s(\"%s\"%s)",
			 r->kind == READ_MACRO ? "@" : "", name, r->id,
			 read_kind_more_args(r->kind) ? ", ..." : "");
}

void model__init(struct model *m, char *const *args, int nargs)
{
	memset(m, 0, sizeof(*m));
	m->args = args;
	m->nargs = nargs;
}

void model__free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nstmts; i++) {
		free(m->stmts[i].points);
		free(m->stmts[i].names);
	}
	free(m->stmts);
	free(m->counters);
	free(m->reads);
	free(m->fns);
	free(m->calls);
	memset(m, 0, sizeof(*m));
}

/* Grows an array by one zeroed element; aborts on exhaustion (the
 * translator is a short-lived process; there is nothing to unwind). */
static void *grow(void *base, size_t *n, size_t *cap, size_t size)
{
	char *p = base;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		p = realloc(p, *cap * size);
		if (!p)
			abort();
	}
	memset(p + *n * size, 0, size);
	(*n)++;
	return p;
}

struct counter *model__add_counter(struct model *m)
{
	m->counters = grow(m->counters, &m->ncounters, &m->counters_cap,
			   sizeof(*m->counters));
	m->counters[m->ncounters - 1].idx = m->ncounters - 1;
	return &m->counters[m->ncounters - 1];
}

struct counter_read *model__add_read(struct model *m)
{
	m->reads = grow(m->reads, &m->nreads, &m->reads_cap,
			sizeof(*m->reads));
	return &m->reads[m->nreads - 1];
}

struct script_fn *model__add_fn(struct model *m)
{
	m->fns = grow(m->fns, &m->nfns, &m->fns_cap, sizeof(*m->fns));
	return &m->fns[m->nfns - 1];
}

struct script_call *model__add_call(struct model *m)
{
	m->calls = grow(m->calls, &m->ncalls, &m->calls_cap,
			sizeof(*m->calls));
	return &m->calls[m->ncalls - 1];
}

struct probe_stmt *model__add_stmt(struct model *m)
{
	m->stmts = grow(m->stmts, &m->nstmts, &m->stmts_cap,
			sizeof(*m->stmts));
	return &m->stmts[m->nstmts - 1];
}

/* The request a counter makes: its interface fields (perfctr_iface.h). */
#define COPY_UINT(name)		r->name = c->name;
#define COPY_LETTERS(name)	r->name = c->name;
#define COPY_WORD(name)		memcpy(r->name, c->name, sizeof(r->name));
#define COPY_STR(name)		memcpy(r->name, c->name, sizeof(r->name));
#define COPY_FIELD(kind, name, arg, opt)	COPY_##kind(name)

void counter__request(const struct counter *c, struct perfctr_request *r)
{
	PERFCTR_REQUEST_FIELDS(COPY_FIELD)
}

void counter__locate(struct counter *c, const struct source *s,
		     const struct token *where)
{
	c->source = s;
	c->where = *where;
	snprintf(c->src, sizeof(c->src), "%s:%d:%d", s->name, where->line,
		 where->col);
}

struct counter *model__find(const struct model *m, const char *id)
{
	size_t i;

	for (i = 0; i < m->ncounters; i++)
		if (strcmp(m->counters[i].id, id) == 0)
			return &m->counters[i];
	return NULL;
}

int model__active(const struct model *m)
{
	size_t i;

	if (m->ncounters || m->dynamic_reads || m->decoders)
		return 1;
	for (i = 0; i < m->nreads; i++)	/* a script's own cpu_cycles() */
		if (!m->reads[i].event_fn || !(m->fn_user_defined &
					       (1u << (m->reads[i].event_fn - 1))))
			return 1;
	return 0;
}
