/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_text.c - the dump for people, in the manner of perf list: a
 * summary of what this machine counts (its PMUs, the generic events that
 * open and those that do not, who holds counters now), then each PMU the
 * kernel has with its caps, format terms and events; a libpfm4 event's
 * unit masks under it, the modifiers once per PMU.  Names sorted, so two
 * runs on the same machine print the same.  The JSON has everything per
 * event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "dump.h"

#define WIDTH 79	/* where lists of names wrap */
#define NAME_COL 28	/* names are padded to this in two-column lines */

static const char *const plm_words[] = {
	[PERFCTR_PLM_USER] = "user",
	[PERFCTR_PLM_KERNEL] = "kernel",
	[PERFCTR_PLM_ALL] = "user+kernel",
};

static const char *plm_word(unsigned int plm)
{
	return plm < ARRAY_SIZE(plm_words) && plm_words[plm] ?
	       plm_words[plm] : "?";
}

static int is_modifier(const struct perfctr_dump_attr *a)
{
	return a->kind == PERFCTR_ATTR_BOOL || a->kind == PERFCTR_ATTR_INT;
}

/* A modifier as a script writes it: "name" or "name=N". */
static const char *attr_name(const struct perfctr_dump_attr *a, char *buf,
			     size_t len)
{
	snprintf(buf, len, "%s%s", a->name,
		 a->kind == PERFCTR_ATTR_INT ? "=N" : "");
	return buf;
}

/* "  NAME    TEXT": NAME padded to NAME_COL after indent spaces. */
static void row(FILE *f, int indent, const char *name, const char *suffix,
		const char *text)
{
	int n = fprintf(f, "%*s%s%s", indent, "", name, suffix);

	fprintf(f, "%*s%s\n", n + 2 <= NAME_COL ? NAME_COL - n : 2, "", text);
}

/* Words on lines of at most WIDTH columns, each line indented. */
struct wrap {
	FILE *f;
	int col;	/* 0: at the start of a line */
	int indent;
};

static void wrap_word(struct wrap *w, const char *word)
{
	int len = (int)strlen(word);

	if (w->col > w->indent && w->col + 1 + len > WIDTH) {
		fputc('\n', w->f);
		w->col = 0;
	}
	if (w->col == 0)
		w->col = fprintf(w->f, "%*s", w->indent, "");
	else
		w->col += fprintf(w->f, " ");
	w->col += fprintf(w->f, "%s", word);
}

static void wrap_end(struct wrap *w)
{
	if (w->col)
		fputc('\n', w->f);
	w->col = 0;
}

/* ---------------------------------------------------------- summary */

/* ", 8 general-purpose counters of 48 bits", with unknowns said so, and
 * why where it is known that nobody can know (why: NULL). */
static void counters(FILE *f, int n, int bits, const char *what,
		     const char *why)
{
	if (n == 0)
		fprintf(f, ", no %s counters", what);
	else if (n == PERFCTR_UNKNOWN && bits == PERFCTR_UNKNOWN)
		fprintf(f, ", %s counters unknown", what);
	else if (bits == PERFCTR_UNKNOWN)
		fprintf(f, ", %d %s counters of unknown width", n, what);
	else if (n == PERFCTR_UNKNOWN)
		fprintf(f, ", %s counters of %d bits, how many unknown", what,
			bits);
	else
		fprintf(f, ", %d %s counters of %d bits", n, what, bits);
	if (n == PERFCTR_UNKNOWN && why)
		fprintf(f, " (%s)", why);
}

/* Is p libpfm4's alone, with no sysfs PMU? */
static int pfm_only(const struct perfctr_dump_pmu *p)
{
	return !pc_dump_pmu_opens(p) && p->pfm_name;
}

static int name_width(const struct perfctr_dump *d, int pfm_alone)
{
	unsigned int i;
	int w = 0;

	for (i = 0; i < d->n_pmus; i++)
		if (pfm_only(&d->pmus[i]) == pfm_alone &&
		    (int)strlen(d->pmus[i].name) > w)
			w = (int)strlen(d->pmus[i].name);
	return w;
}

/* "CPUs 0-15 [cpus: hybrid core PMU]", "CPUs 0,28 [cpumask: per
 * socket]", "all CPUs". */
static void cpus(FILE *f, const struct perfctr_dump_pmu *p)
{
	const char *span = perfctr_span__text(p->span);

	if (!p->cpus) {
		fprintf(f, "all CPUs");
		return;
	}
	fprintf(f, "CPUs %s [%s%s%s]", p->cpus,
		p->cpus_file ? p->cpus_file : "?", span[0] ? ": " : "", span);
}

