/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pmu.c - encode "event=0xc0,umask=1" for one PMU, as perf does: each
 * term's value is spread over the bits its format file names
 * ("config:0-7,32-35"); a term that names an events/ file brings that
 * file's terms, which the user's own terms may then override.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

#define TERMS_MAX 32
#define KEY_MAX 64
#define FILE_MAX 4096

static const char *const fields[] = { "config", "config1", "config2" };
#define NFIELDS ARRAY_SIZE(fields)

/* Where a term's value goes: a config field and its bits, in the
 * order the value's bits fill them. */
struct format {
	unsigned int field;
	int nbits;
	unsigned char bit[64];
};

struct terms {
	const char *root, *pmu;
	int fd;
	uint64_t cfg[NFIELDS];
	int nseen;
	struct {
		char key[KEY_MAX];
		int alias;	/* set by an events/ file, not by the user */
	} seen[TERMS_MAX];
	char *err;
	size_t len;
};

static int field_find(const char *s, size_t n)
{
	unsigned int i;

	for (i = 0; i < NFIELDS; i++)
		if (strlen(fields[i]) == n && !strncmp(s, fields[i], n))
			return (int)i;
	return -1;
}

static int number(const char *s, const char **end, unsigned long *v)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &e, 10);
	*end = e;
	return errno ? -EINVAL : 0;
}

/* "config1:0-7,21" */
static int format_parse(const char *s, struct format *f)
{
	const char *colon = strchr(s, ':'), *p;
	unsigned long lo, hi;
	int field = colon ? field_find(s, colon - s) : -1;

	if (field < 0)
		return -EINVAL;
	f->field = field;
	f->nbits = 0;
	for (p = colon + 1;; p++) {
		if (number(p, &p, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-' && number(p + 1, &p, &hi))
			return -EINVAL;
		if (lo > hi || hi > 63 || f->nbits + (hi - lo + 1) > 64)
			return -EINVAL;
		while (lo <= hi)
			f->bit[f->nbits++] = lo++;
		if (*p != ',')
			return *p ? -EINVAL : 0;
	}
}

/* perf's numbers: 0x-prefixed hex or decimal. */
static int value_parse(const char *s, uint64_t *v)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	char *end;

	if (hex)
		s += 2;
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, hex ? 16 : 10);
	return errno || *end ? -EINVAL : 0;
}

static void format_apply(const struct format *f, uint64_t v, uint64_t *cfg,
			 int clear)
{
	int i;

	for (i = 0; i < f->nbits; i++) {
		if (clear)
			*cfg &= ~(1ull << f->bit[i]);
		if (v >> i & 1)
			*cfg |= 1ull << f->bit[i];
	}
}

