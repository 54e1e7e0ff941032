// SPDX-License-Identifier: GPL-2.0-or-later
/* spawn.c - running the real stap, and perfctr-run for listings. */
#include <errno.h>
#include <poll.h>
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

static void write_mapped(FILE *out, const char *text, size_t len,
			 const char *from, const char *to)
{
	size_t flen = strlen(from);
	const char *p = text, *end = text + len, *hit;

	while (p < end && (hit = memmem(p, end - p, from, flen)) != NULL) {
		fwrite(p, 1, hit - p, out);
		fputs(to, out);
		p = hit + flen;
	}
	fwrite(p, 1, end - p, out);
	fflush(out);
}

/* One of the child's streams on its way to ours: whole lines are written
 * mapped as they come (a name never spans two lines), the rest at EOF. */
struct relay {
	int fd;			/* the pipe's read end; -1 at EOF */
	FILE *out;
	char *buf;
	size_t len, cap;
};

/* Reads what is there; false at EOF or on an error. */
static int relay_read(struct relay *r, const char *from, const char *to)
{
	char chunk[4096], *nl, *grown;
	ssize_t n = read(r->fd, chunk, sizeof(chunk));
	size_t line;

	if (n < 0 && errno == EINTR)
		return 1;
	if (n <= 0) {
		write_mapped(r->out, r->buf, r->len, from, to);
		r->len = 0;
		return 0;
	}
	if (r->len + n > r->cap) {
		grown = realloc(r->buf, r->len + n);
		if (!grown)
			return 0;
		r->buf = grown;
		r->cap = r->len + n;
	}
	memcpy(r->buf + r->len, chunk, n);
	r->len += n;
	nl = memrchr(r->buf, '\n', r->len);
	if (nl) {
		line = nl + 1 - r->buf;
		write_mapped(r->out, r->buf, line, from, to);
		memmove(r->buf, r->buf + line, r->len - line);
		r->len -= line;
	}
	return 1;
}

static void relay_all(struct relay *r, int n, const char *from,
		      const char *to)
{
	struct pollfd p[2];
	int i, open = n;

	while (open > 0) {
		for (i = 0; i < n; i++)
			p[i] = (struct pollfd){ .fd = r[i].fd, .events = POLLIN };
		if (poll(p, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++)
			if (r[i].fd >= 0 && p[i].revents &&
			    !relay_read(&r[i], from, to)) {
				close(r[i].fd);
				r[i].fd = -1;
				open--;
			}
	}
	for (i = 0; i < n; i++) {
		if (r[i].fd >= 0)
			close(r[i].fd);
		free(r[i].buf);
	}
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

/* Forks and execs path; with err_pipe (and out_pipe), the child's
 * stderr (and stdout) is that pipe's write end.  Signals to us go on to
 * the child from now on. */
static pid_t start(const char *path, char *const *argv, const int *err_pipe,
		   const int *out_pipe)
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
	if (out_pipe) {
		dup2(out_pipe[1], STDOUT_FILENO);
		close(out_pipe[0]);
		close(out_pipe[1]);
	}
	if (err_pipe) {
		dup2(err_pipe[1], STDERR_FILENO);
		close(err_pipe[0]);
		close(err_pipe[1]);
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
	pid_t pid = start(path, argv, NULL, NULL);

	return pid < 0 ? 1 : wait_for(pid);
}

int spawn__run_mapped(const char *path, char *const *argv, const char *from,
		      const char *to, int map_stdout)
{
	struct relay r[2] = { { .out = stderr }, { .out = stdout } };
	int err[2], out[2] = { -1, -1 }, n = map_stdout ? 2 : 1;
	pid_t pid;

	if (pipe(err) < 0)
		return 1;
	if (map_stdout && pipe(out) < 0) {
		close(err[0]);
		close(err[1]);
		return 1;
	}
	pid = start(path, argv, err, map_stdout ? out : NULL);
	close(err[1]);
	if (map_stdout)
		close(out[1]);
	r[0].fd = err[0];
	r[1].fd = out[0];
	if (pid < 0) {
		close(err[0]);
		if (map_stdout)
			close(out[0]);
		return 1;
	}
	relay_all(r, n, from, to);
	return wait_for(pid);
}

int spawn__capture(const char *path, char *const *argv, char **out,
		   size_t *len)
{
	size_t cap = 0, grown_cap;
	int fds[2], rc, err = 0;
	char *buf = NULL, *grown;
	ssize_t n;
	pid_t pid;

	*out = NULL;
	*len = 0;
	if (pipe(fds) < 0)
		return -errno;
	pid = start(path, argv, NULL, fds);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -EAGAIN;
	}
	for (;;) {
		if (*len + 1 >= cap) {
			grown_cap = cap ? 2 * cap : 65536;
			grown = realloc(buf, grown_cap);
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			buf = grown;
			cap = grown_cap;
		}
		n = read(fds[0], buf + *len, cap - *len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += n;
	}
	close(fds[0]);
	rc = wait_for(pid);
	if (err || rc) {
		free(buf);
		*len = 0;
		return err ? err : rc;
	}
	buf[*len] = '\0';
	*out = buf;
	return 0;
}
