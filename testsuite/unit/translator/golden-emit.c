// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * golden-emit.c - what the emitter writes for one script, for golden.test:
 * parses, checks and rewrites SCRIPT as the front-end does, then writes
 * the generated tapset's two texts (perfctr_gen.stp, perfctr_gen.stpm).
 *
 *	golden-emit SCRIPT STP-OUT STPM-OUT
 *
 * The runtime's text and hash are placeholders, and no kernel features
 * are probed: the files hold only what emit.c writes.  SCRIPT is named as
 * given (run from its directory, its src= entries and the table hash do
 * not depend on where the tree is).  Messages go to stderr; exit 1 on an
 * error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "emit.h"
#include "parser.h"
#include "rewrite.h"

static char runtime_head[] = "/* the runtime's perfctr.h */\n";
static char runtime_body[] = "/* the runtime's perfctr.c */\n";
static const struct runtime_text runtime = {
	.head = { runtime_head, sizeof(runtime_head) - 1, sizeof(runtime_head) },
	.body = { runtime_body, sizeof(runtime_body) - 1, sizeof(runtime_body) },
};

static int put(const char *path, const struct strbuf *sb)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(sb->buf, 1, sb->len, f) != sb->len || fclose(f)) {
		fprintf(stderr, "golden-emit: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct emit_opts opts = { &runtime, "runtime-hash", "stapdev", NULL };
	struct generated gen;
	struct source src;
	struct model m;
	struct diag d;
	int errors, rc;

	if (argc != 4) {
		fprintf(stderr, "usage: golden-emit SCRIPT STP-OUT STPM-OUT\n");
		return 2;
	}
	if (source__load_file(&src, argv[1]) < 0) {
		fprintf(stderr, "golden-emit: cannot read %s\n", argv[1]);
		return 1;
	}
	model__init(&m, NULL, 0);
	diag__init(&d, stderr);
	errors = parser__run(&src, &m, &d);
	if (!errors)
		errors = check__run(&m, &d);
	if (!errors)
		rewrite__reads(&m);
	rc = errors || emit__generate(&m, &opts, &gen) < 0;
	if (!rc) {
		rc = put(argv[2], &gen.stp) < 0 || put(argv[3], &gen.stpm) < 0;
		emit__free(&gen);
	}
	model__free(&m);
	source__free(&src);
	return rc;
}
