// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr.c - creating and releasing the module's counters, and the hook
 * that runs both around stap's own module init and exit.
 *
 * Included once, from the generated tapset's embedded C, after the request
 * table (perfctr_requests[]) and the read sites (perfctr_sites[]).
 * Context of each entry point:
 *   perfctr_start()       sleepable; before any probe is registered
 *   perfctr_stop()        sleepable; after every probe has finished;
 *                         idempotent, safe when perfctr_start never ran
 *   perfctr_read_local()  any probe context (perfctr.h)
 * Each CPU's counters, and CPU hotplug: perfctr_cpus.c; groups, which
 * perfctr-run opens: perfctr_group.c.
 */
#include <linux/delay.h>

#include "perfctr_assign.c"

#ifndef PERFCTR_NGROUPS
#define PERFCTR_ASSIGN_NGROUPS	0
#else
#define PERFCTR_ASSIGN_NGROUPS	PERFCTR_NGROUPS
#endif
#ifndef PERFCTR_NSOCKET
#define PERFCTR_ASSIGN_NSOCKET	0
#else
#define PERFCTR_ASSIGN_NSOCKET	PERFCTR_NSOCKET
#endif
/* Room for the longest assignment perfctr-run may write for this table
 * (perfctr_iface.h: the same bound it checks). */
#define PERFCTR_ASSIGN_MAX						\
	PERFCTR_ASSIGN_LEN(PERFCTR_NDECLARED, PERFCTR_ASSIGN_NGROUPS,	\
			   PERFCTR_ASSIGN_NSOCKET, PERFCTR_SOCKETS)

/* Set once at load by perfctr-run; readable by all (--dump-counters). */
static char perfctr_assign[PERFCTR_ASSIGN_MAX];
module_param_string(perfctr_assign, perfctr_assign, sizeof(perfctr_assign),
		    0444);
MODULE_PARM_DESC(perfctr_assign, "event encodings, set by perfctr-run");

/*
 * perfctr_requests: the module's requests, one perfctr_req value a line
 * (perfctr_requests_text, generated), readable by all and settable by no
 * one: while the module is loaded, the kernel itself says which scripts
 * hold which counters, and nothing is left behind when it goes.
 */
static int perfctr_requests_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static int perfctr_requests_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s", (const char *)kp->arg);
}

static const struct kernel_param_ops perfctr_requests_ops = {
	.set = perfctr_requests_set,
	.get = perfctr_requests_get,
};
module_param_cb(perfctr_requests, &perfctr_requests_ops,
		(void *)perfctr_requests_text, 0444);
MODULE_PARM_DESC(perfctr_requests, "this module's counter requests");

static struct perfctr_slot perfctr_slots[PERFCTR_NDECLARED];

static bool perfctr_left_out(unsigned int idx, int cpu)
{
	return perfctr_req_has_cpus(&perfctr_requests[idx]) &&
	       !perfctr_slot_cpu_enc(&perfctr_slots[idx], cpu);
}
#ifdef PERFCTR_NGROUPS
static struct perfctr_group_slot perfctr_gslots[PERFCTR_NGROUPS];
#define PERFCTR_TABLE_GROUPS .groups = perfctr_groups, \
			     .ngroups = PERFCTR_NGROUPS,
#define PERFCTR_GSLOTS perfctr_gslots
#else
#define PERFCTR_TABLE_GROUPS
#define PERFCTR_GSLOTS NULL
#endif

#if defined(PERFCTR_NTHREAD) || defined(PERFCTR_NCGROUP) || \
    defined(PERFCTR_HAVE_TICK) || defined(PERFCTR_HAVE_PROCESS)
#include <linux/tracepoint.h>

struct perfctr_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void perfctr_tp_lookup(struct tracepoint *tp, void *priv)
{
	struct perfctr_tp_find *f = priv;

	if (!strcmp(tp->name, f->name))
		f->tp = tp;
}

/*
 * probe on the kernel's tracepoint name, at priority prio (the script's
 * own probes have TRACEPOINT_DEFAULT_PRIO).  *tp is the tracepoint while
 * probe is registered, else NULL.  scope NULL: no message.  Sleepable.
 */
