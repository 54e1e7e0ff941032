// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-assign-roundtrip.c - what perfctr-run writes, the module reads
 * back as written: random assignments of every record kind (a counter's
 * encoding and flags, its unit and scale, its sockets, its encodings per
 * core PMU, a group's descriptors), valid for the table of
 * assign-table.h, written by the helper's writers (rt_write), parsed by
 * the module's parser (runtime/perfctr_assign.c), compared field by
 * field with what was written; then written again from what was parsed:
 * the same text, parsed again: the same slots.
 */
#include <stdarg.h>

#include "kcompat.h"
#include "perfctr_assign.c"
#include "assign-table.h"
#include "roundtrip.h"
#include "tap.h"

#define ROUNDS 20000

static void __attribute__((format(printf, 1, 2))) diag(const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tap_diag(buf);
}

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned long long rnd(void)	/* xorshift64*: the same every run */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static unsigned int below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

/* Any 64-bit value, small ones often. */
static unsigned long long value(void)
{
	switch (below(4)) {
	case 0: return 0;
	case 1: return below(256);
	case 2: return rnd() >> below(64);
	default: return rnd();
	}
}

/* A type the module counts; a core PMU's only, for a CPU record of a
 * counter without .cpus. */
static unsigned int type_for(int core)
{
	static const unsigned int any[] = { 0, 1, 3, 4, 6, 13, 0xffffffff };
	unsigned int t;

	do
		t = any[below(sizeof(any) / sizeof(any[0]))];
	while (core && t == 1);
	return t;
}

static void enc_rand(struct rt_enc *e, int core)
{
	e->type = type_for(core);
	e->config = value();
	e->config1 = value();
	e->config2 = value();
}

/* Flags request r may have: any the module's own check takes
 * (perfctr_flags_agree()), the free ones at random. */
static unsigned int flags_for(const struct perfctr_request_desc *r)
{
	unsigned int f;

	do
		f = below(PERFCTR_F_ALL + 1);
	while (!perfctr_flags_agree(f, r));
	return f;
}

/* cpus[] as a sysfs list ("0-2,5"), maximal runs, into buf. */
static void list_of(const int *in, char *buf, size_t len)
{
	size_t n = 0;
	int cpu, lo;

	buf[0] = '\0';
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!in[cpu])
			continue;
		for (lo = cpu; cpu + 1 < MAX_CPUS && in[cpu + 1]; cpu++)
			;
		n += lo == cpu ?
		     snprintf(buf + n, len - n, "%s%d", n ? "," : "", lo) :
		     snprintf(buf + n, len - n, "%s%d-%d", n ? "," : "", lo,
			      cpu);
	}
}

/* CPU records: every CPU (a subset with .cpus) to one of 1..4 core PMUs. */
static void cores_rand(struct rt_counter *c, const struct perfctr_request_desc *r)
{
	int owner[MAX_CPUS], in[MAX_CPUS], cpu, any = 0;
	unsigned int k, n = 1 + below(RT_CORES);

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		owner[cpu] = r->cpus && below(3) == 0 ? -1 : (int)below(n);
		any |= owner[cpu] >= 0;
	}
	if (!any)
		owner[below(MAX_CPUS)] = 0;
	c->ncore = 0;
	for (k = 0; k < n; k++) {
		for (cpu = 0, any = 0; cpu < MAX_CPUS; cpu++)
			any |= in[cpu] = owner[cpu] == (int)k;
		if (!any)
			continue;
		enc_rand(&c->core[c->ncore], !r->cpus);
		list_of(in, c->cpus[c->ncore], sizeof(c->cpus[0]));
		c->ncore++;
	}
}

static void counter_rand(struct rt_counter *c,
			 const struct perfctr_request_desc *r)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
				    "opqrstuvwxyz0123456789_./-";
	unsigned int k, n;
	int cpu;

	memset(c, 0, sizeof(*c));
	c->present = 1;
	enc_rand(&c->enc, 0);
	c->flags = flags_for(r);
	if (below(2)) {
		c->mult = 1 + (value() & ((1ULL << 53) - 2));
		c->shift = below(PERFCTR_SCALE_SHIFT_MAX + 1);
		n = below(PERFCTR_UNIT_MAX);
		for (k = 0; k < n; k++)
			c->unit[k] = chars[below(sizeof(chars) - 1)];
	}
	if (r->scope == PERFCTR_SCOPE_SOCKET)
		for (cpu = 0; cpu < MAX_CPUS && c->nsock < RT_SOCKETS; cpu++)
			if (below(2) || (cpu == MAX_CPUS - 1 && !c->nsock))
				c->sock[c->nsock++] = cpu;
	if (perfctr_core_encoded(r) && (r->cpus || below(2)))
		cores_rand(c, r);
}

static void assign_rand(struct rt_assign *a)
{
	unsigned int i;

	memset(a, 0, sizeof(*a));
	a->hash = table.hash;
	a->n = NREQS;
	for (i = 0; i < NREQS; i++)
		if (reqs[i].id)
			counter_rand(&a->c[i], &reqs[i]);
	a->group_leader = (int)groups[0].leader;
	a->ncpu = 1 + below(MAX_CPUS);
	a->fd0 = below(3) ? below(1024) : (unsigned int)INT_MAX -
		 a->ncpu * groups[0].n - below(2);
}

