// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * emit.c - writing the generated tapset.  The layout is documented in
 * docs/design.md; the runtime (runtime/perfctr.h) defines what the C part
 * must provide.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/* A C string literal that is also safe inside stap's %{ %}: no '%' (it
 * could close the block), no quotes or backslashes unescaped. */
static void c_string(struct strbuf *sb, const char *s)
{
	strbuf__add(sb, "\"", 1);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\' || c == '%' || c < 0x20 || c >= 0x7f)
			strbuf__printf(sb, "\\%03o", c);
		else
			strbuf__add(sb, s, 1);
	}
	strbuf__add(sb, "\"", 1);
}

/* The same fields as the module's initializer (struct
 * perfctr_request_desc): ".NAME = VALUE, " each. */
#define INIT_UINT(name)		strbuf__printf(sb, "." #name " = %u, ", c->name);
#define INIT_LETTERS(name)	INIT_UINT(name)
#define INIT_WORD(name)		INIT_STR(name)
#define INIT_STR(name)							\
	do {								\
		strbuf__add(sb, "." #name " = ", sizeof(#name) + 3);	\
		c_string(sb, c->name);					\
		strbuf__add(sb, ", ", 2);				\
	} while (0);
#define INIT_FIELD(kind, name, arg, opt)	INIT_##kind(name)

static void request_init(struct strbuf *sb, const struct counter *c)
{
	PERFCTR_REQUEST_FIELDS(INIT_FIELD)
}

static int table_hash(const struct model *m, char hex[17])
{
	/* on the heap: 1.4 KB a request */
	struct perfctr_request *reqs = calloc(m->ncounters + 1, sizeof(*reqs));
	size_t i, n = 0;

	if (!reqs)
		abort();
	for (i = 0; i < m->ncounters; i++)
		if (m->counters[i].used)
			counter__request(&m->counters[i], &reqs[n++]);
	perfctr_table__hash(reqs, n, hex);
	free(reqs);
	return 0;
}

/* %( C1 %? [%:] %( C2 %? [%:] ... BODY %) %) around a counter's C. */
static void open_conditions(struct strbuf *sb, const struct counter *c)
{
	int i;

	for (i = 0; i < c->ncond; i++) {
		const struct cond_frame *f = &c->cond[i];

		strbuf__add(sb, "%(", 2);
		strbuf__add(sb, f->src->text + f->off, f->len);
		strbuf__add(sb, "%? ", 3);
		if (f->in_else)
			strbuf__add(sb, "%: ", 3);
	}
}

static void close_conditions(struct strbuf *sb, const struct counter *c)
{
	int i;

	for (i = 0; i < c->ncond; i++)
		strbuf__add(sb, " %)", 3);
	strbuf__add(sb, "\n", 1);
}

/* Conditional counters become C macros the table below tests. */
static void emit_presence(struct strbuf *sb, const struct model *m)
{
	size_t i;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used || !c->ncond)
			continue;
		open_conditions(sb, c);
		if (c->missing_arg)	/* stap: "argument out of range" */
			strbuf__printf(sb, "%%( @%u == \"\" %%? %%) ",
				       c->missing_arg);
		strbuf__printf(sb, "%%{ #define PERFCTR_PRESENT_%u 1 %%}",
			       c->idx);
		close_conditions(sb, c);
	}
}

static void if_present(struct strbuf *sb, const struct counter *c)
{
	if (c->ncond)
		strbuf__printf(sb, "#ifdef PERFCTR_PRESENT_%u\n", c->idx);
}

static void endif_present(struct strbuf *sb, const struct counter *c)
{
	if (c->ncond)
		strbuf__add(sb, "#endif\n", 7);
}

/* The same requests, one per line, for the module's read-only
 * perfctr_requests parameter: what --dump-counters shows in use. */
static int emit_requests_text(struct strbuf *sb, const struct model *m)
{
	struct perfctr_request r;
	char rec[PERFCTR_REQ_FMT_MAX + 1];	/* and a newline */
	size_t i;

	strbuf__printf(sb, "static const char perfctr_requests_text[] =\n");
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used)
			continue;
		counter__request(c, &r);
		if (perfctr_request__format(&r, rec, sizeof(rec) - 1) < 0)
			return -ENOSPC;
		strcat(rec, "\n");
		if_present(sb, c);
		strbuf__add(sb, "\t", 1);
		c_string(sb, rec);
		strbuf__add(sb, "\n", 1);
		endif_present(sb, c);
	}
	strbuf__printf(sb, "\t\"\";\n");
	return 0;
}

/* A .thread or .cgroup counter's place among the script's counters of
 * its scope: a thread's record, and a CPU's cgroup bookkeeping, hold
 * just those. */
