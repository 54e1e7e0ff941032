/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr-hwcheck - the probes scripts/hw-check runs on a machine:
 *
 *   perfctr-hwcheck trial [--seconds S] [--keys FILE]
 *   perfctr-hwcheck count [--iterations N] [--runs R] [--pages P] [--wide]
 *                         [--keys FILE]
 *   perfctr-hwcheck dump [text|json]
 *   perfctr-hwcheck priv [--keys FILE]       (as root)
 *
 * Lines for people on stdout; with --keys, key=value lines appended to
 * FILE.  Exit status 0, 1 when a check failed, 2 for usage or setup
 * errors.  Linked static: it runs where the libraries are not installed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "hwcheck.h"

#define PROG "perfctr-hwcheck"

static const struct option longopts[] = {
	{ "seconds", required_argument, NULL, 's' },
	{ "keys", required_argument, NULL, 'k' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "runs", required_argument, NULL, 'r' },
	{ "pages", required_argument, NULL, 'p' },
	{ "wide", no_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

struct args {
	struct hw_trial_opts trial;
	struct hw_count_opts count;
	const char *keys;
};

static int usage(void)
{
	fprintf(stderr, "usage: " PROG " trial [--seconds S] [--keys FILE]\n"
		"       " PROG " count [--iterations N] [--runs R] [--pages P] "
		"[--wide] [--keys FILE]\n"
		"       " PROG " dump [text|json]\n"
		"       " PROG " priv [--keys FILE]\n");
	return 2;
}

static int number(const char *s, long min, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end || *v < min || *v > max ? -EINVAL : 0;
}

static int parse(int argc, char **argv, struct args *a)
{
	long v;
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (number(optarg, 0, 3600, &v))
				return -EINVAL;
			a->trial.seconds = v;
			break;
		case 'k':
			a->keys = optarg;
			break;
		case 'n':
			if (number(optarg, 1, 1L << 40, &a->count.iterations))
				return -EINVAL;
			break;
		case 'r':
			if (number(optarg, 1, 1000, &v))
				return -EINVAL;
			a->count.runs = v;
			break;
		case 'p':
			if (number(optarg, 1, 1L << 20, &a->count.pages))
				return -EINVAL;
			break;
		case 'w':
			a->count.wide = 1;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

static int run(const char *cmd, struct args *a, FILE *keys)
{
	if (!strcmp(cmd, "trial"))
		return hw_trial_run(&a->trial, stdout, keys);
	if (!strcmp(cmd, "priv"))
		return hw_priv_run(stdout, keys);
	return hw_count_run(&a->count, stdout, keys);
}

static int dump(int argc, char **argv)
{
	char err[512];

	if (argc > 3)
		return usage();
	if (perfctr_dump__print(argc == 3 ? argv[2] : "",
				getenv("PERFCTR_SYSFS_ROOT"), stdout, err,
				sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = {
		.count = { .iterations = 10000000, .runs = 5, .pages = 256 },
	};
	FILE *keys = NULL;
	int ret;

	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "dump"))
		return dump(argc, argv);
	if (strcmp(argv[1], "trial") && strcmp(argv[1], "count") &&
	    strcmp(argv[1], "priv"))
		return usage();
	a.trial.sysfs_root = a.count.sysfs_root = getenv("PERFCTR_SYSFS_ROOT");
	optind = 2;
	if (parse(argc, argv, &a) || optind != argc)
		return usage();
	if (a.keys && !(keys = fopen(a.keys, "a"))) {
		fprintf(stderr, PROG ": %s: %s\n", a.keys, strerror(errno));
		return 2;
	}
	ret = run(argv[1], &a, keys);
	if (keys && fclose(keys))
		ret = -EIO;
	fflush(stdout);
	if (ret < 0) {
		fprintf(stderr, PROG ": %s: %s\n", argv[1], strerror(-ret));
		return 2;
	}
	return ret;
}
