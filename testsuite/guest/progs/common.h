/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.h - shared by the guest test programs (testsuite/guest/progs).
 *
 * Markers.  Each program brackets the work it measures with two markers.
 * A marker is a call of guest_marker(), which makes one getppid() system
 * call, so a script can catch it without debuginfo, in the kernel:
 *
 *   probe kprobe.function("__x64_sys_getppid") { ... }   (x86_64)
 *   probe kprobe.function("__arm64_sys_getppid") { ... } (arm64)
 *
 * filtered on pid() == target() (the -c command) or on execname(); or in
 * the program (linked static, built with -g, same path in host and guest):
 *
 *   probe process("PATH").function("guest_marker") { ... $which ... }
 *
 * Each task makes exactly two markers, the first with which = 0 (start)
 * and the last with which = 1 (end), and no other getppid() call: a
 * counter read at the first and at the second hit of the same tid() gives
 * the delta over the work alone.  Programs print one summary line to stdout.
 *
 * On aarch64 guest_marker makes the system call itself (no libc): its code
 * is "mov x8, #173; svc #0; ret", two user instructions up to and
 * including the svc, one after it (insn_loop checks this and counts on it).
 */
#ifndef GUEST_PROGS_COMMON_H
#define GUEST_PROGS_COMMON_H

enum { MARK_START = 0, MARK_END = 1 };

/* Mark the start (0) or the end (1) of the measured work: one getppid(). */
void guest_marker(int which);

/* N pages of 4096 bytes, never touched: touching each one is one page
 * fault (no huge pages).  Exits, naming PROG, when there is no memory. */
char *guest_fresh_pages(const char *prog, long n);

/* Pin the calling task (and the children it forks later) to one CPU. */
void guest_pin_cpu(int cpu);

/* Parse ARG as a count >= MIN; exit with a usage message naming PROG and
 * USAGE if it is not one. */
long guest_count_arg(const char *prog, const char *usage, const char *arg,
		     long min);

/* A software event (PERF_TYPE_SOFTWARE, config) of the calling process,
 * on any CPU, counting: its fd, or -1 (errno set). */
int guest_sw_event(unsigned long long config);

/* N getppid() system calls, through syscall(): libc must not answer from
 * a cache (what a kprobe on __ARCH_sys_getppid costs, N hits). */
void guest_getppid_calls(long n);

/* CLOCK_MONOTONIC in ns (the vDSO: no system call). */
long long guest_now_ns(void);

/* Time RUN(N) three times, printing after each "bench_loop: MODE N: R ns
 * per iteration" (R with two decimals): the line bench/lib.sh's
 * bench_least reads.  Under QEMU -icount shift=0 a guest ns is one
 * instruction. */
void guest_bench(const char *mode, long n, void (*run)(long));

/* Print "PROG: MESSAGE: strerror" and exit 1. */
void guest_fail(const char *prog, const char *what);

/* Marker 0, a loop of N iterations, marker 1, nothing else: returns E, the
 * user instructions retired between the markers' system calls (insn_loop.c
 * says how; aarch64: exact, elsewhere the loop's own, 2N). */
long guest_marked_loop(long n);

/* One measured stretch of the calling thread: with PAGES 0,
 * guest_marked_loop(N) (returns E), else PAGES fresh pages touched
 * between marker 0 and marker 1 (PAGES page faults; returns 0). */
long guest_marked_work(const char *prog, long n, long pages);

#ifdef __aarch64__
/* What a call (bl guest_marker, svc) inside an asm block may change: the
 * block's clobber list, so that its own values live in callee-saved
 * registers. */
#define GUEST_CALL_CLOBBERS						\
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",	\
	"x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18",	\
	"x30", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16",	\
	"v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25",	\
	"v26", "v27", "v28", "v29", "v30", "v31", "cc", "memory"

/* guest_marker's user instructions up to its svc (inclusive) and after it
 * (up to its ret, inclusive), read from its code; exits if it is not
 * straight-line code around one svc. */
void guest_marker_shape(long *head, long *tail);
#endif

#endif
