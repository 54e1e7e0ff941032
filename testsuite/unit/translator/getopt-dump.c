// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * getopt-dump.c - an LD_PRELOAD library for stap-options.test: the first
 * getopt_long() call of the program prints the option table it was given
 * ("short OPTSTRING", then "long NAME HAS_ARG" per entry) to the file
 * $GETOPT_DUMP and exits.  Run under the real stap and under stap-perfctr,
 * it shows both tables as the programs themselves hold them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int getopt_long(int argc, char *const argv[], const char *optstring,
		const struct option *longopts, int *longindex)
{
	const char *path = getenv("GETOPT_DUMP");
	FILE *f = path ? fopen(path, "w") : NULL;

	(void)argc, (void)argv, (void)longindex;
	if (!f)
		_exit(99);
	fprintf(f, "short %s\n", optstring);
	for (; longopts && longopts->name; longopts++)
		fprintf(f, "long %s %d\n", longopts->name, longopts->has_arg);
	_exit(fclose(f) ? 99 : 0);
}