static int perfctr_tp_hook(const char *name, struct tracepoint **tp,
			   void *probe, int prio, const char *scope)
{
	struct perfctr_tp_find f = { .name = name };
	int rc;

	for_each_kernel_tracepoint(perfctr_tp_lookup, &f);
	if (!f.tp) {
		if (scope)
			_stp_error("perfctr: %s counters need the %s "
				   "tracepoint\n", scope, name);
		return -ENOENT;
	}
	rc = tracepoint_probe_register_prio(f.tp, probe, NULL, prio);
	if (!rc)
		*tp = f.tp;
	return rc;
}

/* Sleepable; idempotent. */
static void perfctr_tp_unhook(struct tracepoint **tp, void *probe)
{
	if (!*tp)
		return;
	tracepoint_probe_unregister(*tp, probe, NULL);
	tracepoint_synchronize_unregister();
	*tp = NULL;
}

/*
 * probe on sched_switch (.thread's and .cgroup's bookkeeping, the sum
 * timers' parking), after the script's own sched_switch probes (default
 * priority): a probe there reads the outgoing thread before the
 * bookkeeping moves on.
 */
static int perfctr_switch_hook(struct tracepoint **tp, void *probe,
			       const char *scope)
{
	return perfctr_tp_hook("sched_switch", tp, probe,
			       TRACEPOINT_DEFAULT_PRIO - 1, scope);
}
#endif

#include "perfctr_priv.c"
#include "perfctr_group.c"
#include "perfctr_cpus.c"
#include "perfctr_socket.c"
#include "perfctr_sum.c"
#include "perfctr_thread.c"
#include "perfctr_cgroup.c"
#include "perfctr_report.c"
#include "perfctr_sample.c"
#include "perfctr_task.c"
#include "perfctr_rearm.c"
#include "perfctr_selftest.c"

/* The read outcomes' messages, in the order of enum perfctr_read_err. */
static const struct perfctr_read_err_row perfctr_read_errs[] =
	PERFCTR_READ_ERR_ROWS;

static const char *perfctr_read_error(unsigned int idx, int rc)
{
	const char *msg = NULL;

	BUILD_BUG_ON(PERFCTR_RE_END > -MAX_ERRNO);
	BUILD_BUG_ON(ARRAY_SIZE(perfctr_read_errs) !=
		     PERFCTR_RE_END - PERFCTR_RE_BASE - 1);
	if (idx >= PERFCTR_NDECLARED)
		return "does not exist";
	if (!perfctr_requests[idx].id)
		return "was not created: its probe's %( %) condition is false";
	if (perfctr_read_err_is(rc))
		msg = perfctr_read_errs[rc - PERFCTR_RE_BASE - 1].msg;
	if (msg)
		return msg;
	if (perfctr_requests[idx].scope == PERFCTR_SCOPE_SOCKET)
		return perfctr_socket_why(rc);
	if (rc == PERFCTR_RE_NOT_HERE ||
	    (rc == -ENODEV && perfctr_left_out(idx, raw_smp_processor_id())))
		return perfctr_slots[idx].cpus_why;
	if (rc == -ENODEV && perfctr_requests[idx].group_no)
		return "has no group on this CPU: perfctr-run opened it on "
		       "the CPUs that were online when it ran";
	switch (rc) {
	case -ENODEV:
		return "has no counter on this CPU";
	case -EAGAIN:
		return "has not been on the PMU yet on this CPU (.multiplex): "
		       "no estimate";
	case -EIO:
		return "is not counting on this CPU";
	case -ENOSPC:
		if (perfctr_requests[idx].scope == PERFCTR_SCOPE_PROCESS)
			return "is not counted in every task: the task table "
			       "was full (stap -D PERFCTR_TASKS=N)";
		return "has no room for this thread: all thread records are "
		       "in use (at most stap -D PERFCTR_THREADS=N)";
	case -ESRCH:
		if (perfctr_requests[idx].scope == PERFCTR_SCOPE_THREAD)
			return "is not counted in this CPU's idle task";
		return "is not counted in this thread: it is not in the "
		       ".process target";
	case -EINVAL:
		return "has no total: only .process counters have one";
	case -EBUSY:
		return "has no total here: this read interrupted a task's exit "
		       "being counted on this CPU";
	case -ENODATA:
		return "has no level-1 topdown metric of its group counted on "
		       "this CPU yet: no share";
	}
	return "cannot be read on this CPU";
}