static unsigned int scope_slot(const struct model *m, const struct counter *c)
{
	unsigned int scope = c->scope == PERFCTR_SCOPE_CGROUP ||
			     c->scope == PERFCTR_SCOPE_SOCKET ?
			     c->scope : PERFCTR_SCOPE_THREAD;
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < m->ncounters && &m->counters[i] != c; i++)
		n += m->counters[i].used && m->counters[i].scope == scope;
	return n;
}

/* The first counter of a created group: its leader. */
static int leads_group(const struct model *m, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (m->counters[j].group_no == m->counters[i].group_no)
			return 0;
	return m->counters[i].group_no != 0;
}

/* perfctr_groups[]: each created group, by its leader; its counters sit
 * together, from gslot `first` on. */
static void emit_groups(struct strbuf *sb, const struct model *m)
{
	unsigned int n;
	size_t i, j;

	if (!m->ngroups)
		return;
	strbuf__printf(sb, "static const struct perfctr_group_desc "
		       "perfctr_groups[PERFCTR_NGROUPS] = {\n");
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *l = &m->counters[i];

		if (!leads_group(m, i))
			continue;
		for (n = 0, j = i; j < m->ncounters; j++)
			n += m->counters[j].group_no == l->group_no;
		if_present(sb, l);
		strbuf__printf(sb, "\t[%u] = { .name = ", l->group_no - 1);
		c_string(sb, l->group);
		strbuf__printf(sb, ", .leader = %u, .first = %u, .n = %u, "
			       ".mux = %u },\n", l->idx, l->gslot, n, l->mux);
		endif_present(sb, l);
	}
	strbuf__add(sb, "};\n", 3);
}

static int emit_table(struct strbuf *sb, const struct model *m)
{
	struct perfctr_request r;
	char rec[PERFCTR_REQ_FMT_MAX];
	size_t i;

	strbuf__printf(sb, "static const struct perfctr_request_desc "
		       "perfctr_requests[PERFCTR_NDECLARED] = {\n");
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used)
			continue;
		if_present(sb, c);
		strbuf__printf(sb, "\t[%u] = { ", c->idx);
		request_init(sb, c);
		strbuf__printf(sb, ".tslot = %u, .group_no = %u, .gslot = %u",
			       scope_slot(m, c), c->group_no, c->gslot);
		strbuf__add(sb, " },\n", 4);
		endif_present(sb, c);
	}
	strbuf__add(sb, "};\n", 3);
	emit_groups(sb, m);
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used)
			continue;
		counter__request(c, &r);
		if (perfctr_request__format(&r, rec, sizeof(rec)) < 0)
			return -ENOSPC;
		if_present(sb, c);
		strbuf__add(sb, "MODULE_INFO(perfctr_req, ", 25);
		c_string(sb, rec);
		strbuf__add(sb, ");\n", 3);
		endif_present(sb, c);
	}
	return emit_requests_text(sb, m);
}

/* Does a read of this kind name counter c: a literal id, or one known
 * only at run time (any counter)? */
static int read_of(const struct model *m, const struct counter *c,
		   enum read_kind kind)
{
	size_t i;

	if (model__user_defined(m, kind))
		return 0;
	if (m->dynamic_kinds & (1u << kind))
		return 1;
	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].kind == kind && !m->reads[i].event_fn &&
		    !m->reads[i].payload_fn && !strcmp(m->reads[i].id, c->id))
			return 1;
	return 0;
}

/* The .cpu counters perfctr_sum() reads: each CPU snapshots them
 * (runtime/perfctr_sum.c). */
static void emit_sums(struct strbuf *sb, const struct model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!counter__readable(c) || c->scope != PERFCTR_SCOPE_CPU ||
		    counter__grouped(c) || !(read_of(m, c, READ_FN_SUM) ||
		      read_of(m, c, READ_FN_SUM_AGE)))
			continue;
		strbuf__printf(sb, n++ ? ", [%u] = 1" :
			       "#define PERFCTR_HAVE_SUM 1\n"
			       "#define PERFCTR_SUMMED { [%u] = 1", c->idx);
	}
	if (n)
		strbuf__printf(sb, " }\n");
}

/* The payloads the used sampling clauses record, together. */
static unsigned int clauses_payload(const struct model *m)
{
	unsigned int pl = 0;
	size_t i;

	for (i = 0; i < m->ncounters; i++)
		if (m->counters[i].used && counter__samples(&m->counters[i]))
			pl |= m->counters[i].payload;
	return pl;
}

/* Does a sampling body read what its sample carries (a payload
 * function of ours, not the script's own, or a tapset function that
 * reads one)? */
static int reads_payload(const struct model *m)
{
	size_t i;

	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].payload_fn &&
		    !(m->pl_user_defined & (1u << (m->reads[i].payload_fn - 1))))
			return 1;
	return clauses_payload(m) != 0;
}

