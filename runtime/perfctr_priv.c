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
 * and a .process counter is made only in tasks that perf_event_open would
 * let the user count: perf's ptrace_may_access(PTRACE_MODE_READ_REALCREDS)
 * without its capability exceptions (perfctr_priv_task()).
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
 * An LSM that judges perf_event_open (SELinux) is not asked about kernel
 * counters, and cannot be asked by a module: where one enforces, the
 * user gets no counter (perfctr_priv_lsm()).
 *
 * The kernel checks some requests itself, in the PMU's event_init, with
 * the credentials of the task that creates the event (Intel's AnyThread
 * bit, perf_allow_cpu(); the kprobe PMU, perfmon_capable()).  The start
 * runs in stapio, as the user; a CPU coming online, a re-arm and the task
 * finder run in a kthread, a kworker or another task.  So the start
 * records its credentials and every counter of ours is made with them
 * (perfctr_priv_create()): the kernel answers every creation as it
 * answered the start, the user's.
 *
 * Entry points, all sleepable:
 *   perfctr_priv_check()     at start, after the assignment is parsed
 *   perfctr_priv_task(tsk)   the task finder's found callback
 *   perfctr_priv_create()    perf_event_create_kernel_counter() as the user
 *   perfctr_priv_release()   at stop, after the last counter is made
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/coredump.h>
#include <linux/sched/task.h>
#if __has_include(<linux/sched/exec_state.h>)
#include <linux/sched/exec_state.h>
#endif
#include "perfctr_priv_rule.h"

#define PERFCTR_PARANOID_PATH "proc/sys/kernel/perf_event_paranoid"
#ifdef PERFCTR_LSM_TEST		/* a guest test's stand-ins */
#define PERFCTR_LSM_PATH "tmp/perfctr_lsm"
#define PERFCTR_SELINUX_ENFORCE_PATH "tmp/perfctr_selinux_enforce"
#define PERFCTR_LSM_ALLOW_PATH "tmp/perfctr_lsm_allow"
#else
#define PERFCTR_LSM_PATH "sys/kernel/security/lsm"
#define PERFCTR_SELINUX_ENFORCE_PATH "sys/fs/selinux/enforce"
#define PERFCTR_LSM_ALLOW_PATH "etc/systemtap/perfctr-lsm-allow"
#endif

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

/* File path, relative to init's root (a user's own mount namespace or
 * chroot cannot forge it), opened to read with flags more; or an
 * ERR_PTR. */
static struct file *perfctr_init_open(const char *path, int flags)
{
	struct task_struct *init;
	struct path root = { };
	struct file *f;

	rcu_read_lock();
	init = pid_task(find_pid_ns(1, &init_pid_ns), PIDTYPE_PID);
	if (init)
		get_task_struct(init);
	rcu_read_unlock();
	if (!init)
		return ERR_PTR(-ESRCH);
	task_lock(init);
	if (init->fs)
		get_fs_root(init->fs, &root);
	task_unlock(init);
	put_task_struct(init);
	if (!root.mnt)
		return ERR_PTR(-ENOENT);
	f = file_open_root(&root, path, O_RDONLY | flags, 0);
	path_put(&root);
	return f;
}

/* The text of init's file path into buf, a string, trimmed.  Returns its
 * length or a negative errno. */
static int perfctr_init_read(const char *path, char *buf, size_t len)
{
	struct file *f = perfctr_init_open(path, 0);
	loff_t pos = 0;
	ssize_t n;
	char *p;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	buf[n] = '\0';
	p = strim(buf);
	n = strlen(p);
	memmove(buf, p, n + 1);
	return n;
}

/* Is inode root's and writable by root alone; a directory that others
 * may write, sticky (none but root may replace root's files there)? */
static bool perfctr_root_alone(const struct inode *inode, bool dir)
{
	return uid_eq(inode->i_uid, GLOBAL_ROOT_UID) &&
	       (!(inode->i_mode & (S_IWGRP | S_IWOTH)) ||
		(dir && (inode->i_mode & S_ISVTX)));
}

/* Does init's file path exist, root's and writable by root alone, not a
 * symbolic link (whoever may make one there would name any of root's
 * files), in a directory where only root may put it? */
