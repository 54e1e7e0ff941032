/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpf_reads read|value|empty K N - what a counter read costs in a BPF
 * kprobe program, for bench/ (sections/reads.sh), beside perfctr's reads:
 *
 *   read   the program calls bpf_perf_event_read(map, BPF_F_CURRENT_CPU)
 *          K times, then returns 0
 *   value  the same with bpf_perf_event_read_value(map, BPF_F_CURRENT_CPU,
 *          &buf, sizeof(struct bpf_perf_event_value)), buf on its stack
 *   empty  the program returns 0 at once (K must be 0): the control
 *
 * The map is a BPF_MAP_TYPE_PERF_EVENT_ARRAY holding one pinned counter
 * of instructions (PERF_TYPE_HARDWARE) per online CPU, key = the CPU.
 * No libbpf: bpf(2) and perf_event_open(2) by hand, the program's
 * instructions assembled here.  It is attached to a kprobe on getppid's
 * system call (the kprobe PMU, /sys/bus/event_source/devices/kprobe),
 * then N getppid() calls are timed on CPU 0 as `bench_loop syscalls N`
 * times them: three repetitions, each printing "bench_loop: syscalls N:
 * R ns per iteration".  First prints "bpf_reads: bpf_jit_enable V" (V
 * from /proc/sys/net/core/bpf_jit_enable, "none" if it cannot be read),
 * and once loaded "bpf_reads: jited B bytes" (the timed program's JIT
 * code, 0 if the interpreter runs it);
 * for read and value, before the timing, one hit of a program that makes
 * one such call and keeps its result: "bpf_reads: HELPER returned V", or
 * the helper's error and exit 1 (a read that fails is not timed).
 * Any failure: a message naming the step (the verifier's log too for
 * BPF_PROG_LOAD) on stderr, exit 1; bad arguments: usage, exit 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

#define PROG "bpf_reads"
#define USAGE "read|value|empty K N"
#define MAX_READS 64

#ifdef __aarch64__
#define GETPPID_SYMBOL "__arm64_sys_getppid"
#else
#define GETPPID_SYMBOL "__x64_sys_getppid"
#endif

/* The program: at most 2 + 5 per read + 11 + 2 instructions. */
static struct bpf_insn insns[2 + 5 * MAX_READS + 11 + 2];
static int ninsns;
static char verifier_log[1 << 16];

static void emit(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
		 int32_t imm)
{
	struct bpf_insn *i = &insns[ninsns++];

	memset(i, 0, sizeof(*i));
	i->code = code;
	i->dst_reg = dst;
	i->src_reg = src;
	i->off = off;
	i->imm = imm;
}

/* r = the map (BPF_LD_IMM64 of BPF_PSEUDO_MAP_FD: two slots) */
static void emit_map(uint8_t r, int map_fd)
{
	emit(BPF_LD | BPF_DW | BPF_IMM, r, BPF_PSEUDO_MAP_FD, 0, map_fd);
	emit(0, 0, 0, 0, 0);
}

/* r = r10 + off: a pointer into the program's stack */
static void emit_stack_ptr(uint8_t r, int16_t off)
{
	emit(BPF_ALU64 | BPF_MOV | BPF_X, r, BPF_REG_10, 0, 0);
	emit(BPF_ALU64 | BPF_ADD | BPF_K, r, 0, 0, off);
}

/*
 * r6 = the map, then K times: r1 = r6, r2 = BPF_F_CURRENT_CPU (a 32-bit
 * move: the helpers want exactly 0xffffffff), for value r3 = r10 - 24
 * and r4 = 24, call; with a RESULT_FD (an array of one u64) the last
 * call's r0 stored there (key 0); then r0 = 0, exit.
 */
static void assemble(const char *mode, int k, int map_fd, int result_fd)
{
	int value = !strcmp(mode, "value");
	int32_t size = sizeof(struct bpf_perf_event_value);
	int n;

	ninsns = 0;
	if (k)
		emit_map(BPF_REG_6, map_fd);
	for (n = 0; n < k; n++) {
		emit(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_6, 0, 0);
		emit(BPF_ALU | BPF_MOV | BPF_K, BPF_REG_2, 0, 0,
		     (int32_t)BPF_F_CURRENT_CPU);
		if (value) {
			emit_stack_ptr(BPF_REG_3, -size);
			emit(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0,
			     size);
		}
		emit(BPF_JMP | BPF_CALL, 0, 0, 0,
		     value ? BPF_FUNC_perf_event_read_value :
			     BPF_FUNC_perf_event_read);
	}
	if (result_fd >= 0) {
		/* below the value's buffer: r0 at -32, the key at -36 */
		emit(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_0, -32, 0);
		emit(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -36, 0);
		emit_map(BPF_REG_1, result_fd);
		emit_stack_ptr(BPF_REG_2, -36);
		emit_stack_ptr(BPF_REG_3, -32);
		emit(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, BPF_ANY);
		emit(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_update_elem);
	}
	emit(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int perf_open(struct perf_event_attr *a, int pid, int cpu)
{
	return syscall(__NR_perf_event_open, a, pid, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* A map of TYPE with u32 keys; exits if there can be none. */
static int map_create(uint32_t type, uint32_t value_size, uint32_t entries)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = value_size;
	attr.max_entries = entries;
	fd = bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		guest_fail(PROG, "BPF_MAP_CREATE");
	return fd;
}

/* CMD (named WHAT) on the element KEY of the map MAP_FD, VALUE its value. */
static void map_elem(int cmd, const char *what, int map_fd, uint32_t key,
		     void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)value;
	if (bpf(cmd, &attr))
		guest_fail(PROG, what);
}

/* The map, with a pinned counter of instructions for each online CPU. */
static int counters_map(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct perf_event_attr a;
	uint32_t key;
	int map_fd, fd;

	map_fd = map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(uint32_t),
			    cpus);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.pinned = 1;
	for (key = 0; key < cpus; key++) {
		fd = perf_open(&a, -1, key);
		if (fd < 0 && errno == ENODEV)
			continue;	/* offline */
		if (fd < 0)
			guest_fail(PROG, "perf_event_open (instructions)");
		map_elem(BPF_MAP_UPDATE_ELEM, "BPF_MAP_UPDATE_ELEM", map_fd, key,
			 &fd);
	}
	return map_fd;
}

static int load(void)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = ninsns;
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)verifier_log;
	attr.log_size = sizeof(verifier_log);
	attr.log_level = 1;
	fd = bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		int e = errno;

		fprintf(stderr, "%s: BPF_PROG_LOAD: %s\n", PROG, strerror(e));
		fprintf(stderr, "%s: the verifier's log:\n%s\n", PROG,
			verifier_log);
		exit(1);
	}
	return fd;
}

