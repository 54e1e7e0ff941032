/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resolve.c - from an event name and a request's level to what
 * perf_event_open needs: try each source of names in turn (generic,
 * raw, sysfs, libpfm4), then settle the exclude_* flags as perf would.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Does the caller's (maybe older, smaller) opts struct have field? */
#define OPTS_HAS(opts, field)						\
	((opts) && (opts)->sz >= offsetof(struct perfctr_resolver_opts, field) + \
			       sizeof((opts)->field))

int perfctr_resolver__new(const struct perfctr_resolver_opts *opts,
			  struct perfctr_resolver **out)
{
	const char *root = "/sys";
	struct perfctr_resolver *r;

	*out = NULL;
	if (opts && opts->sz < sizeof(opts->sz))
		return -EINVAL;
	if (OPTS_HAS(opts, sysfs_root) && opts->sysfs_root)
		root = opts->sysfs_root;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->sysfs_root = strdup(root);
	if (!r->sysfs_root) {
		free(r);
		return -ENOMEM;
	}
	if (OPTS_HAS(opts, no_libpfm))
		r->no_libpfm = opts->no_libpfm;
	*out = r;
	return 0;
}

void perfctr_resolver__free(struct perfctr_resolver *r)
{
	if (!r)
		return;
	free(r->sysfs_root);
	free(r);
}

static int generic(struct perfctr_resolver *r, const char *base,
		   unsigned int plm, struct perfctr_encoding *enc,
		   char *err, size_t len)
{
	return pc_generic_resolve(base, enc, err, len);
}

static int raw(struct perfctr_resolver *r, const char *base, unsigned int plm,
	       struct perfctr_encoding *enc, char *err, size_t len)
{
	return pc_raw_resolve(base, enc, err, len);
}

static int sysfs(struct perfctr_resolver *r, const char *base,
		 unsigned int plm, struct perfctr_encoding *enc,
		 char *err, size_t len)
{
	return pc_sysfs_resolve(r->sysfs_root, base, enc, err, len);
}

/* The sources of names, in the order they are tried. */
static const struct {
	int (*resolve)(struct perfctr_resolver *r, const char *base,
		       unsigned int plm, struct perfctr_encoding *enc,
		       char *err, size_t len);
	int sets_level;		/* fills exclude_user/kernel itself */
} sources[] = {
	{ generic, 0 },
	{ raw, 0 },
	{ sysfs, 0 },
	{ pc_pfm_resolve, 1 },
};

static const char *level_name(unsigned int plm)
{
	switch (plm & PERFCTR_PLM_ALL) {
	case PERFCTR_PLM_USER:
		return ".user";
	case PERFCTR_PLM_KERNEL:
		return ".kernel";
	default:
		return "user and kernel level";
	}
}

static const char *gh_name(unsigned int gh)
{
	static const char *const names[] = {
		"no :G or :H", ":G", ":H", ":GH",
	};

	return names[gh & (PERFCTR_GH_GUEST | PERFCTR_GH_HOST)];
}

/*
 * The exclude_* flags perf gives a name's modifiers (perf 6.1,
 * tools/perf/util/parse-events.c get_event_modifier(), util.c
 * event_attr_init()), with the request's .user/.kernel as :u/:k and
 * .precise as :p: no modifier at all excludes the guest only (perf is
 * not "perf kvm"); u, k or h exclude the levels they do not name; G or
 * H exclude what they do not name, else u or p exclude the guest.
 */
static uint32_t level_flags(const struct perfctr_name *n, unsigned int plm,
			    unsigned int precise)
{
	unsigned int lv = n->plm, gh = n->gh;
	uint32_t f = 0;

	if ((plm & PERFCTR_PLM_ALL) != PERFCTR_PLM_ALL)
		lv |= plm;	/* .user, .kernel */
	precise += n->precise;
	if (!lv && !gh && !precise)
		return PERFCTR_F_EXCLUDE_GUEST;
	if (lv && !(lv & PERFCTR_PLM_USER))
		f |= PERFCTR_F_EXCLUDE_USER;
	if (lv && !(lv & PERFCTR_PLM_KERNEL))
		f |= PERFCTR_F_EXCLUDE_KERNEL;
	if (lv && !(lv & PERFCTR_PLM_HV))
		f |= PERFCTR_F_EXCLUDE_HV;
	if (gh ? !(gh & PERFCTR_GH_GUEST) : (lv & PERFCTR_PLM_USER) || precise)
		f |= PERFCTR_F_EXCLUDE_GUEST;
	if (gh && !(gh & PERFCTR_GH_HOST))
		f |= PERFCTR_F_EXCLUDE_HOST;
	return f;
}