static void pmu_line(FILE *f, const struct perfctr_dump_pmu *p, int width)
{
	const char *sep = "";

	fprintf(f, "  %-*s  ", width, p->name);
	if (p->type >= 0) {
		fprintf(f, "type %d, ", p->type);
		cpus(f, p);
		sep = ", ";
	} else if (!p->pfm_name) {
		fprintf(f, "no type in sysfs");
		sep = ", ";
	}
	if (p->pfm_name)
		fprintf(f, "%slibpfm4 %s (%s)", sep, p->pfm_name, p->pfm_desc);
	if (p->software) {
		fprintf(f, ", software events, no counter limit");
	} else {
		counters(f, p->general, p->general_bits, "general-purpose",
			 p->general_why);
		counters(f, p->fixed, p->fixed_bits, "fixed", NULL);
	}
	if (p->n_events)
		fprintf(f, "; %u event%s", p->n_events,
			p->n_events == 1 ? "" : "s");
	fputc('\n', f);
}

static void pmus(FILE *f, const struct perfctr_dump *d)
{
	int w = name_width(d, 0), alone = name_width(d, 1);
	unsigned int i;

	fprintf(f, "PMUs (perf type, CPUs, counters, events):\n");
	for (i = 0; i < d->n_pmus; i++)
		if (!pfm_only(&d->pmus[i]))
			pmu_line(f, &d->pmus[i], w);
	if (!alone)
		return;
	fprintf(f, "PMUs only libpfm4 knows (the kernel has none: their events "
		"cannot be counted here):\n");
	for (i = 0; i < d->n_pmus; i++)
		if (pfm_only(&d->pmus[i]))
			pmu_line(f, &d->pmus[i], alone);
}

/* Why g did not open, "" if it did; "not tried" if it was not. */
static void generic_why(const struct perfctr_dump_generic *g, char *buf,
			size_t len)
{
	if (!g->tried)
		snprintf(buf, len, "not tried");
	else if (!g->open_err)
		buf[0] = '\0';
	else
		perfctr_trial__explain(g->open_err, buf, len);
}

#define WHY_MAX 256

/* Generic event types in the order they are shown; the last is any
 * other type. */
static const struct {
	unsigned int type;
	const char *word;
} generic_types[] = {
	{ PERF_TYPE_HARDWARE, "hardware" },
	{ PERF_TYPE_SOFTWARE, "software" },
	{ PERF_TYPE_HW_CACHE, "cache" },
	{ ~0u, "other" },
};

static size_t generic_type(const struct perfctr_dump_generic *g)
{
	size_t t;

	for (t = 0; t + 1 < ARRAY_SIZE(generic_types); t++)
		if (g->enc.type == generic_types[t].type)
			break;
	return t;
}

/* The names with the answer of generic event i, one list per type. */
static void group(struct wrap *w, const struct perfctr_dump *d,
		  char (*why)[WHY_MAX], unsigned int i)
{
	unsigned int j;
	size_t t;

	for (t = 0; t < ARRAY_SIZE(generic_types); t++) {
		for (j = i; j < d->n_generic; j++) {
			if (strcmp(why[j], why[i]) ||
			    generic_type(&d->generic[j]) != t)
				continue;
			if (!w->col) {
				w->indent = 2;
				wrap_word(w, generic_types[t].word);
				w->col += fprintf(w->f, ":");
				w->indent = 4;
			}
			wrap_word(w, d->generic[j].name);
		}
		wrap_end(w);
	}
}

/* Generic events, one group per answer: those that open first, then one
 * group for each reason, in the order the reasons first come. */
static int generics(FILE *f, const struct perfctr_dump *d)
{
	char (*why)[WHY_MAX] = calloc(d->n_generic + 1, sizeof(*why));
	struct wrap w = { f, 0, 2 };
	unsigned int i, j, n;
	int pass;

	if (!why)
		return -ENOMEM;
	for (i = 0; i < d->n_generic; i++)
		generic_why(&d->generic[i], why[i], WHY_MAX);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < d->n_generic; i++) {
			if (!why[i][0] != !pass)
				continue;	/* those that open first */
			for (j = 0; j < i && strcmp(why[i], why[j]); j++)
				;
			if (j < i)
				continue;	/* this answer's group is out */
			for (n = 0, j = i; j < d->n_generic; j++)
				n += !strcmp(why[i], why[j]);
			if (!why[i][0])
				fprintf(f, "Generic events that open here (%u, "
					"tried on CPU %d):\n", n, d->trial_cpu);
			else if (!d->generic[i].tried)
				fprintf(f, "Generic events (%u, not tried):\n", n);
			else
				fprintf(f, "Generic events that do not open here "
					"(%u): %s\n", n, why[i]);
			group(&w, d, why, i);
		}
	free(why);
	return 0;
}

