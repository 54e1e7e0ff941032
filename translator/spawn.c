// SPDX-License-Identifier: GPL-2.0-or-later
/* spawn.c - running the real stap. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

static volatile sig_atomic_t child_pid;

int spawn__exec(const char *path, char *const *argv)
{
	execv(path, argv);
	return -errno;
}

/* SIGTERM/SIGHUP sent to us (a timeout, a closed terminal) go on to stap;
 * SIGINT/SIGQUIT from the terminal reach stap through its process group
 * already, so we ignore them and let stap decide how to stop. */
static void forward(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
}

static void set_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

static void write_mapped(const char *line, size_t len, const char *from,
			 const char *to)
{
	size_t flen = strlen(from);
	const char *p = line, *end = line + len, *hit;

	while (p < end && (hit = memmem(p, end - p, from, flen)) != NULL) {
		fwrite(p, 1, hit - p, stderr);
		fputs(to, stderr);
		p = hit + flen;
	}
	fwrite(p, 1, end - p, stderr);
	fflush(stderr);
}

static void copy_stderr(FILE *in, const char *from, const char *to)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, in)) > 0)
		write_mapped(line, n, from, to);
	free(line);
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return 1;
}

/* Forks and execs path; with pipe_fds, the child's stderr is the pipe's
 * write end.  Signals to us go on to the child from now on. */
static pid_t start(const char *path, char *const *argv, const int *pipe_fds)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid != 0) {
		if (pid > 0) {
			child_pid = pid;
			set_signals();
		}
		return pid;
	}
	if (pipe_fds) {
		dup2(pipe_fds[1], STDERR_FILENO);
		close(pipe_fds[0]);
		close(pipe_fds[1]);
	}
	execv(path, argv);
	fprintf(stderr, "stap-perfctr: cannot run %s: %s\n", path,
		strerror(errno));
	_exit(127);
}

static int wait_for(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	return exit_status(status);
}

int spawn__run(const char *path, char *const *argv)
{
	pid_t pid = start(path, argv, NULL);

	return pid < 0 ? 1 : wait_for(pid);
}

int spawn__run_mapped(const char *path, char *const *argv, const char *from,
		      const char *to)
{
	int fds[2];
	pid_t pid;
	FILE *in;

	if (pipe(fds) < 0)
		return 1;
	pid = start(path, argv, fds);
	if (pid < 0)
		return 1;
	close(fds[1]);
	in = fdopen(fds[0], "r");
	if (in) {
		copy_stderr(in, from, to);
		fclose(in);
	}
	return wait_for(pid);
}
