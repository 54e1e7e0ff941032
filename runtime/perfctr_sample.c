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
 *
 * Each clause's events get our handler instead of stap's
 * (perfctr_sample_run), which puts the sample in the CPU's reach for
 * exactly as long as stap's handler runs the body: the reads tell a body
 * from a probe on perf's own code by it (perfctr_pmu_moving()), and the
 * payload functions read what a sample carries (perfctr_payload.h) from
 * it (perfctr_sample_value).  perf calls an overflow
 * handler before, and instead of, perf_prepare_sample(): the sample data
 * holds what the PMU driver or the event filled, and says so in
 * sample_flags; the rest is stack garbage.  So a field is read only when
 * its flag is set, with perf_prepare_sample()'s default otherwise (0, or
 * PERF_MEM_NA for a data source), and the physical address, which perf
 * computes there from the data address, is computed here the same way
 * when the body asks.
 *
 * Context of each entry point:
 *   perfctr_perf_init_hook()  stap's init, sleepable
 *   perfctr_sample_run()      the clause's overflow handler: NMI (x86's
 *                             PMU interrupt), hard IRQ (arm_pmu, the
 *                             cpu-clock and task-clock hrtimers), or the
 *                             task a software event counts in, preemption
 *                             off (page faults)
 *   perfctr_sample_value()    a sampling body (any of those), or any
 *                             probe, where it fails
 */
#ifdef PERFCTR_HAVE_SAMPLES

#ifdef PERFCTR_HAVE_PAYLOAD
#include <linux/io.h>		/* virt_to_phys(), page_to_phys() */
#include <linux/mm.h>
#include <linux/uaccess.h>	/* copy_from_user_nofault() */
#include "perfctr_chain.c"
#endif

/* body runs per CPU per clause; alloc_percpu(), not DEFINE_PER_CPU: the
 * kernel's static per-CPU reserve for modules is small and shared */
static unsigned long __percpu *perfctr_sample_runs;
/* .process clauses: what each task's event needs (perfctr_task.c) */
static struct perf_event_attr perfctr_sample_attrs[PERFCTR_NDECLARED];
/* stap's handler of each clause: it runs the body */
static perf_overflow_handler_t perfctr_sample_stap[PERFCTR_NDECLARED];
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

/*
 * The handler of clause idx's events: stap's, with the sample in the
 * CPU's reach while it runs the body.  The slot holds a pointer to this
 * frame, written in one store: an interrupt or NMI whose own sample
 * body runs meanwhile (a PMU interrupt during a page fault's) saves and
 * puts back the one it found.  A software event's overflow runs with
 * IRQs on, and stap's handler turns them off only inside: a probe of an
 * interrupt that comes before that, or after, sees the slot set.  So
 * the slot says the level the body runs at, and a reader at another
 * level finds no sample.  perfctr_cpus outlives every sampling event
 * (perfctr_stop() frees it after stap's exit and the task events'
 * release).
 */
static void perfctr_sample_run(unsigned int idx, struct perf_event *ev,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	struct perfctr_sample_now now = { .event = ev, .data = data,
					  .regs = regs, .idx = idx,
					  .level = perfctr_sample_level() };
	struct perfctr_cpu __percpu *pcs = READ_ONCE(perfctr_cpus);
	struct perfctr_sample_now *prev = NULL;
	struct perfctr_cpu *pc = NULL;

	if (likely(pcs)) {
		pc = this_cpu_ptr(pcs);
		prev = READ_ONCE(pc->sample);
		WRITE_ONCE(pc->sample, &now);
		barrier();
		PERFCTR_RACE(SAMPLE_SLOT);
	}
	perfctr_sample_stap[idx](ev, data, regs);
	if (likely(pc)) {
		barrier();
		WRITE_ONCE(pc->sample, prev);
	}
}

/* The handler the kernel calls for clause idx. */
static perf_overflow_handler_t perfctr_sample_handler(unsigned int idx)
{
	return perfctr_sample_handlers[idx] ?: perfctr_sample_stap[idx];
}

#ifdef PERFCTR_HAVE_PAYLOAD

/*
 * The physical address of a sample's data address, as perf_prepare_sample()
 * computes PERF_SAMPLE_PHYS_ADDR (perf_virt_to_phys()): a user address
 * through the lockless page-table walk of get_user_pages_fast_only()
 * (page faults off; the reference it takes is dropped at once, as perf
 * does in the same NMI), a kernel one in the linear map directly; 0
 * where neither is mapped.
 */
static u64 perfctr_sample_phys(const struct perf_sample_data *d)
{
	u64 virt = d->sample_flags & PERF_SAMPLE_ADDR ? d->addr : 0;
	struct page *p;
	u64 phys = 0;

	if (!virt)
		return 0;
	if (virt >= TASK_SIZE) {
		if (virt_addr_valid((void *)(uintptr_t)virt) &&
		    !(virt >= VMALLOC_START && virt < VMALLOC_END))
			phys = (u64)virt_to_phys((void *)(uintptr_t)virt);
	} else if (current->mm) {
		pagefault_disable();
		if (get_user_page_fast_only(virt, 0, &p)) {
			phys = page_to_phys(p) + virt % PAGE_SIZE;
			put_page(p);
		}
		pagefault_enable();
	}
	return phys;
}

