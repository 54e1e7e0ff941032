// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * translator.c - libFuzzer harness: any bytes as a script, through the
 * translator's passes as frontend.c runs them (parse, check, generate),
 * then everything freed.  Must never crash, hang or leak.
 *
 * The text is held as source__load_fd holds a script file: NUL bytes
 * included, one NUL after the end.  Each input runs twice, without and
 * with a stap target (-c/-x), which changes what .process means.
 *
 * What the translator generates must be what perfctr-run accepts: the
 * MODULE_INFO entries of the generated tapset (all of them, as if every
 * conditional were taken) go into a .modinfo section that the helper's
 * own reader must take without complaint (tabcheck.h).
 *
 * A checked script's reads are rewritten as calls of their sites: the
 * text keeps its length and every newline where it was (line:column of
 * everything else), and -v's notes are written.
 *
 * The same bytes (to the first NUL) are also a stap -l / -L pattern, as
 * listing.c reads one: parsed, and matched against a few events in both
 * forms; and stap's stderr, whose errors go before ours (stapsays.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "elfwrap.h"
#include "emit.h"
#include "memfile.h"
#include "parser.h"
#include "probematch.h"
#include "rewrite.h"
#include "stapsays.h"
#include "tabcheck.h"

/* Script arguments for @N / $N in clauses: a name, an id, a number, a
 * path. */
static char *args[] = { "cycles", "c0", "1000", "/bin/true" };

/* Appends KEY=VALUE and a NUL to info for each MODULE_INFO(KEY, "...")
 * in stp, undoing the C escapes emit.c writes (\ooo).  The text may hold
 * NUL bytes (copied conditions). */
static void modinfo_of(const struct strbuf *stp, struct strbuf *info)
{
	static const char *const keys[] = { "perfctr_table", "perfctr_req" };
	const char *p, *end = stp->buf + stp->len;
	char key[64];
	size_t i, n;

	for (i = 0; i < 2; i++) {
		n = snprintf(key, sizeof(key), "MODULE_INFO(%s, \"", keys[i]);
		for (p = stp->buf; (p = memmem(p, end - p, key, n)); ) {
			strbuf__printf(info, "%s=", keys[i]);
			for (p += n; p < end && *p != '"'; p++) {
				char c = *p;

				if (c == '\\' && end - p > 3) {
					c = (p[1] - '0') << 6 | (p[2] - '0') << 3 |
					    (p[3] - '0');
					p += 3;
				}
				strbuf__add(info, &c, 1);
			}
			strbuf__add(info, "", 1);
		}
	}
}

/* The helper reads what the translator wrote, whole. */
static void read_back(const struct generated *gen)
{
	static struct memfile f;
	struct strbuf info = { 0 };
	struct perfctr_modtab tab;
	char err[512];
	size_t len;
	void *elf;
	int ret;

	modinfo_of(&gen->stp, &info);
	elf = elfwrap((const uint8_t *)info.buf, info.len, &len);
	err[0] = '\0';
	ret = perfctr_modtab__read(memfile__set(&f, elf, len), &tab, err,
				   sizeof(err));
	if (ret)
		fprintf(stderr, "translator: perfctr-run refuses the table: %s\n",
			err);
	TABCHECK(ret == 0 && tab.version == 1);
	TABCHECK(!strcmp(tab.hash, gen->table_hash));
	tabcheck(ret, &tab, err);
	perfctr_modtab__free(&tab);
	free(elf);
	strbuf__free(&info);
}

/* Blanking and rewriting moved nothing: every newline where it was (the
 * length never changes). */
static void lines_kept(const struct source *src)
{
	const char *was = source__as_read(src);
	size_t i;

	for (i = 0; i < src->len; i++)
		if ((was[i] == '\n') != (src->text[i] == '\n'))
			abort();
}

/* The runtime's text, as the emitter embeds it: a stand-in. */
static char runtime_head[] = "/* runtime: perfctr.h */\n";
static char runtime_body[] = "/* runtime: perfctr.c */\n";
static const struct runtime_text runtime = {
	.head = { runtime_head, sizeof(runtime_head) - 1, sizeof(runtime_head) },
	.body = { runtime_body, sizeof(runtime_body) - 1, sizeof(runtime_body) },
};

static void run(const uint8_t *data, size_t size, int has_target, FILE *out)
{
	struct emit_opts opts = {
		.runtime = &runtime,
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
		check__describe(&m, &d);
		rewrite__reads(&m);
		lines_kept(&src);
		if (!emit__generate(&m, &opts, &gen))
			read_back(&gen);
		emit__free(&gen);
	}
	diag__summary(&d);
	model__free(&m);
	source__free(&src);
}

static void count_point(const char *point, void *ctx)
{
	(*(size_t *)ctx) += strlen(point) > 0;
}

static void pattern(const uint8_t *data, size_t size)
{
	static const char *const events[] = {
		"cycles", "cpu/event=0x3c/", "a\"b", "INST_RETIRED:ANY_P",
	};
	/* each tag the dump's names may carry after an event */
	static const char *const marks[] = {
		NULL, PERFCTR_NAMES_SOCKET, PERFCTR_NAMES_IMPRECISE,
		PERFCTR_NAMES_CPUS "(\"cpu_atom\")",
	};
	char *text = strndup((const char *)data, size), err[256];
	struct pm_pattern p;
	size_t i, k, n = 0;

	if (!text)
		abort();
	if (!probematch__is_perfctr(text) ||
	    probematch__parse(text, &p, err, sizeof(err))) {
		free(text);
		return;
	}
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		for (k = 0; k < sizeof(marks) / sizeof(marks[0]); k++) {
			probematch__event(&p, events[i], marks[k], 0,
					  count_point, &n);
			probematch__event(&p, events[i], marks[k], 1,
					  count_point, &n);
		}
	probematch__unknown_component(&p);
	probematch__event_literal(&p);
	free(text);
}

/* The bytes as stap's stderr: its errors passed on, mapped. */
static void stap_says(const uint8_t *data, size_t size, FILE *out)
{
	static const char *const hide[] = { "/gen/tapset", NULL };
	struct source src;
	struct spawn_map map = { "/gen/t.stp", "t.stp", &src };
	struct diag d;

	source__from_string(&src, SRC_FILE, "t.stp", "probe begin {}\n", -1);
	diag__init(&d, out);
	stapsays__relay((const char *)data, size, &map, hide, &d);
	stapsays__relay((const char *)data, size, NULL, hide, &d);
	source__free(&src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;

	if (!out && !(out = fopen("/dev/null", "w")))
		abort();
	run(data, size, 0, out);
	run(data, size, 1, out);
	pattern(data, size);
	stap_says(data, size, out);
	return 0;
}