/* The kprobe PMU's type, from sysfs; exits if there is none. */
static int kprobe_type(void)
{
	const char *path = "/sys/bus/event_source/devices/kprobe/type";
	FILE *f = fopen(path, "r");
	int type;

	if (!f) {
		fprintf(stderr, "%s: no kprobe PMU: %s: %s\n", PROG, path,
			strerror(errno));
		exit(1);
	}
	if (fscanf(f, "%d", &type) != 1) {
		fprintf(stderr, "%s: %s: not a number\n", PROG, path);
		exit(1);
	}
	fclose(f);
	return type;
}

/* Attach PROG_FD to the kprobe: the kprobe event's fd (closing it
 * detaches the program). */
static int attach(int prog_fd)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = kprobe_type();
	a.config1 = (uintptr_t)GETPPID_SYMBOL;	/* kprobe_func */
	a.disabled = 1;
	fd = perf_open(&a, -1, 0);
	if (fd < 0)
		guest_fail(PROG, "perf_event_open (kprobe on " GETPPID_SYMBOL ")");
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd))
		guest_fail(PROG, "PERF_EVENT_IOC_SET_BPF");
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		guest_fail(PROG, "PERF_EVENT_IOC_ENABLE");
	return fd;
}

/*
 * Before the timing: the same reads once in a program that keeps the
 * last call's result, attached for one getppid(); exits if the helper
 * failed (bpf_perf_event_read: an error is a negative errno in the
 * value; bpf_perf_event_read_value: a non-zero return).
 */
static void check(const char *mode, int map_fd)
{
	int result_fd = map_create(BPF_MAP_TYPE_ARRAY, sizeof(uint64_t), 1);
	const char *helper = !strcmp(mode, "read") ?
		"bpf_perf_event_read" : "bpf_perf_event_read_value";
	int64_t v = 1;
	int prog_fd, probe_fd;

	assemble(mode, 1, map_fd, result_fd);
	prog_fd = load();
	probe_fd = attach(prog_fd);
	guest_getppid_calls(1);
	close(probe_fd);
	close(prog_fd);
	map_elem(BPF_MAP_LOOKUP_ELEM, "BPF_MAP_LOOKUP_ELEM", result_fd, 0, &v);
	close(result_fd);
	if (strcmp(mode, "read") ? v != 0 : (v < 0 && v >= -4095)) {
		fprintf(stderr, "%s: %s in the program: %s\n", PROG, helper,
			strerror(v < 0 ? (int)-v : EINVAL));
		exit(1);
	}
	printf("%s: %s returned %lld\n", PROG, helper, (long long)v);
}

/* Print how the timed program runs: "bpf_reads: jited B bytes" (B 0:
 * the interpreter runs it). */
static void print_jited(int prog_fd)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		guest_fail(PROG, "BPF_OBJ_GET_INFO_BY_FD");
	printf("%s: jited %u bytes\n", PROG, info.jited_prog_len);
}

static void print_jit(void)
{
	FILE *f = fopen("/proc/sys/net/core/bpf_jit_enable", "r");
	int v;

	if (f && fscanf(f, "%d", &v) == 1)
		printf("%s: bpf_jit_enable %d\n", PROG, v);
	else
		printf("%s: bpf_jit_enable none\n", PROG);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long k = guest_count_arg(PROG, USAGE, argc > 2 ? argv[2] : NULL, 0);
	long n = guest_count_arg(PROG, USAGE, argc > 3 ? argv[3] : NULL, 1);
	int empty = !strcmp(mode, "empty");
	int map_fd, prog_fd;

	if ((!empty && strcmp(mode, "read") && strcmp(mode, "value")) ||
	    k > MAX_READS || (empty != (k == 0))) {
		fprintf(stderr, "usage: %s %s (K: 1 to %d, 0 for empty)\n",
			PROG, USAGE, MAX_READS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);	/* in order with stderr */
	guest_pin_cpu(0);
	print_jit();
	map_fd = counters_map();
	if (!empty)
		check(mode, map_fd);
	assemble(mode, k, map_fd, -1);
	prog_fd = load();
	print_jited(prog_fd);
	attach(prog_fd);
	guest_bench("syscalls", n, guest_getppid_calls);
	return 0;
}
