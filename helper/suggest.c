/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * suggest.c - "did you mean": keep the few names nearest to a wanted
 * one, by edit distance (adjacent swaps count one, case is ignored).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "internal.h"

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

/* Optimal string alignment distance: Levenshtein plus transpositions,
 * so "cylces" is one edit from "cycles". */
int pc_suggest_distance(const char *a, const char *b)
{
	int rows[3][PERFCTR_NAME_MAX + 1];
	int *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *t;
	size_t la = strnlen(a, PERFCTR_NAME_MAX), lb = strnlen(b, PERFCTR_NAME_MAX);
	size_t i, j;
	int cost;

	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			cost = tolower((unsigned char)a[i - 1]) !=
			       tolower((unsigned char)b[j - 1]);
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

/* A third of the name's length, at least 1 and at most 3: enough for
 * typos, not so much that everything short matches. */
static int limit(const char *want)
{
	int l = strnlen(want, PERFCTR_NAME_MAX) / 3;

	return l < 1 ? 1 : l > 3 ? 3 : l;
}

void pc_suggest_init(struct pc_suggest *s, const char *want)
{
	memset(s, 0, sizeof(*s));
	s->want = want;
	s->limit = limit(want);
}

void pc_suggest_add(const char *name, void *ctx)
{
	struct pc_suggest *s = ctx;
	int d, i;

	if (strlen(name) >= PERFCTR_NAME_MAX)
		return;
	d = pc_suggest_distance(s->want, name);
	if (d > s->limit)
		return;
	for (i = 0; i < s->n; i++)
		if (!strcasecmp(s->name[i], name))
			return;		/* perf's and sysfs's "cpu-cycles" */
	/* Insert sorted by distance; equal ones keep their arrival order. */
	for (i = s->n; i > 0 && s->dist[i - 1] > d; i--)
		if (i < PC_SUGGEST_N) {
			s->dist[i] = s->dist[i - 1];
			strcpy(s->name[i], s->name[i - 1]);
		}
	if (i >= PC_SUGGEST_N)
		return;
	s->dist[i] = d;
	strcpy(s->name[i], name);
	if (s->n < PC_SUGGEST_N)
		s->n++;
}

void pc_suggest_append(const struct pc_suggest *s, const char *suffix,
		       char *err, size_t len)
{
	int i;

	for (i = 0; i < s->n; i++)
		pc_err_append(err, len, "%s\"%s%s\"",
			      i == 0 ? "; did you mean " :
			      i == s->n - 1 ? " or " : ", ",
			      s->name[i], suffix);
	if (s->n)
		pc_err_append(err, len, "?");
}

size_t perfctr_suggest(const char *name, const char *const *cands, size_t n,
		       const char **out, size_t max)
{
	int *dist, d, lim = limit(name);
	size_t i, got = 0;

	dist = n ? malloc(n * sizeof(*dist)) : NULL;
	if (!dist)
		return 0;
	for (i = 0; i < n; i++)
		dist[i] = cands[i] ? pc_suggest_distance(name, cands[i]) : lim + 1;
	for (d = 0; d <= lim; d++)
		for (i = 0; i < n && got < max; i++)
			if (dist[i] == d)
				out[got++] = cands[i];
	free(dist);
	return got;
}
