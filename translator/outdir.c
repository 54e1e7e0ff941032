// SPDX-License-Identifier: GPL-2.0-or-later
/* outdir.c - content-addressed output directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libperfctr.h"
#include "outdir.h"

static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Writes atomically; an existing file has the same content by name. */
static int write_file_at(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX + 16];
	int fd, err = 0;

	if (access(path, F_OK) == 0)
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.%d~", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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

static int base_dir(char *buf, size_t len)
{
	const char *sd = getenv("SYSTEMTAP_DIR"), *home = getenv("HOME");
	int n;

	if (sd && *sd)
		n = snprintf(buf, len, "%s/perfctr", sd);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.systemtap/perfctr", home);
	else
		return -ENOENT;
	return n < (int)len ? 0 : -ENAMETOOLONG;
}

int outdir__write(const struct generated *gen, const struct source *script,
		  const char *script_name, struct outdir *out)
{
	uint64_t h = perfctr_hash__init();
	char base[PATH_MAX];
	int err = base_dir(base, sizeof(base));

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
	err = mkdir_p(out->dir);
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
