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

static void request_of(const struct counter *c, struct perfctr_request *r)
{
	memset(r, 0, sizeof(*r));
	r->idx = c->idx;
	r->plm = c->plm;
	r->gh = c->gh;
	r->mux = c->mux;
	r->scope = c->scope;
	snprintf(r->target, sizeof(r->target), "%s", c->target);
	r->sample = c->sample;
	r->hz = c->hz;
	r->precise = c->precise;
	snprintf(r->id, sizeof(r->id), "%s", c->id);
	snprintf(r->event, sizeof(r->event), "%s", c->event);
	snprintf(r->src, sizeof(r->src), "%s:%d:%d", c->src->name,
		 c->where.line, c->where.col);
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
			request_of(&m->counters[i], &reqs[n++]);
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
	char rec[1024];
	size_t i;

	strbuf__printf(sb, "static const char perfctr_requests_text[] =\n");
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used)
			continue;
		request_of(c, &r);
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

/* A .thread counter's place among the script's .thread counters: each
 * thread's record holds just those. */
static unsigned int thread_slot(const struct model *m, const struct counter *c)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < m->ncounters && &m->counters[i] != c; i++)
		n += m->counters[i].used &&
		     m->counters[i].scope == PERFCTR_SCOPE_THREAD;
	return n;
}

static int emit_table(struct strbuf *sb, const struct model *m)
{
	struct perfctr_request r;
	char rec[1024];
	size_t i;

	strbuf__printf(sb, "static const struct perfctr_request_desc "
		       "perfctr_requests[PERFCTR_NDECLARED] = {\n");
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used)
			continue;
		request_of(c, &r);
		if_present(sb, c);
		strbuf__printf(sb, "\t[%u] = { .id = ", c->idx);
		c_string(sb, r.id);
		strbuf__add(sb, ", .event = ", 11);
		c_string(sb, r.event);
		strbuf__printf(sb, ", .plm = %u, .gh = %u, .mux = %u, "
			       ".scope = %u, .tslot = %u, .sample = %u, "
			       ".hz = %u, .precise = %u, .target = ", r.plm,
			       r.gh, r.mux, r.scope, thread_slot(m, c),
			       r.sample, r.hz, r.precise);
		c_string(sb, r.target);
		strbuf__add(sb, ", .src = ", 9);
		c_string(sb, r.src);
		strbuf__add(sb, " },\n", 4);
		endif_present(sb, c);
	}
	strbuf__add(sb, "};\n", 3);
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used)
			continue;
		request_of(c, &r);
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
		    !strcmp(m->reads[i].id, c->id))
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
		    !(read_of(m, c, READ_FN_SUM) ||
		      read_of(m, c, READ_FN_SUM_AGE)))
			continue;
		strbuf__printf(sb, n++ ? ", [%u] = 1" :
			       "#define PERFCTR_HAVE_SUM 1\n"
			       "#define PERFCTR_SUMMED { [%u] = 1", c->idx);
	}
	if (n)
		strbuf__printf(sb, " }\n");
}

/* Which scopes the runtime must build in; .thread records' size. */
static void emit_scopes(struct strbuf *sb, const struct model *m)
{
	const struct counter *last = NULL;
	int process = 0, samples = 0;
	size_t i;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (counter__readable(c) && c->scope == PERFCTR_SCOPE_THREAD)
			last = c;
		process |= c->used && c->scope == PERFCTR_SCOPE_PROCESS;
		samples |= c->used && counter__samples(c);
	}
	if (last)
		strbuf__printf(sb, "#define PERFCTR_NTHREAD %u\n",
			       thread_slot(m, last) + 1);
	if (process)
		strbuf__printf(sb, "#define PERFCTR_HAVE_PROCESS 1\n");
	if (samples)
		strbuf__printf(sb, "#define PERFCTR_HAVE_SAMPLES 1\n");
	emit_sums(sb, m);
}

/* The runtime macro that reads a counter of this kind. */
static const char *read_macro(const struct counter *c)
{
	switch (c->scope) {
	case PERFCTR_SCOPE_THREAD:
		return "PERFCTR_READ_THREAD";
	case PERFCTR_SCOPE_PROCESS:
		return "PERFCTR_READ_PROCESS";
	}
	return c->mux ? "PERFCTR_READ_MUX" : "PERFCTR_READ";
}

