/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libperfctr.h - the one public header of the helper library, used by the
 * translator (stap-perfctr) and the helper (perfctr-run).
 *
 * Conventions (libbpf's): object__verb names, negative errno returns, no
 * hidden global state; option structs carry their size so they can grow.
 * Formats exchanged with the module are described in docs/design.md.
 */
#ifndef LIBPERFCTR_H
#define LIBPERFCTR_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ names */

/* Privilege levels an event counts at (the script's .user/.kernel, perf's
 * :u/:k modifiers). */
enum perfctr_plm {
	PERFCTR_PLM_USER   = 1,
	PERFCTR_PLM_KERNEL = 2,
	PERFCTR_PLM_ALL    = 3,
};

#define PERFCTR_NAME_MAX 256
#define PERFCTR_ID_MAX   64
#define PERFCTR_SRC_MAX  512

/* An event name split into its base and perf-style modifiers:
 * "cycles:u" -> base "cycles", plm USER.  Modifiers understood: u, k, h,
 * p (repeatable, precise level).  A name with no modifier has plm 0. */
struct perfctr_name {
	char base[PERFCTR_NAME_MAX];
	unsigned int plm;	/* 0 = not given, else enum perfctr_plm bits */
	unsigned int precise;	/* number of 'p' modifiers */
};

/* Returns 0, or -EINVAL with a message in err ("unknown modifier 'x' in
 * \"cycles:x\"").  Does not look at the machine. */
int perfctr_name__parse(const char *name, struct perfctr_name *out,
			char *err, size_t errlen);

/* -------------------------------------------------------------- requests */

/* One counter request, as the translator declares it and the module's
 * .modinfo carries it (docs/design.md, "The request table"). */
struct perfctr_request {
	unsigned int idx;
	char id[PERFCTR_ID_MAX];
	char event[PERFCTR_NAME_MAX];
	unsigned int plm;		/* enum perfctr_plm */
	char src[PERFCTR_SRC_MAX];	/* "file:line:col" of the clause */
};

/* Writes the value of a perfctr_req entry (after "perfctr_req=").
 * Returns its length, or -ENOSPC. */
int perfctr_request__format(const struct perfctr_request *req,
			    char *buf, size_t len);
/* Parses such a value.  Returns 0 or -EINVAL. */
int perfctr_request__parse(const char *s, struct perfctr_request *req);

/* FNV-1a 64 over the formatted requests, in index order: the table hash
 * that module and helper must agree on.  Written as 16 hex digits. */
void perfctr_table__hash(const struct perfctr_request *reqs, unsigned int n,
			 char hex[17]);

/* The request table of a built module. */
struct perfctr_modtab {
	unsigned int version;
	unsigned int n_declared;	/* translator's count; indices < this */
	char hash[17];
	char priv[16];			/* stapdev, stapsys, stapusr */
	unsigned int n;			/* requests present in the module */
	struct perfctr_request *reqs;	/* n of them, sorted by idx */
};

/* Reads the table from a .ko's .modinfo section.  Returns 0 (a module
 * without perfctr entries gives n == 0 and n_declared == 0), -ENOENT /
 * -EACCES for unreadable files, -EINVAL for a corrupt or hostile table
 * (message in err). */
int perfctr_modtab__read(const char *ko_path, struct perfctr_modtab *tab,
			 char *err, size_t errlen);
void perfctr_modtab__free(struct perfctr_modtab *tab);

/* ------------------------------------------------------------- encodings */

#define PERFCTR_F_EXCLUDE_USER   0x1u
#define PERFCTR_F_EXCLUDE_KERNEL 0x2u
#define PERFCTR_F_EXCLUDE_HV     0x4u

/* What the module needs to create a counter (a perf_event_attr subset). */
struct perfctr_encoding {
	uint32_t type;
	uint64_t config, config1, config2;
	uint32_t flags;		/* PERFCTR_F_* */
};

/* Appends one record to a perfctr_assign value (docs/design.md).  The
 * caller starts the buffer with the table hash.  Returns 0 or -ENOSPC. */
int perfctr_assign__append(char *buf, size_t len, unsigned int idx,
			   const struct perfctr_encoding *enc);

/* ------------------------------------------------------------- resolving */

struct perfctr_resolver;

struct perfctr_resolver_opts {
	size_t sz;			/* sizeof(struct perfctr_resolver_opts) */
	const char *sysfs_root;		/* default "/sys"; tests point elsewhere */
	int no_libpfm;			/* skip libpfm4 names */
};

int perfctr_resolver__new(const struct perfctr_resolver_opts *opts,
			  struct perfctr_resolver **out);
void perfctr_resolver__free(struct perfctr_resolver *r);

/* Resolves an event name (generic perf name, PMU/sysfs name, raw rNNNN,
 * libpfm4 name) with its modifiers, for this machine.  plm is the
 * request's level (0 = from the name's modifiers, else all).  A modifier
 * that contradicts plm is an error.  Returns 0, -ENOENT for an unknown
 * name (err says so and lists the nearest valid names), -EINVAL for a
 * malformed one. */
int perfctr_resolver__resolve(struct perfctr_resolver *r, const char *name,
			      unsigned int plm, struct perfctr_encoding *enc,
			      char *err, size_t errlen);

/* Opens the encoding as a pinned counter on cpu (pid -1), reads it once
 * and closes it: can this machine count it now?  Returns 0, or a negative
 * errno with the reason in err (no such PMU event, permission under
 * perf_event_paranoid, does not fit: ERROR state). */
int perfctr_encoding__trial_open(const struct perfctr_encoding *enc, int cpu,
				 char *err, size_t errlen);

#endif /* LIBPERFCTR_H */