static bool perfctr_init_root_owned(const char *path)
{
	struct file *f = perfctr_init_open(path, O_NOFOLLOW);
	struct dentry *dir;
	bool ok;

	if (IS_ERR(f))
		return false;
	dir = dget_parent(f->f_path.dentry);
	ok = perfctr_root_alone(file_inode(f), false) &&
	     perfctr_root_alone(d_inode(dir), true);
	dput(dir);
	filp_close(f, NULL);
	return ok;
}

/* The sysctl from the file. */
static int perfctr_paranoid_file(int *val)
{
	char buf[24];
	int n = perfctr_init_read(PERFCTR_PARANOID_PATH, buf, sizeof(buf));

	if (n <= 0)
		return n ? n : -EIO;
	return kstrtoint(buf, 10, val);
}

/* Is word one of the comma-separated words of list? */
static bool perfctr_word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
	return false;
}

/*
 * An LSM that judges perf_event_open(2) (security_perf_event_open():
 * SELinux's perf_event class, open, cpu, kernel and tracepoint) is never
 * asked about a kernel counter, and a module cannot ask it: the hook is
 * not exported (6.1, 6.12, 7.x), nor perf_allow_kernel() and
 * perf_allow_cpu(), which call it, and a call through kallsyms would land
 * in a function an IBT kernel seals.  So where SELinux is active and
 * enforcing (or may be: active, its enforce file unreadable), the rule
 * cannot be applied as perf applies it, and a stapsys or stapusr module
 * refuses its user every counter, unless the administrator has said that
 * perf_event_paranoid's rule is enough here: PERFCTR_LSM_ALLOW_PATH
 * exists, root's and writable by root alone.  What stands in the way, or
 * NULL.  A BPF LSM program on the hook is not seen (docs/design.md).
 */
static const char *perfctr_priv_lsm(void)
{
	char buf[256];
	int listed;
	bool selinux;

	if (perfctr_init_root_owned(PERFCTR_LSM_ALLOW_PATH))
		return NULL;	/* the administrator's word */
	listed = perfctr_init_read(PERFCTR_LSM_PATH, buf, sizeof(buf));
	selinux = listed >= 0 && perfctr_word_in(buf, "selinux");


	if (listed >= 0 && !selinux)
		return NULL;	/* securityfs names the active LSMs */
	if (perfctr_init_read(PERFCTR_SELINUX_ENFORCE_PATH, buf,
			      sizeof(buf)) > 0)
		return buf[0] == '0' ? NULL : "SELinux is enforcing";
	if (!selinux)		/* no list, no selinuxfs: no SELinux */
		return NULL;
	return "SELinux is active, and whether it enforces cannot be read";
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
		.grouped = !!r->group_no,
	};
	unsigned int k;

	for (k = 0; k < sl->nenc; k++)	/* each core PMU's encoding */
		w.config |= sl->enc[k].config;
	return perfctr_priv_rule(&w, paranoid, need);
}

static bool perfctr_priv_enforced;
static atomic_t perfctr_priv_skipped;
static const struct cred *perfctr_priv_cred;	/* the start's */

/* Returns 0 or -EACCES, each refused counter reported. */
static int perfctr_priv_judge(void)
{
	const char *rule, *lsm;
	int paranoid, need, rc, bad = 0;
	unsigned int i;

	perfctr_priv_enforced = !perfctr_priv_exempt();
	atomic_set(&perfctr_priv_skipped, 0);
	if (!perfctr_priv_enforced)
		return 0;
	lsm = perfctr_priv_lsm();
	if (lsm) {
		_stp_error("perfctr: %s, and the kernel does not ask it about "
			   "a module's counters: this %s module counts nothing "
			   "for user %u (root may run it; an administrator "
			   "whose policy allows its users perf may create /"
			   PERFCTR_LSM_ALLOW_PATH ", root's, writable by root "
			   "alone)\n", lsm, perfctr_priv_name(),
			   (unsigned int)_stp_uid);
		return -EACCES;
	}
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
		_stp_error("perfctr: %s: counter \"%s\" (%s): "
			   PERFCTR_PRIV_REFUSAL ")\n",
			   perfctr_requests[i].src, perfctr_requests[i].id,
			   perfctr_requests[i].event, paranoid, rule, need,
			   (unsigned int)_stp_uid, perfctr_priv_name());
	}
	return bad ? -EACCES : 0;
}

