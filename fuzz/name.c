// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * name.c - libFuzzer harness: any bytes (up to the first NUL) as an event
 * name with perf-style modifiers, through perfctr_name__parse, the split
 * both the translator and perfctr-run make first.  What it promises:
 * 0 or -EINVAL with a message; on success a non-empty base that the name
 * starts with, only known levels, at most 3 'p's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libperfctr.h"

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "name: %s:%d: %s\n", __FILE__,		\
			__LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfctr_name n;
	char *name = malloc(size + 1), err[256];
	size_t len;
	int ret;

	if (!name)
		abort();
	memcpy(name, data, size);
	name[size] = '\0';
	err[0] = '\0';
	ret = perfctr_name__parse(name, &n, err, sizeof(err));
	if (ret) {
		CHECK(ret == -EINVAL && err[0]);
	} else {
		len = strnlen(n.base, sizeof(n.base));
		CHECK(len > 0 && len < sizeof(n.base));
		CHECK(!strncmp(name, n.base, len));
		CHECK(!(n.plm & ~(unsigned int)(PERFCTR_PLM_ALL | PERFCTR_PLM_HV)));
		CHECK(!(n.gh & ~(unsigned int)(PERFCTR_GH_GUEST | PERFCTR_GH_HOST)));
		CHECK(n.precise <= 3);
	}
	free(name);
	return 0;
}
