// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_test_slow_exit.c - holds a thread between the end of
 * exit_notify() and its last context switch, for the tests of what a
 * thread's exit does to the records keyed on it (.thread, .process).
 *
 * That window is a few instructions wide on its own, and two things
 * happen to a thread id there that real programs make happen: the zombie
 * leader of a process whose other thread calls execve() gets that
 * thread's id (de_thread() swaps them once the leader is a zombie), and
 * an autoreaped thread's id is free (release_task()) and may be handed
 * to a new thread.  A kretprobe on proc_exit_connector(), which do_exit()
 * calls right after exit_notify(), spins in its return handler (IRQs on,
 * preemption off: the thread cannot be switched out) in a thread whose
 * name is comm=NAME, until:
 *
 *   wait=id      its thread id is no longer its process's id (the exec'ing
 *                thread took it: at once, when the swap came first);
 *   wait=reuse   its old thread id was taken by another task and given
 *                back again (that task lived and died in the window), as
 *                seen here or as the test program says by writing 1 to
 *                parameters/given_back once it has joined that task (the
 *                spin can miss a short life: its vCPU is a host thread
 *                that a loaded host may not run for milliseconds);
 *
 * or timeout_ms (5000) passed.  Each hold is said in the kernel log:
 * "perfctr_test_slow_exit: held NAME (id N) for M ms: what ended it".
 * Pin the held thread to a CPU of its own: nothing else runs there
 * while it spins.
 */
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

static char tse_comm[TASK_COMM_LEN] = "";
module_param_string(comm, tse_comm, sizeof(tse_comm), 0444);
MODULE_PARM_DESC(comm, "the name of the threads whose exit is held");

static char tse_wait[8] = "id";
module_param_string(wait, tse_wait, sizeof(tse_wait), 0444);
MODULE_PARM_DESC(wait, "id: until its id changes; reuse: until its id "
		 "was taken and given back");

static unsigned int tse_timeout_ms = 5000;
module_param_named(timeout_ms, tse_timeout_ms, uint, 0444);

static bool tse_given_back;
module_param_named(given_back, tse_given_back, bool, 0200);
MODULE_PARM_DESC(given_back, "1: the held thread's id was taken and given "
		 "back (wait=reuse)");

static unsigned int tse_held;
module_param_named(held, tse_held, uint, 0444);
MODULE_PARM_DESC(held, "exits held so far");

struct tse_data {
	pid_t tid;	/* the id the thread exited with */
};

/* Does a task hold thread id tid now? */
static bool tse_taken(pid_t tid)
{
	struct pid *pid;
	bool taken;

	rcu_read_lock();
	pid = find_pid_ns(tid, &init_pid_ns);
	taken = pid && pid_task(pid, PIDTYPE_PID);
	rcu_read_unlock();
	return taken;
}

static int tse_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct tse_data *d = (struct tse_data *)ri->data;

	if (!tse_comm[0] || strncmp(current->comm, tse_comm, TASK_COMM_LEN))
		return 1;	/* not held: no return handler */
	d->tid = current->pid;
	return 0;
}

static int tse_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const struct tse_data *d = (const struct tse_data *)ri->data;
	bool reuse = !strcmp(tse_wait, "reuse"), seen = false, done = false;
	u64 t0 = ktime_get_ns(), limit = tse_timeout_ms * NSEC_PER_MSEC;

	while (!done && ktime_get_ns() - t0 < limit) {
		if (reuse) {
			bool taken = tse_taken(d->tid);

			seen |= taken;
			done = (seen && !taken) || READ_ONCE(tse_given_back);
		} else {
			done = READ_ONCE(current->pid) != current->tgid;
		}
		cpu_relax();
	}
	WRITE_ONCE(tse_held, tse_held + 1);
	pr_info("perfctr_test_slow_exit: held %s (id %d) for %llu ms: %s\n",
		tse_comm, d->tid, (ktime_get_ns() - t0) / NSEC_PER_MSEC,
		!done ? "timed out" : reuse ? "its id was taken and given back" :
		"its id changed");
	return 0;
}

static struct kretprobe tse_probe = {
	.kp.symbol_name = "proc_exit_connector",
	.entry_handler = tse_entry,
	.handler = tse_return,
	.data_size = sizeof(struct tse_data),
	.maxactive = 64,
};

static int __init tse_init(void)
{
	return register_kretprobe(&tse_probe);
}

static void __exit tse_exit(void)
{
	unregister_kretprobe(&tse_probe);
}

module_init(tse_init);
module_exit(tse_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("systemtap-perfctr tests: a thread's exit held after exit_notify()");
