// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr.c - creating and releasing the module's counters, and the hook
 * that runs both around stap's own module init and exit.
 *
 * Included once, from the generated tapset's embedded C, after the request
 * table (perfctr_requests[]).  Context of each entry point:
 *   perfctr_start()       sleepable; before any probe is registered
 *   perfctr_stop()        sleepable; after every probe has finished;
 *                         idempotent, safe when perfctr_start never ran
 *   perfctr_read_local()  any probe context (perfctr.h)
 */
#include "perfctr_assign.c"

#define PERFCTR_ASSIGN_MAX (40 + PERFCTR_NDECLARED * 96)

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

static const char *perfctr_read_error(unsigned int idx, int rc)
{
	if (idx >= PERFCTR_NDECLARED)
		return "does not exist";
	if (!perfctr_requests[idx].id)
		return "was not created: its probe's %( %) condition is false";
	switch (rc) {
	case -ENODEV:
		return "has no counter on this CPU";
	case -EAGAIN:
		return "has not been on the PMU yet on this CPU (.multiplex): "
		       "no estimate";
	case -ENOSYS:
		return "cannot be read: perf_event_read_local() was not found";
	case -EIO:
		return "is not counting on this CPU";
	}
	return "cannot be read on this CPU";
}

/*
 * The read path as a function of its own, never called: reads are inlined
 * into stap's generated functions and probe handlers, where no symbol marks
 * them.  testsuite/lib/check-read-path proves from this copy that a read
 * cannot reach a sleeping, locking or allocating kernel function.
 */
static noinline __used int perfctr_read_path_check(unsigned int idx, u64 *v)
{
	return perfctr_read_local(idx, v) ?: perfctr_read_scaled(idx, v);
}

static void perfctr_attr(const struct perfctr_slot *s,
			 struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = s->type;
	attr->config = s->config;
	attr->config1 = s->config1;
	attr->config2 = s->config2;
	/* pinned: exact counts, never time-shared, unless .multiplex */
	attr->pinned = !(s->flags & PERFCTR_F_MULTIPLEX);
	attr->exclude_user = !!(s->flags & PERFCTR_F_EXCLUDE_USER);
	attr->exclude_kernel = !!(s->flags & PERFCTR_F_EXCLUDE_KERNEL);
	attr->exclude_hv = !!(s->flags & PERFCTR_F_EXCLUDE_HV);
}

static void perfctr_stop(void)
{
	int cpu, released = 0;
	unsigned int i;

	if (!perfctr_cpus)
		return;
	for_each_possible_cpu(cpu) {
		struct perfctr_cpu *pc = per_cpu_ptr(perfctr_cpus, cpu);

		for (i = 0; i < PERFCTR_NDECLARED; i++) {
			if (!pc->ev[i])
				continue;
			perf_event_release_kernel(pc->ev[i]);
			pc->ev[i] = NULL;
			released++;
		}
	}
	free_percpu(perfctr_cpus);
	perfctr_cpus = NULL;
	printk(KERN_INFO "perfctr: %s: released %d counters\n",
	       THIS_MODULE->name, released);
}

/* One counter on one CPU; it must be counting now, or the start fails:
 * a pinned event that does not fit sits in ERROR state and counts nothing. */
static int perfctr_create_one(unsigned int idx, int cpu)
{
	const struct perfctr_request_desc *r = &perfctr_requests[idx];
	struct perf_event_attr attr;
	struct perf_event *ev;

	perfctr_attr(&perfctr_slots[idx], &attr);
	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev)) {
		_stp_error("perfctr: %s: counter \"%s\" (%s): cannot create "
			   "it on CPU %d: error %ld\n", r->src, r->id, r->event,
			   cpu, PTR_ERR(ev));
		return PTR_ERR(ev);
	}
	per_cpu_ptr(perfctr_cpus, cpu)->ev[idx] = ev;
	if (!r->mux && READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE) {
		_stp_error("perfctr: %s: counter \"%s\" (%s) is not counting "
			   "on CPU %d (state %d): no free hardware counter "
			   "for it\n", r->src, r->id, r->event, cpu,
			   (int)READ_ONCE(ev->state));
		return -EBUSY;
	}
	return 0;
}

static int perfctr_create_all(void)
{
	unsigned int i;
	int cpu, rc = 0, created = 0;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		for (i = 0; i < PERFCTR_NDECLARED && !rc; i++) {
			if (!perfctr_requests[i].id)
				continue;
			rc = perfctr_create_one(i, cpu);
			created += !rc;
		}
		if (rc)
			break;
	}
	cpus_read_unlock();
	if (!rc)
		printk(KERN_INFO "perfctr: %s: created %d counters\n",
		       THIS_MODULE->name, created);
	return rc;
}

static int perfctr_any_mux(void)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (perfctr_requests[i].id && perfctr_requests[i].mux)
			return 1;
	return 0;
}

static int perfctr_start(void)
{
	char err[160], *copy;
	int rc;

	might_sleep();
	if (!perfctr_assign[0]) {
		_stp_error("perfctr: this module counts events that must be "
			   "resolved for this machine first; start it with "
			   "perfctr-run [staprun options] %s.ko (or run the "
			   "script with stap-perfctr)\n", THIS_MODULE->name);
		return -EINVAL;
	}
	/* parse a copy: the parameter stays readable as it was given */
	copy = kstrdup(perfctr_assign, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	rc = perfctr_assign_parse(copy, PERFCTR_TABLE_HASH, perfctr_requests,
				  PERFCTR_NDECLARED, perfctr_slots, err,
				  sizeof(err));
	kfree(copy);
	if (rc) {
		_stp_error("perfctr: invalid perfctr_assign: %s\n", err);
		return rc;
	}
	perfctr_kernel_read = (perfctr_kernel_read_fn)
		kallsyms_lookup_name("perf_event_read_local");
	if (!perfctr_kernel_read && perfctr_any_mux()) {
		_stp_error("perfctr: .multiplex counters need the kernel's "
			   "perf_event_read_local(), which was not found\n");
		return -ENOSYS;
	}
	perfctr_cpus = alloc_percpu(struct perfctr_cpu);
	if (!perfctr_cpus)
		return -ENOMEM;
	rc = perfctr_create_all();
	if (rc)
		perfctr_stop();
	return rc;
}

#ifdef PERFCTR_STAP_MODULE_HOOKS
/* stap >= 5.2 calls these around its own init and at transport close. */
#define STAP_MODULE_INIT_HOOK perfctr_start
#define STAP_MODULE_EXIT_HOOK perfctr_stop
#else
/*
 * Older stap has no hook.  This file is emitted after runtime.h and before
 * transport.c, which declares and calls systemtap_module_init() and
 * systemtap_module_exit(); the generated code defines them.  Calls read
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
#endif
