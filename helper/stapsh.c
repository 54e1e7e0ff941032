/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr-stapsh - the remote end of `stap --remote`, with perfctr-run in
 * place of staprun.  stap speaks a line protocol to a shell on each host
 * (SystemTap's stapsh: over ssh, a unix socket or a virtio-serial port);
 * that shell runs its own staprun at a fixed path, which cannot start a
 * module with counters.  This one speaks the same protocol and runs
 * perfctr-run, which resolves the counters for this host and runs the real
 * staprun (any module without counters goes to staprun untouched).
 *
 * Commands (one a line, words split by blanks; replies "OK" or "ERROR: ..."):
 *   stap VERSION        -> "stapsh VERSION MACHINE RELEASE" (this host)
 *   option data|verbose    data: the child's output comes back framed as
 *                          "data stdout|stderr SIZE\n" + bytes, and "quit"
 *                          is sent before leaving
 *   file SIZE NAME         the next SIZE bytes are file NAME (a bare name)
 *   run ARG...             perfctr-run ARG... (quoted-printable words)
 *   quit                   interrupt the run (or leave if none)
 * At the end of its input, or on SIGHUP/SIGINT/SIGTERM, the shell
 * interrupts the run, waits for it, removes its files and exits with the
 * run's status.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#ifndef PERFCTR_RUN
#define PERFCTR_RUN "/usr/bin/perfctr-run"
#endif
#ifndef STAP_VERSION
#define STAP_VERSION "4.8"
#endif

#define PROG "perfctr-stapsh"
#define LINE_MAX_LEN 65536
#define FILE_MAX_SIZE (256 << 20)
#define ARGS_MAX 256

struct input {
	int fd;
	int eof;
	size_t len;
	char buf[LINE_MAX_LEN + 1];
};

struct shell {
	struct input in;
	int out;		/* replies and the run's output */
	int listening;		/* -l PORT: no host may be there yet */
	int greeted;		/* a host said hello: its leaving ends us */
	int data;		/* frame the run's output */
	int verbose;
	char dir[PATH_MAX];	/* the files stap sends; the run's cwd */
	pid_t child;
	int child_fd[2];	/* its stdout, stderr; -1 when closed */
	int status;		/* the run's, once reaped */
	int quitting;
};

static volatile sig_atomic_t signalled;

static void on_signal(int sig)
{
	signalled = sig;
}

static void say(const struct shell *sh, const char *fmt, ...)
{
	va_list ap;

	if (!sh->verbose)
		return;
	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* Writes all of BUF; a host that went away loses what it would not take. */
static void put(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= n;
	}
}

static void __attribute__((format(printf, 2, 3)))
reply(struct shell *sh, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	say(sh, "reply: %s", line);
	put(sh->out, line, n);
}

/* ------------------------------------------------------------ input */

/* Reads more input; 0 at its end.  A listening port reads nothing until
 * a host connects (a virtio port returns end of file meanwhile); once a
 * host has said hello, its leaving is the end. */
static int input_fill(struct shell *sh)
{
	struct input *in = &sh->in;
	ssize_t n;

	if (in->len >= LINE_MAX_LEN)
		return -1;
	for (;;) {
		n = read(in->fd, in->buf + in->len, LINE_MAX_LEN - in->len);
		if (n > 0) {
			in->len += n;
			return 1;
		}
		if (n < 0 && errno == EINTR && !signalled)
			continue;
		if (n == 0 && sh->listening && !sh->greeted && !signalled) {
			usleep(100000);
			continue;
		}
		in->eof = 1;
		return 0;
	}
}

/* Takes the first LEN bytes of the buffer. */
static void input_drop(struct input *in, size_t len)
{
	memmove(in->buf, in->buf + len, in->len - len);
	in->len -= len;
}

/* The next whole line, its newline replaced by NUL, in LINE; 0 when
 * none is buffered. */
static int input_line(struct input *in, char *line)
{
	char *nl = memchr(in->buf, '\n', in->len);
	size_t n;

	if (!nl)
		return 0;
	n = nl - in->buf;
	memcpy(line, in->buf, n);
	line[n] = '\0';
	input_drop(in, n + 1);
	return 1;
}

/* ------------------------------------------------------------ files */

/* stap sends bare names: a letter or digit, then letters, digits, '.'
 * and '_' (never a path, never "..").  */
static int file_name_ok(const char *name)
{
	const char *p;

	if (!isalnum((unsigned char)name[0]))
		return 0;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_')
			return 0;
	return p - name < NAME_MAX;
}

/* Copies SIZE bytes of input into FD (-1: drops them).  0, or -1 when the
 * input ended first. */
static int file_copy(struct shell *sh, int fd, long size)
{
	struct input *in = &sh->in;
	size_t n;
	int ok = 1;

	while (size > 0) {
		if (!in->len && input_fill(sh) <= 0)
			return -1;
		n = in->len < (size_t)size ? in->len : (size_t)size;
		if (fd >= 0 && ok) {
			const char *p = in->buf;
			size_t left = n;
			ssize_t w;

			while (left && (w = write(fd, p, left)) > 0) {
				p += w;
				left -= w;
			}
			ok = !left;
		}
		input_drop(in, n);
		size -= n;
	}
	return ok ? 0 : -2;
}

static void do_file(struct shell *sh, char **words, int n)
{
	char *end = NULL;
	long size = n == 3 ? strtol(words[1], &end, 10) : -1;
	int fd = -1, rc;

	if (n != 3 || !end || *end || size <= 0 || size > FILE_MAX_SIZE) {
		reply(sh, "ERROR: Bad file size %s\n", n > 1 ? words[1] : "");
		return;
	}
	if (!file_name_ok(words[2]))
		reply(sh, "ERROR: Bad file name \"%s\"\n", words[2]);
	else if (sh->child)
		reply(sh, "ERROR: A run is going on\n");
	else
		fd = open(words[2], O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW,
			  0644);
	/* the bytes come whatever the answer: take them off the input */
	rc = file_copy(sh, fd, size);
	if (fd < 0) {
		if (file_name_ok(words[2]) && !sh->child)
			reply(sh, "ERROR: Can't open file \"%s\" for writing: "
			      "%s\n", words[2], strerror(errno));
		return;
	}
	if (close(fd) || rc == -2)
		reply(sh, "ERROR: Unable to write file data\n");
	else if (rc == -1)
		reply(sh, "ERROR: Reached EOF while reading file data\n");
	else
		reply(sh, "OK\n");
}

/* ------------------------------------------------------------ run */

/* Decodes stap's quoted-printable word in place ("=XX" is byte XX). */
static int qp_decode(char *s)
{
	char *o = s, hex[3] = { 0 };

	while (*s) {
		if (*s != '=') {
			*o++ = *s++;
			continue;
		}
		if (!isxdigit((unsigned char)s[1]) ||
		    !isxdigit((unsigned char)s[2]))
			return -1;
		hex[0] = s[1];
		hex[1] = s[2];
		*o++ = (char)strtol(hex, NULL, 16);
		s += 3;
	}
	*o = '\0';
	return 0;
}

static const char *runner_path(void)
{
	const char *r = getenv("PERFCTR_STAPSH_RUN");

	return r && *r ? r : PERFCTR_RUN;
}

/* Starts the runner with ARGV[1..]; its stdout and stderr come to us. */
static int run_spawn(struct shell *sh, char **argv)
{
	int out[2], err[2];
	pid_t pid;

	if (pipe2(out, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		return -errno;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		signal(SIGPIPE, SIG_DFL);
		execv(argv[0], argv);
		fprintf(stderr, PROG ": cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(out[0]);
		close(err[0]);
		return -errno;
	}
	sh->child = pid;
	sh->child_fd[0] = out[0];
	sh->child_fd[1] = err[0];
	return 0;
}

static void do_run(struct shell *sh, char **words, int n)
{
	char *argv[ARGS_MAX + 2];
	int i, rc;

	if (sh->child) {
		reply(sh, "ERROR: A run is going on\n");
		return;
	}
	if (n > ARGS_MAX) {
		reply(sh, "ERROR: Too many arguments\n");
		return;
	}
	argv[0] = (char *)runner_path();
	for (i = 1; i < n; i++) {
		if (qp_decode(words[i])) {
			reply(sh, "ERROR: Invalid encoding in argument "
			      "\"%s\"\n", words[i]);
			return;
		}
		argv[i] = words[i];
	}
	argv[n] = NULL;
	if (access(argv[0], X_OK)) {
		reply(sh, "ERROR: Can't execute %s (%s): is systemtap-perfctr "
		      "installed on this host?\n", argv[0], strerror(errno));
		return;
	}
	rc = run_spawn(sh, argv);
	if (rc)
		reply(sh, "ERROR: Can't launch %s: %s\n", argv[0],
		      strerror(-rc));
	else
		reply(sh, "OK\n");
}

/* Passes on what the run wrote to stream S (0 stdout, 1 stderr). */
static void run_forward(struct shell *sh, int s)
{
	static const char *const name[] = { "stdout", "stderr" };
	char buf[4096], head[64];
	ssize_t n = read(sh->child_fd[s], buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(sh->child_fd[s]);
		sh->child_fd[s] = -1;
		return;
	}
	if (sh->data) {
		int h = snprintf(head, sizeof(head), "data %s %zd\n", name[s],
				 n);
		put(sh->out, head, h);
		put(sh->out, buf, n);
	} else {
		/* one channel (a port) carries both streams */
		put(s && !sh->listening ? 2 : sh->out, buf, n);
	}
}

/* Interrupts the run as ^C would a local one: its end probes run. */
static void run_interrupt(struct shell *sh)
{
	if (sh->child > 0 && !sh->quitting) {
		say(sh, "interrupting the run\n");
		kill(sh->child, SIGINT);
	}
	sh->quitting = 1;
}

/* ------------------------------------------------------------ commands */

static void do_hello(struct shell *sh, char **words, int n)
{
	struct utsname u;

	(void)words;
	(void)n;
	if (uname(&u)) {
		reply(sh, "ERROR: uname: %s\n", strerror(errno));
		return;
	}
	reply(sh, "stapsh %s %s %s\n", STAP_VERSION, u.machine, u.release);
	sh->greeted = 1;
}

static void do_option(struct shell *sh, char **words, int n)
{
	if (n == 2 && !strcmp(words[1], "data")) {
		sh->data = 1;
		reply(sh, "OK\n");
	} else if (n == 2 && !strcmp(words[1], "verbose")) {
		sh->verbose++;
		reply(sh, "OK\n");
	} else {
		reply(sh, "ERROR: Invalid option\n");
	}
}

static void do_quit(struct shell *sh, char **words, int n)
{
	(void)words;
	(void)n;
	run_interrupt(sh);
}

static const struct command {
	const char *name;
	void (*fn)(struct shell *sh, char **words, int n);
} commands[] = {
	{ "stap",	do_hello },
	{ "option",	do_option },
	{ "file",	do_file },
	{ "run",	do_run },
	{ "quit",	do_quit },
};

static void command_do(struct shell *sh, char *line)
{
	char *words[ARGS_MAX + 2], *save = NULL, *w;
	unsigned int i;
	int n = 0;

	say(sh, "command: %s\n", line);
	for (w = strtok_r(line, " \t\r", &save); w && n <= ARGS_MAX;
	     w = strtok_r(NULL, " \t\r", &save))
		words[n++] = w;
	if (!n)
		return;
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(words[0], commands[i].name)) {
			commands[i].fn(sh, words, n);
			return;
		}
	reply(sh, "ERROR: Invalid command \"%s\"\n", words[0]);
}

/* Runs every whole command buffered; a file's bytes are taken by its
 * command. */
static void commands_drain(struct shell *sh)
{
	static char line[LINE_MAX_LEN + 1];

	while (!sh->quitting && input_line(&sh->in, line))
		command_do(sh, line);
	if (sh->in.len >= LINE_MAX_LEN) {
		reply(sh, "ERROR: Command too long\n");
		sh->in.len = 0;
	}
}

/* ------------------------------------------------------------ main loop */

static int running(const struct shell *sh)
{
	return sh->child_fd[0] >= 0 || sh->child_fd[1] >= 0;
}

/* One round: wait for input or the run's output, and act on it. */
static void shell_step(struct shell *sh)
{
	struct pollfd p[3];
	int n = 0, in_at = -1, i;

	if (!sh->in.eof && !sh->quitting) {
		in_at = n;
		p[n++] = (struct pollfd){ .fd = sh->in.fd, .events = POLLIN };
	}
	for (i = 0; i < 2; i++)
		if (sh->child_fd[i] >= 0)
			p[n++] = (struct pollfd){ .fd = sh->child_fd[i],
						  .events = POLLIN };
	if (poll(p, n, sh->listening && !sh->greeted ? 100 : -1) < 0)
		return;
	for (i = 0; i < n; i++) {
		if (!p[i].revents)
			continue;
		if (i == in_at) {
			if (input_fill(sh) > 0)
				commands_drain(sh);
		} else {
			run_forward(sh, p[i].fd == sh->child_fd[0] ? 0 : 1);
		}
	}
}

/* Removes the files stap sent (the directory holds nothing else). */
static void shell_cleanup(struct shell *sh)
{
	struct dirent *d;
	DIR *dir;

	if (chdir("/") || !sh->dir[0] || !(dir = opendir(sh->dir)))
		return;
	while ((d = readdir(dir)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			unlinkat(dirfd(dir), d->d_name, 0);
	closedir(dir);
	rmdir(sh->dir);
}

static int shell_loop(struct shell *sh)
{
	int st;

	for (;;) {
		if (signalled || sh->in.eof)
			run_interrupt(sh);
		if (sh->quitting && !sh->child)
			break;
		if (sh->child && !running(sh)) {
			waitpid(sh->child, &st, 0);
			sh->status = WIFEXITED(st) ? WEXITSTATUS(st) :
						     128 + WTERMSIG(st);
			break;
		}
		shell_step(sh);
	}
	shell_cleanup(sh);
	if (sh->data)
		put(sh->out, "quit\n", 5);
	return sh->status;
}

/* A port that is a tty carries bytes, not lines of a terminal. */
static void port_raw(int fd)
{
	struct termios t;

	if (!isatty(fd) || tcgetattr(fd, &t))
		return;
	cfmakeraw(&t);
	tcsetattr(fd, TCSANOW, &t);
}

static int shell_open(struct shell *sh, const char *port)
{
	const char *tmp = getenv("TMPDIR");

	if (port) {
		int fd = open(port, O_RDWR | O_NOCTTY | O_CLOEXEC);

		if (fd < 0) {
			fprintf(stderr, PROG ": cannot open %s: %s\n", port,
				strerror(errno));
			return -1;
		}
		port_raw(fd);
		sh->in.fd = sh->out = fd;
		sh->listening = 1;
		say(sh, "serving %s\n", port);
	}
	snprintf(sh->dir, sizeof(sh->dir), "%s/perfctr-stapsh.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(sh->dir) || chdir(sh->dir)) {
		fprintf(stderr, PROG ": cannot make a working directory in "
			"%s: %s\n", tmp && *tmp ? tmp : "/tmp",
			strerror(errno));
		sh->dir[0] = '\0';
		return -1;
	}
	return 0;
}

static void signals_set(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned int i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: " PROG " [-v] [-l PORT]\n"
		"The remote end of stap --remote (what stapsh is), running "
		"%s in place of staprun.\n"
		"  -l PORT  serve the commands of a port (a virtio-serial "
		"port or a tty) instead of stdin/stdout\n"
		"  -v       say each command and reply on stderr\n"
		"PERFCTR_STAPSH_RUN names another runner.  See "
		"perfctr-stapsh(8).\n", runner_path());
	return status;
}

int main(int argc, char **argv)
{
	struct shell sh = { .in.fd = 0, .out = 1, .child_fd = { -1, -1 } };
	const char *port = NULL;
	int opt;

	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(0);
	while ((opt = getopt(argc, argv, "vl:")) != -1) {
		switch (opt) {
		case 'v':
			sh.verbose++;
			break;
		case 'l':
			port = optarg;
			break;
		default:
			return usage(2);
		}
	}
	if (optind < argc)
		return usage(2);
	signals_set();
	if (shell_open(&sh, port)) {
		shell_cleanup(&sh);
		return 2;
	}
	return shell_loop(&sh);
}
