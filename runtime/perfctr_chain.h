/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr_chain.h - which parts of a sample's call chain are walked, as
 * perf's get_perf_callchain() and the architectures' perf_callchain_*()
 * decide: the rule alone, so that userspace tests can hold it
 * (testsuite/unit/runtime/test-chain.c); perfctr_chain.c walks them.
 */
#ifndef PERFCTR_CHAIN_H
#define PERFCTR_CHAIN_H

enum { PERFCTR_CHAIN_KERNEL = 1, PERFCTR_CHAIN_USER = 2 };

/*
 * guest: the sample interrupted a KVM guest (perf_guest_state()): no
 * chain at all, the registers are the host's entry code.  kernel: the
 * event may record kernel frames; in_kernel: the sample's registers are
 * the kernel's.  user: the event may record user frames; user_task: the
 * task has user frames of its own (not a kernel thread or user worker).
 */
static inline unsigned int perfctr_chain_parts(bool guest, bool kernel,
					       bool in_kernel, bool user,
					       bool user_task)
{
	unsigned int parts = 0;

	if (guest)
		return 0;
	if (kernel && in_kernel)
		parts |= PERFCTR_CHAIN_KERNEL;
	if (user && user_task)
		parts |= PERFCTR_CHAIN_USER;
	return parts;
}

#endif	/* PERFCTR_CHAIN_H */
