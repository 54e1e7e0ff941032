// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_test_bad.c - a module that does, at load, one thing the kernel
 * reports, so that the tests can show the harness fails a run whose
 * kernel complained (testsuite/lib/guest.sh: guest_kernel_reports):
 *
 *   what=warn     a WARN(): "WARNING: ... perfctr_test_bad" on any kernel
 *   what=sleep    might_sleep() and msleep() with preemption disabled:
 *                 "BUG: scheduling while atomic" on a kernel that counts
 *                 preemption (the x86_64 stacks'; not Debian's arm64,
 *                 PREEMPT_NONE), and before it "BUG: sleeping function
 *                 called from invalid context" with DEBUG_ATOMIC_SLEEP
 *   what=lockdep  two mutexes taken in both orders, one after the other
 *                 (no deadlock): lockdep's "possible circular locking
 *                 dependency"; nothing without PROVE_LOCKING
 *   what=kasan    a read one byte past a kmalloc()ed buffer: "BUG: KASAN:
 *                 slab-out-of-bounds"; nothing without KASAN
 *   what=race     a kernel thread on each online CPU (8 at most) adds
 *                 to one plain counter for 500 ms: "BUG: KCSAN:
 *                 data-race in bad_race_fn [perfctr_test_bad]"; nothing
 *                 without KCSAN
 *   what=none     nothing (the default)
 *
 * Each is done once, in the module's init, which then succeeds; the
 * module unloads cleanly.
 */
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *what = "none";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "warn, sleep, lockdep, kasan, race or none");

static DEFINE_MUTEX(bad_a);
static DEFINE_MUTEX(bad_b);

static noinline void bad_lock_order(void)
{
	mutex_lock(&bad_a);
	mutex_lock(&bad_b);
	mutex_unlock(&bad_b);
	mutex_unlock(&bad_a);

	mutex_lock(&bad_b);
	mutex_lock(&bad_a);
	mutex_unlock(&bad_a);
	mutex_unlock(&bad_b);
}

static noinline int bad_read_past_end(void)
{
	volatile char *p = kmalloc(16, GFP_KERNEL);
	int c;

	if (!p)
		return -ENOMEM;
	c = p[16];
	kfree((void *)p);
	return c;
}

static unsigned long bad_shared;

static int bad_race_fn(void *unused)
{
	while (!kthread_should_stop()) {
		bad_shared++;	/* plain, from every CPU at once: the race */
		cond_resched();
	}
	return 0;
}

/* A thread per online CPU (8 at most) racing on bad_shared; 0 or a
 * negative errno. */
static noinline int bad_race(void)
{
	struct task_struct *t[8];
	int cpu, n = 0, rc = 0;

	for_each_online_cpu(cpu) {
		if (n == ARRAY_SIZE(t))
			break;
		t[n] = kthread_create_on_cpu(bad_race_fn, NULL, cpu,
					     "perfctr_bad/%u");
		if (IS_ERR(t[n])) {
			rc = PTR_ERR(t[n]);
			break;
		}
		wake_up_process(t[n++]);
	}
	if (!rc)
		msleep(500);
	while (n--)
		kthread_stop(t[n]);
	return rc;
}

static int __init perfctr_test_bad_init(void)
{
	if (!strcmp(what, "warn")) {
		WARN(1, "perfctr_test_bad: a deliberate warning\n");
	} else if (!strcmp(what, "sleep")) {
		preempt_disable();
		might_sleep();
		msleep(1);
		preempt_enable();
	} else if (!strcmp(what, "lockdep")) {
		bad_lock_order();
	} else if (!strcmp(what, "kasan")) {
		pr_info("perfctr_test_bad: read %d past the end\n",
			bad_read_past_end());
	} else if (!strcmp(what, "race")) {
		int rc = bad_race();

		if (rc)
			return rc;
	} else if (strcmp(what, "none")) {
		pr_err("perfctr_test_bad: what=%s: not warn, sleep, lockdep, kasan, race or none\n",
		       what);
		return -EINVAL;
	}
	pr_info("perfctr_test_bad: did %s\n", what);
	return 0;
}

static void __exit perfctr_test_bad_exit(void)
{
}

module_init(perfctr_test_bad_init);
module_exit(perfctr_test_bad_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("systemtap-perfctr tests: a module that makes the kernel complain");