static int emit_c(struct strbuf *sb, const struct model *m,
		  const struct emit_opts *o, const char *hash)
{
	strbuf__printf(sb, "%%( systemtap_v >= \"5.2\" %%? "
		       "%%{ #define PERFCTR_STAP_MODULE_HOOKS 1 %%} %%)\n");
	emit_presence(sb, m);
	strbuf__printf(sb, "%%{\n/* runtime sources: %s */\n"
		       "#define PERFCTR_NDECLARED %zu\n"
		       "#define PERFCTR_TABLE_HASH \"%s\"\n",
		       o->runtime_hash, m->ncounters ? m->ncounters : 1, hash);
	emit_scopes(sb, m);
	strbuf__printf(sb, "#define PERFCTR_SAMPLE_MAGIC %#llxULL\n",
		       PERFCTR_SAMPLE_MAGIC);
	strbuf__printf(sb, "#include \"%s/perfctr.h\"\n", o->runtime_dir);
	if (emit_table(sb, m) < 0)
		return -ENOSPC;
	strbuf__printf(sb, "MODULE_INFO(perfctr_table, \"v=1;n=%zu;hash=%s;"
		       "priv=%s\");\n#include \"%s/perfctr.c\"\n%%}\n\n",
		       m->ncounters, hash, o->privilege, o->runtime_dir);
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

/* One function per counter: @perfctr folds to a call of it. */
static void emit_read_functions(struct strbuf *sb, const struct model *m)
{
	size_t i;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (counter__readable(c))
			strbuf__printf(sb, "function __perfctr_read_%u:long () "
				       "%%{ /* pure */ " UNPRIV
				       "%s(%u, \"%s\"); %%}\n",
				       c->idx, read_macro(c), c->idx, c->id);
	}
	strbuf__printf(sb, "function __perfctr_times:long (idx:long, "
		       "what:long) %%{ /* pure */ " UNPRIV
		       "PERFCTR_TIMES(STAP_ARG_idx, STAP_ARG_what); %%}\n");
	strbuf__printf(sb, "function __perfctr_total:long (idx:long) %%{ "
		       "/* pure */ " UNPRIV "PERFCTR_TOTAL(STAP_ARG_idx); %%}\n");
	strbuf__printf(sb, "function __perfctr_sum:long (idx:long, age:long) "
		       "%%{ /* pure */ " UNPRIV "PERFCTR_SUM(STAP_ARG_idx, "
		       "STAP_ARG_age); %%}\n");
	strbuf__printf(sb, "function __perfctr_delta_cpu:long (now:long, "
		       "start:long, stamp:long, id:string) %%{ /* pure */ "
		       UNPRIV "\n"
		       "\tif (perfctr_stamp() != (u64)STAP_ARG_stamp)\n"
		       "\t\tSTAP_ERROR(\"perfctr: counter \\\"%%s\\\" counts "
		       "per CPU, and the thread migrated or was switched out "
		       "since the start: no delta (count .thread or "
		       ".process)\", STAP_ARG_id);\n"
		       "\tSTAP_RETURN(STAP_ARG_now - STAP_ARG_start);\n%%}\n");
	strbuf__printf(sb, "function __perfctr_undeclared:long (id:string) {\n"
		       "\terror(\"perfctr: no counter \\\"\" . id . "
		       "\"\\\" in this script\")\n\treturn 0\n}\n");
}

/* function NAME:long (id:string), the id looked up at run time:
 * "if (id == ID) return CALL" for each counter read. */
static void emit_lookup(struct strbuf *sb, const struct model *m,
			const char *name, const char *what,
			const char *call_fmt)
{
	size_t i;

	strbuf__printf(sb, "\n/* %s */\nfunction %s:long (id:string) {\n",
		       what, name);
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!counter__readable(c))
			continue;
		strbuf__printf(sb, "\tif (id == \"%s\") return ", c->id);
		strbuf__printf(sb, call_fmt, c->idx);
		strbuf__add(sb, "\n", 1);
	}
	strbuf__printf(sb, "\treturn __perfctr_undeclared(id)\n}\n");
}