/* Does the script have a sampling clause? */
static int has_samples(const struct model *m)
{
	size_t i;

	for (i = 0; i < m->ncounters; i++)
		if (m->counters[i].used && counter__samples(&m->counters[i]))
			return 1;
	return 0;
}

/*
 * Every sampling body runs inside our handler, which tells the payload
 * functions which sample and the reads that a body runs
 * (runtime/perfctr_sample.c): one per clause, so that it knows the clause
 * without a lookup.
 */
static void emit_sample_handlers(struct strbuf *sb, const struct model *m)
{
	size_t i;

	if (!has_samples(m))
		return;
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used || !counter__samples(c))
			continue;
		if_present(sb, c);
		strbuf__printf(sb, "PERFCTR_SAMPLE_HANDLER(%u)\n", c->idx);
		endif_present(sb, c);
	}
	strbuf__printf(sb, "static const perf_overflow_handler_t "
		       "perfctr_sample_handlers[PERFCTR_NDECLARED] = {\n");
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used || !counter__samples(c))
			continue;
		if_present(sb, c);
		strbuf__printf(sb, "\t[%u] = perfctr_sample_handler_%u,\n",
			       c->idx, c->idx);
		endif_present(sb, c);
	}
	strbuf__add(sb, "};\n", 3);
}

/* Which scopes the runtime must build in; .thread records' size. */
static void emit_scopes(struct strbuf *sb, const struct model *m)
{
	const struct counter *last = NULL, *last_cg = NULL, *last_so = NULL;
	int process = 0;
	size_t i;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (counter__readable(c) && c->scope == PERFCTR_SCOPE_THREAD)
			last = c;
		if (counter__readable(c) && c->scope == PERFCTR_SCOPE_CGROUP)
			last_cg = c;
		if (counter__readable(c) && c->scope == PERFCTR_SCOPE_SOCKET)
			last_so = c;
		process |= c->used && c->scope == PERFCTR_SCOPE_PROCESS;
	}
	if (last)
		strbuf__printf(sb, "#define PERFCTR_NTHREAD %u\n",
			       scope_slot(m, last) + 1);
	if (last && m->thread_switch_reads)
		strbuf__printf(sb, "#define PERFCTR_THREAD_SWITCH_READS 1\n");
	if (last_cg)
		strbuf__printf(sb, "#define PERFCTR_NCGROUP %u\n",
			       scope_slot(m, last_cg) + 1);
	if (last_so)
		strbuf__printf(sb, "#define PERFCTR_NSOCKET %u\n",
			       scope_slot(m, last_so) + 1);
	if (process)
		strbuf__printf(sb, "#define PERFCTR_HAVE_PROCESS 1\n");
	if (has_samples(m))
		strbuf__printf(sb, "#define PERFCTR_HAVE_SAMPLES 1\n");
	emit_sums(sb, m);
	if (m->ngroups)
		strbuf__printf(sb, "#define PERFCTR_NGROUPS %u\n"
			       "#define PERFCTR_NGSLOTS %u\n", m->ngroups,
			       m->ngslots);
	if (reads_payload(m))
		strbuf__printf(sb, "#define PERFCTR_HAVE_PAYLOAD 1\n");
}

/* The runtime's read of a counter of this kind (runtime/perfctr.h). */
static const char *read_fn(const struct counter *c)
{
	if (c->scope != PERFCTR_SCOPE_CPU)
		return perfctr_scope__read(c->scope);
	if (c->group_no)	/* one snapshot of the group per probe */
		return "perfctr_read_group";
	return c->mux ? "perfctr_read_scaled" :
	       perfctr_scope__read(PERFCTR_SCOPE_CPU);
}

/* What a message calls the counter: counter "pf", or an event
 * function's by its event, event "cycles". */
static void counter_what(const struct counter *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s \"%s\"", c->event_fn ? "event" : "counter",
		 c->event_fn ? c->event : c->id);
}

/* A stap string literal: quotes and backslashes escaped. */
static void stap_string(struct strbuf *sb, const char *s)
{
	strbuf__add(sb, "\"", 1);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf__add(sb, "\\", 1);
		strbuf__add(sb, s, 1);
	}
	strbuf__add(sb, "\"", 1);
}

/* The counter's what, as a stap string argument. */
static void what_arg(struct strbuf *sb, const struct counter *c)
{
	char what[PERFCTR_NAME_MAX + 16];

	counter_what(c, what, sizeof(what));
	stap_string(sb, what);
}

static unsigned int nsites(const struct model *m)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].site > n)
			n = m->reads[i].site;
	return n;
}

/* perfctr_sites[]: each rewritten read as the script writes it, where it
 * is, in site order (rewrite.c numbers them in read order). */
