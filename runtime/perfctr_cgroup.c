// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_cgroup.c - .cgroup("PATH") counters: the count of every task in
 * a cgroup v2 subtree, made from the per-CPU counters by bookkeeping at
 * each context switch (as .thread does, and as perf's BPF cgroup counting
 * does).
 *
 * At sched_switch (this CPU, IRQs off) each .cgroup counter is read once:
 * if the outgoing task is in the counter's cgroup or below it, this CPU's
 * accumulator gets what the CPU counted since the last switch; the next
 * interval starts now.  So a task is charged, for each stretch it ran, to
 * the cgroups it was in when it was switched out: a task moved while it
 * sleeps is charged to each cgroup for its own time there.  A read is the
 * sum of every CPU's accumulator, plus, on the reading CPU, what the
 * current task counted since its switch-in when it is in the cgroup.  The
 * stretches that other CPUs are running now are not in it until their
 * next switch.  The idle tasks are in no cgroup's count.
 *
 * Readers run in any context, NMI included, and on any CPU.  A CPU's
 * bookkeeping has two halves, and the switch fills the one cur does not
 * name and then flips cur (as struct perfctr_pair in perfctr.h): a reader
 * nested in the switch on this CPU sees the accumulator and its start
 * from one half, never the new sum with the old start (which would count
 * the stretch twice).  A reader on another CPU reads only accumulators:
 * one 64-bit load each, and an accumulator never goes back, so any half
 * it finds holds a count that was true at some moment, provided it sees
 * the half's accumulator as written before the flip it found: cur is
 * stored with release (on arm64 two plain stores may become visible to
 * another CPU in either order: the new cur with the half as it was two
 * switches before, and a read after one that saw the old half would go
 * back), and the half is found through the cur loaded (an address
 * dependency, which orders the two loads, as rcu_dereference() does).
 */
#ifdef PERFCTR_NCGROUP

#include <linux/cgroup.h>
#include <linux/version.h>

/* start[k] when counter k could not be read at the last switch */
#define PERFCTR_CG_NO_START	U64_MAX

struct perfctr_cg_half {
	u64 acc[PERFCTR_NCGROUP];
	u64 start[PERFCTR_NCGROUP];
};

struct perfctr_cg_cpu {
	unsigned int cur;	/* the half that holds */
	struct perfctr_cg_half h[2];
} ____cacheline_aligned;	/* written at every switch, read remotely */

static struct perfctr_cg_cpu __percpu *perfctr_cg_cpus;
static struct cgroup *perfctr_cg[PERFCTR_NCGROUP];	/* slot -> cgroup */
static unsigned int perfctr_cg_req[PERFCTR_NCGROUP];	/* slot -> idx */
static struct tracepoint *perfctr_cg_tp;	/* while hooked */

/*
 * Is task t in counter slot k's cgroup, or below it?  IRQs off (an RCU
 * read side: a css_set that t leaves is freed after a grace period), or
 * an NMI.  Both helpers are inline in <linux/cgroup.h>.
 */
static bool perfctr_cg_has(struct task_struct *t, unsigned int k)
{
	const struct css_set *cset;

	if (!t->pid)	/* an idle task */
		return false;
	cset = rcu_dereference_sched(t->cgroups);
	return cgroup_is_descendant(cset->dfl_cgrp, perfctr_cg[k]);
}

static const struct perfctr_cg_half *
perfctr_cg_now(const struct perfctr_cg_cpu *cc)
{
	/* the half's loads after c's, on any CPU: an acquire, as the address
	 * of one of two halves is a dependency the compiler may turn into a
	 * branch, which orders no load (rcu_dereference.rst) */
	unsigned int c = smp_load_acquire(&cc->cur);

	return &cc->h[c & 1];
}

/* sched_switch, on this CPU, IRQs off: prev's stretch to its cgroups. */
static void perfctr_cg_on_switch(void *data, bool preempt,
				 struct task_struct *prev,
				 struct task_struct *next,
				 unsigned int prev_state)
{
	struct perfctr_cg_cpu *cc = this_cpu_ptr(perfctr_cg_cpus);
	const struct perfctr_cg_half *o = perfctr_cg_now(cc);
	struct perfctr_cg_half *n = &cc->h[!(cc->cur & 1)];
	unsigned int k;
	u64 v, acc;
	int rc;

	if (unlikely(!READ_ONCE(perfctr_cpus)))
		return;
	for (k = 0; k < PERFCTR_NCGROUP; k++) {
		rc = perfctr_read_here(perfctr_cg_req[k], &v);
		/* .cpus: its base where it is not */
		if (rc && rc != PERFCTR_RE_NOT_HERE)
			v = PERFCTR_CG_NO_START;
		acc = o->acc[k];
		if (v != PERFCTR_CG_NO_START &&
		    o->start[k] != PERFCTR_CG_NO_START &&
		    perfctr_cg_has(prev, k))
			acc += v - o->start[k];
		WRITE_ONCE(n->acc[k], acc);	/* one store: remote readers */
		n->start[k] = v;
	}
	/* a reader, nested or on another CPU, flips to the new half whole */
	smp_store_release(&cc->cur, cc->cur + 1);
}