static int enc_equal(const struct rt_enc *a, const struct rt_enc *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2;
}

static int counter_equal(const struct rt_counter *a,
			 const struct rt_counter *b)
{
	unsigned int k;

	if (a->present != b->present || !enc_equal(&a->enc, &b->enc) ||
	    a->flags != b->flags || a->mult != b->mult ||
	    (a->mult && a->shift != b->shift) || strcmp(a->unit, b->unit) ||
	    a->nsock != b->nsock || a->ncore != b->ncore)
		return 0;
	for (k = 0; k < a->nsock; k++)
		if (a->sock[k] != b->sock[k])
			return 0;
	for (k = 0; k < a->ncore; k++)
		if (!enc_equal(&a->core[k], &b->core[k]) ||
		    strcmp(a->cpus[k], b->cpus[k]))
			return 0;
	return 1;
}

static int assign_equal(const struct rt_assign *a, const struct rt_assign *b)
{
	unsigned int i;

	for (i = 0; i < NREQS; i++)
		if (!counter_equal(&a->c[i], &b->c[i]))
			return 0;
	return a->group_leader == b->group_leader && a->fd0 == b->fd0 &&
	       a->ncpu == b->ncpu;
}

/* The parsed slots as numbers again. */
static void assign_from(struct rt_assign *a, const struct perfctr_slot *s,
			const struct perfctr_group_slot *g)
{
	unsigned int i, k, j;
	int in[MAX_CPUS], cpu;

	memset(a, 0, sizeof(*a));
	a->hash = table.hash;
	a->n = NREQS;
	for (i = 0; i < NREQS; i++) {
		struct rt_counter *c = &a->c[i];

		if (!s[i].assigned)
			continue;
		c->present = 1;
		c->enc = (struct rt_enc){ s[i].type, s[i].config,
					  s[i].config1, s[i].config2 };
		c->flags = s[i].flags;
		c->mult = s[i].scale_mult;
		c->shift = s[i].scale_shift;
		snprintf(c->unit, sizeof(c->unit), "%s", s[i].unit);
		c->nsock = s[i].nsock;
		for (k = 0; k < s[i].nsock; k++)
			c->sock[k] = (int)s[i].sock_cpu[k];
		c->ncore = s[i].nenc;
		for (k = 0; k < s[i].nenc; k++) {
			const struct perfctr_cpu_enc *e = &s[i].enc[k];

			c->core[k] = (struct rt_enc){ e->type, e->config,
						      e->config1, e->config2 };
			memset(in, 0, sizeof(in));
			for (j = 0; j < e->nrange; j++)
				for (cpu = (int)e->lo[j]; cpu <= (int)e->hi[j];
				     cpu++)
					in[cpu] = 1;
			list_of(in, c->cpus[k], sizeof(c->cpus[0]));
		}
	}
	a->group_leader = g[0].assigned ? (int)groups[0].leader : -1;
	a->fd0 = g[0].fd0;
	a->ncpu = g[0].ncpu;
}

static int parse(const char *text, struct perfctr_slot *s,
		 struct perfctr_group_slot *g, char *err, size_t errlen)
{
	char copy[4096];

	snprintf(copy, sizeof(copy), "%s", text);
	err[0] = '\0';
	return perfctr_assign_parse(copy, &table, s, g, err, errlen);
}

int main(void)
{
	static char text[4096], again[4096];
	struct perfctr_slot s[NREQS], s2[NREQS];
	struct perfctr_group_slot g[1], g2[1];
	struct rt_assign a, b;
	unsigned int round, bad_parse = 0, bad_fields = 0, bad_text = 0;
	unsigned int bad_again = 0, records = 0;
	char err[256];
	const char *p;

	for (round = 0; round < ROUNDS; round++) {
		assign_rand(&a);
		if (rt_write(&a, text, sizeof(text))) {
			diag("round %u: the writer ran out of room", round);
			bad_parse++;
			continue;
		}
		for (p = text; (p = strchr(p, ';')); p++)
			records++;
		if (parse(text, s, g, err, sizeof(err))) {
			if (!bad_parse++)
				diag("%s\n  refused: %s", text, err);
			continue;
		}
		assign_from(&b, s, g);
		if (!assign_equal(&a, &b) && !bad_fields++)
			diag("%s\n  read back otherwise", text);
		if (rt_write(&b, again, sizeof(again)) ||
		    strcmp(text, again)) {
			if (!bad_text++)
				diag("%s\n  written again: %s", text, again);
			continue;
		}
		if ((parse(again, s2, g2, err, sizeof(err)) ||
		     memcmp(s, s2, sizeof(s)) || memcmp(g, g2, sizeof(g))) &&
		    !bad_again++)
			diag("%s\n  parsed again otherwise", again);
	}
	diag("%u assignments, %u records", ROUNDS, records);
	is_int(bad_parse, 0, "every assignment the helper writes, the module "
	       "accepts");
	is_int(bad_fields, 0, "  and reads every field back as written");
	is_int(bad_text, 0, "  written again from what it read: the same text");
	is_int(bad_again, 0, "  parsed again: the same slots");
	return tap_done();
}
