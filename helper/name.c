/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * name.c - split an event name into its base and perf-style modifiers.
 */
#include <errno.h>
#include <string.h>
#include "internal.h"

#define PRECISE_MAX 3

/* The modifier letters, as data: what each adds.  Only 'p' repeats
 * (perf's check_modifier). */
static const struct {
	char letter;
	unsigned int plm;
	unsigned int gh;
	unsigned int precise;
} modifiers[] = {
	{ 'u', PERFCTR_PLM_USER, 0, 0 },
	{ 'k', PERFCTR_PLM_KERNEL, 0, 0 },
	{ 'h', PERFCTR_PLM_HV, 0, 0 },
	{ 'G', 0, PERFCTR_GH_GUEST, 0 },
	{ 'H', 0, PERFCTR_GH_HOST, 0 },
	{ 'p', 0, 0, 1 },
};

static int modifier_find(char c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(modifiers); i++)
		if (modifiers[i].letter == c)
			return (int)i;
	return -1;
}

static int all_modifiers(const char *s)
{
	for (; *s; s++)
		if (modifier_find(*s) < 0)
			return 0;
	return 1;
}

static int all_lower(const char *s)
{
	for (; *s; s++)
		if (*s < 'a' || *s > 'z')
			return 0;
	return 1;
}

/* Is base (len bytes) a name whose syntax is perf's own, so that what
 * follows its ':' can only be modifiers? */
static int perf_syntax(const char *name, size_t len)
{
	char base[PERFCTR_NAME_MAX];
	struct perfctr_encoding enc;

	memcpy(base, name, len);
	base[len] = '\0';
	return pc_generic_resolve(base, &enc, NULL, 0) != -ENOENT ||
	       pc_raw_resolve(base, &enc, NULL, 0) != -ENOENT;
}

static int apply(const char *mods, const char *name,
		 struct perfctr_name *out, char *err, size_t errlen)
{
	const char *m;
	int i;

	for (m = mods; *m; m++) {
		i = modifier_find(*m);
		if (i < 0)
			return pc_err(err, errlen, -EINVAL,
				      "unknown modifier '%c' in \"%s\"", *m, name);
		if (!modifiers[i].precise && strchr(m + 1, *m))
			return pc_err(err, errlen, -EINVAL,
				      "modifier '%c' given twice in \"%s\"", *m,
				      name);
		out->plm |= modifiers[i].plm;
		out->gh |= modifiers[i].gh;
		out->precise += modifiers[i].precise;
	}
	if (out->precise > PRECISE_MAX)
		return pc_err(err, errlen, -EINVAL,
			      "too many 'p' modifiers in \"%s\" (at most %d)",
			      name, PRECISE_MAX);
	return 0;
}

/* Where the modifiers start in name (maybe at its end), or NULL. */
static const char *find_modifiers(const char *name)
{
	const char *slash = strrchr(name, '/'), *colon;

	if (slash)	/* "pmu/terms/mods"; one '/' alone is malformed */
		return slash != strchr(name, '/') ?
		       slash + 1 + (slash[1] == ':') : NULL;
	colon = strrchr(name, ':');
	if (!colon)
		return NULL;
	if (colon[1] && all_modifiers(colon + 1))
		return colon + 1;
	/* Else a libpfm4 unit mask, unless perf's own names precede it. */
	if (all_lower(colon + 1) && perf_syntax(name, colon - name))
		return colon + 1;
	return NULL;
}

int perfctr_name__parse(const char *name, struct perfctr_name *out,
			char *err, size_t errlen)
{
	const char *mods, *c;
	size_t len;

	memset(out, 0, sizeof(*out));
	len = strnlen(name, PERFCTR_NAME_MAX);
	if (len == 0)
		return pc_err(err, errlen, -EINVAL, "empty event name");
	if (len == PERFCTR_NAME_MAX)
		return pc_err(err, errlen, -EINVAL,
			      "event name longer than %d bytes",
			      PERFCTR_NAME_MAX - 1);
	for (c = name; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return pc_err(err, errlen, -EINVAL,
				      "control or blank character in event name \"%s\"",
				      name);
	mods = find_modifiers(name);
	if (!mods)
		mods = name + len;
	else if (!*mods && mods[-1] == ':')
		return pc_err(err, errlen, -EINVAL,
			      "empty modifier list in \"%s\"", name);
	/* "cycles:u" keeps no ':' in its base; "cpu/x/:u" keeps its '/'. */
	len = mods - name;
	if (mods > name && mods[-1] == ':')
		len--;
	if (len == 0)
		return pc_err(err, errlen, -EINVAL, "empty event name in \"%s\"",
			      name);
	memcpy(out->base, name, len);
	out->base[len] = '\0';
	return apply(mods, name, out, err, errlen);
}

int perfctr_name__counter_plm(const char *name, const struct perfctr_name *n,
			      unsigned int clause_plm, unsigned int *plm,
			      char *err, size_t errlen)
{
	unsigned int uk = n->plm & PERFCTR_PLM_ALL; /* :h only adds the hv */

	if (n->precise)
		return pc_err(err, errlen, -EINVAL, "modifier 'p' in \"%s\": a "
			      "counter counts every event; a sampling probe "
			      "asks for precision with '.precise(L)'", name);
	if (n->plm && !uk && !clause_plm)
		return pc_err(err, errlen, -EINVAL, "\"%s\" counts neither "
			      "user nor kernel mode; add ':u' or ':k'", name);
	if (uk && clause_plm && uk != clause_plm)
		return pc_err(err, errlen, -EINVAL, "modifier '%s' in \"%s\" "
			      "contradicts '.%s'",
			      uk == PERFCTR_PLM_USER ? ":u" :
			      uk == PERFCTR_PLM_KERNEL ? ":k" : ":uk", name,
			      clause_plm == PERFCTR_PLM_USER ? "user" : "kernel");
	*plm = clause_plm ? clause_plm : uk ? uk : PERFCTR_PLM_ALL;
	return 0;
}
