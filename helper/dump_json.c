/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_json.c - the dump for programs: one JSON object (jansson) with
 * the same data, in the same order, as the text.  Counts and widths
 * nobody knows are null; 64-bit encodings are "0x..." strings.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "dump.h"

#define DUMP_JSON_VERSION 1

static const char *const sources[] = {
	[PERFCTR_SRC_SYSFS] = "sysfs",
	[PERFCTR_SRC_LIBPFM4] = "libpfm4",
};

static const char *const plms[] = {
	[PERFCTR_PLM_USER] = "u",
	[PERFCTR_PLM_KERNEL] = "k",
	[PERFCTR_PLM_ALL] = "uk",
};

/* Where the first failure is kept; every builder below checks it. */
struct json_out {
	int err;
};

/* A JSON string; bytes that are not UTF-8 (sysfs is not checked)
 * become '?'. */
static json_t *str(const char *s)
{
	json_t *j;
	char *copy, *p;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j || !(copy = strdup(s)))
		return j;
	for (p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static json_t *num(int v)
{
	return v == PERFCTR_UNKNOWN ? json_null() : json_integer(v);
}

static json_t *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return json_string(buf);
}

static void set(struct json_out *o, json_t *obj, const char *key, json_t *v)
{
	if (!v || json_object_set_new(obj, key, v))
		o->err = -ENOMEM;
}

static void append(struct json_out *o, json_t *arr, json_t *v)
{
	if (!v || json_array_append_new(arr, v))
		o->err = -ENOMEM;
}

/* Builds an object from key, value pairs (ends at NULL key). */
static json_t *obj(struct json_out *o, const char *key, ...)
{
	json_t *j = json_object();
	va_list ap;

	if (!j)
		o->err = -ENOMEM;
	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *))
		if (j)
			set(o, j, key, va_arg(ap, json_t *));
		else
			json_decref(va_arg(ap, json_t *));
	va_end(ap);
	return j;
}

static json_t *attrs_map(struct json_out *o, const struct perfctr_dump_attr *a,
			 unsigned int n)
{
	json_t *j = json_object();
	unsigned int i;

	for (i = 0; j && i < n; i++)
		set(o, j, a[i].name, str(a[i].desc));
	return j;
}

static json_t *event(struct json_out *o, const struct perfctr_dump_event *e)
{
	json_t *umasks = json_array(), *mods = json_array();
	const struct perfctr_dump_attr *a;
	unsigned int i;

	for (i = 0; umasks && mods && i < e->n_attrs; i++) {
		a = &e->attrs[i];
		if (a->kind == PERFCTR_ATTR_UMASK)
			append(o, umasks, obj(o, "name", str(a->name),
					      "description", str(a->desc),
					      "default", json_boolean(a->is_default),
					      NULL));
		else
			append(o, mods, obj(o, "name", str(a->name),
					    "description", str(a->desc),
					    "value", json_string(
						a->kind == PERFCTR_ATTR_INT ?
						"integer" : "boolean"),
					    NULL));
	}
	return obj(o, "name", str(e->name), "description", str(e->desc),
		   "source", json_string(sources[e->source]),
		   "umasks", umasks, "modifiers", mods, NULL);
}

static json_t *pmu(struct json_out *o, const struct perfctr_dump_pmu *p)
{
	json_t *events = json_array(), *pfm = json_null();
	unsigned int i;

	for (i = 0; events && i < p->n_events; i++)
		append(o, events, event(o, &p->events[i]));
	if (p->pfm_name)
		pfm = obj(o, "name", str(p->pfm_name),
			  "description", str(p->pfm_desc), NULL);
	return obj(o, "name", str(p->name), "type", num(p->type),
		   "cpus", str(p->cpus), "cpus_from", str(p->cpus_file),
		   "span", json_string(perfctr_span__name(p->span)),
		   "libpfm4", pfm,
		   "software", json_boolean(p->software),
		   "counters", obj(o, "general", num(p->general),
				   "general_why", str(p->general_why),
				   "general_bits", num(p->general_bits),
				   "fixed", num(p->fixed),
				   "fixed_bits", num(p->fixed_bits), NULL),
		   "caps", attrs_map(o, p->caps, p->n_caps),
		   "terms", attrs_map(o, p->terms, p->n_terms),
		   "events", events, NULL);
}

static json_t *generic(struct json_out *o, const struct perfctr_dump_generic *g)
{
	char why[256] = "";

	if (g->tried && g->open_err)
		perfctr_trial__explain(g->open_err, why, sizeof(why));
	return obj(o, "name", str(g->name), "type", json_integer(g->enc.type),
		   "config", hex(g->enc.config),
		   "opens", g->tried ? json_boolean(!g->open_err) : json_null(),
		   "error", why[0] ? str(why) : json_null(), NULL);
}

static json_t *encoding(struct json_out *o, const struct perfctr_encoding *e)
{
	if (!e)
		return json_null();
	return obj(o, "type", json_integer(e->type), "config", hex(e->config),
		   "config1", hex(e->config1), "config2", hex(e->config2),
		   "flags", hex(e->flags), NULL);
}

static json_t *holder(struct json_out *o, const struct perfctr_holder *h)
{
	json_t *ctrs = json_array();
	const struct perfctr_request *r;
	unsigned int i;

	for (i = 0; ctrs && i < h->n; i++) {
		r = &h->reqs[i];
		append(o, ctrs, obj(o, "idx", json_integer(r->idx),
				    "id", str(r->id), "event", str(r->event),
				    "plm", str(r->plm < ARRAY_SIZE(plms) ?
					       plms[r->plm] : NULL),
				    "src", str(r->src),
				    "multiplex", json_boolean(r->mux),
				    "group", r->group[0] ? str(r->group) :
					     json_null(),
				    "encoding", encoding(o, h->encs ?
							 &h->encs[i] : NULL),
				    NULL));
	}
	return obj(o, "module", str(h->module),
		   "hash", h->hash[0] ? str(h->hash) : json_null(),
		   "problem", str(h->problem), "counters", ctrs, NULL);
}

static json_t *build(struct json_out *o, const struct perfctr_dump *d)
{
	json_t *pmus = json_array(), *gen = json_array(), *mods = json_array();
	unsigned int i;

	for (i = 0; pmus && i < d->n_pmus; i++)
		append(o, pmus, pmu(o, &d->pmus[i]));
	for (i = 0; gen && i < d->n_generic; i++)
		append(o, gen, generic(o, &d->generic[i]));
	for (i = 0; mods && i < d->n_holders; i++)
		append(o, mods, holder(o, &d->holders[i]));
	return obj(o, "version", json_integer(DUMP_JSON_VERSION),
		   "pmus", pmus, "generic", gen,
		   "in_use", obj(o, "nmi_watchdog",
				 json_boolean(d->nmi_watchdog),
				 "modules", mods, NULL), NULL);
}

int perfctr_dump__write_json(const struct perfctr_dump *d, FILE *f)
{
	struct json_out o = { 0 };
	json_t *root = build(&o, d);
	int ret = o.err;

	if (!ret && json_dumpf(root, f, JSON_INDENT(1)) == 0 &&
	    fputc('\n', f) != EOF && !fflush(f) && !ferror(f))
		ret = 0;
	else if (!ret)
		ret = -EIO;
	json_decref(root);
	return ret;
}
