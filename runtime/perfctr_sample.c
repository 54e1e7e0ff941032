// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_sample.c - sampling clauses: stap's own perf probes, given the
 * encoding this machine needs.
 *
 * The translator turns each sampling clause into an alias of stap's perf
 * probe with a placeholder encoding (raw, config PERFCTR_SAMPLE_MAGIC |
 * index): stap generates the handler, the per-CPU or per-task events, the
 * probe context and its locking, and runs the body in the interrupted
 * context.  What stap's perf probe lacks is filled here, before stap's
 * init creates the events: the encoding perfctr-run resolved (named
 * events, .user/.kernel), the period or frequency (stap takes no period
 * with .process), and .precise: in stap's init, just before it creates
 * the events (perfctr_perf_init_hook).
 *
 * Each body run is counted (the alias's prologue, PERFCTR_SAMPLED), and
 * reported at exit; samples stap skipped because the CPU's probe context
 * was busy are in stap's own "skipped probes" count.
 */
#ifdef PERFCTR_HAVE_SAMPLES

/* body runs per CPU per clause; alloc_percpu(), not DEFINE_PER_CPU: the
 * kernel's static per-CPU reserve for modules is small and shared */
static unsigned long __percpu *perfctr_sample_runs;
/* .process clauses: what each task's event needs (perfctr_task.c) */
static struct perf_event_attr perfctr_sample_attrs[PERFCTR_NDECLARED];
static perf_overflow_handler_t perfctr_sample_handler[PERFCTR_NDECLARED];
/* per-CPU clauses: what their events counted, read as stap releases them */
static u64 perfctr_sample_counted[PERFCTR_NDECLARED];
static struct stap_perf_probe *perfctr_sample_probe[PERFCTR_NDECLARED];
static int perfctr_read_total(unsigned int idx, u64 *val);

/* The alias's prologue: one more run of clause idx's body. */
#define PERFCTR_SAMPLED(idx) do {					\
	if ((idx) >= 0 && (idx) < PERFCTR_NDECLARED &&			\
	    likely(perfctr_sample_runs))				\
		this_cpu_inc(perfctr_sample_runs[(idx)]);		\
} while (0)

/* Sleepable; at start, before stap's init creates its perf probes. */
static int perfctr_samples_start(void)
{
	perfctr_sample_runs = __alloc_percpu(sizeof(unsigned long) *
					     PERFCTR_NDECLARED,
					     __alignof__(unsigned long));
	return perfctr_sample_runs ? 0 : -ENOMEM;
}

static void perfctr_samples_stop(void)
{
	free_percpu(perfctr_sample_runs);
	perfctr_sample_runs = NULL;
}

static void perfctr_sample_attr(unsigned int idx, struct perf_event_attr *a)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];

	perfctr_attr(&perfctr_slots[idx], a);
	perfctr_attr_sample(a, r->sample, r->hz, r->precise);
}

/* The placeholder encodings in stap's probes, replaced. */
static int perfctr_samples_patch(struct stap_perf_probe *p, size_t n)
{
	unsigned long idx;
	size_t i;

	for (i = 0; i < n; i++) {
		struct perf_event_attr *a = &p[i].attr;

		if (a->type != PERF_TYPE_RAW ||
		    (a->config & ~0xffffffffULL) != PERFCTR_SAMPLE_MAGIC)
			continue;	/* the script's own perf probe */
		idx = a->config & 0xffffffffULL;
		if (idx >= PERFCTR_NDECLARED || !perfctr_requests[idx].id ||
		    !perfctr_samples(idx)) {
			_stp_error("perfctr: sampling probe %lu has no request "
				   "in this module's table\n", idx);
			return -EINVAL;
		}
		perfctr_sample_attr(idx, a);
		perfctr_sample_probe[idx] = &p[i];
		if (perfctr_requests[idx].scope == PERFCTR_SCOPE_PROCESS) {
			/* stap would follow the first task only: every task
			 * gets its own event from perfctr_task.c instead */
			perfctr_sample_attrs[idx] = *a;
			perfctr_sample_handler[idx] = p[i].callback;
			p[i].task_finder = 0;
		}
	}
	return 0;
}

/* Task tsk's sampling event for .process clause i, with stap's handler
 * (which runs the clause's body); NULL before stap's init set it up. */
static struct perf_event *perfctr_sample_task_event(unsigned int i,
						   struct task_struct *tsk)
{
	if (!perfctr_sample_handler[i])
		return NULL;
	return perf_event_create_kernel_counter(&perfctr_sample_attrs[i], -1,
						tsk, perfctr_sample_handler[i],
						NULL);
}

/* stap's exit, just before it releases its probes' events: what the
 * per-CPU clauses' events counted, for the report.  Sleepable. */
