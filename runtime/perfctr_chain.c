// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_chain.c - the call chain of a sample, for a sampling body
 * (perfctr_sample_callchain() and kin): the kernel's frames, innermost
 * first, then the user's, as perf record -g records them.
 *
 * The kernel builds a chain only in perf_prepare_sample(), after the
 * overflow handler, and exports neither it nor its unwinders' callchain
 * functions; only a PMU driver that fills the chain itself (x86's PEBS,
 * perf_sample_save_callchain()) hands one to the handler.  That one is
 * taken as it is.  Otherwise the chain is built here the way perf builds
 * it, from the sample's registers:
 *   kernel  x86: the kernel's own unwinder (ORC), through the functions
 *           it exports (__unwind_start(), unwind_next_frame()), started
 *           as perf_callchain_kernel() starts it; arm64: the frame
 *           records from the interrupted frame pointer, read with
 *           copy_from_kernel_nofault(), return addresses stripped of
 *           their pointer authentication code (XPACLRI);
 *   user    frame pointers, as perf_callchain_user() follows them: the
 *           interrupted instruction, then {next frame, return address}
 *           pairs up the stack, read with copy_from_user_nofault()
 *           (which refuses where the CPU's mm is not the task's, as
 *           perf's NMI-safe copy does); a program built without frame
 *           pointers gives its innermost frame and what its stale
 *           frame pointer happens to reach.
 * Nothing here sleeps, takes a lock or allocates: the reads are
 * nofault, the chain goes into a per-CPU buffer per interrupt level
 * (task, softirq, hard IRQ, NMI), as perf's callchain buffers do.  At
 * most PERFCTR_MAX_STACK frames.
 *
 * Context: a sampling body, at its sample's level.
 */
#ifdef CONFIG_X86_64
#include <asm/unwind.h>
#endif
#include "perfctr_chain.h"

/* A sample's chain: nr frames, the first kern of them the kernel's. */
struct perfctr_chain {
	unsigned int nr, kern;
	u64 ip[PERFCTR_MAX_STACK];
};

/* One buffer per interrupt level a sampling body can run at; NMI-class
 * levels nest on x86 (a PMU NMI inside a #DB, where a breakpoint's body
 * runs): the outer and the nested one each have theirs. */
#define PERFCTR_CHAIN_LEVELS	5

static struct perfctr_chain __percpu *perfctr_chains;

static bool perfctr_chain_put(struct perfctr_chain *c, u64 ip)
{
	if (c->nr >= PERFCTR_MAX_STACK)
		return false;
	c->ip[c->nr++] = ip;
	return true;
}

/* This CPU's buffer for a body at interrupt level (perfctr_sample_level):
 * a body at one level can be interrupted only by a higher one. */
static struct perfctr_chain *perfctr_chain_buf(unsigned int level)
{
	unsigned int nmi = (level & NMI_MASK) >> NMI_SHIFT;
	unsigned int i = nmi ? 2 + min(nmi, 2U) : level & HARDIRQ_MASK ? 2 :
			 level & SOFTIRQ_OFFSET ? 1 : 0;

	return this_cpu_ptr(perfctr_chains) + i;
}

#ifdef CONFIG_ARM64
/* A return address without its pointer authentication code: XPACLRI, a
 * hint (a NOP on a CPU without pointer authentication). */
static inline u64 perfctr_chain_strip(u64 lr)
{
	register u64 x30 asm("x30") = lr;

	asm("hint #7" : "+r"(x30));
	return x30;
}
#else
static inline u64 perfctr_chain_strip(u64 lr)
{
	return lr;
}
#endif

#ifdef CONFIG_X86_64
/* perf_callchain_kernel(): the interrupted instruction, then the
 * unwinder's return addresses, from the registers when the PMU
 * interrupted (X86_EFLAGS_FIXED: real hardware registers), else from the
 * stack pointer of the registers perf_fetch_caller_regs() made. */
static void perfctr_chain_kernel(struct perfctr_chain *c, struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned long addr;

	if (!perfctr_chain_put(c, regs->ip))
		return;
	if (regs->flags & X86_EFLAGS_FIXED)
		unwind_start(&state, current, regs, NULL);
	else
		unwind_start(&state, current, NULL, (unsigned long *)regs->sp);
	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || !perfctr_chain_put(c, addr))
			return;
	}
}
#elif defined(CONFIG_ARM64)
/*
 * Is the frame record at fp on a stack the chain may climb: the task's,
 * or the one the chain started on (an IRQ stack: its address is not
 * exported; each is THREAD_SIZE, aligned to it), as the kernel's
 * unwinder follows only records on the stacks it knows?  Records go up
 * the stack, so a chain that left its first stack is on the task's.
 */