/* This CPU's part of slot k: its accumulator, and the current task's
 * stretch when it is in the cgroup.  IRQs off. */
static int perfctr_cg_here(struct perfctr_cg_cpu __percpu *cgs, unsigned int k,
			   u64 *val)
{
	const struct perfctr_cg_half *h = perfctr_cg_now(this_cpu_ptr(cgs));
	u64 start = READ_ONCE(h->start[k]), v;
	int rc;

	*val = READ_ONCE(h->acc[k]);
	if (!perfctr_cg_has(current, k))
		return 0;
	rc = perfctr_read_here(perfctr_cg_req[k], &v);
	if (rc && rc != PERFCTR_RE_NOT_HERE)	/* .cpus: none counted here */
		return -EIO;
	if (start != PERFCTR_CG_NO_START)	/* else: not measurable */
		*val += v - start;
	return 0;
}

/*
 * The count of .cgroup counter idx: every task of the cgroup's subtree,
 * on every CPU.  Any probe context, NMI included; one pass over the
 * possible CPUs, no lock.  Returns 0, -ENODEV (not started), -EIO (the
 * current task is in the cgroup and this CPU's counter cannot be read).
 */
static int perfctr_read_cgroup(unsigned int idx, u64 *val)
{
	unsigned int k = perfctr_requests[idx].tslot;
	struct perfctr_cg_cpu __percpu *cgs = READ_ONCE(perfctr_cg_cpus);
	unsigned long flags;
	u64 sum = 0;
	int cpu, rc;

	if (unlikely(!READ_ONCE(perfctr_cpus) || !cgs))
		return -ENODEV;
	local_irq_save(flags);
	rc = perfctr_cg_here(cgs, k, &sum);
	for_each_possible_cpu(cpu)
		if (cpu != smp_processor_id())
			sum += READ_ONCE(perfctr_cg_now(per_cpu_ptr(cgs, cpu))
					 ->acc[k]);
	local_irq_restore(flags);
	*val = sum;
	return rc;
}

/* Each .cgroup counter's cgroup, by its path below the cgroup2 root (of
 * the loading process's cgroup namespace).  Sleepable. */
static int perfctr_cg_resolve(void)
{
	const struct perfctr_request_desc *r;
	struct cgroup *cg;
	unsigned int i;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		r = &perfctr_requests[i];
		if (!r->id || r->scope != PERFCTR_SCOPE_CGROUP)
			continue;
		cg = cgroup_get_from_path(r->target);
		if (IS_ERR(cg)) {
			_stp_error("perfctr: counter \"%s\" (%s): no cgroup "
				   "\"%s\" in the cgroup v2 hierarchy (error "
				   "%ld)\n", r->id, r->src, r->target,
				   PTR_ERR(cg));
			return PTR_ERR(cg);
		}
		perfctr_cg[r->tslot] = cg;
		perfctr_cg_req[r->tslot] = i;
	}
	return 0;
}

/* Nothing is charged on a CPU until its first switch has a start. */
static void perfctr_cg_init_cpus(void)
{
	struct perfctr_cg_cpu *cc;
	unsigned int k;
	int cpu;

	for_each_possible_cpu(cpu) {
		cc = per_cpu_ptr(perfctr_cg_cpus, cpu);
		for (k = 0; k < PERFCTR_NCGROUP; k++)
			cc->h[0].start[k] = cc->h[1].start[k] =
				PERFCTR_CG_NO_START;
	}
}

/* Sleepable; after the per-CPU counters exist. */
static int perfctr_cgroups_start(void)
{
	int rc = perfctr_cg_resolve();

	if (rc)
		return rc;	/* perfctr_cgroups_stop() puts them */
	perfctr_cg_cpus = alloc_percpu(struct perfctr_cg_cpu);
	if (!perfctr_cg_cpus)
		return -ENOMEM;
	perfctr_cg_init_cpus();
	return perfctr_switch_hook(&perfctr_cg_tp, perfctr_cg_on_switch,
				   ".cgroup");
}

/* Sleepable; idempotent; before the per-CPU counters go. */
static void perfctr_cgroups_stop(void)
{
	struct perfctr_cg_cpu __percpu *cgs = perfctr_cg_cpus;
	unsigned int k;

	perfctr_tp_unhook(&perfctr_cg_tp, perfctr_cg_on_switch);
	WRITE_ONCE(perfctr_cg_cpus, NULL);
	synchronize_rcu();	/* a reader may still hold cgs */
	free_percpu(cgs);
	for (k = 0; k < PERFCTR_NCGROUP; k++) {
		if (perfctr_cg[k])
			cgroup_put(perfctr_cg[k]);
		perfctr_cg[k] = NULL;
	}
}

#else /* !PERFCTR_NCGROUP */
static int perfctr_cgroups_start(void) { return 0; }
static void perfctr_cgroups_stop(void) { }
static int perfctr_read_cgroup(unsigned int idx, u64 *val) { return -ENODEV; }
#endif
