/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modtab.c - read a module's request table from its .modinfo section
 * (NUL-separated "key=value" strings).  The file may be anything a user
 * passes: libelf checks the ELF structure against the file's size, we
 * check every entry and cap every size.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

#define MODINFO_MAX (1u << 20)
#define TABLE_KEY "perfctr_table="
#define REQ_KEY "perfctr_req="

#define FIELD(kind, key, name, size, optional) \
	{ key, kind, offsetof(struct perfctr_modtab, name), size, optional, \
	  NULL }

static const struct pc_kv_field table_fields[] = {
	FIELD(PC_KV_UINT, "v", version, 0, 0),
	FIELD(PC_KV_UINT, "n", n_declared, 0, 0),
	FIELD(PC_KV_HASH, "hash", hash, 17, 0),
	FIELD(PC_KV_WORD, "priv", priv, 16, 0),
	FIELD(PC_KV_UINT, PERFCTR_TABLE_THROTTLE_KEY, throttle, 0, 1),
};

static const char *const privileges[] = { "stapdev", "stapsys", "stapusr" };

static int has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t l = strlen(prefix);

	return n >= l && !memcmp(s, prefix, l);
}

static int table_parse(struct perfctr_modtab *tab, const char *s, size_t n,
		       char *err, size_t len)
{
	size_t i;
	int ret;

	if (tab->version)
		return pc_err(err, len, -EINVAL, "more than one perfctr_table entry");
	ret = pc_kv_parse(table_fields, ARRAY_SIZE(table_fields), tab, s, n,
			  err, len);
	if (ret)
		return ret;
	if (tab->version != 1)
		return pc_err(err, len, -EINVAL,
			      "perfctr_table version %u; this perfctr-run reads version 1",
			      tab->version);
	if (tab->n_declared > PERFCTR_REQ_MAX)
		return pc_err(err, len, -EINVAL,
			      "perfctr_table declares %u counters (at most %d)",
			      tab->n_declared, PERFCTR_REQ_MAX);
	for (i = 0; i < ARRAY_SIZE(privileges); i++)
		if (!strcmp(tab->priv, privileges[i]))
			return 0;
	return pc_err(err, len, -EINVAL, "perfctr_table: unknown privilege \"%s\"",
		      tab->priv);
}

static int req_add(struct perfctr_modtab *tab, const char *s, size_t n,
		   char *err, size_t len)
{
	struct perfctr_request *r;
	int ret;

	if (tab->n == PERFCTR_REQ_MAX)
		return pc_err(err, len, -EINVAL, "more than %d perfctr_req entries",
			      PERFCTR_REQ_MAX);
	r = realloc(tab->reqs, (tab->n + 1) * sizeof(*r));
	if (!r)
		return pc_err(err, len, -ENOMEM, "out of memory");
	tab->reqs = r;
	ret = pc_request_parse(s, n, &r[tab->n], err, len);
	if (ret) {
		pc_err_append(err, len, " in perfctr_req entry %u", tab->n + 1);
		return ret;
	}
	tab->n++;
	return 0;
}

/* Walks the NUL-separated strings; the last may lack its NUL. */
static int entries_parse(struct perfctr_modtab *tab, const char *buf,
			 size_t size, char *err, size_t len)
{
	const char *p = buf, *end = buf + size;
	size_t n;
	int ret = 0;

	for (; p < end && !ret; p += n + 1) {
		n = strnlen(p, end - p);
		if (has_prefix(p, n, TABLE_KEY))
			ret = table_parse(tab, p + strlen(TABLE_KEY),
					  n - strlen(TABLE_KEY), err, len);
		else if (has_prefix(p, n, REQ_KEY))
			ret = req_add(tab, p + strlen(REQ_KEY),
				      n - strlen(REQ_KEY), err, len);
	}
	return ret;
}

