/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-perf-modifiers.c - the exclude_* bits our resolution gives every
 * combination of perf's modifiers u, k, h, G, H (each order, with the
 * .user and .kernel components as the translator passes them) against
 * the attr this machine's perf builds for the same event: `perf stat
 * -vv -e EVENT true` prints it, even where the event cannot be opened.
 * Skips without perf (Debian: linux-perf).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libperfctr.h"
#include "tap.h"

#define LETTERS "ukhGH"
#define NLETTERS 5
#define EXCLUDES (PERFCTR_F_EXCLUDE_USER | PERFCTR_F_EXCLUDE_KERNEL | \
		  PERFCTR_F_EXCLUDE_HV | PERFCTR_F_EXCLUDE_GUEST | \
		  PERFCTR_F_EXCLUDE_HOST)

/* perf's attr fields, and the flag each is. */
static const struct {
	const char *field;
	uint32_t flag;
} fields[] = {
	{ "exclude_user", PERFCTR_F_EXCLUDE_USER },
	{ "exclude_kernel", PERFCTR_F_EXCLUDE_KERNEL },
	{ "exclude_hv", PERFCTR_F_EXCLUDE_HV },
	{ "exclude_guest", PERFCTR_F_EXCLUDE_GUEST },
	{ "exclude_host", PERFCTR_F_EXCLUDE_HOST },
};

/* The components: what the translator puts in the request's plm, and the
 * modifier perf reads the same way. */
static const struct {
	const char *name;
	unsigned int plm;	/* 0: none, the name's u/k decide */
	char letter;
} components[] = {
	{ "", 0, 0 },
	{ ".user", PERFCTR_PLM_USER, 'u' },
	{ ".kernel", PERFCTR_PLM_KERNEL, 'k' },
};

/* Events, and whether every order of the letters is tried (else each
 * set once, in LETTERS order). */
static const struct {
	const char *name;
	int orders;
} events[] = {
	{ "cycles", 1 },
	{ "page-faults", 0 },
	{ "r1c0", 0 },
};

/* perf's cached answers: its flags for an event string, or -1 when it
 * refuses the string. */
#define CACHE_MAX 2048
static struct {
	char ev[64];
	long flags;
} cache[CACHE_MAX];
static int ncache;

/* perf's exclude_* bits for ev, -1 if its parser refuses it, -2 if perf
 * printed no attr for another reason (out: its first line). */
static long perf_run(const char *ev, char *out, size_t len)
{
	char cmd[160], line[256];
	int in_attr = 0, seen = 0, syntax = 0;
	long flags = 0;
	size_t i;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "perf stat -vv -e '%s' true 2>&1", ev);
	out[0] = '\0';
	p = popen(cmd, "r");
	if (!p)
		return -2;
	while (fgets(line, sizeof(line), p)) {
		if (!out[0])
			snprintf(out, len, "%.*s", (int)strcspn(line, "\n"), line);
		syntax |= !seen && strstr(line, "event syntax error") != NULL;
		if (!strncmp(line, "perf_event_attr:", 16))
			in_attr = !seen++;
		else if (!strncmp(line, "----", 4))
			in_attr = 0;
		for (i = 0; in_attr && i < sizeof(fields) / sizeof(fields[0]); i++) {
			size_t n = strlen(fields[i].field);

			if (!strncmp(line + 2, fields[i].field, n) &&
			    line[2 + n] == ' ' && atoi(line + 2 + n) == 1)
				flags |= fields[i].flag;
		}
	}
	pclose(p);
	if (seen)
		return flags;
	return syntax ? -1 : -2;
}

static long perf_flags(const char *ev)
{
	char out[256];
	int i;

	for (i = 0; i < ncache; i++)
		if (!strcmp(cache[i].ev, ev))
			return cache[i].flags;
	if (ncache == CACHE_MAX)
		return -2;
	snprintf(cache[ncache].ev, sizeof(cache[ncache].ev), "%s", ev);
	cache[ncache].flags = perf_run(ev, out, sizeof(out));
	return cache[ncache++].flags;
}

/* Our flags for event:mods with a component, as the translator and
 * perfctr-run make them: -1 when refused.  *tr says the translator
 * refused (its own rule: ':h' alone counts neither mode). */
static long our_flags(struct perfctr_resolver *r, const char *name,
		      unsigned int comp, int *tr)
{
	struct perfctr_encoding enc;
	struct perfctr_name n;
	unsigned int plm = comp;

	*tr = 0;
	if (perfctr_name__parse(name, &n, NULL, 0))
		return -1;
	if (!plm) {
		plm = n.plm & PERFCTR_PLM_ALL;
		if (n.plm && !plm) {
			*tr = 1;
			return -1;
		}
		if (!plm)
			plm = PERFCTR_PLM_ALL;
	} else if ((n.plm & PERFCTR_PLM_ALL) &&
		   (n.plm & PERFCTR_PLM_ALL) != plm) {
		*tr = 1;	/* contradicts the component */
		return -1;
	}
	if (perfctr_resolver__resolve(r, name, plm, &enc, NULL, 0))
		return -1;
	return enc.flags & EXCLUDES;
}

struct tally {
	int tried, same, differ, we_refuse, perf_failed;
};

static void flags_text(long f, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	if (f < 0) {
		snprintf(buf, len, f == -1 ? "refused" : "no attr printed");
		return;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (f & fields[i].flag)
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      fields[i].field + 8);
	if (!n)
		snprintf(buf, len, "none");
}

/* One modifier string (maybe empty) with one component. */
static void compare(struct perfctr_resolver *r, const char *ev,
		    const char *mods, unsigned int c, struct tally *t)
{
	char name[64], pname[64], a[80], b[80];
	long ours, theirs;
	int tr;

	snprintf(name, sizeof(name), mods[0] ? "%s:%s" : "%s", ev, mods);
	ours = our_flags(r, name, components[c].plm, &tr);
	if (tr)
		return;		/* the translator's refusal, not perf's case */
	if (components[c].letter && !strchr(mods, components[c].letter))
		snprintf(pname, sizeof(pname), "%s:%s%c", ev, mods,
			 components[c].letter);
	else
		snprintf(pname, sizeof(pname), "%s", name);
	theirs = perf_flags(pname);
	if (theirs == -1)
		return;		/* perf refuses it: see refusals() */
	t->tried++;
	if (ours == theirs) {
		t->same++;
		return;
	}
	t->differ++;
	t->we_refuse += ours < 0;
	t->perf_failed += theirs == -2;
	flags_text(ours, a, sizeof(a));
	flags_text(theirs, b, sizeof(b));
	printf("#   \"%s\"%s: ours %s, perf (\"%s\") %s\n", name,
	       components[c].name, a, pname, b);
}

/* Every order of every subset of LETTERS (orders), or each subset once. */
static void walk(struct perfctr_resolver *r, const char *ev, int orders,
		 unsigned int c, char *mods, int len, unsigned int used,
		 struct tally *t)
{
	int i;

	mods[len] = '\0';
	compare(r, ev, mods, c, t);
	for (i = 0; i < NLETTERS; i++) {
		if (used & (1u << i) || (!orders && used >> i))
			continue;
		mods[len] = LETTERS[i];
		walk(r, ev, orders, c, mods, len + 1, used | 1u << i, t);
	}
}

/* Strings perf's parser refuses (a letter twice): so must we. */
static void refusals(void)
{
	static const char *const twice[] = {
		"cycles:uu", "cycles:kk", "cycles:GG", "cycles:HuH",
		"cycles:ukhu", "page-faults:GkG",
	};
	size_t i;

	for (i = 0; i < sizeof(twice) / sizeof(twice[0]); i++) {
		struct perfctr_name n;

		ok(perf_flags(twice[i]) == -1 &&
		   perfctr_name__parse(twice[i], &n, NULL, 0) == -EINVAL,
		   "\"%s\": perf refuses it, and so do we", twice[i]);
	}
}

int main(void)
{
	struct perfctr_resolver_opts o = { .sz = sizeof(o), .no_libpfm = 1 };
	struct perfctr_resolver *r;
	char out[256], mods[NLETTERS + 1];
	size_t e, c;
	long plain;

	if (system("command -v perf >/dev/null 2>&1") != 0) {
		printf("1..0 # SKIP perf is not installed (Debian: linux-perf)\n");
		return 0;
	}
	plain = perf_run("cycles", out, sizeof(out));
	if (plain < 0) {
		printf("1..0 # SKIP perf prints no attr: %s\n", out);
		return 0;
	}
	if (!(plain & PERFCTR_F_EXCLUDE_GUEST)) {
		/* perf 6.13 stopped excluding the guest by default */
		printf("1..0 # SKIP this perf does not exclude the guest by "
		       "default; the rule here is perf 6.1's (bookworm, and "
		       "trixie's 6.12)\n");
		return 0;
	}
	o.sysfs_root = "/nonexistent";	/* generic and raw names only */
	if (perfctr_resolver__new(&o, &r))
		return 99;
	for (e = 0; e < sizeof(events) / sizeof(events[0]); e++)
		for (c = 0; c < sizeof(components) / sizeof(components[0]); c++) {
			struct tally t = { 0 };

			walk(r, events[e].name, events[e].orders, c, mods, 0, 0,
			     &t);
			ok(t.tried > 0 && t.differ == 0,
			   "%s%s: %d modifier strings, %d as perf sets them "
			   "(%d refused by us, %d perf printed nothing for)",
			   events[e].name, components[c].name, t.tried, t.same,
			   t.we_refuse, t.perf_failed);
		}
	refusals();
	perfctr_resolver__free(r);
	return tap_done();
}
