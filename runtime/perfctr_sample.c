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
 * with .process), and .precise.  stap_perf_probes[] is defined after this
 * code, so it is found by name in the module's own symbol table.
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

/*
 * This module's stap_perf_probes[]: its address and size from the
 * module's own symbol table (kallsyms of a loading module, which keeps
 * data symbols: CONFIG_KALLSYMS_ALL).  Returns the number of entries.
 */
static unsigned long perfctr_perf_probes(struct stap_perf_probe **p)
{
	struct mod_kallsyms *ks;
	unsigned long n = 0;
	unsigned int i;

	*p = NULL;
	rcu_read_lock_sched();
	ks = rcu_dereference_sched(THIS_MODULE->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++) {
		const Elf_Sym *sym = &ks->symtab[i];

		if (strcmp(ks->strtab + sym->st_name, "stap_perf_probes"))
			continue;
		*p = (struct stap_perf_probe *)kallsyms_symbol_value(sym);
		n = sym->st_size / sizeof(**p);
		break;
	}
	rcu_read_unlock_sched();
	return n;
}

/* Sleepable; before stap's init registers its perf probes. */
static int perfctr_samples_start(void)
{
	struct stap_perf_probe *p;
	unsigned long n = perfctr_perf_probes(&p), i, idx;

	if (!p) {
		_stp_error("perfctr: sampling probes: this module's "
			   "stap_perf_probes is not in its symbol table\n");
		return -ENOENT;
	}
	for (i = 0; i < n; i++) {
		struct perf_event_attr *a = &p[i].attr;

		if (a->type != PERF_TYPE_RAW ||
		    (a->config & ~0xffffffffULL) != PERFCTR_SAMPLE_MAGIC)
			continue;	/* the script's own perf probe */
		idx = a->config & 0xffffffffULL;
		if (idx >= PERFCTR_NDECLARED || !perfctr_requests[idx].id ||
		    !perfctr_samples(idx))
			return -EINVAL;	/* cannot happen: the same table */
		perfctr_sample_attr(idx, a);
	}
	return 0;
}

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
static int perfctr_samples_start(void) { return 0; }
static void perfctr_samples_report(void) { }
#endif
