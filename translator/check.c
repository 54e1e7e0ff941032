// SPDX-License-Identifier: GPL-2.0-or-later
/* check.c - counter reads against counter declarations. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* "; did you mean \"cycles\"?" or the list of declared ids. */
static void hint(const struct model *m, const char *id, char *buf, size_t len)
{
	const char **ids = calloc(m->ncounters + 1, sizeof(*ids));
	const char *near[3];
	size_t i, n = 0, used = 0, nids = 0;

	buf[0] = '\0';
	if (!ids)
		return;
	for (i = 0; i < m->ncounters; i++)	/* sampling probes: no reads */
		if (!counter__samples(&m->counters[i]))
			ids[nids++] = m->counters[i].id;
	n = perfctr_suggest(id, ids, nids, near, 3);
	if (n) {
		used += snprintf(buf, len, "; did you mean");
		for (i = 0; i < n && used < len; i++)
			used += snprintf(buf + used, len - used, "%s \"%s\"",
					 i ? " or" : "", near[i]);
		if (used < len)
			snprintf(buf + used, len - used, "?");
	} else if (!strncmp(id, "__", 2)) {
		snprintf(buf, len, "; ids starting with '__' are "
			 "stap-perfctr's own");
	} else if (!nids) {
		snprintf(buf, len, "; declare it with probe perfctr.event("
			 "\"EVENT\").counter(\"%s\") {}", id);
	}
	free(ids);
}

/* The counter a call of an event function reads: made on first use. */
static int check_event_call(struct model *m, struct counter_read *r,
			    struct diag *d)
{
	unsigned int fn = r->event_fn - 1, plm;
	struct perfctr_name name;
	struct counter *c;
	char err[256];
	size_t i;

	if (m->fn_user_defined & (1u << fn))
		return 0;	/* the script's own function wins */
	for (i = 0; i < m->ncounters; i++)
		if (m->counters[i].event_fn == r->event_fn &&
		    !strcmp(m->counters[i].event, r->id)) {
			r->counter = i + 1;
			return 0;
		}
	if (perfctr_name__parse(r->id, &name, err, sizeof(err)) < 0 ||
	    perfctr_name__counter_plm(r->id, &name, 0, &plm, err,
				      sizeof(err)) < 0) {
		diag__report(d, DIAG_SEMANTIC, r->src, &r->where, "%s(\"%s\"): "
			     "%s", event_fns[fn].name, r->id, err);
		return 1;
	}
	c = model__add_counter(m);
	if (event_fns[fn].event)
		snprintf(c->id, sizeof(c->id), "__%s", event_fns[fn].name);
	else
		snprintf(c->id, sizeof(c->id), "__event%u", c->idx);
	snprintf(c->event, sizeof(c->event), "%s", r->id);
	c->plm = plm;
	c->gh = name.gh;
	c->scope = event_fns[fn].scope;
	c->scope_given = 1;	/* the function's, with a target or not */
	counter__locate(c, r->src, &r->where);
	c->id_tok = r->where;
	c->event_tok = r->where;
	c->event_fn = r->event_fn;
	c->used = 1;
	r->counter = c->idx + 1;
	return 0;
}

/* perfctr_sum() and perfctr_sum_age() add up a counter's CPUs: a .cpu
 * counter's (.multiplex included), whose per-CPU counts are the CPUs',
 * or a .socket counter's sockets. */
static int check_sum(const struct counter *c, const struct counter_read *r,
		     struct diag *d)
{
	static const char *const scope[] = {
		[PERFCTR_SCOPE_THREAD] = ".thread",
		[PERFCTR_SCOPE_PROCESS] = ".process",
		[PERFCTR_SCOPE_CGROUP] = ".cgroup (@perfctr reads its sum "
					 "over the CPUs)",
	};

	if ((r->kind != READ_FN_SUM && r->kind != READ_FN_SUM_AGE) ||
	    ((perfctr_scope__allows(c->scope) & PERFCTR_SA_SUM) &&
	     !counter__grouped(c)))
		return 0;
	if (counter__grouped(c)) {
		diag__report(d, DIAG_SEMANTIC, r->src, &r->where, "%s(\"%s\") "
			     "sums a plain .cpu counter over the CPUs; counter "
			     "\"%s\" is in group \"%s\", read on its own CPU "
			     "only", read_kind_names[r->kind], r->id, r->id,
			     c->group);
		return 1;
	}
	diag__report(d, DIAG_SEMANTIC, r->src, &r->where, "%s(\"%s\") sums "
		     "a .cpu counter over the CPUs (a .socket counter over "
		     "the sockets); counter \"%s\" is %s",
		     read_kind_names[r->kind], r->id, r->id, scope[c->scope]);
	return 1;
}

