/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_text.c - the dump for people, in the manner of stap's
 * --dump-functions: one item a line, each line starting with what it is
 * (pmu, cap, term, event, umask, modifier, generic, in-use) and the name
 * it is about; sections in that order, names sorted.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>
#include "dump.h"

static const char *const attr_words[] = {
	[PERFCTR_ATTR_UMASK] = "umask",
	[PERFCTR_ATTR_BOOL] = "modifier",
	[PERFCTR_ATTR_INT] = "modifier",
	[PERFCTR_ATTR_TERM] = "term",
};

static const char *const generic_types[] = {
	[PERF_TYPE_HARDWARE] = "hardware",
	[PERF_TYPE_SOFTWARE] = "software",
	[PERF_TYPE_HW_CACHE] = "cache",
};

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

/* "8 general-purpose counters of 48 bits", with unknowns said so. */
static void counters(FILE *f, int n, int bits, const char *what)
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
}

static void pmu_line(FILE *f, const struct perfctr_dump_pmu *p)
{
	fprintf(f, "pmu %s: ", p->name);
	if (p->type >= 0)
		fprintf(f, "type %d", p->type);
	else
		fprintf(f, "not in sysfs");
	if (p->cpus)
		fprintf(f, ", CPUs %s", p->cpus);
	else if (p->type >= 0)
		fprintf(f, ", all CPUs");
	if (p->pfm_name)
		fprintf(f, ", libpfm4 %s (%s)", p->pfm_name, p->pfm_desc);
	if (p->software) {
		fprintf(f, ", software events, no counter limit\n");
		return;
	}
	counters(f, p->general, p->general_bits, "general-purpose");
	counters(f, p->fixed, p->fixed_bits, "fixed");
	fputc('\n', f);
}

static void attr_line(FILE *f, const char *word, const char *owner,
		      const char *sep, const struct perfctr_dump_attr *a)
{
	fprintf(f, "%s %s%s%s%s: %s%s\n", word, owner, sep, a->name,
		a->kind == PERFCTR_ATTR_INT || a->kind == PERFCTR_ATTR_TERM ?
		"=N" : "", a->desc,
		a->is_default ? " (default)" : "");
}

static void pmu_items(FILE *f, const struct perfctr_dump_pmu *p)
{
	const struct perfctr_dump_event *e;
	unsigned int i, j;

	for (i = 0; i < p->n_caps; i++)
		fprintf(f, "cap %s %s: %s\n", p->name, p->caps[i].name,
			p->caps[i].desc);
	for (i = 0; i < p->n_terms; i++)
		attr_line(f, "term", p->name, "/", &p->terms[i]);
	for (i = 0; i < p->n_events; i++) {
		e = &p->events[i];
		fprintf(f, "event %s: %s\n", e->name, e->desc);
		for (j = 0; j < e->n_attrs; j++)
			attr_line(f, attr_words[e->attrs[j].kind], e->name,
				  ":", &e->attrs[j]);
	}
}

static void generic_line(FILE *f, const struct perfctr_dump_generic *g)
{
	char why[256];

	fprintf(f, "generic %s: %s 0x%llx: ", g->name,
		g->enc.type < ARRAY_SIZE(generic_types) &&
		generic_types[g->enc.type] ?
		generic_types[g->enc.type] : "?",
		(unsigned long long)g->enc.config);
	if (!g->tried) {
		fprintf(f, "not tried\n");
	} else if (!g->open_err) {
		fprintf(f, "opens\n");
	} else {
		perfctr_trial__explain(g->open_err, why, sizeof(why));
		fprintf(f, "does not open: %s\n", why);
	}
}

static void holder_lines(FILE *f, const struct perfctr_holder *h)
{
	const struct perfctr_request *r;
	const struct perfctr_encoding *e;
	unsigned int i;

	if (h->problem)
		fprintf(f, "in-use %s: problem: %s\n", h->module, h->problem);
	if (!h->n)
		fprintf(f, "in-use %s: no counters\n", h->module);
	for (i = 0; i < h->n; i++) {
		r = &h->reqs[i];
		fprintf(f, "in-use %s: counter \"%s\" %s (%s%s) at %s", h->module,
			r->id, r->event, plm_word(r->plm),
			r->mux ? ", multiplex" : "", r->src);
		e = h->encs ? &h->encs[i] : NULL;
		if (e)
			fprintf(f, ": type %u config 0x%llx config1 0x%llx "
				"config2 0x%llx flags 0x%x", e->type,
				(unsigned long long)e->config,
				(unsigned long long)e->config1,
				(unsigned long long)e->config2, e->flags);
		fputc('\n', f);
	}
}

int perfctr_dump__write_text(const struct perfctr_dump *d, FILE *f)
{
	unsigned int i;

	for (i = 0; i < d->n_pmus; i++)
		pmu_line(f, &d->pmus[i]);
	for (i = 0; i < d->n_pmus; i++)
		pmu_items(f, &d->pmus[i]);
	for (i = 0; i < d->n_generic; i++)
		generic_line(f, &d->generic[i]);
	fprintf(f, "in-use nmi_watchdog: %s\n", d->nmi_watchdog ?
		"holds one cycles counter on every CPU" : "holds no counter");
	for (i = 0; i < d->n_holders; i++)
		holder_lines(f, &d->holders[i]);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
