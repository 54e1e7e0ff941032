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
 *   what=none     nothing (the default)
 *
 * Each is done once, in the module's init, which then succeeds; the
 * module unloads cleanly.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *what = "none";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "warn, sleep, lockdep, kasan or none");

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
	} else if (strcmp(what, "none")) {
		pr_err("perfctr_test_bad: what=%s: not warn, sleep, lockdep, kasan or none\n",
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
