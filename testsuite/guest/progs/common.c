/* SPDX-License-Identifier: GPL-2.0-or-later */
/* common.c - markers, CPU pinning and argument parsing; see common.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

/* Kept out of line (and its argument live) so that uprobes can find it by
 * name and read $which. */
#ifdef __aarch64__
/* The system call itself, no libc: the user instructions around it are
 * known exactly (mov x8, svc, ret: see common.h, GUEST_MARKER_INSNS), and
 * $which stays in x0 until the svc. */
__attribute__((noinline)) void guest_marker(int which)
{
	register int x0 __asm__("x0") = which;
	register long x8 __asm__("x8") = SYS_getppid;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8) : "memory");
}
#else
__attribute__((noinline)) void guest_marker(int which)
{
	/* syscall(): libc must not answer from a cache */
	syscall(SYS_getppid);
	__asm__ volatile("" : : "r"(which) : "memory");
}
#endif

void guest_fail(const char *prog, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

void guest_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		guest_fail("guest_pin_cpu", "sched_setaffinity");
}

long guest_count_arg(const char *prog, const char *usage, const char *arg,
		     long min)
{
	char *end;
	long n;

	errno = 0;
	n = arg ? strtol(arg, &end, 10) : 0;
	if (!arg || errno || *end || end == arg || n < min) {
		fprintf(stderr, "usage: %s %s\n", prog, usage);
		exit(2);
	}
	return n;
}