/* "flags 0x16 (user only, no hypervisor, no guest)" */
static void flags_line(FILE *f, uint32_t flags)
{
	char words[PERFCTR_FLAGS_WORDS_MAX];

	perfctr_flags__words(flags, words, sizeof(words));
	fprintf(f, "flags 0x%x (%s)", flags, words);
}

static void holder_lines(FILE *f, const struct perfctr_holder *h)
{
	const struct perfctr_request *r;
	const struct perfctr_encoding *e;
	unsigned int i;

	if (h->problem)
		fprintf(f, "  %s: problem: %s\n", h->module, h->problem);
	if (!h->n)
		fprintf(f, "  %s: no counters\n", h->module);
	for (i = 0; i < h->n; i++) {
		r = &h->reqs[i];
		fprintf(f, "  %s: counter \"%s\" %s (%s%s%s%s%s) at %s",
			h->module, r->id, r->event, plm_word(r->plm),
			r->mux ? ", multiplex" : "",
			r->group[0] ? ", group \"" : "", r->group,
			r->group[0] ? "\"" : "", r->src);
		e = h->encs ? &h->encs[i] : NULL;
		if (e) {
			fprintf(f, ": type %u config 0x%llx config1 0x%llx "
				"config2 0x%llx ", e->type,
				(unsigned long long)e->config,
				(unsigned long long)e->config1,
				(unsigned long long)e->config2);
			flags_line(f, e->flags);
		}
		fputc('\n', f);
	}
}

static void in_use(FILE *f, const struct perfctr_dump *d)
{
	unsigned int i;

	fprintf(f, "Counters in use:\n  nmi_watchdog: %s\n", d->nmi_watchdog ?
		"holds one cycles counter on every CPU" : "holds no counter");
	for (i = 0; i < d->n_holders; i++)
		holder_lines(f, &d->holders[i]);
}

/* ------------------------------------------------------ PMU sections */

/* Do two events take the same modifiers (names, kinds and words)? */
static int same_modifiers(const struct perfctr_dump_event *a,
			  const struct perfctr_dump_event *b)
{
	unsigned int i = 0, j = 0;

	for (;;) {
		while (i < a->n_attrs && !is_modifier(&a->attrs[i]))
			i++;
		while (j < b->n_attrs && !is_modifier(&b->attrs[j]))
			j++;
		if (i == a->n_attrs || j == b->n_attrs)
			return i == a->n_attrs && j == b->n_attrs;
		if (a->attrs[i].kind != b->attrs[j].kind ||
		    strcmp(a->attrs[i].name, b->attrs[j].name) ||
		    strcmp(a->attrs[i].desc, b->attrs[j].desc))
			return 0;
		i++;
		j++;
	}
}

/* The libpfm4 event whose modifiers most of the PMU's events take (the
 * first such), or NULL when none has any. */
static const struct perfctr_dump_event *
common_modifiers(const struct perfctr_dump_pmu *p)
{
	const struct perfctr_dump_event *best = NULL;
	unsigned int i, j, n, most = 0;

	for (i = 0; i < p->n_events; i++) {
		if (p->events[i].source != PERFCTR_SRC_LIBPFM4)
			continue;
		for (n = 0, j = 0; j < p->n_events; j++)
			n += p->events[j].source == PERFCTR_SRC_LIBPFM4 &&
			     same_modifiers(&p->events[i], &p->events[j]);
		if (n > most) {
			most = n;
			best = &p->events[i];
		}
	}
	return best;
}

static int attr_cmp(const void *a, const void *b)
{
	const struct perfctr_dump_attr *x = *(const void *const *)a;
	const struct perfctr_dump_attr *y = *(const void *const *)b;
	int c = strcmp(x->name, y->name);

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return c ? c : strcmp(x->desc, y->desc);
}

/* A modifier's row, unless the row before was the same modifier. */
static void modifier_row(FILE *f, const struct perfctr_dump_attr *const *all,
			 unsigned int i)
{
	char name[PERFCTR_NAME_MAX];

	if (i == 0 || attr_cmp(&all[i], &all[i - 1]))
		row(f, 4, attr_name(all[i], name, sizeof(name)), "",
		    all[i]->desc);
}

