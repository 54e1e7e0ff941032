// SPDX-License-Identifier: GPL-2.0-or-later
/* spawn.c - running the real stap, and perfctr-run for listings. */
#include <errno.h>
#include <fcntl.h>
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

/* The line number after "COPY:" in a line of stap's ("... at
 * COPY:LINE:COL"), or 0. */
static int position_line(const char *p, size_t n, const char *copy)
{
	size_t clen = strlen(copy);
	const char *hit = memmem(p, n, copy, clen);

	if (!hit || hit + clen >= p + n || hit[clen] != ':')
		return 0;
	return atoi(hit + clen + 1);
}

/* stap quotes the line it names under "source: ": from our copy, where
 * the user's line says something else (a clause blanked, a read
 * rewritten). */
static int write_source_line(FILE *out, const char *p, size_t n,
			     const struct spawn_map *map, int line)
{
	const char *q = memmem(p, n, "source: ", 8), *copy, *user;
	size_t clen, ulen, lead;

	if (!q || !map->src || line <= 0)
		return 0;
	lead = q + 8 - p;
	copy = source__line_now(map->src, line, &clen);
	if (strspn(p, " ") != (size_t)(q - p) || n - lead < clen ||
	    memcmp(q + 8, copy, clen) || (n - lead > clen && q[8 + clen] != '\n'))
		return 0;
	user = source__line(map->src, line, &ulen);
	fwrite(p, 1, lead, out);
	fwrite(user, 1, ulen, out);
	fwrite(q + 8 + clen, 1, n - lead - clen, out);
	return 1;
}

static void write_line(FILE *out, const char *p, size_t n,
		       const struct spawn_map *map, int *line)
{
	size_t flen = strlen(map->from);
	const char *end = p + n, *hit;

	if (write_source_line(out, p, n, map, *line))
		return;
	*line = position_line(p, n, map->from);
	while (p < end && (hit = memmem(p, end - p, map->from, flen)) != NULL) {
		fwrite(p, 1, hit - p, out);
		fputs(map->to, out);
		p = hit + flen;
	}
	fwrite(p, 1, end - p, out);
}

void spawn__write_mapped(FILE *out, const char *text, size_t len,
			 const struct spawn_map *map, int *line)
{
	const char *p = text, *end = text + len, *nl;

	for (; p < end; p = nl) {
		nl = memchr(p, '\n', end - p);
		nl = nl ? nl + 1 : end;
		write_line(out, p, nl - p, map, line);
	}
	fflush(out);
}

/* One of the child's streams on its way to ours: whole lines are written
 * mapped as they come (a name never spans two lines), the rest at EOF. */
struct relay {
	int fd;			/* the pipe's read end; -1 at EOF */
	FILE *out;
	char *buf;
	size_t len, cap;
	int line;		/* the copy's line stap named last */
};

/* Reads what is there; false at EOF or on an error. */
static int relay_read(struct relay *r, const struct spawn_map *map)
{
	char chunk[4096], *nl, *grown;
	ssize_t n = read(r->fd, chunk, sizeof(chunk));
	size_t line;

	if (n < 0 && errno == EINTR)
		return 1;
	if (n <= 0) {
		spawn__write_mapped(r->out, r->buf, r->len, map, &r->line);
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
		spawn__write_mapped(r->out, r->buf, line, map, &r->line);
		memmove(r->buf, r->buf + line, r->len - line);
		r->len -= line;
	}
	return 1;
}

static void relay_all(struct relay *r, int n, const struct spawn_map *map)
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
			    !relay_read(&r[i], map)) {
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

/* Forks and execs path; the child's stdout and stderr become out_fd and
 * err_fd where they are not -1 (write ends, closed after), and it closes
 * the read ends ours[0..1] (-1: none).  Signals to us go on to the child
 * from now on. */
static pid_t start(const char *path, char *const *argv, int out_fd,
		   int err_fd, const int ours[2])
{
	pid_t pid;
	int i;

	fflush(NULL);
	pid = fork();
	if (pid != 0) {
		if (pid > 0) {
			child_pid = pid;
			set_signals();
		}
		return pid;
	}
	for (i = 0; i < 2; i++)
		if (ours[i] >= 0)
			close(ours[i]);
	if (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) >= 0)
		close(out_fd);
	if (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) >= 0)
		close(err_fd);
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
	static const int none[2] = { -1, -1 };
	pid_t pid = start(path, argv, -1, -1, none);

	return pid < 0 ? 1 : wait_for(pid);
}

int spawn__capture(const char *path, char *const *argv, int fd,
		   int other_null, struct strbuf *sb)
{
	int fds[2], none[2] = { -1, -1 }, other = -1;
	char chunk[4096];
	ssize_t n;
	pid_t pid;

	if (other_null && (other = open("/dev/null", O_WRONLY)) < 0)
		return -1;
	if (pipe(fds) < 0) {
		if (other >= 0)
			close(other);
		return -1;
	}
	none[0] = fds[0];
	if (fd == STDOUT_FILENO)
		pid = start(path, argv, fds[1], other, none);
	else
		pid = start(path, argv, other, fds[1], none);
	if (other >= 0)
		close(other);
	close(fds[1]);
	while (pid > 0 && ((n = read(fds[0], chunk, sizeof(chunk))) > 0 ||
			   (n < 0 && errno == EINTR)))
		if (n > 0)
			strbuf__add(sb, chunk, n);
	close(fds[0]);
	return pid < 0 ? -1 : wait_for(pid);
}

int spawn__run_mapped(const char *path, char *const *argv,
		      const struct spawn_map *map, int map_stdout)
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
	pid = start(path, argv, map_stdout ? out[1] : -1, err[1],
		    (const int[2]){ err[0], map_stdout ? out[0] : -1 });
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
	relay_all(r, n, map);
	return wait_for(pid);
}