static int by_idx(const void *a, const void *b)
{
	const struct perfctr_request *x = a, *y = b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Every index below n, none twice, no id twice. */
static int table_check(struct perfctr_modtab *tab, char *err, size_t len)
{
	unsigned int i, j;

	if (!tab->version)
		return tab->n ? pc_err(err, len, -EINVAL,
				       "perfctr_req entries without a perfctr_table entry")
			      : 0;
	if (tab->n)	/* else reqs is NULL, which qsort may not get */
		qsort(tab->reqs, tab->n, sizeof(*tab->reqs), by_idx);
	for (i = 0; i < tab->n; i++) {
		if (tab->reqs[i].idx >= tab->n_declared)
			return pc_err(err, len, -EINVAL,
				      "counter \"%s\" has index %u, but the table declares %u",
				      tab->reqs[i].id, tab->reqs[i].idx, tab->n_declared);
		if (i && tab->reqs[i].idx == tab->reqs[i - 1].idx)
			return pc_err(err, len, -EINVAL,
				      "two perfctr_req entries with index %u",
				      tab->reqs[i].idx);
		for (j = 0; j < i; j++)
			if (!strcmp(tab->reqs[i].id, tab->reqs[j].id))
				return pc_err(err, len, -EINVAL,
					      "two perfctr_req entries for counter \"%s\"",
					      tab->reqs[i].id);
	}
	return 0;
}

/* The .modinfo section's bytes, or NULL with ret set. */
static Elf_Data *modinfo_find(Elf *e, char *err, size_t len, int *ret)
{
	Elf_Scn *scn = NULL, *found = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	const char *name;
	Elf_Data *d;

	*ret = -ENOEXEC;
	if (elf_kind(e) != ELF_K_ELF)
		return pc_err(err, len, -ENOEXEC, "not an ELF object"), NULL;
	if (elf_getshdrstrndx(e, &shstrndx))
		return pc_err(err, len, -ENOEXEC, "corrupt or truncated ELF: %s",
			      elf_errmsg(-1)), NULL;
	elf_errno();	/* start clean: the loop's end is told by it */
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return pc_err(err, len, -ENOEXEC, "corrupt section header"), NULL;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".modinfo"))
			continue;
		if (found)
			return pc_err(err, len, -ENOEXEC, "two .modinfo sections"), NULL;
		found = scn;
		if (sh.sh_type == SHT_NOBITS || sh.sh_size > MODINFO_MAX)
			return pc_err(err, len, -ENOEXEC, ".modinfo has no data or is too big"), NULL;
	}
	if (elf_errno())
		return pc_err(err, len, -ENOEXEC, "corrupt or truncated ELF"), NULL;
	*ret = 0;
	if (!found)
		return NULL;
	d = elf_rawdata(found, NULL);
	if (!d || (d->d_size && !d->d_buf)) {
		*ret = pc_err(err, len, -ENOEXEC, ".modinfo unreadable: %s",
			      elf_errmsg(-1));
		return NULL;
	}
	return d;
}

static int elf_read(int fd, struct perfctr_modtab *tab, char *err, size_t len)
{
	Elf_Data *d;
	Elf *e;
	int ret;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return pc_err(err, len, -ENOEXEC, "libelf: %s", elf_errmsg(-1));
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e)
		return pc_err(err, len, -ENOEXEC, "not an ELF object: %s",
			      elf_errmsg(-1));
	d = modinfo_find(e, err, len, &ret);
	if (d && d->d_size)	/* an empty section may have no buffer */
		ret = entries_parse(tab, d->d_buf, d->d_size, err, len);
	if (!ret)
		ret = table_check(tab, err, len);
	elf_end(e);
	return ret;
}

int perfctr_modtab__read(const char *path, struct perfctr_modtab *tab,
			 char *err, size_t len)
{
	struct stat st;
	int fd, ret;

	memset(tab, 0, sizeof(*tab));
	/* O_NONBLOCK: a FIFO given as module must not hang us. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		return pc_err(err, len, ret, "%s: %s", path, strerror(-ret));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return pc_err(err, len, -ENOEXEC, "%s: not a regular file", path);
	}
	ret = elf_read(fd, tab, err, len);
	close(fd);
	if (ret) {
		/* Say which file, before what went wrong. */
		char what[512];

		snprintf(what, sizeof(what), "%s", err ? err : "");
		pc_err(err, len, ret, "%s: %s", path, what);
		perfctr_modtab__free(tab);
	}
	return ret;
}

void perfctr_modtab__free(struct perfctr_modtab *tab)
{
	free(tab->reqs);
	memset(tab, 0, sizeof(*tab));
}