static int check_read(struct model *m, struct counter_read *r,
		      struct diag *d)
{
	struct counter *c;
	char h[256];

	if (r->dynamic || model__user_defined(m, r->kind))
		return 0;	/* looked up when it runs; the script's own */
	c = model__find(m, r->id);
	if (c && !counter__samples(c)) {
		c->used = 1;
		r->counter = c->idx + 1;
		return check_sum(c, r, d);
	}
	hint(m, r->id, h, sizeof(h));
	diag__report(d, DIAG_SEMANTIC, r->src, &r->where,
		     "undeclared perfctr counter \"%s\"%s", r->id, h);
	return 1;
}

/* The path as the task finder sees it (symbolic links resolved), when it
 * exists here; else as given (it may exist only where the module runs). */
static void canonical_path(char *path, size_t len)
{
	char *real;

	if (!path[0] || !(real = realpath(path, NULL)))
		return;
	if (strlen(real) < len)
		strcpy(path, real);
	free(real);
}

/*
 * A .cgroup path names a directory below the cgroup2 mount, as the
 * kernel walks it at load: absolute, and no "." or ".." (the kernel
 * would look for a cgroup of that name).  Whether it exists is known
 * only where the module loads.
 */
static int check_cgroup_path(const struct counter *c, struct diag *d)
{
	const char *p = c->target, *why = NULL;
	size_t n;

	if (p[0] != '/')
		why = "an absolute path below the cgroup2 mount "
		      "(\"/system.slice/NAME\")";
	while (!why && *p) {
		p += strspn(p, "/");
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			why = "a path without '.' or '..' components";
		p += n;
	}
	if (!why)
		return 0;
	diag__report(d, DIAG_SEMANTIC, c->source, &c->target_tok, "perfctr "
		     "counter \"%s\": .cgroup(\"%s\") needs %s", c->id,
		     c->target, why);
	return 1;
}

const char *check__scope_list(unsigned int bit, int want, const char *sep,
			      char *buf, size_t len)
{
	unsigned int s;
	size_t n = 0;

	buf[0] = '\0';
	for (s = 0; s < PERFCTR_NSCOPES; s++)
		if (!!(perfctr_scope__allows(s) & bit) == want && n < len)
			n += snprintf(buf + n, len - n, "%s%s", n ? sep : "",
				      perfctr_scope__clause(s));
	return buf;
}

/* .cpus on a counter the module does not make per CPU itself. */
static int refuse_cpus(const struct counter *c, struct diag *d)
{
	int samples = counter__samples(c);
	char list[64];

	diag__report(d, DIAG_SEMANTIC, c->source, &c->cpus_tok,
		     "%s%s%s.cpus restricts a counter made per CPU (%s) to "
		     "some CPUs; it cannot restrict %s",
		     samples ? "" : "perfctr counter \"", samples ? "" : c->id,
		     samples ? "" : "\": ",
		     check__scope_list(PERFCTR_SA_CPUS, 1, ", ", list,
				       sizeof(list)),
		     samples ? "a sampling probe" :
		     counter__grouped(c) ? "a group's counter" :
		     c->scope == PERFCTR_SCOPE_PROCESS ?
		     ".process (one counter per task)" :
		     ".socket (one counter per socket)");
	return 1;
}

/* No scope given: a counter counts per CPU, as stap's perf probes do (a
 * target does not change that: .process asks for it); a sampling clause
 * samples the target when stap has one (-c, -x), as perf record -- CMD.
 * A .process without a path needs that target. */
static int check_scope(const struct model *m, struct counter *c,
		       struct diag *d)
{
	unsigned int allows;
	char list[64];