static bool perfctr_chain_on_stack(unsigned long fp, unsigned long first)
{
	unsigned long task = (unsigned long)task_stack_page(current);

	return (fp >= task && fp + 16 <= task + THREAD_SIZE) ||
	       (fp >= first && fp + 16 <= first + THREAD_SIZE);
}

/* The frame records from the interrupted frame pointer: {fp, lr} pairs.
 * A zero record ends the chain (an exception boundary on Linux 6.13 and
 * later, the bottom of a task's stack). */
static void perfctr_chain_kernel(struct perfctr_chain *c, struct pt_regs *regs)
{
	unsigned long fp = regs->regs[29];
	unsigned long first = ALIGN_DOWN(fp, THREAD_SIZE);
	u64 rec[2];

	if (!perfctr_chain_put(c, instruction_pointer(regs)))
		return;
	while (fp && !(fp & 7) && perfctr_chain_on_stack(fp, first)) {
		if (copy_from_kernel_nofault(rec, (void *)fp, sizeof(rec)) ||
		    !rec[1] || rec[0] <= fp)
			return;
		if (!perfctr_chain_put(c, perfctr_chain_strip(rec[1])))
			return;
		fp = rec[0];
	}
}
#else
static void perfctr_chain_kernel(struct perfctr_chain *c, struct pt_regs *regs)
{
	perfctr_chain_put(c, instruction_pointer(regs));
}
#endif

/*
 * Does the task have user frames of its own: perf's is_user_task()
 * (Linux 6.12.y and later)?  Not a kernel thread, nor a user worker
 * (io_uring's, vhost's: PF_USER_WORKER, PF_IO_WORKER before 6.4), whose
 * user registers are its parent's when it was made, and whose stack
 * they point into is the parent's: perf 6.1 walks them, later perf does
 * not, and neither does this.
 */
static bool perfctr_chain_user_task(struct task_struct *t)
{
#ifdef PF_USER_WORKER
	return t->mm && !(t->flags & (PF_KTHREAD | PF_USER_WORKER));
#else
	return t->mm && !(t->flags & (PF_KTHREAD | PF_IO_WORKER));
#endif
}

/*
 * Did the sample interrupt a KVM guest: perf_guest_state(), whose static
 * call is not exported (nor perf_guest_cbs, found at start by name)?
 * perf records no chain for such a sample, where the registers are the
 * host's KVM entry code and the VMM's user stack.
 */
#ifdef CONFIG_GUEST_PERF_EVENTS
static struct perf_guest_info_callbacks __rcu **perfctr_guest_cbs;

static bool perfctr_chain_in_guest(void)
{
	struct perf_guest_info_callbacks *cbs;

	if (!perfctr_guest_cbs)
		return false;
	cbs = rcu_dereference_sched(*perfctr_guest_cbs);
	return cbs && cbs->state && cbs->state();
}

static void perfctr_chain_find_guest(void)
{
	perfctr_guest_cbs = (void *)kallsyms_lookup_name("perf_guest_cbs");
}
#else
static bool perfctr_chain_in_guest(void)
{
	return false;
}

static void perfctr_chain_find_guest(void)
{
}
#endif

#if defined(CONFIG_X86_64)
#define perfctr_user_fp(regs)	((regs)->bp)
#define perfctr_user_64(regs)	user_64bit_mode(regs)
#elif defined(CONFIG_ARM64)
#define perfctr_user_fp(regs)	((regs)->regs[29])
#define perfctr_user_64(regs)	(!compat_user_mode(regs))
#endif

