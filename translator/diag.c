// SPDX-License-Identifier: GPL-2.0-or-later
/* diag.c - errors and warnings in stap's layout. */
#include <stdarg.h>
#include <string.h>

#include "diag.h"

static const char *const kind_prefix[] = {
	[DIAG_PARSE] = "parse error",
	[DIAG_SEMANTIC] = "semantic error",
	[DIAG_WARNING] = "WARNING",
};

void diag__init(struct diag *d, FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
}

static int count(struct diag *d, enum diag_kind kind)
{
	if (kind == DIAG_WARNING) {
		d->warnings++;
		return !d->quiet_warnings;
	}
	d->errors++;
	d->by_kind[kind]++;
	return 1;
}

/* "     source: <line>" then a caret under column col; tabs in the line
 * are copied so the caret lines up in any terminal. */
static void show_source(FILE *out, const char *indent,
			const struct source *src, const struct token *t)
{
	size_t len, i;
	const char *line = source__line(src, t->line, &len);

	fprintf(out, "%ssource: %.*s\n%s        ", indent, (int)len, line,
		indent);
	for (i = 0; i + 1 < (size_t)t->col && i < len; i++)
		fputc(line[i] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

void diag__report(struct diag *d, enum diag_kind kind,
		  const struct source *src, const struct token *t,
		  const char *fmt, ...)
{
	char saw[128];
	va_list ap;

	if (!count(d, kind))
		return;
	token__describe(src, t, saw, sizeof(saw));
	fprintf(d->out, "%s: ", kind_prefix[kind]);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	if (kind == DIAG_PARSE) {
		fprintf(d->out, "\n        saw: %s at %s:%d:%d\n", saw,
			src->name, t->line, t->col);
		show_source(d->out, "     ", src, t);
	} else {
		fprintf(d->out, ": %s at %s:%d:%d\n", saw, src->name, t->line,
			t->col);
		show_source(d->out, "        ", src, t);
	}
	fputc('\n', d->out);
}

void diag__note(struct diag *d, const struct source *src,
		const struct token *t, const char *fmt, ...)
{
	va_list ap;

	fprintf(d->out, "stap-perfctr: %s:%d:%d: ", src->name, t->line, t->col);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
}

void diag__plain(struct diag *d, enum diag_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (!count(d, kind))
		return;
	fprintf(d->out, "%s: ", kind_prefix[kind]);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
}

void diag__relay(struct diag *d, enum diag_kind kind, const char *text,
		 size_t len)
{
	if (count(d, kind))
		fwrite(text, 1, len, d->out);
}

void diag__summary(struct diag *d)
{
	enum diag_kind k;

	for (k = DIAG_PARSE; k < DIAG_WARNING; k++)
		if (d->by_kind[k])
			fprintf(d->out, "%d %s%s.\n", d->by_kind[k],
				kind_prefix[k], d->by_kind[k] == 1 ? "" : "s");
}