	if (!c->scope_given)
		c->scope = counter__samples(c) && m->has_target ?
			   PERFCTR_SCOPE_PROCESS : PERFCTR_SCOPE_CPU;
	if (counter__samples(c) && m->stapusr) {
		/* what stap would say, at the generated perf probe */
		diag__report(d, DIAG_SEMANTIC, c->source, &c->where,
			     "a sampling perfctr probe is a perf probe, which "
			     "stap allows only for --privilege=stapsys or "
			     "stapdev, not stapusr");
		return 1;
	}
	allows = perfctr_scope__allows(c->scope);
	if (counter__samples(c) && (c->mux || !(allows & PERFCTR_SA_SAMPLE))) {
		diag__report(d, DIAG_SEMANTIC, c->source, &c->where,
			     "a sampling perfctr probe samples per CPU or per "
			     "process: drop %s or .multiplex",
			     check__scope_list(PERFCTR_SA_SAMPLE, 0, ", ", list,
					       sizeof(list)));
		return 1;
	}
	if (counter__grouped(c) && !(allows & PERFCTR_SA_GROUP)) {
		diag__report(d, DIAG_SEMANTIC, c->source, &c->group_tok,
			     "perfctr counter \"%s\": a group counts per CPU "
			     "only (perfctr-run opens it on each CPU); drop "
			     "%s, or .group", c->id,
			     check__scope_list(PERFCTR_SA_GROUP, 0, "/", list,
					       sizeof(list)));
		return 1;
	}
	if (c->mux && !(allows & PERFCTR_SA_MUX)) {
		diag__report(d, DIAG_SEMANTIC, c->source, &c->where,
			     "perfctr counter \"%s\": .multiplex counts per "
			     "CPU only; drop %s, or .multiplex", c->id,
			     check__scope_list(PERFCTR_SA_MUX, 0, "/", list,
					       sizeof(list)));
		return 1;
	}
	if (c->cpus[0] && !perfctr_scope__made_per_cpu(c->scope,
			counter__samples(c), counter__grouped(c)))
		return refuse_cpus(c, d);
	if (c->scope == PERFCTR_SCOPE_CGROUP)
		return check_cgroup_path(c, d);
	if (c->target[0] && c->target[0] != '/') {
		diag__report(d, DIAG_SEMANTIC, c->source, &c->target_tok,
			     "perfctr counter \"%s\": .process(\"%s\") needs "
			     "an absolute path", c->id, c->target);
		return 1;
	}
	canonical_path(c->target, sizeof(c->target));
	if (c->scope == PERFCTR_SCOPE_PROCESS && !c->target[0] &&
	    !m->has_target) {
		diag__report(d, DIAG_SEMANTIC, c->source, &c->where,
			     "perfctr counter \"%s\": .process needs a path, "
			     ".process(\"PATH\"), or a target (stap -c CMD or "
			     "-x PID)", c->id);
		return 1;
	}
	return 0;
}

/* ".cpu (per CPU: every task on the CPU)": what c counts, for messages
 * and -v. */
static void scope_text(const struct counter *c, char *buf, size_t len)
{
	int samples = counter__samples(c);

	if (c->scope == PERFCTR_SCOPE_THREAD)
		snprintf(buf, len, ".thread (per thread: each thread's own "
			 "count)");
	else if (c->scope == PERFCTR_SCOPE_CGROUP)
		snprintf(buf, len, ".cgroup(\"%s\") (every task in the cgroup "
			 "and below it)", c->target);
	else if (c->scope == PERFCTR_SCOPE_SOCKET)
		snprintf(buf, len, ".socket (per socket: a PMU's counter the "
			 "socket shares, read from a snapshot)");
	else if (c->scope == PERFCTR_SCOPE_PROCESS && c->target[0])
		snprintf(buf, len, ".process(\"%s\") (%s every task running "
			 "it)", c->target, samples ? "samples" : "counts in");
	else if (c->scope == PERFCTR_SCOPE_PROCESS)
		snprintf(buf, len, ".process (%s the target's tasks)",
			 samples ? "samples" : "counts in");
	else if (c->mux)
		snprintf(buf, len, ".cpu.multiplex (per CPU: every task on "
			 "the CPU, scaled when it shares the PMU)");
	else
		snprintf(buf, len, ".cpu (%s every task on the CPU)",
			 samples ? "samples" : "per CPU:");
}

/* "begin", "begin or end": the probes in mask that never run in a
 * followed task. */
