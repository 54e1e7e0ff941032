// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_latent.c - a .process("PATH") counter counted from the exec
 * of PATH, as perf stat -- PATH counts it, where a task the script
 * already follows (another .process counter's, or stap's -c/-x target)
 * execs PATH: stap's task finder would report that exec only a moment
 * after it, and the exec's own last faults and instructions would be
 * lost.
 *
 * Each root of another target carries the counter latent: made off with
 * enable_on_exec, so that every task of its tree inherits it off, and an
 * exec anywhere in the tree turns it on (perf_event_exec()).  The
 * sched_process_exec tracepoint gives it its enable_on_exec back (perf
 * takes it away at each exec, and a child copies its root's attr) and
 * queues a check in the task, before it returns to user space (stap's
 * task_work, which the module's exit waits for): the event is kept where
 * the new image is PATH, turned off again elsewhere, and what it counted
 * since the exec is bias, which reads and totals take off.  A read of a
 * latent counter not kept (armed) is refused as in a task PATH's tree
 * does not hold.  Sampling clauses have none: a latent sampling event
 * would sample the rest of an exec that is not PATH's.
 *
 * Included by perfctr_task.c, which holds the records.
 */

/* Is request i one of target tgt's? */
static bool perfctr_task_mine(unsigned int tgt, unsigned int i)
{
	return perfctr_requests[i].id && perfctr_per_task(i) &&
	       perfctr_req_tgt[i] == tgt;
}

/* Does target tgt's root carry latent events of request i: a
 * .process("PATH") counter of another target?  (Counters only: a latent
 * sampling event would sample the rest of an exec that is not PATH's.) */
static bool perfctr_task_latent_for(unsigned int tgt, unsigned int i)
{
	return perfctr_requests[i].id && perfctr_per_task(i) &&
	       !perfctr_samples(i) && perfctr_requests[i].target[0] &&
	       perfctr_req_tgt[i] != tgt;
}

/* Does record t (NULL: none) lack an event a root of target tgt makes,
 * or hold an armed latent one of tgt's own (PATH, found running)? */
static bool perfctr_task_wants(unsigned int tgt, const struct perfctr_task *t)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_task_mine(tgt, i) &&
		    !perfctr_task_latent_for(tgt, i))
			continue;
		if (!t || !t->ev[i][0] ||
		    (perfctr_task_mine(tgt, i) && t->armed[i]))
			return true;
	}
	return false;
}

/* Request i's latent events on record t count from here on: their task
 * runs PATH.  In the task, sleepable. */
static void perfctr_task_keep(struct perfctr_task *t, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < perfctr_task_nev(i); k++)
		perf_event_enable(t->ev[i][k]);
	smp_store_release(&t->armed[i], 0);
}

/*
 * The check an exec that turned on latent events queues in its task
 * (stap's task_work, which the module's exit waits for): kept where the
 * task now runs their counter's PATH, off again elsewhere, and what they
 * counted since the exec is bias.  Before the task returns to user
 * space; sleepable.
 */
static void perfctr_task_exec_work(struct task_work *work)
{
	struct perfctr_task *t = container_of(work, struct perfctr_task,
					      exec_work);
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	const char *path = NULL;
	unsigned int i, k;

	if (buf && current->mm)
		path = __stp_get_mm_path(current->mm, buf, PATH_MAX);
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!t->armed[i] ||
		    READ_ONCE(t->ev[i][0]->state) == PERF_EVENT_STATE_OFF)
			continue;
		if (!IS_ERR_OR_NULL(path) &&
		    !strcmp(path, perfctr_requests[i].target)) {
			perfctr_task_keep(t, i);
			continue;
		}
		for (k = 0; k < perfctr_task_nev(i); k++) {
			perf_event_disable(t->ev[i][k]);
			WRITE_ONCE(t->bias[i][k],
				   local64_read(&t->ev[i][k]->count));
		}
	}
	kfree(buf);
	WRITE_ONCE(t->exec_queued, 0);
	stp_task_work_func_done();
}

/* sched_process_exec, in the task after its exec (preemption off).  The
 * exec turned on each armed latent event it holds, and took every
 * latent event's enable_on_exec away (perf's event_enable_on_exec()):
 * that comes back at once, under the context's lock as perf changes it,
 * for the task's next exec and for what it forks (a child's copy is the
 * root's); the check follows in the task. */
static void perfctr_task_exec(void *data, struct task_struct *p,
			      pid_t old_pid, struct linux_binprm *bprm)
{
	struct perfctr_task *t;
	bool check = false;
	unsigned long flags;
	unsigned int i, k;
	int fresh, s;

	s = perfctr_taskmap_get(&perfctr_task_ids, current, 0, &fresh);
	if (s < 0)
		return;
	t = &perfctr_tasks[s];
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!t->latent[i] || !t->ev[i][0])
			continue;
		for (k = 0; k < perfctr_task_nev(i); k++) {
			struct perf_event *ev = t->ev[i][k];

			raw_spin_lock_irqsave(&ev->ctx->lock, flags);
			ev->attr.enable_on_exec = 1;
			raw_spin_unlock_irqrestore(&ev->ctx->lock, flags);
		}
		check |= t->armed[i] &&
			 READ_ONCE(t->ev[i][0]->state) != PERF_EVENT_STATE_OFF;
	}
	if (!check || t->exec_queued)
		return;
	t->exec_queued = 1;
	init_task_work(&t->exec_work, perfctr_task_exec_work);
	if (stp_task_work_add(current, &t->exec_work))
		t->exec_queued = 0;
}
