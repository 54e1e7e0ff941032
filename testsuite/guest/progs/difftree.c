/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * difftree GATE ROW... - a tree of tasks to count two ways at once: the
 * workload of the differential tests, which compare a module's counts with
 * perf's (perf stat -p) over the same run.
 *
 * Prints "difftree: pid PID", then waits at GATE, so that a module and
 * perf can both attach before it does anything:
 *   PATH     a FIFO, opened read-write before the pid line (the read is
 *            the one wait): one byte read
 *   fd:N     an inherited descriptor (a pipe's read end): the same
 *   -        no gate
 * then runs the ROWs in order, each a NAME:ARGS word (all checked before
 * the pid line: a bad one exits 2), and prints "difftree: ROW done" after
 * each (ARGS are counts; P, pages per task, is 1 when left out):
 *   pages:P            the main thread touches P fresh pages (P faults)
 *   threads:N[,P]      N threads, 100 alive at a time, each touching P
 *                      fresh pages, joined
 *   brief:N            N threads that return at once (each exits within
 *                      microseconds of its creation), 100 at a time, joined
 *   fork:N[,P]         N children at once, each touching P pages, reaped
 *   forkthreads:N,T[,P] N children at once, each touching P pages and
 *                      making T threads that touch P pages each, reaped
 *   spawn:P            a child whose child execs touch_pages P (the
 *                      program beside this one), both reaped
 *   execthread         a second thread execs this program (de_thread():
 *                      the leader dies, the thread takes the process's
 *                      id), which goes on with the rows after this one
 *                      and prints "difftree: exec'd from thread TID as PID"
 *   exit:N             N threads keep faulting pages in while the main
 *                      thread exits the process under them (10 ms on);
 *                      the rows after it never run
 * The process ends when its rows are done: every task it made has ended.
 * No markers: a differential test counts the whole tree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define PROG "difftree"
#define USAGE "GATE|fd:N|- ROW... (NAME:ARGS: pages:P threads:N[,P] " \
	"brief:N fork:N[,P] forkthreads:N,T[,P] spawn:P execthread exit:N)"
#define BATCH 100	/* threads alive at once */

static char *self;	/* this program's path, for exec */
static pthread_attr_t small;

/* One line, flushed at once: the output survives fork and exec. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(PROG ": ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

static void usage(void)
{
	fprintf(stderr, "usage: " PROG " " USAGE "\n");
	exit(2);
}

static void touch(long pages)
{
	char *mem;
	long p;

	if (pages <= 0)
		return;
	mem = guest_fresh_pages(PROG, pages);
	for (p = 0; p < pages; p++)
		mem[p * 4096] = 1;
	munmap(mem, pages * 4096);
}

/* The gate's descriptor: the FIFO PATH, opened read-write so that the
 * open does not wait for a writer (the wait is all in the read), or fd:N;
 * -1 for none. */
static int gate_open(const char *how)
{
	int fd;

	if (!strcmp(how, "-"))
		return -1;
	if (!strncmp(how, "fd:", 3))
		return guest_count_arg(PROG, USAGE, how + 3, 0);
	if ((fd = open(how, O_RDWR)) < 0)
		guest_fail(PROG, how);
	return fd;
}

/* Waits for one byte (or the end) at the gate: the one place it blocks. */
static void gate_wait(int fd)
{
	char c;

	if (fd < 0)
		return;
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	close(fd);
}

static void *toucher(void *arg)
{
	touch((long)arg);
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

/* N threads running FN(ARG), BATCH alive at a time, all joined. */
static void threads(long n, void *(*fn)(void *), long arg)
{
	pthread_t tid[BATCH];
	long done, i, k;

	for (done = 0; done < n; done += k) {
		k = n - done < BATCH ? n - done : BATCH;
		for (i = 0; i < k; i++)
			if (pthread_create(&tid[i], &small, fn, (void *)arg))
				guest_fail(PROG, "pthread_create");
		for (i = 0; i < k; i++)
			pthread_join(tid[i], NULL);
	}
}

/* N children at once, each touching P pages and making T threads that
 * touch P pages each; all reaped. */
static void children(long n, long t, long p)
{
	long i;
	pid_t pid;
	int status;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			guest_fail(PROG, "fork");
		if (pid == 0) {
			touch(p);
			threads(t, toucher, p);
			_exit(0);
		}
	}
	for (i = 0; i < n; i++)
		if (wait(&status) < 0 || status)
			guest_fail(PROG, "a child failed");
}

/* A child whose child execs touch_pages P (beside this program). */
static void spawn(long p)
{
	char prog[PATH_MAX], arg[32];
	pid_t pid;
	int status;

	snprintf(prog, sizeof(prog), "%.*s/touch_pages",
		 (int)(strrchr(self, '/') - self), self);
	snprintf(arg, sizeof(arg), "%ld", p);
	pid = fork();
	if (pid < 0)
		guest_fail(PROG, "fork");
	if (pid == 0) {
		pid = fork();
		if (pid == 0) {
			execl(prog, "touch_pages", arg, (char *)NULL);
			guest_fail(PROG, prog);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			_exit(1);
		_exit(status ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid || status)
		guest_fail(PROG, "spawn's child failed");
}

static char **rest;	/* the rows after the one running */

static void *execer(void *arg)
{
	char tid[40];
	long n = 0;

	while (rest[n])
		n++;
	{
		char *argv[n + 3];

		snprintf(tid, sizeof(tid), "exec:%ld", (long)syscall(SYS_gettid));
		argv[0] = PROG;
		argv[1] = tid;
		memcpy(argv + 2, rest, (n + 1) * sizeof(*argv));
		execv(self, argv);
	}
	guest_fail(PROG, "execv");
	return arg;
}

/* A second thread execs this program with the rows after this one. */
static void execthread(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, execer, NULL))
		guest_fail(PROG, "pthread_create");
	pthread_join(t, NULL);	/* the exec kills this thread */
	guest_fail(PROG, "pthread_join returned");
}

static void *faulter(void *arg)
{
	char *mem = guest_fresh_pages(PROG, 64);
	long p;

	for (;;) {
		for (p = 0; p < 64; p++)
			mem[p * 4096] = 1;
		madvise(mem, 64 * 4096, MADV_DONTNEED);
	}
	return arg;
}

/* N threads fault pages in while the process exits under them. */
static void exit_busy(long n)
{
	struct timespec pause = { 0, 10000000 };
	pthread_t t;
	long i;

	for (i = 0; i < n; i++)
		if (pthread_create(&t, &small, faulter, NULL))
			guest_fail(PROG, "pthread_create");
	nanosleep(&pause, NULL);
	say("exit:%ld done", n);
	exit(0);
}

static void row_pages(const long *v)
{
	touch(v[0]);
}

static void row_threads(const long *v)
{
	threads(v[0], toucher, v[1]);
}

static void row_brief(const long *v)
{
	threads(v[0], nothing, 0);
}

static void row_fork(const long *v)
{
	children(v[0], 0, v[1]);
}

static void row_forkthreads(const long *v)
{
	children(v[0], v[1], v[2]);
}

static void row_spawn(const long *v)
{
	spawn(v[0]);
}

static void row_execthread(const long *v)
{
	(void)v;
	execthread();
}

static void row_exit(const long *v)
{
	exit_busy(v[0]);
}

/* The rows: NAME takes MIN to MAX counts after its ':', the counts left
 * out are 1 (pages per task). */
static const struct row {
	const char *name;
	int min, max;
	void (*run)(const long *v);
} rows[] = {
	{ "pages", 1, 1, row_pages },
	{ "threads", 1, 2, row_threads },
	{ "brief", 1, 1, row_brief },
	{ "fork", 1, 2, row_fork },
	{ "forkthreads", 2, 3, row_forkthreads },
	{ "spawn", 1, 1, row_spawn },
	{ "execthread", 0, 0, row_execthread },
	{ "exit", 1, 1, row_exit },
};

/* parse_row WORD V: WORD's row, its counts in V; exits on a bad one. */
static const struct row *parse_row(const char *word, long *v)
{
	const char *args = strchr(word, ':');
	size_t len = args ? (size_t)(args - word) : strlen(word);
	const struct row *r;
	char *end;
	int k;

	for (r = rows; r < rows + sizeof(rows) / sizeof(rows[0]); r++)
		if (strlen(r->name) == len && !strncmp(word, r->name, len))
			break;
	if (r == rows + sizeof(rows) / sizeof(rows[0])) {
		fprintf(stderr, PROG ": unknown row '%s'\n", word);
		usage();
	}
	for (k = 0; k < 3; k++)
		v[k] = 1;
	for (k = 0; args && k < r->max; k++) {
		errno = 0;
		v[k] = strtol(args + 1, &end, 10);
		if (errno || end == args + 1 || v[k] < 0 || (*end && *end != ','))
			break;
		args = *end ? end : NULL;
	}
	if (args || k < r->min) {
		fprintf(stderr, PROG ": row '%s' takes %d to %d counts\n",
			word, r->min, r->max);
		usage();
	}
	return r;
}

int main(int argc, char **argv)
{
	long v[3];
	int i;

	if (argc < 2)
		usage();
	self = realpath("/proc/self/exe", NULL);
	if (!self)
		guest_fail(PROG, "realpath");
	pthread_attr_init(&small);
	pthread_attr_setstacksize(&small, PTHREAD_STACK_MIN);
	for (i = 2; i < argc; i++)	/* a bad row stops it before the gate */
		parse_row(argv[i], v);
	if (!strncmp(argv[1], "exec:", 5)) {	/* the image execthread made */
		say("exec'd from thread %s as %d", argv[1] + 5, (int)getpid());
	} else {
		int fd = gate_open(argv[1]);

		say("pid %d", (int)getpid());
		gate_wait(fd);
	}
	for (i = 2; i < argc; i++) {
		rest = argv + i + 1;
		parse_row(argv[i], v)->run(v);
		say("%s done", argv[i]);
	}
	say("done");
	return 0;
}
