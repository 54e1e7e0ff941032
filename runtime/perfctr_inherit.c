// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_inherit.c - the tasks a followed task forks, counted by perf's
 * own inheritance: each root event is made with attr.inherit, and the
 * kernel gives every task forked from a task that holds one a copy of
 * its own, in copy_process(), before the task first runs.
 *
 * The module finds those copies at the fork (the sched_process_fork
 * tracepoint, in the parent, before the child is woken), by the tag each
 * root carries: its overflow_handler_context, the address of the
 * request's byte in perfctr_task_tag[][][], which inherit_event() copies
 * with the handler (a counter's never runs: it has no period).  The
 * child gets a record, a reference on each copy, and its context pinned
 * (ctx->pin_count, under the context's lock): perf swaps a whole task
 * context with an equivalent one at a context switch
 * (perf_event_context_sched_out(): clones of one parent, unpinned), and
 * an event found at the fork would then count another thread.  So a
 * record's events are its task's for life.
 *
 * A task's events stop counting at its exit (perf_event_exit_task(),
 * early in do_exit()): the kernel folds an inherited one into its root's
 * child_count, which the module never reads, and drops its own
 * reference; the module's keeps the event and its final count for the
 * task's later exit probes.  At the task's free (sched_process_free, an
 * RCU callback after its reaping) its counts go to the totals and its
 * record to the release work, which after a grace period drops the
 * references (perf_event_release_kernel() frees an inherited event whose
 * last reference is ours: its task's exit took it off its context and
 * its root's list) and releases a root once no live task holds a child
 * of it.  At the stop every inherited event goes before any root: a
 * root's release takes the children still on its list off their
 * contexts (and on 6.1 and 6.12 poisons their list links).
 *
 * Included by perfctr_task.c, which holds the records.
 */

/* ctx's swap with an equivalent context is off while pinned (as
 * perf_pin_task_context() turns it off for its own edits): +1 or -1. */
static void perfctr_task_pin(struct perf_event_context *ctx, int by)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	ctx->pin_count += by;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/* Is ev one of ours?  Its request, core PMU and whether it is latent
 * into *i, *k and *latent. */
static bool perfctr_task_ours(const struct perf_event *ev, unsigned int *i,
			      unsigned int *k, bool *latent)
{
	const char *tag = ev->overflow_handler_context;
	const char *first = &perfctr_task_tag[0][0][0];
	unsigned long at;

	if (tag < first || tag >= first + sizeof(perfctr_task_tag))
		return false;
	at = tag - first;
	*latent = at % 2;
	at /= 2;
	*i = at / PERFCTR_CORE_PMUS;
	*k = at % PERFCTR_CORE_PMUS;
	return true;
}

/* Keeps child's inherited events of ours on record t: a reference on
 * each, its context pinned once for it.  The child has not run yet. */
static void perfctr_task_adopt(struct task_struct *child,
			       struct perfctr_task *t)
{
	struct perf_event_context *ctx;
	struct perf_event *ev;
	unsigned int n, i, k;
	unsigned long flags;
	bool latent;

	for (n = 0; n < PERFCTR_TASK_NCTX; n++) {
		ctx = PERFCTR_TASK_CTX(child, n);
		if (!ctx)
			continue;
		raw_spin_lock_irqsave(&ctx->lock, flags);
		list_for_each_entry(ev, &ctx->event_list, event_entry) {
			if (!ev->parent ||
			    !perfctr_task_ours(ev, &i, &k, &latent) ||
			    t->ev[i][k] ||
			    !atomic_long_inc_not_zero(&ev->refcount))
				continue;
			ctx->pin_count++;
			if (!k)
				t->direct[i] = perfctr_task_direct_of(i, latent,
								      ev);
			WRITE_ONCE(t->ev[i][k], ev);
			/* inherited off, latent: armed as its parent's */
			t->latent[i] = latent;
			t->armed[i] = latent &&
				      ev->state == PERF_EVENT_STATE_OFF;
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
}

/* Does child hold an event of ours (inherited)?  It has not run yet. */
static bool perfctr_task_inherited(struct task_struct *child)
{
	struct perf_event_context *ctx;
	struct perf_event *ev;
	unsigned int n, i, k;
	unsigned long flags;
	bool latent, any = false;

	for (n = 0; n < PERFCTR_TASK_NCTX && !any; n++) {
		ctx = PERFCTR_TASK_CTX(child, n);
		if (!ctx)
			continue;
		raw_spin_lock_irqsave(&ctx->lock, flags);
		list_for_each_entry(ev, &ctx->event_list, event_entry)
			if (ev->parent &&
			    perfctr_task_ours(ev, &i, &k, &latent)) {
				any = true;
				break;
			}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	return any;
}

/*
 * sched_process_fork, in the parent, after copy_process() and before the
 * child is woken (preemption off): a child that inherited events of ours
 * gets a record with them.  Every other fork costs a look at the child's
 * contexts (none, for a task no perf event follows).
 */
static void perfctr_task_fork(void *data, struct task_struct *parent,
			      struct task_struct *child)
{
	struct perfctr_task *t;
	int fresh, s;

	if (!perfctr_task_inherited(child))
		return;
	s = perfctr_taskmap_get(&perfctr_task_ids, child, 1, &fresh);
	if (s < 0) {
		atomic_inc(&perfctr_task_lost);
		return;
	}
	t = &perfctr_tasks[s];
	perfctr_task_adopt(child, t);
	perfctr_task_live_add(s);	/* a total sees it whole from here */
}
/*
 * sched_process_free (an RCU callback, after the task's last switch and
 * its reaping): its final counts move to the totals, its record to the
 * release work.  The events stopped counting at its exit, and its exit
 * probes have read them.
 */
static void perfctr_task_free(void *data, struct task_struct *tsk)
{
	struct perfctr_task *t;
	unsigned long flags;
	unsigned int i;
	int fresh, s;

	s = perfctr_taskmap_get(&perfctr_task_ids, tsk, 0, &fresh);
	if (s < 0)
		return;
	t = &perfctr_tasks[s];
	raw_spin_lock_irqsave(&perfctr_task_lock, flags);
	WRITE_ONCE(perfctr_task_seq_cpu, smp_processor_id());
	WRITE_ONCE(perfctr_task_seq, perfctr_task_seq + 1);
	smp_wmb();
	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (t->ev[i][0])
			atomic64_add(perfctr_task_sum(t, i),
				     &perfctr_task_done[i]);
	perfctr_task_live_del(s);
	perfctr_taskmap_put(&perfctr_task_ids, s, 1);
	PERFCTR_RACE(TASK_GONE);
	smp_wmb();
	WRITE_ONCE(perfctr_task_seq, perfctr_task_seq + 1);
	raw_spin_unlock_irqrestore(&perfctr_task_lock, flags);
	schedule_work(&perfctr_task_work);
}

/* Lets an inherited event go: its context unpinned, the module's
 * reference dropped.  The last reference is the module's only once
 * perf's own went with the event's task (it is off its context and its
 * root's list of children): then it is released here. */
static void perfctr_task_put_child(struct perf_event *ev)
{
	perfctr_task_pin(ev->ctx, -1);
	if (!atomic_long_add_unless(&ev->refcount, -1, 1))
		perf_event_release_kernel(ev);
}

/* Does root ev still have a child (a live task that inherited it, and
 * that may fork again)?  Sleepable. */
static bool perfctr_task_has_child(struct perf_event *ev)
{
	bool any;

	mutex_lock(&ev->child_mutex);
	any = !list_empty(&ev->child_list);
	mutex_unlock(&ev->child_mutex);
	return any;
}

/*
 * Lets record t's events go (its task is gone; at the stop, every
 * record): the inherited ones, and the roots once no task holds a child
 * of theirs (every one at the stop, after every inherited one: a root's
 * release takes its children off their contexts).  Returns whether t
 * still holds a root.
 */
static bool perfctr_task_let_go(struct perfctr_task *t, bool roots)
{
	unsigned int i, k;
	bool held = false;

	for (i = 0; i < PERFCTR_NDECLARED; i++)
		for (k = 0; k < PERFCTR_CORE_PMUS; k++) {
			struct perf_event *ev = t->ev[i][k];

			if (!ev)
				continue;
			if (ev->parent)
				perfctr_task_put_child(ev);
			else if (roots || !perfctr_task_has_child(ev))
				perfctr_release_event(ev);
			else {
				held = true;
				continue;
			}
			t->ev[i][k] = NULL;
		}
	return held;
}