static void stap_probes(unsigned int mask, char *buf, size_t len)
{
	static const struct {
		unsigned int probe;
		const char *name;
	} names[] = {
		{ PROBE_BEGIN, "begin" }, { PROBE_END, "end" },
		{ PROBE_ERROR, "error" }, { PROBE_TIMER, "timer" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && n < len; i++)
		if (mask & names[i].probe)
			n += snprintf(buf + n, len - n, "%s%s", n ? " or " : "",
				      names[i].name);
}

/* Reads that only a .socket counter answers (1), that it does not (0),
 * or either (-1). */
static int reads_socket(enum read_kind kind)
{
	switch (kind) {
	case READ_FN_AGE:
	case READ_FN_SOCKET:
		return 1;
	case READ_FN_COUNT:
	case READ_FN_ENABLED:
	case READ_FN_RUNNING:
		return 0;
	default:
		return -1;
	}
}

/* Reads that take the current thread's count of a .process counter. */
static int reads_thread(enum read_kind kind)
{
	return kind == READ_MACRO || kind == READ_FN_READ ||
	       kind == READ_FN_DELTA;
}

/*
 * A .process counter is the current thread's own: a read in a probe that
 * never runs in a followed task (begin, end, error: stap's own thread)
 * always fails, and one in a timer probe whenever the timer interrupts
 * another task.  perfctr_total() reads anywhere, and only a .process
 * counter has a total.  Reads in functions are not judged: they may be
 * called from anywhere.
 */
static int check_read_scope(const struct model *m,
			    const struct counter_read *r, struct diag *d)
{
	const struct counter *c = &m->counters[r->counter - 1];
	const unsigned int stap_own = PROBE_BEGIN | PROBE_END | PROBE_ERROR;
	char what[PERFCTR_NAME_MAX + 32], probes[32];
	char scope[PERFCTR_SRC_MAX + 64];

	model__describe_read(r, what, sizeof(what));
	if (r->kind == READ_FN_TOPDOWN && !counter__grouped(c)) {
		diag__report(d, DIAG_SEMANTIC, r->src, &r->name, "%s: counter "
			     "\"%s\" is in no group, and Intel's topdown metrics "
			     "count only in a group led by \"slots\": add "
			     ".group(\"NAME\") to it and to a \"slots\" counter "
			     "declared before it", what, c->id);
		return 1;
	}
	if (reads_socket(r->kind) != (c->scope == PERFCTR_SCOPE_SOCKET) &&
	    reads_socket(r->kind) >= 0) {
		scope_text(c, scope, sizeof(scope));
		diag__report(d, DIAG_SEMANTIC, r->src, &r->name, "%s: counter "
			     "\"%s\" counts %s, and %s", what, c->id, scope,
			     r->kind == READ_FN_AGE ? "only a .socket counter "
			     "is read from a snapshot with an age: read it "
			     "live with @perfctr" : r->kind == READ_FN_SOCKET ?
			     "only a .socket counter has a count per socket: "
			     "read it with @perfctr (this CPU's), or "
			     "perfctr_sum" : "a .socket counter has "
			     "no times of its own on this CPU: read it with "
			     "@perfctr, perfctr_age or perfctr_sum");
		return 1;
	}
	if (r->kind == READ_FN_TOTAL &&
	    !(perfctr_scope__allows(c->scope) & PERFCTR_SA_TOTAL)) {
		scope_text(c, scope, sizeof(scope));
		diag__report(d, DIAG_SEMANTIC, r->src, &r->name, "%s: counter "
			     "\"%s\" counts %s, and only a .process counter "
			     "has a total: declare it .process (the target of "
			     "stap -c or -x, or .process(\"PATH\")), or read "
			     "it with @perfctr(\"%s\")", what, c->id, scope,
			     c->id);
		return 1;
	}
	if (c->scope != PERFCTR_SCOPE_PROCESS || !reads_thread(r->kind) ||
	    !r->probes)
		return 0;
	if (!(r->probes & ~stap_own)) {
		stap_probes(r->probes, probes, sizeof(probes));
		diag__report(d, DIAG_SEMANTIC, r->src, &r->name, "%s reads "
			     "this thread's count of the .process counter "
			     "\"%s\", and %s probes never run in a followed "
			     "task: read perfctr_total(\"%s\"), the target's "
			     "tasks together", what, c->id, probes, c->id);
		return 1;
	}
	if (r->probes & PROBE_TIMER)
		diag__report(d, DIAG_WARNING, r->src, &r->name, "%s in a timer "
			     "probe reads the .process counter \"%s\" of the "
			     "task the timer interrupts, and fails unless it is "
			     "a followed task: perfctr_total(\"%s\") reads "
			     "the target's tasks together", what, c->id, c->id);
	return 0;
}

/* The first counter of c's group: its leader. */
static const struct counter *group_leader(const struct model *m,
					  const struct counter *c)
{
	size_t i;

	for (i = 0; i < m->ncounters; i++)
		if (!strcmp(m->counters[i].group, c->group))
			return &m->counters[i];
	return c;
}

/* Do a and b sit in the same branches of the same %( %) conditionals? */
static int same_conditions(const struct counter *a, const struct counter *b)
{
	int i;

	if (a->ncond != b->ncond)
		return 0;
	for (i = 0; i < a->ncond; i++)
		if (a->cond[i].src != b->cond[i].src ||
		    a->cond[i].off != b->cond[i].off ||
		    a->cond[i].in_else != b->cond[i].in_else)
			return 0;
	return 1;
}

/*
 * A group is one perf event group: scheduled as a unit, so its counters
 * are all .multiplex or none, exist together (the same %( %) branches),
 * and fit a PMU's group (PERFCTR_GROUP_MAX).  Its first counter leads it.
 */
static int check_group_member(const struct model *m, const struct counter *c,
			      struct diag *d)
{
	const struct counter *l = group_leader(m, c);
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < m->ncounters && &m->counters[i] != c; i++)
		n += !strcmp(m->counters[i].group, c->group);
	if (n >= PERFCTR_GROUP_MAX) {
		diag__report(d, DIAG_SEMANTIC, c->source, &c->group_tok, "more "
			     "than %d counters in perfctr group \"%s\"",
			     PERFCTR_GROUP_MAX, c->group);
		return 1;
	}
	if (l == c)
		return 0;
	if (c->mux != l->mux) {
		diag__report(d, DIAG_SEMANTIC, c->source, &c->group_tok, "perfctr "
			     "counter \"%s\" is%s .multiplex and \"%s\", which "
			     "leads group \"%s\" (%s:%d:%d), is%s: a group is "
			     "scheduled as a unit, give .multiplex to all its "
			     "counters or none", c->id, c->mux ? "" : " not",
			     l->id, c->group, l->source->name, l->where.line,
			     l->where.col, l->mux ? "" : " not");
		return 1;
	}
	if (!same_conditions(c, l)) {
		diag__report(d, DIAG_SEMANTIC, c->source, &c->group_tok, "perfctr "
			     "counter \"%s\" is under other %%( %%) conditions "
			     "than \"%s\", which leads group \"%s\" (%s:%d:%d): "
			     "a group's counters exist together", c->id, l->id,
			     c->group, l->source->name, l->where.line,
			     l->where.col);
		return 1;
	}
	return 0;
}

