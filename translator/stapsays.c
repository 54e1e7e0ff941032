// SPDX-License-Identifier: GPL-2.0-or-later
/* stapsays.c - stap's own errors, before ours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spawn.h"
#include "stapsays.h"

/* The kinds of stap's messages we pass on, by how they begin. */
static const struct {
	const char *prefix;
	enum diag_kind kind;
} stap_errors[] = {
	{ "parse error:", DIAG_PARSE },
	{ "semantic error:", DIAG_SEMANTIC },
};

static int error_kind(const char *line, size_t len)
{
	size_t i, n;

	for (i = 0; i < sizeof(stap_errors) / sizeof(stap_errors[0]); i++) {
		n = strlen(stap_errors[i].prefix);
		if (len >= n && !memcmp(line, stap_errors[i].prefix, n))
			return stap_errors[i].kind;
	}
	return -1;
}

static int names_hidden(const char *text, size_t len,
			const char *const *hide)
{
	for (; *hide; hide++)
		if (**hide && memmem(text, len, *hide, strlen(*hide)))
			return 1;
	return 0;
}

/* Where the message starting at p ends: at the next line that starts in
 * column 1 with anything but a newline (stap indents the rest). */
static const char *block_end(const char *p, const char *end)
{
	const char *nl;

	while ((nl = memchr(p, '\n', end - p)) && nl + 1 < end &&
	       (nl[1] == ' ' || nl[1] == '\t' || nl[1] == '\n'))
		p = nl + 1;
	return nl ? nl + 1 : end;
}

static void relay_block(const char *p, size_t len, enum diag_kind kind,
			const struct spawn_map *map, struct diag *d)
{
	char *mapped = NULL;
	size_t mlen = 0;
	FILE *f = open_memstream(&mapped, &mlen);
	int line = 0;

	if (!f)
		return;
	if (map)
		spawn__write_mapped(f, p, len, map, &line);
	else
		fwrite(p, 1, len, f);
	fclose(f);
	diag__relay(d, kind, mapped, mlen);
	free(mapped);
}

int stapsays__relay(const char *err, size_t len, const struct spawn_map *map,
		    const char *const *hide, struct diag *d)
{
	const char *p = err, *end = err + len, *next;
	int kind, n = 0;

	for (; p < end; p = next) {
		next = block_end(p, end);
		kind = error_kind(p, next - p);
		if (kind < 0 || names_hidden(p, next - p, hide))
			continue;
		relay_block(p, next - p, kind, map, d);
		n++;
	}
	return n;
}