static void emit_sites(struct strbuf *sb, const struct model *m)
{
	char what[PERFCTR_NAME_MAX + 32], at[PERFCTR_SRC_MAX + 64];
	size_t i;

	strbuf__printf(sb, "static const char *const perfctr_sites"
		       "[PERFCTR_NSITES + 1] = {\n");
	for (i = 0; i < m->nreads; i++) {
		const struct counter_read *r = &m->reads[i];

		if (!r->site)
			continue;
		model__describe_read(r, what, sizeof(what));
		snprintf(at, sizeof(at), "%s at %s:%d:%d", what, r->src->name,
			 r->name.line, r->name.col);
		strbuf__add(sb, "\t", 1);
		c_string(sb, at);
		strbuf__add(sb, ",\n", 2);
	}
	strbuf__printf(sb, "\tNULL\n};\n");
}

static int emit_c(struct strbuf *sb, const struct model *m,
		  const struct emit_opts *o, const char *hash)
{
	emit_presence(sb, m);
	strbuf__printf(sb, "%%{\n/* runtime sources: %s */\n%s"
		       "#define PERFCTR_NDECLARED %zu\n"
		       "#define PERFCTR_TABLE_HASH \"%s\"\n"
		       "#define PERFCTR_NSITES %u\n",
		       o->runtime_hash, o->kconf ? o->kconf : "",
		       m->ncounters ? m->ncounters : 1, hash, nsites(m));
	emit_scopes(sb, m);
	strbuf__printf(sb, "#define PERFCTR_SAMPLE_MAGIC %#llxULL\n",
		       PERFCTR_SAMPLE_MAGIC);
	strbuf__add(sb, o->runtime->head.buf, o->runtime->head.len);
	if (emit_table(sb, m) < 0)
		return -ENOSPC;
	emit_sites(sb, m);
	emit_sample_handlers(sb, m);
	strbuf__printf(sb, "MODULE_INFO(perfctr_table, \"v=1;n=%zu;hash=%s;"
		       "priv=%s\" PERFCTR_TABLE_THROTTLE);\n", m->ncounters,
		       hash, o->privilege);
	strbuf__add(sb, o->runtime->body.buf, o->runtime->body.len);
	strbuf__printf(sb, "%%}\n\n");
	return 0;
}

/*
 * stap lets a --privilege=stapusr script call an embedded-C function only
 * when it carries this mark.  The reads, the stamp and the task finder's
 * empty probe are safe for anyone: they read counters the module made
 * under perf_event_paranoid's rules (runtime/perfctr_priv.c) and the
 * current task's own context switches.  __perfctr_sampled is not marked:
 * sampling clauses use stap's perf probes, which stapusr cannot have.
 */
#define UNPRIV "/* unprivileged */ "

/*
 * One function per counter, for reads that are not rewritten (the
 * user's tapsets, @perfctr(@param) in a macro) and for the lookups by id;
 * site is the read's entry in perfctr_sites[], or -1.
 */