/* Sleepable; after perfctr_assign_parse(), before any counter exists.
 * Returns 0, the start's credentials recorded (perfctr_priv_release()
 * gives them back), or -EACCES, each refused counter reported. */
static int perfctr_priv_check(void)
{
	int rc = perfctr_priv_judge();

	if (!rc)
		perfctr_priv_cred = get_current_cred();
	return rc;
}

/* Is tsk's memory dumpable as its user's (SUID_DUMP_USER)?  A setuid or
 * setgid exec, or prctl(PR_SET_DUMPABLE, 0), makes it not; a kernel
 * thread has no memory to guard.  The mode lives in the mm before Linux
 * 7.2 and in the task's exec state since, read under RCU there (the
 * header says which: the compile server has no kconf answers). */
static bool perfctr_priv_dumpable(struct task_struct *tsk)
{
#if __has_include(<linux/sched/exec_state.h>)
	struct task_exec_state *es;
	bool ok;

	rcu_read_lock();
	es = rcu_dereference(tsk->exec_state);
	ok = !es || tsk->flags & PF_KTHREAD || es->dumpable == TASK_DUMPABLE_OWNER;
	rcu_read_unlock();
	return ok;
#else
	bool ok = true;

	task_lock(tsk);
	if (tsk->mm)
		ok = get_dumpable(tsk->mm) == SUID_DUMP_USER;
	task_unlock(tsk);
	return ok;
#endif
}

/* Sleepable (the found callback): may the user count in tsk?  perf's
 * ptrace_may_access(PTRACE_MODE_READ_REALCREDS) for a caller with no
 * capabilities (the module's user never has one here): the task's real,
 * effective and saved uids are the user's, so are its gids, and its
 * memory is dumpable as the user's. */
static bool perfctr_priv_task(struct task_struct *tsk)
{
	kuid_t uid = make_kuid(&init_user_ns, _stp_uid);
	kgid_t gid = make_kgid(&init_user_ns, _stp_gid);
	const struct cred *c;
	bool ok;

	if (!perfctr_priv_enforced)
		return true;
	rcu_read_lock();
	c = __task_cred(tsk);
	ok = uid_eq(c->uid, uid) && uid_eq(c->euid, uid) &&
	     uid_eq(c->suid, uid) && gid_eq(c->gid, gid) &&
	     gid_eq(c->egid, gid) && gid_eq(c->sgid, gid);
	rcu_read_unlock();
	ok = ok && perfctr_priv_dumpable(tsk);
	if (!ok && atomic_inc_return(&perfctr_priv_skipped) == 1)
		_stp_warn("perfctr: thread %d is not user %u's to count (its "
			  "user and group ids are not all the user's, or it is "
			  "not dumpable: a setuid or setgid program, or "
			  "prctl(PR_SET_DUMPABLE, 0)): its .process counters "
			  "are not made (a %s module counts only what "
			  "perf_event_open allows its user)\n", tsk->pid,
			  (unsigned int)_stp_uid, perfctr_priv_name());
	return ok;
}

/* perf_event_create_kernel_counter() with the start's credentials, so
 * that the checks of the PMU's event_init judge the user whoever makes
 * the counter.  override_creds() takes and revert_creds() gives back a
 * reference of their own before Linux 6.14, none since: ours is held
 * from start to stop either way.  Sleepable. */
static struct perf_event *
perfctr_priv_create(struct perf_event_attr *attr, int cpu,
		    struct task_struct *tsk, perf_overflow_handler_t handler,
		    void *context)
{
	const struct cred *old = NULL;
	struct perf_event *ev;

	if (perfctr_priv_cred && perfctr_priv_cred != current_cred())
		old = override_creds(perfctr_priv_cred);
	ev = perf_event_create_kernel_counter(attr, cpu, tsk, handler,
					      context);
	if (old)
		revert_creds(old);
	return ev;
}

/* At stop, once no counter can be made any more. */
static void perfctr_priv_release(void)
{
	if (perfctr_priv_cred)
		put_cred(perfctr_priv_cred);
	perfctr_priv_cred = NULL;
}