/* The branch record arg of a sample's branch stack, or NULL. */
static const struct perf_branch_entry *
perfctr_sample_branch(const struct perf_sample_data *d, long long arg)
{
	const struct perf_branch_stack *br = d->sample_flags &
		PERF_SAMPLE_BRANCH_STACK ? d->br_stack : NULL;

	if (!br || arg < 0 || arg >= (long long)br->nr)
		return NULL;
	return &br->entries[arg];
}

/* Frame arg of the sample's call chain, its length or its kernel part. */
static int perfctr_sample_frame(struct perfctr_sample_now *now,
				unsigned int pv, long long arg, u64 *val)
{
	const struct perfctr_chain *c = perfctr_sample_chain(now);

	if (!c)
		return -ENOMEM;		/* no buffer: not recorded */
	if (pv == PERFCTR_PV_CALLCHAIN)
		*val = c->nr;
	else if (pv == PERFCTR_PV_KERNEL_FRAMES)
		*val = c->kern;
	else if (arg < 0 || arg >= c->nr)
		return -ERANGE;
	else
		*val = c->ip[arg];
	return 0;
}

/*
 * What the sample whose body runs on this CPU carries: value pv
 * (PERFCTR_PV_*; arg, a branch record's or a frame's index).  Any probe
 * context.  Returns 0, -ENOENT (no sample: not in a sampling body),
 * -EPERM (the clause does not record it), -ERANGE (no such branch record
 * or frame).
 */
static int perfctr_sample_value(unsigned int pv, long long arg, u64 *val)
{
	struct perfctr_sample_now *now;
	const struct perf_branch_entry *e;
	const struct perf_sample_data *d;
	u64 flags;

	now = pv < PERFCTR_PV_N ? perfctr_sample_here() : NULL;
	if (!now)
		return -ENOENT;	/* an interrupt's probe, not the body */
	if (perfctr_pvs[pv].bit & ~perfctr_requests[now->idx].payload)
		return -EPERM;
	d = now->data;
	flags = d->sample_flags;
	switch (pv) {
	case PERFCTR_PV_ADDR:
		*val = flags & PERF_SAMPLE_ADDR ? d->addr : 0;
		break;
	case PERFCTR_PV_PHYS:
		*val = perfctr_sample_phys(d);
		break;
	case PERFCTR_PV_WEIGHT:
	case PERFCTR_PV_INS_LAT:
		*val = flags & PERF_SAMPLE_WEIGHT_TYPE ?
		       perfctr_weight_part(d->weight.full,
					   pv == PERFCTR_PV_INS_LAT) : 0;
		break;
	case PERFCTR_PV_SRC:
		*val = flags & PERF_SAMPLE_DATA_SRC ? d->data_src.val :
		       PERF_MEM_NA;
		break;
	case PERFCTR_PV_PERIOD:
		*val = d->period;
		break;
	case PERFCTR_PV_COUNT:
		*val = local64_read(&now->event->count);
		break;
	case PERFCTR_PV_BRANCHES:
		*val = flags & PERF_SAMPLE_BRANCH_STACK && d->br_stack ?
		       d->br_stack->nr : 0;
		break;
	case PERFCTR_PV_CALLCHAIN:
	case PERFCTR_PV_KERNEL_FRAMES:
	case PERFCTR_PV_IP:
		return perfctr_sample_frame(now, pv, arg, val);
	default:
		e = perfctr_sample_branch(d, arg);
		if (!e)
			return -ERANGE;
		*val = pv == PERFCTR_PV_BR_FROM ? e->from :
		       pv == PERFCTR_PV_BR_TO ? e->to : perfctr_branch_flags(e);
	}
	return 0;
}

/* Why a payload function failed; only on the error path. */
static const char *perfctr_payload_error(int rc, unsigned int pv)
{
	switch (rc) {
	case -ENOENT:
		return "there is no sample here: it reads the sample a sampling "
		       "probe's body runs for (perfctr.event(...).sample(N) or "
		       ".hz(F)), and this is not one, nor a function it calls";
	case -EPERM:
		return "this sampling probe does not record it (a probe asks "
		       "for what its body, or a function its body calls, "
		       "reads)";
	}
	if (rc == -ERANGE)
		return pv == PERFCTR_PV_IP ?
		       "this sample has no frame at that index: they go from 0 "
		       "(the innermost) to perfctr_sample_callchain() - 1" :
		       "this sample has no branch record at that index: they "
		       "go from 0 to perfctr_sample_branches() - 1";
	return "the module has no call chain buffer";
}

/* The body of a payload function: value pv of the running sample, or a
 * catchable error naming the call and where the script makes it. */
