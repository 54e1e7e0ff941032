/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-judge.c - the arithmetic of perfctr-hwcheck's exact counts
 * (testsuite/hw/judge.c): tolerances, signed differences of counts that
 * may go backwards or be far apart, the median verdict, whether a count
 * that is not exact counts the work.
 */
#include <errno.h>
#include <stdint.h>
#include "hwcheck.h"
#include "tap.h"

static void tolerance(void)
{
	is_int(hw_judge_tolerance(20000000, 1, 16), 36,
	       "1 ppm of 20 M instructions + 16 is 36");
	is_int(hw_judge_tolerance(20000001, 1, 16), 37,
	       "a part of a million rounds up, never down");
	is_int(hw_judge_tolerance(999999, 1, 0), 1, "1 ppm of less than a million is 1");
	is_int(hw_judge_tolerance(0, 1, 16), 16, "nothing expected: the slack alone");
	is_int(hw_judge_tolerance(256, 0, 0), 0, "page faults: exact, no tolerance");
	ok(hw_judge_tolerance(UINT64_MAX, 1, 0) == UINT64_MAX / 1000000 + 1,
	   "no overflow for the largest count");
}

static void delta(void)
{
	is_int(hw_judge_delta(100, 250), 150, "b - a");
	is_int(hw_judge_delta(250, 100), -150, "a count that went backwards is negative");
	ok(hw_judge_delta(0, UINT64_MAX) == INT64_MAX, "saturates above");
	ok(hw_judge_delta(UINT64_MAX, 0) == INT64_MIN, "saturates below");
	ok(hw_judge_delta((uint64_t)1 << 40, ((uint64_t)1 << 40) + ((uint64_t)1 << 33)) ==
	   (int64_t)1 << 33, "differences past 2^32 kept whole");
}

static void verdicts(void)
{
	int64_t exact[] = { 0, 0, 0, 0, 0 };
	int64_t one_bad[] = { 0, 3, 0, 5000, 0 };
	int64_t off[] = { 40, 37, 41, 39, 38 };
	int64_t under[] = { -20, -36, -37, -36, -50 };
	int64_t even[] = { 4, 1, 3, 2 };
	struct hw_verdict v;

	ok(hw_judge_errors(exact, 0, 0, &v) == -EINVAL, "no runs: -EINVAL");

	hw_judge_errors(exact, 5, 36, &v);
	ok(v.within && v.exact && v.median == 0, "all exact: within, exact");

	hw_judge_errors(one_bad, 5, 36, &v);
	ok(v.within && !v.exact, "one run hit by interrupts: the median is still within");
	is_int(v.median, 0, "its median");
	is_int(v.max, 5000, "and the bad run is kept as the max");
	is_int(v.min, 0, "min");

	hw_judge_errors(off, 5, 36, &v);
	ok(!v.within, "every run 37..41 over: outside a tolerance of 36");
	is_int(v.median, 39, "median 39");

	hw_judge_errors(under, 5, 36, &v);
	is_int(v.median, -36, "negative median");
	ok(v.within, "|-36| is within 36");

	hw_judge_errors(even, 4, 0, &v);
	is_int(v.median, 2, "even number of runs: the lower middle");
}

static void counts(void)
{
	uint64_t grows_s[] = { 12000, 11800, 15000 }, grows_b[] = { 96000, 95000, 99000 };
	uint64_t jiffy_s[] = { 0, 4000000, 0 }, jiffy_b[] = { 92000000, 96000000, 92000000 };
	uint64_t none_s[] = { 0, 0, 0 }, none_b[] = { 0, 0, 0 };
	uint64_t flat_s[] = { 500, 500, 500 }, flat_b[] = { 500, 510, 500 };
	uint64_t a, b;

	ok(hw_judge_counts(grows_s, grows_b, 3, &a, &b), "a count that grows with the work counts it");
	ok(a == 11800 && b == 95000, "  judged by the least run of each");
	ok(hw_judge_counts(jiffy_s, jiffy_b, 3, &a, &b),
	   "a clock that moves by jiffies counts it, though some short runs read 0");
	ok(!hw_judge_counts(none_s, none_b, 3, &a, &b), "a count that stays 0 does not");
	ok(!hw_judge_counts(flat_s, flat_b, 3, &a, &b), "nor one that does not grow with the work");
}

int main(void)
{
	tolerance();
	delta();
	verdicts();
	counts();
	return tap_done();
}
