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

static DEFINE_PER_CPU(unsigned long [PERFCTR_NDECLARED], perfctr_sample_runs);

/* The alias's prologue: one more run of clause idx's body. */
#define PERFCTR_SAMPLED(idx) do {					\
	if ((idx) >= 0 && (idx) < PERFCTR_NDECLARED)			\
		this_cpu_inc(perfctr_sample_runs[(idx)]);		\
} while (0)

static void perfctr_sample_attr(unsigned int idx, struct perf_event_attr *a)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];

	perfctr_attr(&perfctr_slots[idx], a);
	a->pinned = 0;		/* as stap's perf probes */
	a->freq = !!r->hz;
	if (r->hz)
		a->sample_freq = r->hz;
	else
		a->sample_period = r->sample;
	a->precise_ip = r->precise;
	/* a wakeup per sample: on x86 this keeps PEBS from batching samples
	 * (large PEBS), whose handler would run at buffer drain, out of the
	 * context it sampled */
	a->wakeup_events = 1;
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
	}
	return 0;
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

/* At exit, while the transport still carries messages. */
static void perfctr_samples_report(void)
{
	unsigned long runs;
	unsigned int i;
	int cpu;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_requests[i].id || !perfctr_samples(i))
			continue;
		runs = 0;
		for_each_possible_cpu(cpu)
			runs += per_cpu(perfctr_sample_runs, cpu)[i];
		_stp_printf("perfctr: %s: sampling %s: %lu samples\n",
			    perfctr_requests[i].src, perfctr_requests[i].event,
			    runs);
	}
	_stp_print_flush();
}

#else /* !PERFCTR_HAVE_SAMPLES */
#define PERFCTR_SAMPLED(idx) do { } while (0)
static void perfctr_samples_report(void) { }
#endif
