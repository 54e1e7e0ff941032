/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-units.c - what one count of a sysfs event is (helper/units.c):
 * the scale as mult / 2^shift, exact for the kernel's binary fractions;
 * the units and scales of the fixtures' RAPL and IMC events; the unit
 * record perfctr-run appends to the assignment; and malformed .unit and
 * .scale files refused, naming the file and its value.
 */
#include <errno.h>
#include <math.h>
#include "libperfctr.h"
#include "tap.h"
#include "util.h"

#define DEV "sys/bus/event_source/devices/"

/* Good scales: what perf stat reads, and the exact fraction. */
static const struct {
	const char *text;
	uint64_t mult;
	unsigned int shift;
} scales[] = {
	{ "2.3283064365386962890625e-10", 1, 32 },	/* RAPL: 2^-32 J */
	{ "6.103515625e-5", 1, 14 },			/* IMC: 64 B in MiB */
	{ "6.103515625E-5\n", 1, 14 },			/* as skx2s has it */
	{ "1.52587890625e-5", 1, 16 },			/* server RAPL DRAM */
	{ "0.000061035156250", 1, 14 },
	{ "1", 1, 0 },
	{ "64", 64, 0 },				/* no shift below 0 */
	{ "0.75", 3, 2 },
	{ "1e-3", 0x4189374bc6a7fULL, 60 },		/* 1/1000, to 53 bits */
	{ "9007199254740991", 0x1fffffffffffffULL, 0 },	/* 2^53 - 1 */
	{ "0x1p-96", 1, 96 },				/* strtod's hex too */
};

static void parse_good(void)
{
	uint64_t mult;
	unsigned int shift, i;
	int rc;

	for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
		mult = 0;
		shift = 0;
		rc = perfctr_scale__parse(scales[i].text, &mult, &shift);
		ok(rc == 0 && mult == scales[i].mult && shift == scales[i].shift,
		   "scale \"%.*s\": %#llx / 2^%u (rc %d, got %#llx / 2^%u)",
		   (int)strcspn(scales[i].text, "\n"), scales[i].text,
		   (unsigned long long)scales[i].mult,
		   scales[i].shift, rc, (unsigned long long)mult, shift);
	}
}

/* Bad scales: not a number, not above 0, trailing garbage, or beyond
 * what mult / 2^shift can carry. */
static const struct {
	const char *text;
	int rc;
} bad_scales[] = {
	{ "", -EINVAL }, { "abc", -EINVAL }, { "1.5x", -EINVAL },
	{ "1 2", -EINVAL }, { "0", -EINVAL }, { "-2.3e-10", -EINVAL },
	{ "nan", -EINVAL }, { "inf", -EINVAL }, { "1e999", -EINVAL },
	{ "9007199254740992", -ERANGE },		/* 2^53 */
	{ "1e20", -ERANGE },
	{ "0x1p-97", -ERANGE },
	{ "0x3p-97", -ERANGE },				/* 1.5 * 2^-96 */
	{ "1e-40", -ERANGE },
};

static void parse_bad(void)
{
	uint64_t mult;
	unsigned int shift, i;

	for (i = 0; i < sizeof(bad_scales) / sizeof(bad_scales[0]); i++)
		is_int(perfctr_scale__parse(bad_scales[i].text, &mult, &shift),
		       bad_scales[i].rc, "scale \"%s\" refused", bad_scales[i].text);
}

/* The fixtures: adl's RAPL (Joules, 2^-32), skx2s's IMC (MiB, 2^-14,
 * written "6.103515625E-5") and RAPL DRAM (Joules, 2^-16); events
 * without the files, terms, and other PMUs have none. */