static const char *perfctr_site(long long site)
{
	return site >= 0 && site < PERFCTR_NSITES ? perfctr_sites[site] : NULL;
}

/* The request the script names id, or -1: a walk of the table, for
 * perfctr_unit() and perfctr_scaled().  Any context. */
static int perfctr_find(const char *id)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (perfctr_requests[i].id && !strcmp(perfctr_requests[i].id, id))
			return i;
	return -1;
}

/*
 * count * per in the units of counter idx: one count is scale_mult /
 * 2^scale_shift of them (its sysfs event's .scale; 1 without one), so
 * per = 1000000 gives micro-units.  Rounded down.  Any context.
 * Returns 0, or -ERANGE for a negative count or per, or a result past
 * 63 bits.
 */
static int perfctr_scaled(unsigned int idx, s64 count, s64 per, s64 *out)
{
	const struct perfctr_slot *s = &perfctr_slots[idx];
	u64 mult = s->scale_mult ? s->scale_mult : 1, x;
	unsigned int shift = s->scale_mult ? s->scale_shift : 0;

	if (count < 0 || per < 0 || check_mul_overflow((u64)count, (u64)per, &x))
		return -ERANGE;
	if (fls64(x) + fls64(mult) > 63 + shift)
		return -ERANGE;
	*out = mul_u64_u64_shr(x, mult, shift);
	return 0;
}

#ifdef PERFCTR_DIRECT
/* The direct read alone, never called: testsuite/lib/check-read-path
 * proves from this copy that it has no indirect call or branch. */
static noinline __used bool perfctr_direct_path_check(struct perf_event *ev,
						       u64 *v)
{
	return perfctr_direct_read(ev, v);
}
#endif

/*
 * The read path as a function of its own, never called: reads are inlined
 * into stap's generated functions and probe handlers, where no symbol marks
 * them.  testsuite/lib/check-read-path proves from this copy that a read
 * cannot reach a sleeping, locking or allocating kernel function.
 */
static noinline __used int perfctr_read_path_check(unsigned int idx, u64 *v)
{
	u64 e, r;
	int cpu;

	return perfctr_read_local(idx, v) ?:
#ifdef PERFCTR_HAVE_PAYLOAD
	       perfctr_sample_value(idx, idx, v) ?:
#endif
	       perfctr_read_scaled(idx, v) ?:
	       perfctr_read_thread(idx, v) ?: perfctr_read_process(idx, v) ?:
	       perfctr_read_total(idx, v) ?:
	       perfctr_read_sum(idx, v, &cpu) ?: perfctr_read_sum_age(idx, v) ?:
	       perfctr_read_socket(idx, v) ?: perfctr_read_socket_age(idx, v) ?:
	       perfctr_read_socket_n(idx, 1, v) ?:
#ifdef PERFCTR_NGROUPS
	       perfctr_read_group(idx, v) ?: perfctr_read_topdown(idx, v) ?:
#endif
	       PERFCTR_READ_TIMES(idx, v, &e, &r);
}

/* Sleepable, once no probe runs.  A group module counts stap's probe
 * contexts in perfctr_cpus (perfctr_group.c), also outside probes: only
 * with preemption off, so a grace period after clearing it no one can
 * hold it. */
static void perfctr_cpus_free(void)
{
	struct perfctr_cpu __percpu *pcs = perfctr_cpus;

	WRITE_ONCE(perfctr_cpus, NULL);
#ifdef PERFCTR_NGROUPS
	synchronize_rcu();
#endif
	free_percpu(pcs);
}

static void perfctr_stop(void)
{
	if (perfctr_cpus) {	/* started: stap's exit has run */
		perfctr_samples_report();
		perfctr_report_counters();
	}
	perfctr_selftest_stop();
	perfctr_rearm_stop();
	perfctr_tasks_stop();
	perfctr_threads_stop();
	perfctr_cgroups_stop();
	perfctr_samples_stop();
	if (perfctr_cpus) {
		perfctr_cpus_stop();
		perfctr_cpus_free();
	}
	perfctr_priv_release();
}