static void emit_read_functions(struct strbuf *sb, const struct model *m)
{
	char what[PERFCTR_NAME_MAX + 16];
	size_t i;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!counter__readable(c))
			continue;
		counter_what(c, what, sizeof(what));
		strbuf__printf(sb, "function __perfctr_read_%u:long (site:long) "
			       "%%{ /* pure */ " UNPRIV "PERFCTR_READ(%s, %u, ",
			       c->idx, read_fn(c), c->idx);
		c_string(sb, what);
		strbuf__printf(sb, ", STAP_ARG_site); %%}\n");
	}
	strbuf__printf(sb, "function __perfctr_times:long (idx:long, "
		       "part:long, what:string, site:long) %%{ /* pure */ "
		       UNPRIV "PERFCTR_TIMES(STAP_ARG_idx, STAP_ARG_part, "
		       "STAP_ARG_what, STAP_ARG_site); %%}\n");
	strbuf__printf(sb, "function __perfctr_total:long (idx:long, "
		       "what:string, site:long) %%{ /* pure */ " UNPRIV
		       "PERFCTR_TOTAL(STAP_ARG_idx, STAP_ARG_what, "
		       "STAP_ARG_site); %%}\n");
	strbuf__printf(sb, "function __perfctr_sum:long (idx:long, age:long, "
		       "what:string, site:long) %%{ /* pure */ " UNPRIV
		       "PERFCTR_SUM(STAP_ARG_idx, STAP_ARG_age, STAP_ARG_what, "
		       "STAP_ARG_site); %%}\n");
	strbuf__printf(sb, "function __perfctr_unit:string (id:string) %%{ "
		       "/* pure */ " UNPRIV "PERFCTR_UNIT(STAP_ARG_id); %%}\n");
	strbuf__printf(sb, "function __perfctr_scaled:long (id:string, "
		       "count:long, per:long) %%{ /* pure */ " UNPRIV
		       "PERFCTR_SCALED(STAP_ARG_id, STAP_ARG_count, "
		       "STAP_ARG_per); %%}\n");
	strbuf__printf(sb, "function __perfctr_age:long (idx:long, "
		       "what:string, site:long) %%{ /* pure */ " UNPRIV
		       "PERFCTR_READ_IDX(perfctr_read_socket_age, STAP_ARG_idx, "
		       "PERFCTR_RE_NOT_SOCKET, STAP_ARG_what, STAP_ARG_site); "
		       "%%}\n");
	strbuf__printf(sb, "function __perfctr_socket_n:long (idx:long, "
		       "n:long, what:string, site:long) %%{ /* pure */ " UNPRIV
		       "PERFCTR_SOCKET_N(STAP_ARG_idx, STAP_ARG_n, STAP_ARG_what, "
		       "STAP_ARG_site); %%}\n");
	strbuf__printf(sb, "function __perfctr_delta_cpu:long (now:long, "
		       "start:long, stamp:long, what:string, site:long) %%{ "
		       "/* pure */ " UNPRIV "PERFCTR_SAME_STAMP(STAP_ARG_stamp, "
		       "STAP_ARG_what, STAP_ARG_site); STAP_RETURN(STAP_ARG_now "
		       "- STAP_ARG_start); %%}\n");
	strbuf__printf(sb, "function __perfctr_undeclared:long (id:string, "
		       "site:long) %%{ " UNPRIV "PERFCTR_UNDECLARED(STAP_ARG_id, "
		       "STAP_ARG_site); %%}\n");
	if (m->ngroups)
		strbuf__printf(sb, "function __perfctr_td:long (idx:long, "
			       "what:string, site:long) %%{ /* pure */ " UNPRIV
			       "PERFCTR_READ_IDX(perfctr_read_topdown, "
			       "STAP_ARG_idx, -ENODEV, STAP_ARG_what, "
			       "STAP_ARG_site); %%}\n");
}

/* What each read function returns, the call that does it for counter
 * %u (what and site follow), and the arguments it takes after the id. */
static const struct {
	const char *what, *call_fmt;
} lookups[READ_NKINDS] = {
	[READ_FN_READ] = { "the counter named id, on this CPU",
			   "__perfctr_read_%u(site)" },
	[READ_FN_COUNT] = { "the counter's own count, unscaled, on this CPU",
			    "__perfctr_times(%u, 2, %s, site)" },
	[READ_FN_ENABLED] = { "ns the counter was enabled, on this CPU",
			      "__perfctr_times(%u, 0, %s, site)" },
	[READ_FN_RUNNING] = { "ns the counter was on the PMU (less than "
			      "enabled when multiplexed), on this CPU",
			      "__perfctr_times(%u, 1, %s, site)" },
	[READ_FN_TOTAL] = { "every followed task's count of a .process "
			    "counter, live and gone",
			    "__perfctr_total(%u, %s, site)" },
	[READ_FN_SUM] = { "a .cpu counter summed over every CPU: this CPU's "
			  "count now, the others' latest snapshots (a "
			  ".socket counter's sockets' snapshots)",
			  "__perfctr_sum(%u, 0, %s, site)" },
	[READ_FN_SUM_AGE] = { "ns since the oldest snapshot a perfctr_sum(id) "
			      "would use now was taken",
			      "__perfctr_sum(%u, 1, %s, site)" },
	[READ_FN_DELTA] = { "the count of id since start, read at "
			    "perfctr_stamp() stamp", NULL },
	[READ_FN_AGE] = { "ns since the snapshot of this CPU's socket that "
			  "@perfctr(id) of a .socket counter reads now was "
			  "taken", "__perfctr_age(%u, %s, site)" },
	[READ_FN_SOCKET] = { "the latest snapshot of socket n (0, 1, ... in "
			     "the order of their CPUs) of a .socket counter",
			     "__perfctr_socket_n(%u, n, %s, site)" },
	[READ_FN_TOPDOWN] = { "parts per thousand of the slots its group's "
			      "level-1 topdown metrics took that metric id "
			      "took, on this CPU, as perf stat shows it",
			      "__perfctr_td(%u, %s, site)" },
};

/* The call that answers a read of kind k of counter c, site in `site`. */
static void lookup_call(struct strbuf *sb, enum read_kind k,
			const struct counter *c)
{
	struct strbuf what = { 0 };

	what_arg(&what, c);
	if (k != READ_FN_DELTA)
		strbuf__printf(sb, lookups[k].call_fmt, c->idx, what.buf);
	else if (c->scope == PERFCTR_SCOPE_CPU)
		strbuf__printf(sb, "__perfctr_delta_cpu(__perfctr_read_%u(site), "
			       "start, stamp, %s, site)", c->idx, what.buf);
	else
		strbuf__printf(sb, "__perfctr_read_%u(site) - start", c->idx);
	strbuf__free(&what);
}