static void dir_names(int fd, const char *sub, struct pc_suggest *s)
{
	int dfd = openat(fd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (dfd < 0)
		return;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((e = readdir(d)))
		if (pc_sysfs_name_ok(e->d_name))
			pc_suggest_add(e->d_name, s);
	closedir(d);
}

static int unknown_term(struct terms *t, const char *key)
{
	struct pc_suggest s;
	size_t i;

	pc_err(t->err, t->len, -EINVAL,
	       "unknown term \"%s\": PMU \"%s\" has no such format or event",
	       key, t->pmu);
	pc_suggest_init(&s, key);
	for (i = 0; i < NFIELDS; i++)
		pc_suggest_add(fields[i], &s);
	dir_names(t->fd, "format", &s);
	dir_names(t->fd, "events", &s);
	pc_suggest_append(&s, "", t->err, t->len);
	return -EINVAL;
}

/* Has key been set before?  Returns -1 for a repeat, 1 when the user
 * overrides an events/ file's term, else 0. */
static int seen(struct terms *t, const char *key, int alias)
{
	int i;

	for (i = 0; i < t->nseen; i++)
		if (!strcmp(t->seen[i].key, key)) {
			if (t->seen[i].alias == alias)
				return -1;
			t->seen[i].alias = alias;
			return 1;
		}
	if (t->nseen == TERMS_MAX)
		return -1;
	strcpy(t->seen[t->nseen].key, key);
	t->seen[t->nseen++].alias = alias;
	return 0;
}

static int format_read(struct terms *t, const char *key, struct format *f)
{
	char path[KEY_MAX + 8], buf[FILE_MAX];
	int field = field_find(key, strlen(key)), i, ret;

	if (field >= 0) {
		f->field = field;
		f->nbits = 64;
		for (i = 0; i < 64; i++)
			f->bit[i] = i;
		return 0;
	}
	if (!pc_sysfs_name_ok(key))
		return -ENOENT;
	strcpy(path, "format/");
	strcat(path, key);
	ret = pc_sysfs_read(t->fd, path, buf, sizeof(buf));
	if (ret < 0)
		return ret == -EFBIG ? -EINVAL : -ENOENT;
	if (format_parse(buf, f))
		return pc_err(t->err, t->len, -EINVAL,
			      "PMU \"%s\": malformed format file \"%s\": \"%s\"",
			      t->pmu, key, buf);
	return 0;
}

static int term_apply(struct terms *t, const char *key, const char *val,
		      int alias)
{
	struct format f;
	uint64_t v = 1;
	int ret, over;

	if (strlen(key) >= KEY_MAX)
		return unknown_term(t, key);
	ret = format_read(t, key, &f);
	if (ret == -ENOENT)
		return unknown_term(t, key);
	if (ret)
		return ret;
	if (val && value_parse(val, &v))
		return pc_err(t->err, t->len, -EINVAL,
			      "bad value \"%s\" for term \"%s\" (want decimal or 0x hex)",
			      val, key);
	if (f.nbits < 64 && v >> f.nbits)
		return pc_err(t->err, t->len, -EINVAL,
			      "value %s too big for term \"%s\" (%d bits)",
			      val, key, f.nbits);
	over = seen(t, key, alias);
	if (over < 0)
		return pc_err(t->err, t->len, -EINVAL,
			      "term \"%s\" given twice (or too many terms)", key);
	format_apply(&f, v, &t->cfg[f.field], over);
	return 0;
}

/* Is this bare term the name of an events/ file (not of a format)?
 * Only asks: a broken format file is reported when it is applied. */
static int is_alias(struct terms *t, const char *term, char *event)
{
	struct format f;
	char *save = t->err;
	int ret;

	if (strchr(term, '='))
		return 0;
	t->err = NULL;
	ret = format_read(t, term, &f);
	t->err = save;
	if (ret != -ENOENT)
		return 0;
	return !pc_sysfs_find_event(t->fd, term, event, PERFCTR_NAME_MAX);
}

static int terms_apply(struct terms *t, const char *terms, int alias);

static int alias_apply(struct terms *t, const char *event)
{
	char path[PERFCTR_NAME_MAX + 8], buf[FILE_MAX];
	int ret;

	strcpy(path, "events/");
	strcat(path, event);
	ret = pc_sysfs_read(t->fd, path, buf, sizeof(buf));
	if (ret < 0)
		return pc_err(t->err, t->len, ret,
			      "PMU \"%s\": cannot read events/%s", t->pmu, event);
	return terms_apply(t, buf, 1);
}

/* Pass 0 applies the events files that terms name, pass 1 the other
 * terms: so the user's own terms override an events file's. */
static int term_one(struct terms *t, char *term, int pass, int alias)
{
	char event[PERFCTR_NAME_MAX], *eq;

	if (!alias && is_alias(t, term, event))
		return pass == 0 ? alias_apply(t, event) : 0;
	if (pass == 0)
		return 0;
	eq = strchr(term, '=');
	if (eq)
		*eq++ = '\0';
	return term_apply(t, term, eq, alias);
}

static int terms_apply(struct terms *t, const char *terms, int alias)
{
	char buf[FILE_MAX], *term, *next;
	int pass, ret;

	if (strlen(terms) >= sizeof(buf))
		return pc_err(t->err, t->len, -EINVAL, "term list too long");
	for (pass = alias ? 1 : 0; pass < 2; pass++) {
		strcpy(buf, terms);
		for (term = buf; term; term = next) {
			next = strchr(term, ',');
			if (next)
				*next++ = '\0';
			if (!*term)
				return pc_err(t->err, t->len, -EINVAL,
					      "empty term in \"%s\"", terms);
			ret = term_one(t, term, pass, alias);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int unknown_pmu(const char *root, const char *pmu, char *err,
		       size_t len)
{
	struct pc_suggest s;

	pc_err(err, len, -ENODEV, "unknown PMU \"%s\"", pmu);
	pc_suggest_init(&s, pmu);
	pc_sysfs_pmu_names(root, pc_suggest_add, &s);
	pc_suggest_append(&s, "", err, len);
	return -ENODEV;
}

int pc_pmu_encode(const char *root, const char *pmu, const char *terms,
		  struct perfctr_encoding *enc, char *err, size_t len)
{
	struct terms t = { .root = root, .pmu = pmu, .err = err, .len = len };
	char buf[32];
	uint64_t type;
	int ret;

	t.fd = pc_sysfs_pmu_open(root, pmu);
	if (t.fd < 0)
		return unknown_pmu(root, pmu, err, len);
	ret = pc_sysfs_read(t.fd, "type", buf, sizeof(buf));
	if (ret < 0 || value_parse(buf, &type) || type > UINT32_MAX) {
		ret = pc_err(err, len, -EINVAL,
			     "PMU \"%s\": unreadable or malformed type file", pmu);
		goto out;
	}
	ret = terms_apply(&t, terms, 0);
	if (ret)
		goto out;
	enc->type = type;
	enc->config = t.cfg[0];
	enc->config1 = t.cfg[1];
	enc->config2 = t.cfg[2];
out:
	close(t.fd);
	return ret;
}