/* perf_callchain_user(): the task's user registers (where a kernel-mode
 * sample interrupted a system call or an interrupt of it: the ones it
 * entered with), the interrupted instruction, then each frame's return
 * address while the frames go up the stack.  Only for a task with user
 * frames of its own (perfctr_chain_user_task()). */
static void perfctr_chain_user(struct perfctr_chain *c, struct pt_regs *regs)
{
#ifdef perfctr_user_fp
	unsigned long fp, sp;
	u64 rec[2];

	if (!user_mode(regs))
		regs = task_pt_regs(current);
	if (!perfctr_chain_put(c, instruction_pointer(regs)) ||
	    !perfctr_user_64(regs))
		return;
	fp = perfctr_user_fp(regs);
	sp = user_stack_pointer(regs);
	while (fp && !(fp & 7) && fp >= sp) {
		if (copy_from_user_nofault(rec, (const void __user *)fp,
					   sizeof(rec)) || !rec[1])
			return;
		if (!perfctr_chain_put(c, perfctr_chain_strip(rec[1])))
			return;
		if (rec[0] <= fp)	/* frames go up the stack */
			return;
		fp = rec[0];
	}
#endif
}

/* The chain perf recorded (PERF_CONTEXT_* markers before each part);
 * its kernel part only where kernel (a PEBS chain starts from the
 * interrupt's registers, which may be the kernel's for a user-only
 * event). */
static void perfctr_chain_copy(struct perfctr_chain *c,
			       const struct perf_callchain_entry *e,
			       bool kernel_ok)
{
	bool kernel = false;
	u64 i;

	for (i = 0; i < e->nr; i++) {
		u64 ip = e->ip[i];

		if (ip >= PERF_CONTEXT_MAX) {
			kernel = ip == PERF_CONTEXT_KERNEL;
			continue;
		}
		if (kernel && !kernel_ok)
			continue;
		if (!perfctr_chain_put(c, ip))
			return;
		if (kernel)
			c->kern = c->nr;
	}
}

/*
 * The chain of the sample whose body runs: what its event records (the
 * kernel's frames unless it excludes them, the user's likewise), built
 * at the first call of the body and kept for the rest of it.
 */
static const struct perfctr_chain *
perfctr_sample_chain(struct perfctr_sample_now *now)
{
	const struct perf_event_attr *a = &now->event->attr;
	struct perfctr_chain *c;
	unsigned int parts;
	bool kernel;

	if (now->chain || !perfctr_chains)
		return now->chain;
	c = perfctr_chain_buf(now->level);
	c->nr = c->kern = 0;
	/* a user-only event's interrupt can land in the kernel (skid): it
	 * shows no kernel frames, as it counts none */
	kernel = !a->exclude_callchain_kernel && !a->exclude_kernel;
	if (now->data->sample_flags & PERF_SAMPLE_CALLCHAIN &&
	    now->data->callchain) {
		perfctr_chain_copy(c, now->data->callchain, kernel);
	} else {
		parts = perfctr_chain_parts(perfctr_chain_in_guest(), kernel,
					    !user_mode(now->regs),
					    !a->exclude_callchain_user,
					    perfctr_chain_user_task(current));
		if (parts & PERFCTR_CHAIN_KERNEL)
			perfctr_chain_kernel(c, now->regs);
		c->kern = c->nr;
		if (parts & PERFCTR_CHAIN_USER)
			perfctr_chain_user(c, now->regs);
	}
	now->chain = c;
	return c;
}

/* Sleepable, at start: the buffers, where a clause records chains. */
static int perfctr_chains_start(void)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NDECLARED; i++)
		if (perfctr_requests[i].payload & PERFCTR_PL_CALLCHAIN)
			break;
	if (i == PERFCTR_NDECLARED)
		return 0;
	perfctr_chain_find_guest();
	perfctr_chains = __alloc_percpu(sizeof(struct perfctr_chain) *
					PERFCTR_CHAIN_LEVELS,
					__alignof__(struct perfctr_chain));
	return perfctr_chains ? 0 : -ENOMEM;
}

static void perfctr_chains_stop(void)
{
	free_percpu(perfctr_chains);
	perfctr_chains = NULL;
}