/* The arguments after the id, as a function takes them and passes them. */
static const char *lookup_params(enum read_kind k)
{
	return k == READ_FN_DELTA ? ", start:long, stamp:long" :
	       k == READ_FN_SOCKET ? ", n:long" : "";
}

static const char *lookup_args(enum read_kind k)
{
	return k == READ_FN_DELTA ? ", start, stamp" :
	       k == READ_FN_SOCKET ? ", n" : "";
}

/*
 * __perfctr_NAME_at(id, ..., site): the id looked up when the read runs,
 * "if (id == ID) return CALL" for each counter read; the script's
 * perfctr_NAME(id, ...) is the same without a site.
 */
static void emit_lookup(struct strbuf *sb, const struct model *m,
			enum read_kind k)
{
	const char *name = read_kind_names[k];
	size_t i;

	strbuf__printf(sb, "\n/* %s */\nfunction __%s_at:long (id:string%s, "
		       "site:long) {\n", lookups[k].what, name,
		       lookup_params(k));
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!counter__readable(c))
			continue;
		strbuf__printf(sb, "\tif (id == \"%s\") return ", c->id);
		lookup_call(sb, k, c);
		strbuf__add(sb, "\n", 1);
	}
	strbuf__printf(sb, "\treturn __perfctr_undeclared(id, site)\n}\n");
	if (!model__user_defined(m, k))
		strbuf__printf(sb, "function %s:long (id:string%s) { return "
			       "__%s_at(id%s, -1) }\n", name, lookup_params(k),
			       name, lookup_args(k));
}

static void emit_lookups(struct strbuf *sb, const struct model *m)
{
	enum read_kind k;

	for (k = READ_FN_READ; k < READ_NKINDS; k++)
		if (lookups[k].what && (k != READ_FN_TOPDOWN || m->ngroups))
			emit_lookup(sb, m, k);
	if (!model__user_defined(m, READ_FN_STAMP))
		strbuf__printf(sb, "\n/* where this thread is: its CPU and "
			       "context switches */\nfunction perfctr_stamp:long "
			       "() %%{ " UNPRIV
			       "STAP_RETURN(perfctr_stamp()); %%}\n");
}

/*
 * Each read the script's own text makes became a call of __pcN, its
 * site (rewrite.c): the read itself, in C, that knows where it is.  A
 * read by id looks it up with its site.
 */
static void emit_site(struct strbuf *sb, const struct model *m,
		      const struct counter_read *r)
{
	static const char *const parts[READ_NKINDS] = {
		[READ_FN_COUNT] = "2", [READ_FN_ENABLED] = "0",
		[READ_FN_RUNNING] = "1",
	};
	const struct counter *c;
	char what[PERFCTR_NAME_MAX + 16];

	if (r->payload_fn) {
		const struct perfctr_pv_desc *pv = &perfctr_pvs[r->payload_fn - 1];

		strbuf__printf(sb, "function __pc%u:long (%s) %%{ /* pure */ "
			       "PERFCTR_PAYLOAD(%u, %s, %u); %%}\n", r->site - 1,
			       perfctr_pv_indexed(pv) ? "i:long" : "",
			       r->payload_fn - 1,
			       perfctr_pv_indexed(pv) ? "STAP_ARG_i" : "0",
			       r->site - 1);
		return;
	}
	if (r->dynamic) {
		strbuf__printf(sb, "function __pc%u:long (id:string%s) { return "
			       "__%s_at(id%s, %u) }\n", r->site - 1,
			       lookup_params(r->kind), read_kind_names[r->kind],
			       lookup_args(r->kind), r->site - 1);
		return;
	}
	c = &m->counters[r->counter - 1];
	counter_what(c, what, sizeof(what));
	strbuf__printf(sb, "function __pc%u:long (%s) %%{ /* pure */ " UNPRIV,
		       r->site - 1, lookup_params(r->kind) +
		       (read_kind_more_args(r->kind) ? 2 : 0));
	if (r->kind == READ_FN_DELTA)
		strbuf__printf(sb, "PERFCTR_DELTA(%s, %u, ", read_fn(c), c->idx);
	else if (r->kind == READ_FN_TOTAL)
		strbuf__printf(sb, "PERFCTR_TOTAL(%u, ", c->idx);
	else if (r->kind == READ_FN_SUM || r->kind == READ_FN_SUM_AGE)
		strbuf__printf(sb, "PERFCTR_SUM(%u, %d, ", c->idx,
			       r->kind == READ_FN_SUM_AGE);
	else if (r->kind == READ_FN_TOPDOWN)
		strbuf__printf(sb, "PERFCTR_READ(perfctr_read_topdown, %u, ",
			       c->idx);
	else if (r->kind == READ_FN_AGE)
		strbuf__printf(sb, "PERFCTR_READ(perfctr_read_socket_age, %u, ",
			       c->idx);
	else if (r->kind == READ_FN_SOCKET)
		strbuf__printf(sb, "PERFCTR_SOCKET_N(%u, STAP_ARG_n, ", c->idx);
	else if (parts[r->kind])
		strbuf__printf(sb, "PERFCTR_TIMES(%u, %s, ", c->idx,
			       parts[r->kind]);
	else
		strbuf__printf(sb, "PERFCTR_READ(%s, %u, ", read_fn(c), c->idx);
	c_string(sb, what);
	strbuf__printf(sb, ", %u", r->site - 1);
	if (r->kind == READ_FN_DELTA)
		strbuf__printf(sb, ", STAP_ARG_start, STAP_ARG_stamp, %d",
			       c->scope == PERFCTR_SCOPE_CPU);
	strbuf__printf(sb, "); %%}\n");
}

