/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_report.c - staprun as a child of perfctr-run, for the end-of-run
 * report (STAP_PERFCTR_REPORT, stap-perfctr --counter-report): its stdout
 * is left alone, its stderr comes through a pipe and is copied through
 * unchanged, line for line, except the module's report lines
 * ("WARNING: perfctr-report: {...}"), whose objects go to the report.
 * Without the report perfctr-run execs staprun, as it always did.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "run.h"

/* stap's prefix for a module's warning (runtime/linux/io.c) */
#define WARN_PREFIX	"WARNING: "
#define MARK		WARN_PREFIX PERFCTR_REPORT_MARK
/* The module's lines are under 384 bytes (STP_CTL_BUFFER_SIZE); a
 * longer line is none of ours and goes through in pieces. */
#define LINE_MAX_LEN	4096

static volatile pid_t child;

/*
 * A signal someone sent perfctr-run (stap's SIGTERM to the staprun it
 * ran, a kill from a shell) goes on to staprun, which would have had it.
 * The terminal's (Ctrl-C: SIGINT, SIGQUIT, a hangup's SIGHUP) comes from
 * the kernel to the whole process group, staprun included: a second copy
 * would be a second interrupt, so it is not passed on.  perfctr-run
 * itself stays until staprun exits, to copy its last lines.
 */
static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (child > 0 && si->si_code <= 0)	/* SI_USER, SI_QUEUE, ... */
		kill(child, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* Catches the forwarded signals, held (in *held) until the child is
 * known: one that comes before is passed on when they are let go. */
static void signals_catch(sigset_t *held, sigset_t *old)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigemptyset(held);
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
		sigaction(forwarded[i], &sa, NULL);
		sigaddset(held, forwarded[i]);
	}
	sigprocmask(SIG_BLOCK, held, old);
}

static void write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= w;
	}
}

struct filter {
	FILE *report;
	char line[LINE_MAX_LEN];
	size_t len;
	int objects, incomplete;
};

/* One whole line (with its newline, unless it is the last). */
static void filter_line(struct filter *f, const char *l, size_t n)
{
	size_t m = strlen(MARK);

	if (n < m || memcmp(l, MARK, m)) {
		write_all(STDERR_FILENO, l, n);
		return;
	}
	fwrite(l + m, 1, n - m, f->report);
	if (l[n - 1] != '\n')
		fputc('\n', f->report);
	fflush(f->report);
	f->objects++;
	/* the module writes the field so, with no space */
	if (memmem(l, n, "\"incomplete\":true", 17))
		f->incomplete = 1;
}

static void filter_bytes(struct filter *f, const char *p, size_t n)
{
	const char *nl;
	size_t k;

	while (n > 0) {
		nl = memchr(p, '\n', n);
		k = nl ? (size_t)(nl - p) + 1 : n;
		if (f->len + k > sizeof(f->line)) {
			/* too long to be ours: through as it comes */
			write_all(STDERR_FILENO, f->line, f->len);
			f->len = 0;
			write_all(STDERR_FILENO, p, k);
		} else {
			memcpy(f->line + f->len, p, k);
			f->len += k;
			if (nl) {
				filter_line(f, f->line, f->len);
				f->len = 0;
			}
		}
		p += k;
		n -= k;
	}
}

/* staprun's exit, as perfctr-run's own: its status, or its signal. */
static int child_status(int status)
{
	struct sigaction sa;
	sigset_t set;
	int sig;

	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	sig = WTERMSIG(status);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;
}

/* Marks a run whose counts are not whole for stap-perfctr. */
static void mark_incomplete(void)
{
	const char *path = getenv(PERFCTR_ENV_INCOMPLETE);
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (f) {
		fputs("incomplete\n", f);
		fclose(f);
	}
}

int report__run(const char *staprun, char **args, const char *where)
{
	const char *st = getenv(PERFCTR_ENV_STATUS);
	struct filter *f = calloc(1, sizeof(*f));
	void (*pipe_was)(int);
	sigset_t held, old;
	char buf[8192];
	int pfd[2], status = 0, rc;
	ssize_t n;
	pid_t pid;

	if (!f) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	/* staprun, stapio and a -c target never get its fd */
	f->report = strcmp(where, "-") ? fopen(where, "we") : stderr;
	if (!f->report) {
		fprintf(stderr, PROG ": cannot write the counter report to "
			"%s: %s\n", where, strerror(errno));
		free(f);
		return 1;
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		fprintf(stderr, PROG ": pipe: %s\n", strerror(errno));
		return 1;
	}
	fflush(NULL);
	signals_catch(&held, &old);
	pipe_was = signal(SIGPIPE, SIG_IGN);	/* stderr closed: stay */
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	if (pid == 0) {
		/* exec restores the caught signals; SIGPIPE and the mask
		 * as they were */
		signal(SIGPIPE, pipe_was);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (dup2(pfd[1], STDERR_FILENO) < 0)
			_exit(1);
		execv(staprun, args);
		fprintf(stderr, PROG ": cannot run %s: %s\n", staprun,
			strerror(errno));
		_exit(1);
	}
	child = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(pfd[1]);
	for (;;) {
		n = read(pfd[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		filter_bytes(f, buf, n);
	}
	if (f->len)
		filter_line(f, f->line, f->len);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (f->report != stderr)
		fclose(f->report);
	if (f->incomplete)
		mark_incomplete();
	rc = child_status(status);
	if (rc == 0 && f->incomplete && st && !strcmp(st, "1"))
		rc = PERFCTR_EXIT_INCOMPLETE;
	free(f);
	return rc;
}