/*
 * A group is created whole when any of its counters is read (a leader
 * such as topdown's "slots" may be there only to lead), and not at all,
 * with one warning, when none is.  Numbers the created groups and their
 * counters, leaders in table order, each group's counters together.
 */
static int check_groups(struct model *m, struct diag *d, int quiet)
{
	size_t i, j;
	int errors = 0;

	for (i = 0; i < m->ncounters; i++)
		if (counter__grouped(&m->counters[i]))
			errors += check_group_member(m, &m->counters[i], d);
	if (errors)
		return errors;
	for (i = 0; i < m->ncounters; i++) {
		struct counter *l = &m->counters[i];
		int used = 0;

		if (!counter__grouped(l) || group_leader(m, l) != l)
			continue;
		for (j = i; j < m->ncounters; j++)
			used |= !strcmp(m->counters[j].group, l->group) &&
				m->counters[j].used;
		if (!used) {
			if (!quiet)
				diag__report(d, DIAG_WARNING, l->source,
					     &l->group_tok, "perfctr group "
					     "\"%s\" is never read, not created",
					     l->group);
			continue;
		}
		m->ngroups++;
		for (j = i; j < m->ncounters; j++) {
			struct counter *c = &m->counters[j];

			if (strcmp(c->group, l->group))
				continue;
			c->used = 1;
			c->group_no = m->ngroups;
			c->gslot = m->ngslots++;
		}
	}
	return 0;
}

/* perfctr_topdown(expr) is looked up among the groups' counters: a
 * script without a group has none to look up. */
static int check_topdown_dynamic(const struct model *m, struct diag *d)
{
	size_t i;

	if (m->ngroups)
		return 0;
	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].kind == READ_FN_TOPDOWN && m->reads[i].dynamic &&
		    !model__user_defined(m, READ_FN_TOPDOWN)) {
			diag__report(d, DIAG_SEMANTIC, m->reads[i].src,
				     &m->reads[i].name, "perfctr_topdown(...) "
				     "decodes a group's topdown metric, and this "
				     "script declares no group");
			return 1;
		}
	return 0;
}

