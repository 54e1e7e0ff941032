// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outdir.c - content-addressed output directory.  The files are found
 * again by name, so a name is trusted only where no one else could have
 * put or changed what it holds: every directory on the way (from the
 * perfctr directory down) must be ours and writable by no one else, as
 * stap asks of its cache; an existing file is used only when it is ours,
 * writable by no one else, and holds exactly what we would write, and is
 * replaced otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libperfctr.h"
#include "outdir.h"

/* Ours, and writable by no one else. */
static int private(const struct stat *st)
{
	return st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* Makes path's directories; those from `from` (a prefix of path) down
 * must be private.  -EPERM: one is not. */
static int mkdir_p(const char *path, size_t from)
{
	char tmp[PATH_MAX], *p;
	struct stat st;

	if (snprintf(tmp, sizeof(tmp), "%s/", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		if ((size_t)(p - tmp) >= from &&
		    (lstat(tmp, &st) < 0 || !S_ISDIR(st.st_mode) ||
		     !private(&st))) {
			fprintf(stderr, "stap-perfctr: %s is not a directory of "
				"yours that only you can write to: not using "
				"it\n", tmp);
			return -EPERM;
		}
		*p = '/';
	}
	return 0;
}

/* An existing file we may use as it is: private, and exactly text. */
static int same_private_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), same = 0;
	char buf[4096];
	struct stat st;
	size_t at = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && private(&st) &&
	    (size_t)st.st_size == len) {
		while ((n = read(fd, buf, sizeof(buf))) > 0 && at + n <= len &&
		       !memcmp(buf, text + at, n))
			at += n;
		same = n == 0 && at == len;
	}
	close(fd);
	return same;
}

/* Writes atomically, unless the same private file is there. */
static int write_file_at(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX + 16];
	int fd, err = 0;

	if (same_private_file(path, text, len))
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.%d~", path, (int)getpid());
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = -EIO;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static int write_file(const char *dir, const char *name, const char *text,
		      size_t len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return write_file_at(path, text, len);
}

static int base_dir(const char *under, char *buf, size_t len)
{
	const char *sd = getenv("SYSTEMTAP_DIR"), *home = getenv("HOME");
	int n;

	if (under)
		n = snprintf(buf, len, "%s", under);
	else if (sd && *sd)
		n = snprintf(buf, len, "%s/perfctr", sd);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.systemtap/perfctr", home);
	else
		return -ENOENT;
	return n < (int)len ? 0 : -ENAMETOOLONG;
}

int outdir__write(const struct generated *gen, const struct source *script,
		  const char *script_name, const char *under,
		  struct outdir *out)
{
	uint64_t h = perfctr_hash__init();
	char base[PATH_MAX];
	int err = base_dir(under, base, sizeof(base));

	if (err)
		return err;
	h = perfctr_hash__add(h, gen->stp.buf, gen->stp.len);
	h = perfctr_hash__add(h, gen->stpm.buf, gen->stpm.len);
	if (script) {
		h = perfctr_hash__add(h, script_name, strlen(script_name) + 1);
		h = perfctr_hash__add(h, script->text, script->len);
	}
	/* stap refuses a script inside a tapset directory: keep them apart */
	if (snprintf(out->dir, sizeof(out->dir), "%s/%016llx/tapset", base,
		     (unsigned long long)h) >= (int)sizeof(out->dir) ||
	    snprintf(out->script, sizeof(out->script), "%s/%016llx/%s", base,
		     (unsigned long long)h, script ? script_name : "") >=
	    (int)sizeof(out->script))
		return -ENAMETOOLONG;
	err = mkdir_p(out->dir, strlen(base));
	if (!err)
		err = write_file(out->dir, "perfctr_gen.stp", gen->stp.buf,
				 gen->stp.len);
	if (!err)
		err = write_file(out->dir, "perfctr_gen.stpm", gen->stpm.buf,
				 gen->stpm.len);
	if (!err && script)
		err = write_file_at(out->script, script->text, script->len);
	if (!script)
		out->script[0] = '\0';
	return err;
}

void outdir__remove(const struct outdir *out)
{
	char path[PATH_MAX + 32], *slash;

	snprintf(path, sizeof(path), "%s/perfctr_gen.stp", out->dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/perfctr_gen.stpm", out->dir);
	unlink(path);
	rmdir(out->dir);
	if (out->script[0])
		unlink(out->script);
	snprintf(path, sizeof(path), "%s", out->dir);
	slash = strrchr(path, '/');	/* HASH/tapset: HASH */
	if (slash) {
		*slash = '\0';
		rmdir(path);
	}
}

static int c_source(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 2 && d->d_name[0] != '.' && d->d_name[n - 2] == '.' &&
	       (d->d_name[n - 1] == 'c' || d->d_name[n - 1] == 'h');
}

/* Every .c and .h of the runtime, in name order: a list kept by hand
 * would miss the next file someone adds. */
int outdir__hash_runtime(const char *dir, char hex[17])
{
	uint64_t h = perfctr_hash__init();
	struct dirent **names;
	int i, n = scandir(dir, &names, c_source, alphasort), err = 0;

	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		char path[PATH_MAX];
		struct source s;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (!err && (err = source__load_file(&s, path)) == 0) {
			h = perfctr_hash__add(h, names[i]->d_name,
					      strlen(names[i]->d_name) + 1);
			h = perfctr_hash__add(h, s.text, s.len);
			source__free(&s);
		}
		free(names[i]);
	}
	free(names);
	if (!err && n == 0)
		err = -ENOENT;
	snprintf(hex, 17, "%016llx", (unsigned long long)h);
	return err;
}

int outdir__keep(const char *name, const char *text, size_t len)
{
	char base[PATH_MAX];
	int err = base_dir(NULL, base, sizeof(base));

	if (!err)
		err = mkdir_p(base, strlen(base));
	return err ? err : write_file(base, name, text, len);
}

int outdir__recall(const char *name, struct strbuf *sb)
{
	char path[PATH_MAX], buf[4096];
	struct stat st;
	ssize_t n;
	int fd, err = base_dir(NULL, path, sizeof(path));
	size_t at = strlen(path);

	if (err)
		return err;
	if (snprintf(path + at, sizeof(path) - at, "/%s", name) >=
	    (int)(sizeof(path) - at))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !private(&st)) {
		close(fd);
		return -EPERM;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf__add(sb, buf, n);
	close(fd);
	return n < 0 ? -EIO : 0;
}

int outdir__lock(const char *name)
{
	char base[PATH_MAX], path[PATH_MAX + 64];
	int fd, err = base_dir(NULL, base, sizeof(base));

	if (!err)
		err = mkdir_p(base, strlen(base));
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/%s", base, name);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}
