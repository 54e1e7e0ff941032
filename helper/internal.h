/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the files of libperfctr share with each other and
 * with white-box unit tests; not part of the public API (libperfctr.h).
 * Internal names are pc_<file>_<verb>.
 */
#ifndef PERFCTR_INTERNAL_H
#define PERFCTR_INTERNAL_H

#include <stddef.h>
#include "libperfctr.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* CPU ids and counts we take (the kernel's NR_CPUS is 8192). */
#define PC_CPUS_MAX 65536

struct perfctr_resolver {
	char *sysfs_root;
	int no_libpfm;
	int pfm_state;		/* 0 not tried yet, 1 ready, -1 unusable */
};

/* err.c: every error message goes through here.  Writes the message
 * (err may be NULL) and returns ret, so callers can `return pc_err(...)`. */
int pc_err(char *err, size_t len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Appends to a message already in err. */
void pc_err_append(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A consumer of event names (for suggestions). */
typedef void pc_name_fn(const char *name, void *ctx);

/*
 * Sources of events, tried in this order by the resolver.  Each resolve
 * fills type and config*; it returns 0, -ENOENT when the name is not of
 * its kind (err untouched), or another negative errno with err set.
 */
int pc_generic_resolve(const char *base, struct perfctr_encoding *enc,
		       char *err, size_t len);
void pc_generic_names(pc_name_fn *fn, void *ctx);

int pc_raw_resolve(const char *base, struct perfctr_encoding *enc,
		   char *err, size_t len);

int pc_sysfs_resolve(const char *root, const char *base,
		     struct perfctr_encoding *enc, char *err, size_t len);
void pc_sysfs_names(const char *root, pc_name_fn *fn, void *ctx);
void pc_sysfs_pmu_names(const char *root, pc_name_fn *fn, void *ctx);

/* libpfm4 also sets exclude_user/kernel in enc->flags: its names carry
 * their own level attributes (":u=0").  plm picks the default level. */
int pc_pfm_resolve(struct perfctr_resolver *r, const char *base,
		   unsigned int plm, struct perfctr_encoding *enc,
		   char *err, size_t len);
void pc_pfm_names(struct perfctr_resolver *r, int all, pc_name_fn *fn,
		  void *ctx);
/* How many PMUs of libpfm4's tables, present or not, have the event
 * base ("[PMU::]EVENT[:ATTR...]", each ATTR a unit mask or modifier of
 * the event); the first few's names, ", " between them, and how many
 * more, in pmus. */
int pc_pfm_known(struct perfctr_resolver *r, const char *base, char *pmus,
		 size_t len);
/* The libpfm4 PMUs present here, as pmus above ("none" for none). */
void pc_pfm_present(struct perfctr_resolver *r, char *buf, size_t len);

/* resolve.c: "unknown event" with the nearest names of this machine
 * (more: not NULL, and of every PMU in libpfm4's tables and the nmore
 * names of more).  Returns -ENOENT. */
int pc_resolve_unknown(struct perfctr_resolver *r, const char *name,
		       const struct perfctr_name *n, const char *const *more,
		       size_t nmore, char *err, size_t len);

/* pmu.c: one PMU's sysfs directory: terms "event=0xc0,umask=1" mapped
 * through its format files, aliases from its events files. */
int pc_pmu_encode(const char *root, const char *pmu, const char *terms,
		  struct perfctr_encoding *enc, char *err, size_t len);

/* suggest.c: the nearest names to a wanted one, by edit distance. */
#define PC_SUGGEST_N 3
struct pc_suggest {
	const char *want;
	int limit;			/* largest distance worth offering */
	int n;
	int dist[PC_SUGGEST_N];
	char name[PC_SUGGEST_N][PERFCTR_NAME_MAX];
};
void pc_suggest_init(struct pc_suggest *s, const char *want);
void pc_suggest_add(const char *name, void *s);	/* a pc_name_fn */
/* Appends `; did you mean "a", "b" or "c"?` (each with suffix) to err;
 * nothing when no name was near enough. */
void pc_suggest_append(const struct pc_suggest *s, const char *suffix,
		       char *err, size_t len);
int pc_suggest_distance(const char *a, const char *b);

/* kv.c: "key=value;key=value" records with percent-encoded strings,
 * described by a table of fields (the order is the format's). */
enum pc_kv_kind {
	PC_KV_UINT,		/* unsigned int, decimal */
	PC_KV_STR,		/* char[size], percent-encoded, may be empty */
	PC_KV_WORD,		/* char[size], percent-encoded, not empty */
	PC_KV_LETTERS,		/* unsigned int, bits named by two letters:
				 * "u", "k" or "uk" for letters "uk" */
	PC_KV_HASH,		/* char[17]: 16 lowercase hex digits */
};
struct pc_kv_field {
	const char *key;
	enum pc_kv_kind kind;
	size_t off, size;
	int optional;	/* UINT, STR, LETTERS: written when not 0 / not
			 * empty; absent reads 0 / empty */
	const char *letters;	/* LETTERS: bit i is letters[i] */
};
int pc_kv_format(const struct pc_kv_field *f, size_t n, const void *obj,
		 char *buf, size_t len);
int pc_kv_parse(const struct pc_kv_field *f, size_t n, void *obj,
		const char *s, size_t slen, char *err, size_t errlen);

/* request.c: perfctr_request__parse with a length and a reason. */
int pc_request_parse(const char *s, size_t len, struct perfctr_request *req,
		     char *err, size_t errlen);

/* sysfs.c helpers shared with pmu.c; the PMUs' directories below a
 * sysfs root. */
#define PC_SYSFS_DEVICES "bus/event_source/devices"
int pc_sysfs_pmu_open(const char *root, const char *pmu);
int pc_sysfs_read(int dirfd, const char *path, char *buf, size_t len);
int pc_sysfs_find_event(int pmufd, const char *name, char *found,
			size_t len);
int pc_sysfs_name_ok(const char *name);
int pc_sysfs_pmu_of_type(const char *root, uint32_t type, char *pmu,
			 size_t len);

/* topology.c: the files that name a PMU's CPUs ("cpus", "cpumask"),
 * and the span a PMU with that file (NULL: neither) has on a machine
 * with n_core PMUs that have a `cpus` file. */
#define PC_TOPO_NFILES 2
extern const char *const pc_topo_cpu_files[PC_TOPO_NFILES];
unsigned int pc_topo_span(const char *cpus_file, unsigned int n_core);
/* The PMU directory dirfd's type (unchanged where it has none) and CPU
 * list (*cpus_file NULL where neither file is there; *cpus allocated):
 * 0 or -ENOMEM. */
int pc_topo_read(int dirfd, int *type, const char **cpus_file, char **cpus);

#endif /* PERFCTR_INTERNAL_H */
