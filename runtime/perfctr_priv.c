// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_priv.c - a stapsys or stapusr module counts only what
 * perf_event_open(2) would let the user who loaded it count.
 *
 * perf_event_create_kernel_counter() checks nothing: perf_event_paranoid
 * is perf_event_open's business.  stap's model is that stapdev may do
 * everything and stapsys/stapusr only what they are allowed, and anyone
 * who may load a module may give it any perfctr_assign=.  So for a module
 * built with --privilege=stapsys or stapusr, loaded by a user who is not
 * root, the start refuses, before any counter exists, every request that
 * perf_event_open would refuse that user: the rule of
 * perfctr_priv_rule.h, which perfctr-run applies first (levels, kernel
 * mode, physical addresses, CPU-wide counters, Intel's AnyThread bit);
 * and a .process counter is made only in tasks whose real, effective and
 * saved uids are the user's (perf's ptrace_may_access, simplified).
 *
 * The user is stap's _stp_uid: the real uid of staprun, which the runtime
 * records in the module's init (setuid staprun keeps the caller's real
 * uid).  The sysctl's variable is not exported and the helpers over it
 * are inline: read it through kallsyms where the kernel keeps data
 * symbols (CONFIG_KALLSYMS_ALL: Debian amd64), else from
 * /proc/sys/kernel/perf_event_paranoid opened from the root of init (pid
 * 1 of the initial namespace: a user's own mount namespace or chroot
 * cannot forge it).  A value that cannot be read refuses every counter.
 * CAP_PERFMON is not consulted: setuid staprun runs stapio, which starts
 * the module, with no capabilities, so a non-root user never has it here.
 * LSM hooks (security_perf_event_open) are not exported: not checked.
 *
 * Entry points, both sleepable:
 *   perfctr_priv_check()     at start, after the assignment is parsed
 *   perfctr_priv_task(tsk)   the task finder's found callback
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include "perfctr_priv_rule.h"

#define PERFCTR_PARANOID_PATH "proc/sys/kernel/perf_event_paranoid"

/* Does this module (as built) and its user get counters without limits? */
static bool perfctr_priv_exempt(void)
{
#if defined(STP_PRIVILEGE) && defined(STP_PR_STAPDEV)
	if (STP_PRIVILEGE_CONTAINS(STP_PRIVILEGE, STP_PR_STAPDEV))
		return true;
#endif
	return _stp_uid == 0;
}

static const char *perfctr_priv_name(void)
{
#if defined(STP_PRIVILEGE)
	return privilege_to_text(STP_PRIVILEGE);
#else
	return "unknown";
#endif
}

/* The sysctl from the file, opened from init's root. */
static int perfctr_paranoid_file(int *val)
{
	struct task_struct *init;
	struct path root = { };
	struct file *f;
	char buf[24];
	loff_t pos = 0;
	ssize_t n;

	rcu_read_lock();
	init = pid_task(find_pid_ns(1, &init_pid_ns), PIDTYPE_PID);
	if (init)
		get_task_struct(init);
	rcu_read_unlock();
	if (!init)
		return -ESRCH;
	task_lock(init);
	if (init->fs)
		get_fs_root(init->fs, &root);
	task_unlock(init);
	put_task_struct(init);
	if (!root.mnt)
		return -ENOENT;
	f = file_open_root(&root, PERFCTR_PARANOID_PATH, O_RDONLY, 0);
	path_put(&root);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0)
		return n ? n : -EIO;
	buf[n] = '\0';
	return kstrtoint(strim(buf), 10, val);
}

/* kernel.perf_event_paranoid now; 0 or a negative errno. */
static int perfctr_paranoid(int *val)
{
#ifndef PERFCTR_PARANOID_FROM_PROC
	int *p = (int *)kallsyms_lookup_name("sysctl_perf_event_paranoid");

	if (p) {
		*val = READ_ONCE(*p);
		return 0;
	}
#endif
	return perfctr_paranoid_file(val);
}

/* What perf would refuse request i at this level (perfctr_priv_rule.h),
 * and the level it needs (*need); NULL when perf would allow it. */
static const char *perfctr_priv_refused(unsigned int i, int paranoid,
					int *need)
{
	const struct perfctr_request_desc *r = &perfctr_requests[i];
	const struct perfctr_slot *sl = &perfctr_slots[i];
	struct perfctr_priv_what w = {
		.flags = sl->flags,
		.config = sl->config,
		.payload = r->payload,
		.per_task = r->scope == PERFCTR_SCOPE_PROCESS,
		.grouped = !!r->group,
	};
	unsigned int k;

	for (k = 0; k < sl->nenc; k++)	/* each core PMU's encoding */
		w.config |= sl->enc[k].config;
	return perfctr_priv_rule(&w, paranoid, need);
}

static bool perfctr_priv_enforced;
static atomic_t perfctr_priv_skipped;

/* Sleepable; after perfctr_assign_parse(), before any counter exists.
 * Returns 0 or -EACCES, each refused counter reported. */
static int perfctr_priv_check(void)
{
	const char *rule;
	int paranoid, need, rc, bad = 0;
	unsigned int i;

	perfctr_priv_enforced = !perfctr_priv_exempt();
	atomic_set(&perfctr_priv_skipped, 0);
	if (!perfctr_priv_enforced)
		return 0;
	rc = perfctr_paranoid(&paranoid);
	if (rc) {
		_stp_error("perfctr: this %s module counts only what "
			   "perf_event_open allows user %u, and "
			   "kernel.perf_event_paranoid cannot be read (error "
			   "%d): no counter is allowed\n", perfctr_priv_name(),
			   (unsigned int)_stp_uid, rc);
		return -EACCES;
	}
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_requests[i].id)
			continue;
		rule = perfctr_priv_refused(i, paranoid, &need);
		if (!rule)
			continue;
		bad++;
		_stp_error("perfctr: %s: counter \"%s\" (%s): refused: "
			   "kernel.perf_event_paranoid is %d, and %s needs %d "
			   "or less for user %u (a %s module counts only what "
			   "perf_event_open allows its user)\n",
			   perfctr_requests[i].src, perfctr_requests[i].id,
			   perfctr_requests[i].event, paranoid, rule, need,
			   (unsigned int)_stp_uid, perfctr_priv_name());
	}
	return bad ? -EACCES : 0;
}

/* Sleepable (the found callback): may the user count in tsk?  As perf's
 * ptrace check, simplified: the task's uids are all the user's. */
static bool perfctr_priv_task(struct task_struct *tsk)
{
	kuid_t uid = make_kuid(&init_user_ns, _stp_uid);
	const struct cred *c;
	bool ok;

	if (!perfctr_priv_enforced)
		return true;
	rcu_read_lock();
	c = __task_cred(tsk);
	ok = uid_eq(c->uid, uid) && uid_eq(c->euid, uid) &&
	     uid_eq(c->suid, uid);
	rcu_read_unlock();
	if (!ok && atomic_inc_return(&perfctr_priv_skipped) == 1)
		_stp_warn("perfctr: thread %d is not user %u's: its .process "
			  "counters are not made (a %s module counts only "
			  "what perf_event_open allows its user)\n", tsk->pid,
			  (unsigned int)_stp_uid, perfctr_priv_name());
	return ok;
}