static void emit_sites_functions(struct strbuf *sb, const struct model *m)
{
	size_t i;

	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].site)
			emit_site(sb, m, &m->reads[i]);
}

/*
 * The static tapset's event functions (tapset/perfctr.stp) call these:
 * __perfctr_fn_NAME() for cpu_cycles() and kin, __NAME(event) for
 * perfctr_read_event("EVENT") and perfctr_read_thread_event("EVENT");
 * only those the scripts call.
 */
static void emit_event_fns(struct strbuf *sb, const struct model *m)
{
	unsigned int fn;
	size_t i;

	for (fn = 0; fn < nevent_fns; fn++) {
		int any = 0;

		for (i = 0; i < m->ncounters; i++) {
			const struct counter *c = &m->counters[i];

			if (c->event_fn != fn + 1)
				continue;
			if (event_fns[fn].event) {
				strbuf__printf(sb, "function __perfctr_fn_%s:long "
					       "() { return __perfctr_read_%u(-1) }"
					       "\n", event_fns[fn].name, c->idx);
				continue;
			}
			if (!any++)
				strbuf__printf(sb, "function __%s:long (event:"
					       "string) {\n", event_fns[fn].name);
			strbuf__printf(sb, "\tif (event == ");
			c_string(sb, c->event);
			strbuf__printf(sb, ") return __perfctr_read_%u(-1)\n",
				       c->idx);
		}
		if (any)
			strbuf__printf(sb, "\treturn __perfctr_undeclared(event, "
				       "-1)\n}\n");
	}
}

/*
 * The fold functions of the tapset, over the sample's call chain where
 * a clause records it: an overload at stap's default priority, which
 * tries it first, and which passes (next) to the tapset's own, over
 * stap's backtrace (priority 100), wherever no sample with a chain is
 * (another probe, a clause that does not record one).
 */
static void emit_chain_folds(struct strbuf *sb, const struct model *m)
{
	static const char *const range[2] = {
		"0, perfctr_sample_kernel_frames(), 0",
		"perfctr_sample_kernel_frames(), perfctr_sample_callchain(), 1",
	};
	unsigned int k;
	int tf;

	if (!(clauses_payload(m) & PERFCTR_PL_CALLCHAIN))
		return;
	strbuf__printf(sb, "function __perfctr_chain_here:long () %%{ "
		       "/* pure */ PERFCTR_CHAIN_HERE(); %%}\n");
	for (k = 0; k < 2; k++) {
		const char *name = k ? "perfctr_fold_ustack" :
				   "perfctr_fold_kstack";

		tf = model__tapset_fn(name, strlen(name));
		if (!(m->tapset_calls & ~m->tapset_user_defined & (1u << tf)))
			continue;
		strbuf__printf(sb, "function %s:string () { if "
			       "(!__perfctr_chain_here()) next; return "
			       "__perfctr_fold_chain(%s) }\n", name, range[k]);
	}
}

/*
 * The static tapset's payload functions (tapset/perfctr.stp) call
 * __perfctr_sample_NAME(arg, site), for calls that are not rewritten
 * (the user's tapsets); its decoders call __perfctr_mem_NAME(v) and
 * __perfctr_branch_NAME(v), pure C (runtime/perfctr_payload.h).  Only
 * those the scripts use.
 */