static void perfctr_samples_tally(void)
{
	struct perf_event *ev;
	u64 enabled, running;
	unsigned int i;
	int cpu;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		struct stap_perf_probe *p = perfctr_sample_probe[i];

		if (!p || !p->system_wide || !p->e.events)
			continue;
		for_each_possible_cpu(cpu) {
			ev = *(struct perf_event **)per_cpu_ptr(p->e.events, cpu);
			if (ev)
				perfctr_sample_counted[i] +=
					perf_event_read_value(ev, &enabled,
							      &running);
		}
	}
}

/* stap's init, where it creates its perf probes' events. */
static int perfctr_perf_init_hook(struct stap_perf_probe *probes, size_t n,
				  const char **ppfail)
{
	return perfctr_samples_patch(probes, n) ?:
	       (_stp_perf_init_n)(probes, n, ppfail);
}

/*
 * stap_perf_probes[] and its registration come after this code, so the
 * registration is routed through the hook: the generated init calls
 * "_stp_perf_init_n (stap_perf_probes, N, &pp)" and runtime/linux/perf.c
 * defines "_stp_perf_init_n (struct stap_perf_probe *probes, ...)".  The
 * first token of the first argument tells them apart: the call goes to
 * the hook, the definition keeps its name (parenthesised, so that it is
 * not expanded again).  A change in those texts breaks the build, not
 * the run.
 */
#define _stp_perf_init_n(first, ...) PERFCTR_PIN_##first, __VA_ARGS__)
#define PERFCTR_PIN_struct (_stp_perf_init_n)(struct
#define PERFCTR_PIN_stap_perf_probes perfctr_perf_init_hook(stap_perf_probes

/* The same for the release ("_stp_perf_del_n (stap_perf_probes, N)" in
 * the generated exit; perf.c's own error paths pass pwork->probes, and
 * from stap 5.1 on also "probes" (the task-finder registration moved into
 * _stp_perf_init_n itself): those stay perf.c's own.  docs/versions.md. */
static void perfctr_perf_del_hook(struct stap_perf_probe *probes, size_t n)
{
	perfctr_samples_tally();
	(_stp_perf_del_n)(probes, n);
}
#define _stp_perf_del_n(first, ...) PERFCTR_PDN_##first, __VA_ARGS__)
#define PERFCTR_PDN_struct (_stp_perf_del_n)(struct
#define PERFCTR_PDN_pwork (_stp_perf_del_n)(pwork
#define PERFCTR_PDN_probes (_stp_perf_del_n)(probes	/* stap >= 5.1 */
#define PERFCTR_PDN_stap_perf_probes perfctr_perf_del_hook(stap_perf_probes

/* What clause i's events counted in all: per CPU, read as stap released
 * them; per task, the tasks' totals (perfctr_task.c). */
static u64 perfctr_sample_count(unsigned int i)
{
	u64 v = 0;

	if (perfctr_requests[i].scope != PERFCTR_SCOPE_PROCESS)
		return perfctr_sample_counted[i];
	return perfctr_read_total(i, &v) ? 0 : v;
}

/*
 * At exit, while the transport still carries messages: each clause's
 * body runs, and (with a period) how many overflows its count implies.
 * The difference is what the kernel throttled (perf_event_max_sample_rate)
 * plus what stap skipped because the CPU's probe context was busy (stap
 * reports those itself: "skipped probes").  A warning, as stap's own
 * end-of-run counts are: on stderr, never in the script's output (-o).
 */
static void perfctr_samples_report(void)
{
	const struct perfctr_request_desc *r;
	unsigned long runs;
	unsigned int i;
	u64 count;
	int cpu;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		r = &perfctr_requests[i];
		if (!r->id || !perfctr_samples(i))
			continue;
		runs = 0;
		for_each_possible_cpu(cpu)
			runs += per_cpu_ptr(perfctr_sample_runs, cpu)[i];
		count = perfctr_sample_count(i);
		if (r->sample)
			_stp_warn("perfctr: %s: sampling %s: %lu samples, %llu "
				  "overflows in a count of %llu (%llu not run: "
				  "throttled or skipped)\n", r->src, r->event,
				  runs, count / r->sample, count,
				  count / r->sample > runs ?
				  count / r->sample - runs : 0);
		else
			_stp_warn("perfctr: %s: sampling %s: %lu samples in a "
				  "count of %llu\n", r->src, r->event, runs,
				  count);
	}
}

#else /* !PERFCTR_HAVE_SAMPLES */
#define PERFCTR_SAMPLED(idx) do { } while (0)
static int perfctr_samples_start(void) { return 0; }
static void perfctr_samples_stop(void) { }
static void perfctr_samples_report(void) { }
static struct perf_event *perfctr_sample_task_event(unsigned int i,
						   struct task_struct *tsk)
{
	return NULL;
}
#endif
