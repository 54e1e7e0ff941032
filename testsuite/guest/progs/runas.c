/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runas - the privilege tests' two steps, as root in the guest (busybox
 * has no su or setuidgid):
 *
 *   runas --bless MODULE.ko   what staprun 4.8 wants before a user of
 *                             group stapusr may load MODULE: staprun
 *                             setuid root, the group in /etc/group (and
 *                             the user in /etc/passwd), and the module in
 *                             /lib/modules/RELEASE/systemtap, root's and
 *                             not world-writable; prints its new path
 *   runas UID CMD [ARG...]    runs CMD as user UID (group UID, and
 *                             stapusr as a supplementary group)
 *
 * The user is UID 1000 in the files --bless writes; any UID runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#define STAPUSR_GID 156
#define USER_UID 1000
#define STAPRUN "/usr/bin/staprun"

static int die(const char *what)
{
	fprintf(stderr, "runas: %s: %s\n", what, strerror(errno));
	return 1;
}

/* Appends line to file unless a line starts with key. */
static int add_line(const char *file, const char *key, const char *line)
{
	char buf[256];
	FILE *f = fopen(file, "r");

	while (f && fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, key, strlen(key))) {
			fclose(f);
			return 0;
		}
	if (f)
		fclose(f);
	f = fopen(file, "a");
	if (!f || fputs(line, f) < 0 || fclose(f))
		return die(file);
	return 0;
}

static int copy(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return die(from);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return die(to);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return die(to);
	close(in);
	if (n < 0 || fchown(out, 0, 0) || fchmod(out, 0644) || close(out))
		return die(to);
	return 0;
}

static int bless(const char *ko)
{
	char dir[512], path[1024], line[128];
	const char *base = strrchr(ko, '/');
	struct utsname u;

	if (chown(STAPRUN, 0, 0) || chmod(STAPRUN, 04755))
		return die(STAPRUN);
	snprintf(line, sizeof(line), "root:x:0:\nstapusr:x:%d:user\n",
		 STAPUSR_GID);
	if (add_line("/etc/group", "stapusr:", line))
		return 1;
	snprintf(line, sizeof(line), "root:x:0:0:root:/:/bin/sh\n"
		 "user:x:%d:%d:user:/tmp:/bin/sh\n", USER_UID, USER_UID);
	if (add_line("/etc/passwd", "user:", line))
		return 1;
	if (uname(&u))
		return die("uname");
	snprintf(dir, sizeof(dir), "/lib/modules/%s/systemtap", u.release);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return die(dir);
	if (chmod(dir, 0755))
		return die(dir);
	snprintf(path, sizeof(path), "%s/%s", dir, base ? base + 1 : ko);
	if (copy(ko, path))
		return 1;
	printf("%s\n", path);
	return 0;
}

int main(int argc, char **argv)
{
	gid_t groups[1] = { STAPUSR_GID };
	char *end;
	long uid;

	if (argc == 3 && !strcmp(argv[1], "--bless"))
		return bless(argv[2]);
	if (argc < 3) {
		fprintf(stderr, "usage: runas --bless MODULE.ko | "
			"runas UID CMD [ARG...]\n");
		return 2;
	}
	uid = strtol(argv[1], &end, 10);
	if (*end || uid < 0)
		return die("bad UID");
	if (setgroups(1, groups) || setgid(uid) || setuid(uid))
		return die("dropping privileges");
	execvp(argv[2], argv + 2);
	return die(argv[2]);
}