int pc_resolve_unknown(struct perfctr_resolver *r, const char *name,
		       const struct perfctr_name *n, const char *const *more,
		       size_t nmore, char *err, size_t len)
{
	struct pc_suggest s;
	size_t i;

	pc_err(err, len, -ENOENT, "unknown event \"%s\"", name);
	pc_suggest_init(&s, n->base);
	pc_generic_names(pc_suggest_add, &s);
	pc_sysfs_names(r->sysfs_root, pc_suggest_add, &s);
	pc_pfm_names(r, more != NULL, pc_suggest_add, &s);
	for (i = 0; i < nmore; i++)
		pc_suggest_add(more[i], &s);
	/* Offer the names with the user's own modifiers. */
	pc_suggest_append(&s, name + strlen(n->base), err, len);
	return -ENOENT;
}

static int check_level(const char *name, unsigned int plm, uint32_t flags,
		       char *err, size_t len)
{
	unsigned int got = (flags & PERFCTR_F_EXCLUDE_USER ? 0 : PERFCTR_PLM_USER) |
			   (flags & PERFCTR_F_EXCLUDE_KERNEL ? 0 : PERFCTR_PLM_KERNEL);

	if (!plm || got == (plm & PERFCTR_PLM_ALL))
		return 0;
	return pc_err(err, len, -EINVAL,
		      "event \"%s\" counts at %s, which contradicts the request's %s",
		      name, got ? level_name(got) : "no level", level_name(plm));
}

/* What a request asks of its event besides the name. */
struct want {
	unsigned int plm;	/* .user/.kernel; 0: the name says */
	int gh_given;		/* the request says :G/:H, */
	unsigned int gh;	/* and which */
	unsigned int precise;	/* .precise(L) */
};

/* Parses the name and checks its modifiers against the request. */
static int name_check(const char *name, const struct want *w,
		      struct perfctr_name *n, char *err, size_t len)
{
	unsigned int plm = w->plm;

	int ret;

	if (plm & ~PERFCTR_PLM_ALL)
		return pc_err(err, len, -EINVAL, "bad request level %#x", plm);
	ret = perfctr_name__parse(name, n, err, len);
	if (ret)
		return ret;
	if (n->precise)
		return pc_err(err, len, -EINVAL,
			      "modifier 'p' in \"%s\": precision is for "
			      "sampling; a counter counts every event", name);
	if (plm && (n->plm & PERFCTR_PLM_ALL) &&
	    (n->plm & PERFCTR_PLM_ALL) != plm)
		return pc_err(err, len, -EINVAL,
			      "the modifiers of \"%s\" contradict the request's %s",
			      name, level_name(plm));
	if (w->gh_given && n->gh != w->gh)
		return pc_err(err, len, -EINVAL,
			      "the modifiers of \"%s\" contradict the request's "
			      "%s", name, gh_name(w->gh));
	return 0;
}

static int resolve(struct perfctr_resolver *r, const char *name,
		   const struct want *w, struct perfctr_encoding *enc,
		   char *err, size_t len)
{
	const uint32_t uk = PERFCTR_F_EXCLUDE_USER | PERFCTR_F_EXCLUDE_KERNEL;
	unsigned int plm = w->plm, eff, i;
	struct perfctr_name n;
	uint32_t level;
	int ret;

	memset(enc, 0, sizeof(*enc));
	ret = name_check(name, w, &n, err, len);
	if (ret)
		return ret;
	eff = plm ? plm | (n.plm & PERFCTR_PLM_HV) : n.plm;
	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		ret = sources[i].resolve(r, n.base, eff, enc, err, len);
		if (ret != -ENOENT)
			break;
	}
	if (ret == -ENOENT)
		return pc_resolve_unknown(r, name, &n, NULL, 0, err, len);
	if (ret)
		return ret;
	level = level_flags(&n, plm, w->precise);
	if (sources[i].sets_level)	/* keep its user/kernel choice */
		level = (enc->flags & uk) | (level & ~uk);
	enc->flags = level;
	return check_level(name, plm, enc->flags, err, len);
}

static int resolve_clean(struct perfctr_resolver *r, const char *name,
			 const struct want *w, struct perfctr_encoding *enc,
			 char *err, size_t len)
{
	int ret = resolve(r, name, w, enc, err, len);

	if (ret)
		memset(enc, 0, sizeof(*enc));
	return ret;
}

int perfctr_resolver__resolve(struct perfctr_resolver *r, const char *name,
			      unsigned int plm, struct perfctr_encoding *enc,
			      char *err, size_t len)
{
	const struct want w = { .plm = plm };

	return resolve_clean(r, name, &w, enc, err, len);
}

int perfctr_resolver__resolve_request(struct perfctr_resolver *r,
				      const struct perfctr_request *req,
				      struct perfctr_encoding *enc,
				      char *err, size_t len)
{
	const struct want w = {
		.plm = req->plm, .gh_given = 1, .gh = req->gh,
		.precise = req->precise,
	};

	return resolve_clean(r, req->event, &w, enc, err, len);
}
