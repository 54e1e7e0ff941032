/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * known.c - what stap-perfctr asks of a script's event names before a
 * module is built (perfctr-run --check-events): is the name one that
 * some machine knows, and, for a module that will run here, does this
 * machine resolve it as perfctr-run will when it starts the module.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "internal.h"

/* Of perf's own syntax (generic, raw, "PMU/TERMS/"), an event of a PMU
 * the kernel has here, or of any PMU in libpfm4's tables (pmus: which). */
static int known_anywhere(struct perfctr_resolver *r, const char *base,
			  char *pmus, size_t len)
{
	struct perfctr_encoding enc;

	pmus[0] = '\0';
	return strchr(base, '/') ||
	       pc_generic_resolve(base, &enc, NULL, 0) != -ENOENT ||
	       pc_raw_resolve(base, &enc, NULL, 0) != -ENOENT ||
	       pc_sysfs_resolve(r->sysfs_root, base, &enc, NULL, 0) != -ENOENT ||
	       pc_pfm_known(r, base, pmus, len) > 0;
}

/* As perf list prints its JSON events: "inst_retired.any", "l1d_cache". */
static int json_style(const char *base)
{
	return base[0] && strspn(base, "abcdefghijklmnopqrstuvwxyz"
				 "0123456789_.") == strlen(base);
}

/* The sysfs events a JSON name is ("PMU/NAME/", NAME the JSON name or
 * with '_' for its '.'), that resolve here. */
struct sysfs_form {
	struct perfctr_resolver *r;
	char want[2][PERFCTR_NAME_MAX];
	char *err;
	size_t len;
	int n;			/* forms said */
};

static void sysfs_form_add(const char *name, void *ctx)
{
	struct sysfs_form *f = ctx;
	const char *slash = strchr(name, '/');
	struct perfctr_encoding enc;
	size_t n;
	int i;

	if (!slash)
		return;
	n = strlen(slash + 1);
	for (i = 0; i < 2; i++)
		if (n == strlen(f->want[i]) + 1 &&
		    !strncasecmp(slash + 1, f->want[i], n - 1) &&
		    !pc_sysfs_resolve(f->r->sysfs_root, name, &enc, NULL, 0)) {
			pc_err_append(f->err, f->len, "%s\"%s\"", f->n++ ?
				      " or " : "; here it is ", name);
			return;
		}
}

/* perf's JSON names: libpfm4's form (upper case, ':' for the first
 * '.'), said when it counts here or some PMU has it, and the sysfs
 * forms that count here. */
static void json_forms(struct perfctr_resolver *r, const char *base,
		       char *err, size_t len)
{
	struct sysfs_form f = { .r = r, .err = err, .len = len };
	struct perfctr_encoding enc;
	char up[PERFCTR_NAME_MAX], pmus[256], *dot;
	size_t i;

	if (!json_style(base))
		return;
	for (i = 0; base[i]; i++)
		up[i] = toupper((unsigned char)base[i]);
	up[i] = '\0';
	dot = strchr(up, '.');
	if (dot)
		*dot = ':';
	if (!pc_pfm_resolve(r, up, 0, &enc, NULL, 0))
		pc_err_append(err, len, "; perf's JSON name \"%s\" is "
			      "libpfm4's \"%s\", which counts here", base, up);
	else if (pc_pfm_known(r, up, pmus, sizeof(pmus)))
		pc_err_append(err, len, "; perf's JSON name \"%s\" is "
			      "libpfm4's \"%s\"", base, up);
	snprintf(f.want[0], sizeof(f.want[0]), "%s", base);
	snprintf(f.want[1], sizeof(f.want[1]), "%s", base);
	for (dot = f.want[1]; (dot = strchr(dot, '.')); )
		*dot = '_';
	pc_sysfs_names(r->sysfs_root, sysfs_form_add, &f);
}

/* Known elsewhere, not here: whose it is, and what this machine has. */
static int elsewhere(struct perfctr_resolver *r, const char *name,
		     const char *pmus, char *err, size_t len)
{
	char present[256];

	pc_pfm_present(r, present, sizeof(present));
	return pc_err(err, len, -ENODEV, "event \"%s\" is not on this "
		      "machine: libpfm4 has it for PMU %s; present here: %s",
		      name, pmus, present);
}

int perfctr_resolver__check(struct perfctr_resolver *r, const char *name,
			    int here, char *err, size_t len)
{
	struct perfctr_encoding enc;
	struct perfctr_name n;
	char pmus[256];
	int ret, known;

	ret = perfctr_name__parse(name, &n, err, len);
	if (ret)
		return ret;
	known = known_anywhere(r, n.base, pmus, sizeof(pmus));
	if (here) {
		ret = perfctr_resolver__resolve(r, name, 0, &enc, err, len);
		if (!ret)
			return 0;
		if (ret == -ENOENT && pmus[0])
			ret = elsewhere(r, name, pmus, err, len);
		else if (ret != -ENOENT || known)
			ret = -ENODEV;
	} else if (known) {
		return 0;
	} else {
		ret = pc_resolve_unknown(r, name, &n, 1, err, len);
	}
	json_forms(r, n.base, err, len);
	return ret;
}