/* Is modifier a among the event's? */
static int takes(const struct perfctr_dump_event *e,
		 const struct perfctr_dump_attr *a)
{
	unsigned int i;

	for (i = 0; i < e->n_attrs; i++)
		if (e->attrs[i].kind == a->kind &&
		    !strcmp(e->attrs[i].name, a->name) &&
		    !strcmp(e->attrs[i].desc, a->desc))
			return 1;
	return 0;
}

/* Every modifier the PMU's events take, once, with its words: those of
 * the common set, then the others. */
static int modifier_block(FILE *f, const struct perfctr_dump_pmu *p,
			  const struct perfctr_dump_event *common)
{
	const struct perfctr_dump_attr **all = NULL, **slot;
	unsigned int i, j, n = 0, others = 0;

	for (i = 0; i < p->n_events; i++)
		for (j = 0; j < p->events[i].n_attrs; j++) {
			if (!is_modifier(&p->events[i].attrs[j]))
				continue;
			if (!(slot = PC_PUSH(all, n))) {
				free(all);
				return -ENOMEM;
			}
			*slot = &p->events[i].attrs[j];
		}
	if (!n)
		return 0;	/* no event takes any */
	qsort(all, n, sizeof(*all), attr_cmp);
	fprintf(f, "  modifiers, EVENT:NAME or EVENT:NAME=N, of every event "
		"above that lists none:\n");
	for (i = 0; i < n; i++) {
		if (takes(common, all[i]))
			modifier_row(f, all, i);
		else
			others++;
	}
	if (others)
		fprintf(f, "  modifiers of only the events that list them:\n");
	for (i = 0; others && i < n; i++)
		if (!takes(common, all[i]))
			modifier_row(f, all, i);
	free(all);
	return 0;
}

static void event_lines(FILE *f, const struct perfctr_dump_event *e,
			const struct perfctr_dump_event *common)
{
	const struct perfctr_dump_attr *a;
	char name[PERFCTR_NAME_MAX], *text;
	struct wrap w = { f, 0, 8 };
	unsigned int i;

	row(f, 4, e->name, "", e->desc);
	for (i = 0; i < e->n_attrs; i++) {
		a = &e->attrs[i];
		if (a->kind != PERFCTR_ATTR_UMASK)
			continue;
		if (asprintf(&text, "%s%s", a->desc, a->is_default ?
			     " (default)" : "") < 0)
			text = NULL;
		row(f, 6, ":", a->name, text ? text : a->desc);
		free(text);
	}
	if (e->source != PERFCTR_SRC_LIBPFM4 || !common ||
	    same_modifiers(e, common))
		return;
	w.col = fprintf(f, "      modifiers:");
	for (i = 0; i < e->n_attrs; i++)
		if (is_modifier(&e->attrs[i]))
			wrap_word(&w, attr_name(&e->attrs[i], name,
						sizeof(name)));
	if (w.col == 16)
		fprintf(f, " none");
	wrap_end(&w);
}

static int pmu_section(FILE *f, const struct perfctr_dump_pmu *p)
{
	const struct perfctr_dump_event *common = common_modifiers(p);
	unsigned int i;

	fprintf(f, "\n%s (type %d, ", p->name, p->type);
	cpus(f, p);
	if (p->pfm_name)
		fprintf(f, ", libpfm4 %s: %s", p->pfm_name, p->pfm_desc);
	fprintf(f, "):\n");
	if (p->n_caps)
		fprintf(f, "  caps:\n");
	for (i = 0; i < p->n_caps; i++)
		row(f, 4, p->caps[i].name, "", p->caps[i].desc);
	if (p->n_terms)
		fprintf(f, "  terms, %s/NAME=N/:\n", p->name);
	for (i = 0; i < p->n_terms; i++)
		row(f, 4, p->terms[i].name, "", p->terms[i].desc);
	if (p->n_events)
		fprintf(f, "  events:\n");
	for (i = 0; i < p->n_events; i++)
		event_lines(f, &p->events[i], common);
	return common ? modifier_block(f, p, common) : 0;
}

int perfctr_dump__write_text(const struct perfctr_dump *d, FILE *f)
{
	const struct perfctr_dump_pmu *p;
	unsigned int i;
	int ret = 0;

	pmus(f, d);
	ret = generics(f, d);
	if (ret)
		return ret;
	in_use(f, d);
	for (i = 0; i < d->n_pmus && !ret; i++) {
		p = &d->pmus[i];
		if (pc_dump_pmu_opens(p) && (p->n_caps || p->n_terms ||
					     p->n_events))
			ret = pmu_section(f, p);
	}
	if (ret)
		return ret;
	return fflush(f) || ferror(f) ? -EIO : 0;
}
