// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-chain.c - which parts of a sample's call chain the module walks
 * (runtime/perfctr_chain.h), against perf's rule: nothing for a sample
 * that interrupted a KVM guest, the kernel's frames only for a sample in
 * the kernel of an event that records them, the user's only for a task
 * with user frames of its own.  The guest case runs only on a KVM host
 * (testsuite/hw, scripts/hw-check); here the decision is held.
 */
#include <stdbool.h>

#include "perfctr_chain.h"
#include "tap.h"

#define K PERFCTR_CHAIN_KERNEL
#define U PERFCTR_CHAIN_USER

static const struct {
	bool guest, kernel, in_kernel, user, user_task;
	unsigned int want;
	const char *what;
} cases[] = {
	{ 0, 1, 1, 1, 1, K | U, "a system call's sample: both parts" },
	{ 0, 1, 0, 1, 1, U, "a user-mode sample: the user's only" },
	{ 0, 0, 1, 1, 1, U, "an event that excludes the kernel: no kernel frames (skid)" },
	{ 0, 1, 1, 0, 1, K, "exclude_callchain_user: the kernel's only" },
	{ 0, 1, 1, 1, 0, K, "a kernel thread or user worker (io_uring): no user frames" },
	{ 0, 1, 0, 1, 0, 0, "a user worker's sample out of the kernel: nothing" },
	{ 1, 1, 1, 1, 1, 0, "a KVM guest's sample: no chain, as perf" },
	{ 1, 1, 0, 1, 1, 0, "a KVM guest's user-mode sample: no chain" },
};

int main(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_int(perfctr_chain_parts(cases[i].guest, cases[i].kernel,
					   cases[i].in_kernel, cases[i].user,
					   cases[i].user_task),
		       cases[i].want, "%s", cases[i].what);
	return tap_done();
}