static void fixtures(void)
{
	struct perfctr_unit u;
	char err[512] = "";
	int rc;

	rc = perfctr_unit__read(FIXTURES "/adl/sys", "power/energy-pkg/", &u,
				err, sizeof(err));
	ok(rc == 0 && !strcmp(u.unit, "Joules") && u.mult == 1 &&
	   u.shift == 32 && !strcmp(u.scale, "2.3283064365386962890625e-10"),
	   "adl power/energy-pkg/: Joules, 2^-32 (%s)", err);
	rc = perfctr_unit__read(FIXTURES "/skx2s/sys",
				"uncore_imc_0/cas_count_read/", &u, err,
				sizeof(err));
	ok(rc == 0 && !strcmp(u.unit, "MiB") && u.mult == 1 && u.shift == 14,
	   "skx2s uncore_imc_0/cas_count_read/: MiB, 2^-14 (%s)", err);
	rc = perfctr_unit__read(FIXTURES "/skx2s/sys", "power/energy-ram/", &u,
				err, sizeof(err));
	ok(rc == 0 && !strcmp(u.unit, "Joules") && u.mult == 1 && u.shift == 16,
	   "skx2s power/energy-ram/: Joules, 2^-16 (%s)", err);
	rc = perfctr_unit__read(FIXTURES "/skx2s/sys",
				"uncore_imc_0/clockticks/", &u, err,
				sizeof(err));
	ok(rc == 0 && !u.unit[0] && !u.mult, "an event without the files: none");
	rc = perfctr_unit__read(FIXTURES "/skx2s/sys",
				"uncore_imc_0/event=0x4,umask=0x3/", &u, err,
				sizeof(err));
	ok(rc == 0 && !u.unit[0] && !u.mult, "PMU terms: none");
	rc = perfctr_unit__read(FIXTURES "/skx2s/sys", "cycles", &u, err,
				sizeof(err));
	ok(rc == 0 && !u.unit[0] && !u.mult, "a generic event: none");
	rc = perfctr_unit__read(FIXTURES "/skx2s/sys", "nosuch/energy-pkg/", &u,
				err, sizeof(err));
	ok(rc == 0 && !u.unit[0] && !u.mult, "a PMU sysfs lacks: none");
	rc = perfctr_unit__read(FIXTURES "/skx2s/sys", "power/nosuch/", &u, err,
				sizeof(err));
	ok(rc == 0 && !u.unit[0] && !u.mult, "an event the PMU lacks: none");
}

/* The record perfctr-run appends (the module's parser is tested in
 * testsuite/unit/runtime/test-assign). */
static void records(void)
{
	struct perfctr_unit u = { .unit = "Joules", .mult = 1, .shift = 32 };
	char buf[128] = "";

	is_int(perfctr_assign__append_unit(buf, sizeof(buf), 3, &u), 0,
	       "RAPL's unit record appended");
	is_str(buf, ";u3,1,32,Joules", "  as ;uIDX,MULT,SHIFT,UNIT");
	buf[0] = '\0';
	u = (struct perfctr_unit){ .mult = 0x4189374bc6a7fULL, .shift = 60 };
	perfctr_assign__append_unit(buf, sizeof(buf), 0, &u);
	is_str(buf, ";u0,4189374bc6a7f,60,", "a scale without a unit: MULT in hex");
	buf[0] = '\0';
	u = (struct perfctr_unit){ .unit = "MiB" };
	perfctr_assign__append_unit(buf, sizeof(buf), 1, &u);
	is_str(buf, ";u1,1,0,MiB", "a unit without a scale: 1 / 2^0");
	buf[0] = '\0';
	u = (struct perfctr_unit){ 0 };
	perfctr_assign__append_unit(buf, sizeof(buf), 1, &u);
	is_str(buf, "", "neither: no record");
	u = (struct perfctr_unit){ .unit = "Joules", .mult = 1, .shift = 32 };
	is_int(perfctr_assign__append_unit(buf, 10, 3, &u), -ENOSPC,
	       "no room: -ENOSPC");
}

/* Malformed files in a scratch sysfs: refused, naming the file and
 * what is wrong with its value. */