static int perfctr_start_checked(void)
{
	struct perfctr_table table = {
		.hash = PERFCTR_TABLE_HASH, .reqs = perfctr_requests,
		.n = PERFCTR_NDECLARED, .max_cpus = nr_cpu_ids,
		PERFCTR_TABLE_GROUPS
	};
	char err[160], *copy;
	int rc;

	might_sleep();
	if (!perfctr_assign[0]) {
		_stp_error("perfctr: this module counts events that must be "
			   "resolved for this machine first; start it with "
			   "perfctr-run [staprun options] %s.ko (or run the "
			   "script with stap-perfctr; a stap --remote host "
			   "runs perfctr-stapsh in place of stapsh)\n",
			   THIS_MODULE->name);
		return -EINVAL;
	}
	/* parse a copy: the parameter stays readable as it was given */
	copy = kstrdup(perfctr_assign, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	rc = perfctr_assign_parse(copy, &table, perfctr_slots, PERFCTR_GSLOTS,
				  err, sizeof(err));
	kfree(copy);
	if (rc) {
		_stp_error("perfctr: invalid perfctr_assign: %s\n", err);
		return rc;
	}
	rc = perfctr_priv_check();	/* stapsys, stapusr: perf's rules */
	if (rc)
		return rc;
	perfctr_direct_start();	/* the counters' width, before any pair */
	perfctr_cpus = alloc_percpu(struct perfctr_cpu);
	if (!perfctr_cpus) {
		perfctr_priv_release();
		return -ENOMEM;
	}
	rc = perfctr_samples_start() ?: perfctr_cpus_start();
	if (!rc)
		rc = perfctr_threads_start();
	if (!rc)
		rc = perfctr_cgroups_start();
	if (!rc)
		rc = perfctr_tasks_start();
	if (!rc)
		rc = perfctr_selftest_start();
	if (rc)
		perfctr_stop();
	return rc;
}

/*
 * A refusal comes back to stapio within microseconds of its starting the
 * relay reader threads.  stapio 4.8 then stops them with SIGUSR2, and a
 * thread that has not yet blocked that signal and entered ppoll() never
 * sees it: stapio hangs in pthread_join() (seen about once in four runs
 * under load).  Refusing a moment later lets the threads settle; the
 * cost is paid only by a start that fails anyway.
 */
static int perfctr_start(void)
{
	int rc = perfctr_start_checked();

	if (rc)
		msleep(250);
	return rc;
}

/*
 * Our start and stop go around stap's own module init and exit, on every
 * stap version.  (stap 5.2's STAP_MODULE_EXIT_HOOK is no place for the
 * stop: stap calls it after its transport is closed, and the end-of-run
 * report would print into nothing.)  This file is emitted after runtime.h
 * and before transport.c, which declares and calls systemtap_module_init()
 * and systemtap_module_exit(); the generated code defines them.  Calls read
 * "name()", declaration and definition read "name(void)": a variadic macro
 * tells them apart, renaming the definition and sending the runtime's call
 * to our wrapper.  A change in those names breaks the build, not the run.
 */
static int perfctr_real_module_init(void);
static void perfctr_real_module_exit(void);
static int perfctr_wrap_module_init(void);
static void perfctr_wrap_module_exit(void);
#define PERFCTR_SMI_void perfctr_real_module_init(void)
#define PERFCTR_SMI_ perfctr_wrap_module_init()
#define PERFCTR_SME_void perfctr_real_module_exit(void)
#define PERFCTR_SME_ perfctr_wrap_module_exit()
#define systemtap_module_init(...) PERFCTR_SMI_ ## __VA_ARGS__
#define systemtap_module_exit(...) PERFCTR_SME_ ## __VA_ARGS__

static int perfctr_wrap_module_init(void)
{
	int rc = perfctr_start();

	if (rc)
		return rc;	/* stap's init never ran: nothing else to undo */
	rc = perfctr_real_module_init();
	if (rc)
		perfctr_stop();	/* its failure path has quiesced every probe */
	return rc;
}

/* The runtime calls this only after a successful init. */
static void perfctr_wrap_module_exit(void)
{
	perfctr_real_module_exit();
	perfctr_stop();
}
