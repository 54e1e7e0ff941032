/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_print.c - --dump-counters[=FORMAT], whole: collect, write, free.
 * The front-end (stap --dump-counters) and the helper (perfctr-run
 * --dump-counters, for machines that run modules but have no stap) share it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

static const struct {
	const char *name;
	int (*write)(const struct perfctr_dump *d, FILE *f);
} formats[] = {
	{ "", perfctr_dump__write_text },
	{ "text", perfctr_dump__write_text },
	{ "json", perfctr_dump__write_json },
	{ "names", perfctr_dump__write_names },
};

int perfctr_dump__print(const char *format, const char *sysfs_root,
			FILE *out, char *err, size_t errlen)
{
	struct perfctr_dump_opts opts = { .sz = sizeof(opts) };
	struct perfctr_dump *d;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(format, formats[i].name))
			break;
	if (i == ARRAY_SIZE(formats))
		return pc_err(err, errlen, -EINVAL, "unknown --dump-counters "
			      "format \"%s\"; known: text, json, names",
			      format);
	opts.sysfs_root = sysfs_root;
	ret = perfctr_dump__collect(&opts, &d);
	if (ret)
		return pc_err(err, errlen, ret, "cannot collect the counters: "
			      "%s", strerror(-ret));
	ret = formats[i].write(d, out);
	perfctr_dump__free(d);
	if (ret)
		return pc_err(err, errlen, ret, "cannot write the dump: %s",
			      strerror(-ret));
	return 0;
}