static const struct {
	const char *file, *value;
	int rc;
	const char *why;
} bad_files[] = {
	{ "e.unit", "Joules per second\n", -EINVAL,
	  "/power/events/e.unit: \"Joules per second\" is not a unit the "
	  "module can take: at most 15 characters of [A-Za-z0-9_./-]" },
	{ "e.unit", "MilliJoulesAndMore\n", -EINVAL,
	  "\"MilliJoulesAndMore\" is not a unit the module can take" },
	{ "e.unit", "J,oules\n", -EINVAL, "is not a unit the module can take" },
	{ "e.scale", "abc\n", -EINVAL, "/power/events/e.scale: \"abc\" is not "
	  "a number above 0, as perf reads a scale (strtod)" },
	{ "e.scale", "-2.3283064365386962890625e-10\n", -EINVAL,
	  "is not a number above 0" },
	{ "e.scale", "0\n", -EINVAL, "\"0\" is not a number above 0" },
	{ "e.scale", "2.3e-10 J\n", -EINVAL, "\"2.3e-10 J\" is not a number" },
	{ "e.scale", "\n", -EINVAL, "/power/events/e.scale: empty, not a scale" },
	{ "e.scale", "1e30\n", -ERANGE, "/power/events/e.scale: \"1e30\" is "
	  "out of range: the module takes a scale as m / 2^s, m below 2^53 "
	  "and s at most 96" },
	{ "e.scale", "1e-40\n", -ERANGE, "\"1e-40\" is out of range" },
};

static void malformed(void)
{
	struct perfctr_unit u;
	char err[512], big[300];
	unsigned int i;
	int rc;

	test_mkdtemp();
	test_write(DEV "power/type", "20\n");
	test_write(DEV "power/events/e", "event=0x02\n");
	for (i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		unlink(test_path(DEV "power/events/e.unit"));
		unlink(test_path(DEV "power/events/e.scale"));
		test_write(DEV "power/events/e.unit", "Joules\n");
		test_write(DEV "power/events/e.scale", "1\n");
		test_write(strcmp(bad_files[i].file, "e.unit") ?
			   DEV "power/events/e.scale" : DEV "power/events/e.unit",
			   bad_files[i].value);
		err[0] = '\0';
		rc = perfctr_unit__read(test_path("sys"), "power/e/", &u, err,
					sizeof(err));
		is_int(rc, bad_files[i].rc, "%s \"%.*s\" refused",
		       bad_files[i].file, (int)strcspn(bad_files[i].value, "\n"),
		       bad_files[i].value);
		like(err, bad_files[i].why, "  and says why");
		like(err, test_path("sys/bus/event_source/devices/power/events/"),
		     "  naming the file");
	}
	/* too long to be either */
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	test_write(DEV "power/events/e.scale", big);
	rc = perfctr_unit__read(test_path("sys"), "power/e/", &u, err,
				sizeof(err));
	ok(rc == -EINVAL && strstr(err, "/power/events/e.scale: too long for "
				   "a unit or a scale"),
	   "a scale file of 299 characters: %s", err);
	/* fine again: a unit alone, an empty unit (none) with a scale */
	unlink(test_path(DEV "power/events/e.scale"));
	test_write(DEV "power/events/e.unit", "Joules\n");
	rc = perfctr_unit__read(test_path("sys"), "power/e/", &u, err,
				sizeof(err));
	ok(rc == 0 && !strcmp(u.unit, "Joules") && !u.mult,
	   "a unit without a scale");
	test_write(DEV "power/events/e.unit", "");
	test_write(DEV "power/events/e.scale", "0.25\n");
	rc = perfctr_unit__read(test_path("sys"), "power/e/", &u, err,
				sizeof(err));
	ok(rc == 0 && !u.unit[0] && u.mult == 1 && u.shift == 2,
	   "an empty unit is none; the scale 2^-2");
	test_cleanup();
}

int main(void)
{
	parse_good();
	parse_bad();
	fixtures();
	records();
	malformed();
	return tap_done();
}