/* The function of the script or a tapset called name, or NULL. */
static struct script_fn *find_fn(struct model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nfns; i++)
		if (!strcmp(m->fns[i].name, name))
			return &m->fns[i];
	return NULL;
}

/*
 * A payload function reads the sample whose body is running.  Called
 * directly in another probe it can never have one: an error, at the
 * call.  In a function it may: the call is judged when it runs.
 */
static int model_samples(const struct model *m)
{
	size_t i;

	for (i = 0; i < m->ncounters; i++)
		if (counter__samples(&m->counters[i]))
			return 1;
	return 0;
}

static int check_payload_call(const struct model *m,
			      const struct counter_read *r, struct diag *d)
{
	const struct perfctr_pv_desc *pv = &perfctr_pvs[r->payload_fn - 1];
	const char *why;

	if (m->pl_user_defined & (1u << (r->payload_fn - 1)) || r->clause)
		return 0;
	if (!model_samples(m))
		why = "this script has no sampling probe: add probe "
		      "perfctr.event(\"EVENT\").sample(N) { } (or .hz(F))";
	else if (r->fn || !r->probes)
		return 0;
	else
		why = "this probe is not one: call it in the body of probe "
		      "perfctr.event(\"EVENT\").sample(N) { } (or .hz(F)), or "
		      "in a function that body calls";
	diag__report(d, DIAG_SEMANTIC, r->src, &r->name, "%s() reads the "
		     "sample a sampling probe's body runs for, and %s",
		     pv->fn, why);
	return 1;
}

/* The payload a call of one of the tapset's functions reads in a
 * sampling body (perfctr_fold_kstack(): the call chain), unless the
 * script defines the function itself. */
static unsigned int tapset_call_payload(const struct model *m,
					const struct script_call *c)
{
	int tf = model__tapset_fn(c->name, strlen(c->name));

	if (tf < 0 || m->tapset_user_defined & (1u << tf))
		return 0;
	return tapset_fns[tf].payload;
}

/*
 * What each sampling clause asks the kernel to record: the payloads its
 * body reads, directly or through the functions it calls (their
 * closure: each function's own reads and its callees', to a fixed
 * point).  A call the translator cannot see (none in stap's language)
 * would fail when it runs, with a catchable error.
 */
static void payload_closure(struct model *m)
{
	struct script_fn *f;
	unsigned int bit;
	size_t i;
	int changed = 1;

	for (i = 0; i < m->ncalls; i++) {
		const struct script_call *c = &m->calls[i];

		bit = tapset_call_payload(m, c);
		if (bit && c->fn)
			m->fns[c->fn - 1].payload |= bit;
		else if (bit && c->clause)
			m->counters[c->clause - 1].payload |= bit;
	}

	for (i = 0; i < m->nreads; i++) {
		const struct counter_read *r = &m->reads[i];

		if (!r->payload_fn ||
		    m->pl_user_defined & (1u << (r->payload_fn - 1)))
			continue;
		bit = perfctr_pvs[r->payload_fn - 1].bit;
		if (r->fn)
			m->fns[r->fn - 1].payload |= bit;
		else if (r->clause)
			m->counters[r->clause - 1].payload |= bit;
	}
	while (changed) {
		changed = 0;
		for (i = 0; i < m->ncalls; i++) {
			const struct script_call *c = &m->calls[i];
			unsigned int *to;

			f = find_fn(m, c->name);
			if (!f || !f->payload || (!c->fn && !c->clause))
				continue;
			to = c->fn ? &m->fns[c->fn - 1].payload :
			     &m->counters[c->clause - 1].payload;
			if ((*to | f->payload) != *to) {
				*to |= f->payload;
				changed |= c->fn != 0;
			}
		}
	}
}

/*
 * The probe points that run in the thread a context switch takes out,
 * before the runtime's sched_switch hook moves its .thread record on:
 * stap's sched_switch tracepoint and its tapset's aliases of it.
 */
static const char *const switch_points[] = {
	"kernel.trace(\"sched_switch\")",
	"kernel.trace(\"sched:sched_switch\")",
	"scheduler.cpu_off",
	"scheduler.ctxswitch",
};

/* Does a point of the script, a pattern with stap's wildcards, match one
 * of the NUL-separated names in list (len bytes)? */
static int point_names(const char *point, const char *list, size_t len)
{
	const char *p;

	for (p = list; p && p < list + len; p += strlen(p) + 1)
		if (!fnmatch(point, p, 0))
			return 1;
	return 0;
}

/* Does any point of s run at a context switch: one of switch_points[],
 * or an alias defined on one? */
