/* SPDX-License-Identifier: GPL-2.0-or-later */
/* common.c - markers, CPU pinning, argument parsing and the bench timing
 * loop; see common.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
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

#ifdef __aarch64__
#define A64_SVC0 0xd4000001u
#define A64_RET 0xd65f03c0u
/* brk #imm: a breakpoint (a uprobe) planted in place of one instruction */
#define A64_IS_BRK(i) (((i) & 0xffe0001fu) == 0xd4200000u)
/* hints (nop, bti, paciasp...): system class, but they do not branch */
#define A64_IS_HINT(i) (((i) & 0xfffff01fu) == 0xd503201fu)
/* branches, exception generation and system instructions: op0 = x101 */
#define A64_IS_BRANCH_CLASS(i) (((i) & 0x1c000000u) == 0x14000000u)

/* guest_marker_shape: guest_marker's instructions up to its svc (inclusive) and
 * after it (up to its ret, inclusive), read from its code.  A breakpoint
 * stands for the one instruction it replaced (never svc: uprobes refuse
 * exception-generating instructions). */
void guest_marker_shape(long *head, long *tail)
{
	const uint32_t *code = (const uint32_t *)(uintptr_t)guest_marker;
	int i, svc = -1;

	for (i = 0; i < 64; i++) {
		uint32_t insn = code[i];

		if (insn == A64_RET && svc >= 0)
			break;
		if (insn == A64_SVC0 && svc < 0) {
			svc = i;
			continue;
		}
		if (A64_IS_BRANCH_CLASS(insn) && !A64_IS_HINT(insn) &&
		    !A64_IS_BRK(insn))
			break;
	}
	if (svc < 0 || i == 64 || code[i] != A64_RET) {
		fprintf(stderr, "FAIL: guest_marker is not straight-line"
			" code around one svc (instruction %d: %08x)\n",
			i, i < 64 ? code[i] : 0);
		exit(1);
	}
	*head = svc + 1;
	*tail = i - svc;
}


/* The markers and the loop; every register a call may change is
 * clobbered, so the count lives in a callee-saved one. */
long guest_marked_loop(long n)
{
	long head, tail;

	guest_marker_shape(&head, &tail);
	__asm__ volatile("mov	w0, #0\n\t"
			 "bl	guest_marker\n\t"
			 "mov	x9, %[n]\n"
			 "1:\n\t"
			 "subs	x9, x9, #1\n\t"
			 "b.ne	1b\n\t"
			 "mov	w0, #1\n\t"
			 "bl	guest_marker"
			 :
			 : [n] "r"(n)
			 : GUEST_CALL_CLOBBERS);
	return tail + 3 + 2 * n + head;
}

#else

/* No PMU to check against: the loop alone is counted (about 2N). */
long guest_marked_loop(long n)
{
	long left = n;

	guest_marker(MARK_START);
	__asm__ volatile("1:\n\t"
			 "dec	%0\n\t"
			 "jnz	1b"
			 : "+r"(left)
			 :
			 : "cc");
	guest_marker(MARK_END);
	return 2 * n;
}

#endif


long guest_marked_work(const char *prog, long n, long pages)
{
	char *mem;
	long p;

	if (!pages)
		return guest_marked_loop(n);
	mem = guest_fresh_pages(prog, pages);
	guest_marker(MARK_START);
	for (p = 0; p < pages; p++)
		mem[p * 4096] = 1;
	guest_marker(MARK_END);
	return 0;
}

void guest_getppid_calls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

long long guest_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void guest_bench(const char *mode, long n, void (*run)(long))
{
	long long t0;
	int rep;

	for (rep = 0; rep < 3; rep++) {
		t0 = guest_now_ns();
		run(n);
		printf("bench_loop: %s %ld: %.2f ns per iteration\n", mode, n,
		       (double)(guest_now_ns() - t0) / n);
	}
	fflush(stdout);
}

void guest_fail(const char *prog, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

char *guest_fresh_pages(const char *prog, long n)
{
	char *mem = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		guest_fail(prog, "mmap");
	/* a huge page would fill 512 of them with one fault */
	madvise(mem, n * 4096, MADV_NOHUGEPAGE);
	return mem;
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

int guest_sw_event(unsigned long long config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	return syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
}
