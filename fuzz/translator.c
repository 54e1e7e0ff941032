// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * translator.c - libFuzzer harness: any bytes as a script, through the
 * translator's passes as frontend.c runs them (parse, check, generate),
 * then everything freed.  Must never crash, hang or leak.
 *
 * The text is held as source__load_fd holds a script file: NUL bytes
 * included, one NUL after the end.  Each input runs twice, without and
 * with a stap target (-c/-x), which changes what .process means.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit.h"
#include "parser.h"

/* Script arguments for @N / $N in clauses: a name, an id, a number, a
 * path. */
static char *args[] = { "cycles", "c0", "1000", "/bin/true" };

static void run(const uint8_t *data, size_t size, int has_target, FILE *out)
{
	struct emit_opts opts = {
		.runtime_dir = "/nonexistent/runtime",
		.runtime_hash = "0123456789abcdef",
		.privilege = "stapdev",
	};
	struct source src;
	struct generated gen;
	struct model m;
	struct diag d;

	memset(&src, 0, sizeof(src));
	src.text = malloc(size + 1);
	if (!src.text)
		abort();
	memcpy(src.text, data, size);
	src.text[size] = '\0';
	src.len = size;
	src.name = "fuzz.stp";
	src.argv_index = -1;

	model__init(&m, args, sizeof(args) / sizeof(args[0]));
	m.has_target = has_target;
	diag__init(&d, out);
	parser__mentions_perfctr(src.text);
	if (!parser__run(&src, &m, &d) && model__active(&m) &&
	    !check__run(&m, &d)) {
		emit__generate(&m, &opts, &gen);
		emit__free(&gen);
	}
	diag__summary(&d);
	model__free(&m);
	source__free(&src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;

	if (!out && !(out = fopen("/dev/null", "w")))
		abort();
	run(data, size, 0, out);
	run(data, size, 1, out);
	return 0;
}