static int stmt_at_switch(const struct model *m, const struct probe_stmt *s)
{
	const char *p;
	size_t i;

	for (p = s->points; p && p < s->points + s->points_len;
	     p += strlen(p) + 1) {
		for (i = 0; i < sizeof(switch_points) / sizeof(switch_points[0]);
		     i++)
			if (!fnmatch(p, switch_points[i], 0))
				return 1;
		for (i = 0; i < m->nstmts; i++)
			if (m->stmts[i].at_switch &&
			    point_names(p, m->stmts[i].names,
					m->stmts[i].names_len))
				return 1;
	}
	return 0;
}

/* Is the caller of c, a probe or a function, at a context switch? */
static int call_at_switch(const struct model *m, const struct script_call *c)
{
	return (c->stmt && m->stmts[c->stmt - 1].at_switch) ||
	       (c->fn && m->fns[c->fn - 1].at_switch);
}

/* Marks the probes that run at a context switch and the functions they
 * call, to a fixed point (aliases and calls in any order). */
static void switch_closure(struct model *m)
{
	size_t i, j;
	int changed = 1;

	while (changed) {
		changed = 0;
		for (i = 0; i < m->nstmts; i++)
			if (!m->stmts[i].at_switch &&
			    stmt_at_switch(m, &m->stmts[i])) {
				m->stmts[i].at_switch = 1;
				changed = 1;
			}
		for (i = 0; i < m->ncalls; i++) {
			if (!call_at_switch(m, &m->calls[i]))
				continue;
			for (j = 0; j < m->nfns; j++)	/* every arity */
				if (!m->fns[j].at_switch &&
				    !strcmp(m->fns[j].name, m->calls[i].name)) {
					m->fns[j].at_switch = 1;
					changed = 1;
				}
		}
	}
}

/*
 * May the script read a .thread counter at a context switch, in the
 * outgoing thread?  A read of one there, a read by an id known only
 * when it runs there, or a macro's read anywhere in a script that has
 * such a probe.  Then a thread's first read counts from its switch-in
 * (the runtime notes it at each switch), so that a script that charges
 * threads at their switch-outs counts a thread's first stretch whole.
 */
static int thread_switch_reads(struct model *m)
{
	int threads = 0, switches = 0;
	size_t i;

	for (i = 0; i < m->ncounters; i++)
		threads |= counter__readable(&m->counters[i]) &&
			   m->counters[i].scope == PERFCTR_SCOPE_THREAD;
	if (!threads)
		return 0;
	switch_closure(m);
	for (i = 0; i < m->nreads; i++) {
		const struct counter_read *r = &m->reads[i];

		if (!(r->stmt && m->stmts[r->stmt - 1].at_switch) &&
		    !(r->fn && m->fns[r->fn - 1].at_switch))
			continue;
		if (r->dynamic || (r->counter && m->counters[r->counter - 1]
				   .scope == PERFCTR_SCOPE_THREAD))
			return 1;
	}
	for (i = 0; i < m->nstmts; i++)
		switches |= m->stmts[i].at_switch;
	return m->macro_reads && switches;
}

/* How to count only the target, where the script could and did not say:
 * there is a target, and the counter counts per CPU by default (a clause
 * without a scope, or a per-CPU event function). */
static const char *target_hint(const struct model *m,
			       const struct counter *c)
{
	if (!m->has_target || c->scope != PERFCTR_SCOPE_CPU ||
	    (c->scope_given && !c->event_fn))
		return "";
	return c->event_fn ? "; a clause with .process counts only the target" :
	       "; add .process to count only the target";
}

/* The probes c is read in, together; PROBE_OTHER for a read in a
 * function, which may be called from anywhere. */
static unsigned int read_probes(const struct model *m, size_t idx)
{
	unsigned int probes = 0;
	size_t i;

	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].counter == idx + 1)
			probes |= m->reads[i].probes ? m->reads[i].probes :
				  PROBE_OTHER;
	return probes;
}

/*
 * The most common surprise: stap -c CMD, a counter with no scope, read in
 * end, counts every task on the CPU, not CMD.  When the script looks as
 * if it wants the target's count (it reads the counter only in begin, end
 * and error, which run in stap's own thread, or also in timers while it
 * filters on target()), one warning at the first such counter, with the
 * fix.  A scope or CPU list written out (.cpu, .cpus) says per CPU is
 * meant; a read in any other probe may be a delta within the target.
 */