/* What each read function returns, and the call that does it. */
static const struct {
	const char *what, *call_fmt;
} lookups[READ_NKINDS] = {
	[READ_FN_READ] = { "the counter named id, on this CPU",
			   "__perfctr_read_%u()" },
	[READ_FN_COUNT] = { "the counter's own count, unscaled, on this CPU",
			    "__perfctr_times(%u, 2)" },
	[READ_FN_ENABLED] = { "ns the counter was enabled, on this CPU",
			      "__perfctr_times(%u, 0)" },
	[READ_FN_RUNNING] = { "ns the counter was on the PMU (less than "
			      "enabled when multiplexed), on this CPU",
			      "__perfctr_times(%u, 1)" },
	[READ_FN_TOTAL] = { "every followed task's count of a .process "
			    "counter, live and gone", "__perfctr_total(%u)" },
	[READ_FN_SUM] = { "a .cpu counter summed over every CPU: this CPU's "
			  "count now, the others' latest snapshots",
			  "__perfctr_sum(%u, 0)" },
	[READ_FN_SUM_AGE] = { "ns since the oldest snapshot a perfctr_sum(id) "
			      "would use now was taken",
			      "__perfctr_sum(%u, 1)" },
};

/*
 * perfctr_delta(id, start, stamp): the count since start, read at
 * perfctr_stamp() stamp.  Exact for .thread and .process; a per-CPU
 * counter raises an error when the thread left the CPU in between.
 */
static void emit_delta(struct strbuf *sb, const struct model *m)
{
	size_t i;

	strbuf__printf(sb, "\n/* the count of id since start, read at "
		       "perfctr_stamp() stamp */\nfunction perfctr_delta:long "
		       "(id:string, start:long, stamp:long) {\n");
	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!counter__readable(c))
			continue;
		strbuf__printf(sb, "\tif (id == \"%s\") return ", c->id);
		if (c->scope == PERFCTR_SCOPE_CPU)
			strbuf__printf(sb, "__perfctr_delta_cpu(__perfctr_read_"
				       "%u(), start, stamp, id)\n", c->idx);
		else
			strbuf__printf(sb, "__perfctr_read_%u() - start\n",
				       c->idx);
	}
	strbuf__printf(sb, "\treturn __perfctr_undeclared(id)\n}\n");
}

static void emit_lookups(struct strbuf *sb, const struct model *m)
{
	enum read_kind k;

	for (k = READ_FN_READ; k < READ_NKINDS; k++)
		if (lookups[k].call_fmt && !model__user_defined(m, k))
			emit_lookup(sb, m, read_kind_names[k], lookups[k].what,
				    lookups[k].call_fmt);
	if (!model__user_defined(m, READ_FN_DELTA))
		emit_delta(sb, m);
	if (!model__user_defined(m, READ_FN_STAMP))
		strbuf__printf(sb, "\n/* where this thread is: its CPU and "
			       "context switches */\nfunction perfctr_stamp:long "
			       "() %%{ " UNPRIV
			       "STAP_RETURN(perfctr_stamp()); %%}\n");
}

/*
 * The static tapset's event functions (tapset/perfctr.stp) call these:
 * __perfctr_fn_NAME() for cpu_cycles() and kin, __perfctr_read_event()
 * for perfctr_read_event("EVENT"); only those the scripts call.
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
					       "() { return __perfctr_read_%u() }\n",
					       event_fns[fn].name, c->idx);
				continue;
			}
			if (!any++)
				strbuf__printf(sb, "function __perfctr_read_event:"
					       "long (event:string) {\n");
			strbuf__printf(sb, "\tif (event == ");
			c_string(sb, c->event);
			strbuf__printf(sb, ") return __perfctr_read_%u()\n",
				       c->idx);
		}
		if (any)
			strbuf__printf(sb, "\treturn __perfctr_undeclared(event)"
				       "\n}\n");
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
		strbuf__printf(sb, "%%( @id == \"%s\" %%? __perfctr_read_%u() "
			       "%%: ", c->id, c->idx);
		open++;
	}
	strbuf__printf(sb, "__perfctr_undeclared(@id)");
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
	emit_event_fns(&gen->stp, m);
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