static void emit_payload_fns(struct strbuf *sb, const struct model *m)
{
	unsigned int pv, k;

	emit_chain_folds(sb, m);
	for (pv = 0; reads_payload(m) && pv < PERFCTR_PV_N; pv++)
		strbuf__printf(sb, "function __%s:long (arg:long, site:long) "
			       "%%{ /* pure */ PERFCTR_PAYLOAD(%u, STAP_ARG_arg, "
			       "STAP_ARG_site); %%}\n", perfctr_pvs[pv].fn, pv);
	for (k = 0; k < ndecoder_fns; k++) {
		if (!(m->decoders & ~m->dec_user_defined & (1u << k)))
			continue;
		if (decoder_fns[k].string)
			strbuf__printf(sb, "function __%s:string (v:long) %%{ "
				       "/* pure */ " UNPRIV "PERFCTR_DECODE_STR("
				       "%s, STAP_ARG_v); %%}\n",
				       decoder_fns[k].name, decoder_fns[k].name);
		else
			strbuf__printf(sb, "function __%s:long (v:long) %%{ "
				       "/* pure */ " UNPRIV "STAP_RETURN(%s("
				       "STAP_ARG_v)); %%}\n", decoder_fns[k].name,
				       decoder_fns[k].name);
	}
}

/*
 * .process counters follow tasks with stap's task finder, which stap's
 * init starts only when the module has a process probe: one that does
 * nothing, on the target or the first path.
 */
static void emit_task_finder_probe(struct strbuf *sb, const struct model *m)
{
	const struct counter *path = NULL;
	size_t i;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used || c->scope != PERFCTR_SCOPE_PROCESS)
			continue;
		if (!c->target[0]) {
			strbuf__printf(sb, "\nprobe process.begin "
				       "{ __perfctr_follow() }\n");
			return;
		}
		if (!path)
			path = c;
	}
	if (path) {
		strbuf__printf(sb, "\nprobe process(");
		c_string(sb, path->target);
		strbuf__printf(sb, ").begin { __perfctr_follow() }\n");
	}
}

static void emit_macro(struct strbuf *sb, const struct model *m)
{
	size_t i, open = 0;

	if (model__user_defined(m, READ_MACRO))
		return;
	strbuf__printf(sb, "/* Generated by stap-perfctr: do not edit. */\n"
		       "@define perfctr(id) %%( ");
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!counter__readable(c))
			continue;
		strbuf__printf(sb, "%%( @id == \"%s\" %%? __perfctr_read_%u(-1) "
			       "%%: ", c->id, c->idx);
		open++;
	}
	strbuf__printf(sb, "__perfctr_undeclared(@id, -1)");
	while (open--)
		strbuf__add(sb, " %)", 3);
	strbuf__add(sb, " %)\n", 4);
}

/*
 * Each sampling clause's probe point became __perfctr_sampleN (parser.c):
 * an alias of stap's perf probe, created with a placeholder encoding that
 * the module replaces before stap's init creates the events
 * (runtime/perfctr_sample.c).  Its prologue counts the body's runs.
 */
static void emit_sample_aliases(struct strbuf *sb, const struct model *m)
{
	size_t i;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used || !counter__samples(c))
			continue;
		strbuf__printf(sb, "\nprobe __perfctr_sample%u = perf.type(%u)"
			       ".config(%#llx)", c->idx, PERFCTR_SAMPLE_TYPE,
			       PERFCTR_SAMPLE_MAGIC | c->idx);
		if (c->scope == PERFCTR_SCOPE_PROCESS) {
			strbuf__printf(sb, ".process");
			if (c->target[0]) {
				strbuf__add(sb, "(", 1);
				c_string(sb, c->target);
				strbuf__add(sb, ")", 1);
			}
		}
		strbuf__printf(sb, " { __perfctr_sampled(%u) }\n", c->idx);
	}
}

int emit__generate(const struct model *m, const struct emit_opts *o,
		   struct generated *gen)
{
	memset(gen, 0, sizeof(*gen));
	table_hash(m, gen->table_hash);
	strbuf__printf(&gen->stp, "// Generated by stap-perfctr: do not "
		       "edit.\n");
	if (emit_c(&gen->stp, m, o, gen->table_hash) < 0)
		return -ENOSPC;
	emit_read_functions(&gen->stp, m);
	emit_lookups(&gen->stp, m);
	emit_sites_functions(&gen->stp, m);
	emit_event_fns(&gen->stp, m);
	emit_payload_fns(&gen->stp, m);
	strbuf__printf(&gen->stp, "function __perfctr_follow() %%{ "
		       UNPRIV "/* the task finder's callbacks do the work */ "
		       "%%}\n");
	emit_task_finder_probe(&gen->stp, m);
	strbuf__printf(&gen->stp, "function __perfctr_sampled(idx:long) %%{ "
		       "PERFCTR_SAMPLED(STAP_ARG_idx); %%}\n");
	emit_sample_aliases(&gen->stp, m);
	emit_macro(&gen->stpm, m);
	return 0;
}

void emit__free(struct generated *gen)
{
	strbuf__free(&gen->stp);
	strbuf__free(&gen->stpm);
}