static void check_target_wanted(const struct model *m, struct diag *d)
{
	const unsigned int stap_own = PROBE_BEGIN | PROBE_END | PROBE_ERROR;
	char what[PERFCTR_NAME_MAX + 32], probes[32];
	unsigned int in, outside;
	size_t i;

	outside = stap_own | (m->calls_target ? PROBE_TIMER : 0);
	for (i = 0; m->has_target && i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!counter__readable(c) || !*target_hint(m, c) || c->cpus[0])
			continue;
		in = read_probes(m, i);
		if (!(in & (PROBE_END | PROBE_TIMER)) || (in & ~outside))
			continue;
		if (c->event_fn)
			snprintf(what, sizeof(what), "%s()",
				 event_fns[c->event_fn - 1].name);
		else
			snprintf(what, sizeof(what), "counter \"%s\"", c->id);
		stap_probes(in, probes, sizeof(probes));
		diag__report(d, DIAG_WARNING, c->source,
			     c->event_fn ? &c->where : &c->id_tok, "%s counts "
			     "every task on each CPU, not only the target of "
			     "stap -c/-x, and the script reads it only in %s "
			     "probes%s: %s%s%s", what, probes,
			     in & PROBE_TIMER ? " while it filters on target()" :
			     "", c->event_fn ? "a .process clause read with "
			     "perfctr_total(ID) counts the target's tasks "
			     "together" : "declare it .process and read "
			     "perfctr_total(\"", c->event_fn ? "" : c->id,
			     c->event_fn ? "" : "\"), the target's tasks "
			     "together, or write .cpu to say per CPU is meant");
		return;
	}
}

/* stap -v: the scope each counter got, and how to narrow it. */
void check__describe(const struct model *m, struct diag *d)
{
	char what[PERFCTR_NAME_MAX + 32], scope[PERFCTR_SRC_MAX + 64];
	size_t i;

	for (i = 0; i < m->ncounters; i++) {
		const struct counter *c = &m->counters[i];

		if (!c->used)
			continue;
		if (counter__samples(c))
			snprintf(what, sizeof(what), "sampling probe");
		else if (c->event_fn)
			snprintf(what, sizeof(what), "%s()",
				 event_fns[c->event_fn - 1].name);
		else
			snprintf(what, sizeof(what), "counter \"%s\"", c->id);
		scope_text(c, scope, sizeof(scope));
		diag__note(d, c->source, &c->where, "%s: %s, %s%s%s%s%s%s%s%s",
			   what, c->event, scope, c->cpus[0] ? ", on .cpus(\"" : "",
			   c->cpus, c->cpus[0] ? "\") only" : "",
			   counter__grouped(c) ? ", in group \"" : "", c->group,
			   counter__grouped(c) ? "\"" : "", target_hint(m, c));
	}
}

int check__run(struct model *m, struct diag *d)
{
	size_t i;
	int errors = 0;

	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].event_fn)
			errors += check_event_call(m, &m->reads[i], d);
	if (m->ncounters > PERFCTR_REQ_MAX) {	/* the table's limit */
		const struct counter *c = &m->counters[PERFCTR_REQ_MAX];

		diag__report(d, DIAG_SEMANTIC, c->source, &c->where, "more than "
			     "%d perfctr counters in one script", PERFCTR_REQ_MAX);
		return errors + 1;
	}
	for (i = 0; i < m->ncounters; i++)
		errors += check_scope(m, &m->counters[i], d);
	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].payload_fn)
			errors += check_payload_call(m, &m->reads[i], d);
		else if (!m->reads[i].event_fn)
			errors += check_read(m, &m->reads[i], d);
	payload_closure(m);
	for (i = 0; i < m->nreads; i++)
		if (m->reads[i].counter && !m->reads[i].event_fn)
			errors += check_read_scope(m, &m->reads[i], d);
	for (i = 0; i < m->ncounters; i++)
		if (m->dynamic_reads)
			m->counters[i].used = 1;
	errors += check_groups(m, d, errors);
	errors += check_topdown_dynamic(m, d);
	m->thread_switch_reads = thread_switch_reads(m);
	if (!errors)
		check_target_wanted(m, d);
	for (i = 0; i < m->ncounters; i++) {
		struct counter *c = &m->counters[i];

		if (!c->used && !errors && !counter__grouped(c))
			diag__report(d, DIAG_WARNING, c->source, &c->id_tok,
				     "perfctr counter \"%s\" is never read, "
				     "not created", c->id);
	}
	return errors;
}