#define PERFCTR_PAYLOAD(pv, i, site) do {				\
	u64 v_ = 0;							\
	int rc_ = perfctr_sample_value((pv), (i), &v_);			\
	if (unlikely(rc_) && perfctr_pv_indexed(&perfctr_pvs[(pv)]))	\
		PERFCTR_FAIL((site), "%s(%lld): %s",			\
			     perfctr_pvs[(pv)].fn, (long long)(i),	\
			     perfctr_payload_error(rc_, (pv)));		\
	if (unlikely(rc_))						\
		PERFCTR_FAIL((site), "%s(): %s", perfctr_pvs[(pv)].fn,	\
			     perfctr_payload_error(rc_, (pv)));		\
	STAP_RETURN(v_);						\
} while (0)

/* Whether the sample whose body runs here has a call chain: the
 * generated fold functions' test (translator/emit.c). */
#define PERFCTR_CHAIN_HERE() do {					\
	u64 v_;								\
	STAP_RETURN(!perfctr_sample_value(PERFCTR_PV_CALLCHAIN, 0, &v_));	\
} while (0)
#else
static int perfctr_chains_start(void) { return 0; }
static void perfctr_chains_stop(void) { }
#endif /* PERFCTR_HAVE_PAYLOAD */

/* Sleepable; at start, before stap's init creates its perf probes. */
static int perfctr_samples_start(void)
{
	perfctr_sample_runs = __alloc_percpu(sizeof(unsigned long) *
					     PERFCTR_NDECLARED,
					     __alignof__(unsigned long));
	return perfctr_sample_runs ? perfctr_chains_start() : -ENOMEM;
}

static void perfctr_samples_stop(void)
{
	free_percpu(perfctr_sample_runs);
	perfctr_sample_runs = NULL;
	perfctr_chains_stop();
}

static void perfctr_sample_attr(unsigned int idx, struct perf_event_attr *a)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];

	perfctr_attr(&perfctr_slots[idx], a);
	perfctr_attr_sample(a, r->sample, r->hz, r->precise, r->payload);
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
		perfctr_sample_stap[idx] = p[i].callback;
		p[i].callback = perfctr_sample_handler(idx);
		if (perfctr_requests[idx].scope == PERFCTR_SCOPE_PROCESS) {
			/* stap would follow the first task only: every task
			 * gets its own event from perfctr_task.c instead */
			perfctr_sample_attrs[idx] = *a;
			p[i].task_finder = 0;
		}
	}
	return 0;
}

/* Task tsk's root sampling event for .process clause i, with the
 * clause's handler (which runs the clause's body) and tag (what marks it
 * and the events inherited from it, perfctr_task.c), on core PMU k's
 * encoding (a hybrid machine's CPU records) or the clause's own;
 * inherited by the tasks tsk forks; off until tsk's exec when on_exec;
 * NULL before stap's init set it up. */
static struct perf_event *perfctr_sample_task_event(unsigned int i,
						   unsigned int k,
						   struct task_struct *tsk,
						   bool on_exec, void *tag)
{
	const struct perfctr_slot *s = &perfctr_slots[i];
	struct perf_event_attr a;

	if (!perfctr_sample_stap[i])
		return NULL;
	a = perfctr_sample_attrs[i];
	if (s->nenc) {
		a.type = s->enc[k].type;
		a.config = s->enc[k].config;
		a.config1 = s->enc[k].config1;
		a.config2 = s->enc[k].config2;
	}
	a.disabled = a.enable_on_exec = on_exec;
	a.inherit = 1;
	return perfctr_priv_create(&a, -1, tsk, perfctr_sample_handler(i),
				   tag);
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
 * them; per task, the tasks' totals (perfctr_task.c), which a full task
 * table leaves unknown (*known false, the count 0). */
static u64 perfctr_sample_count(unsigned int i, bool *known)
{
	u64 v = 0;

	*known = true;
	if (perfctr_requests[i].scope != PERFCTR_SCOPE_PROCESS)
		return perfctr_sample_counted[i];
	*known = !perfctr_read_total(i, &v);
	return *known ? v : 0;
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
	bool known;
	u64 count;
	int cpu;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		r = &perfctr_requests[i];
		if (!r->id || !perfctr_samples(i))
			continue;
		runs = 0;
		for_each_possible_cpu(cpu)
			runs += per_cpu_ptr(perfctr_sample_runs, cpu)[i];
		count = perfctr_sample_count(i, &known);
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
		perfctr_report_sample(i, runs, count, known);
	}
}

#else /* !PERFCTR_HAVE_SAMPLES */
#define PERFCTR_SAMPLED(idx) do { } while (0)
static int perfctr_samples_start(void) { return 0; }
static void perfctr_samples_stop(void) { }
static void perfctr_samples_report(void) { }
static struct perf_event *perfctr_sample_task_event(unsigned int i,
						   unsigned int k,
						   struct task_struct *tsk,
						   bool on_exec, void *tag)
{
	return NULL;
}
#endif
