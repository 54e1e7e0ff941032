/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * judge.c - the arithmetic of an exact count: each run's error against
 * what the work must retire, their median, the tolerance.  The median,
 * not every run: one run that a burst of interrupts (or an SMI) hit may
 * be off where the others are exact, and it is still reported (min, max).
 */
#include <errno.h>
#include <stdlib.h>
#include "hwcheck.h"

uint64_t hw_judge_tolerance(uint64_t expected, unsigned int ppm,
			    uint64_t slack)
{
	/* rounded up: a tolerance never rounds to less than it says */
	return expected / 1000000 * ppm +
	       (expected % 1000000 * ppm + 999999) / 1000000 + slack;
}

int64_t hw_judge_delta(uint64_t a, uint64_t b)
{
	if (b >= a)
		return b - a > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(b - a);
	return a - b > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)(a - b);
}

static uint64_t least(const uint64_t *v, unsigned int n)
{
	uint64_t l = v[0];
	unsigned int i;

	for (i = 1; i < n; i++)
		if (v[i] < l)
			l = v[i];
	return l;
}

int hw_judge_counts(const uint64_t *small, const uint64_t *big,
		    unsigned int n, uint64_t *least_small, uint64_t *least_big)
{
	unsigned int i;
	int counted = 0;

	for (i = 0; i < n; i++)
		counted |= small[i] > 0;
	*least_small = least(small, n);
	*least_big = least(big, n);
	return counted && *least_big > *least_small;
}

static int cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

int hw_judge_errors(int64_t *err, unsigned int n, uint64_t tolerance,
		    struct hw_verdict *v)
{
	unsigned int i;

	if (n == 0)
		return -EINVAL;
	qsort(err, n, sizeof(*err), cmp);
	v->median = err[(n - 1) / 2];
	v->min = err[0];
	v->max = err[n - 1];
	v->tolerance = tolerance;
	v->within = magnitude(v->median) <= tolerance;
	v->exact = 1;
	for (i = 0; i < n; i++)
		v->exact &= err[i] == 0;
	return 0;
}
