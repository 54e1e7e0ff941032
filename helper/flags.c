/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flags.c - an assignment's flags (runtime/perfctr_flags.h) in words, for
 * the dump's in-use lines and perfctr-run -v.
 */
#include <errno.h>
#include <stdio.h>
#include "internal.h"

/* Each set of bits under mask that equals value: the levels always, then
 * what else is left out or asked for. */
#define LEVELS (PERFCTR_F_EXCLUDE_USER | PERFCTR_F_EXCLUDE_KERNEL)
static const struct {
	uint32_t mask, value;
	const char *words;
} flag_words[] = {
	{ LEVELS, 0, "user and kernel" },
	{ LEVELS, PERFCTR_F_EXCLUDE_KERNEL, "user only" },
	{ LEVELS, PERFCTR_F_EXCLUDE_USER, "kernel only" },
	{ LEVELS, LEVELS, "neither user nor kernel" },
	{ PERFCTR_F_EXCLUDE_HV, PERFCTR_F_EXCLUDE_HV, "no hypervisor" },
	{ PERFCTR_F_EXCLUDE_GUEST, PERFCTR_F_EXCLUDE_GUEST, "no guest" },
	{ PERFCTR_F_EXCLUDE_HOST, PERFCTR_F_EXCLUDE_HOST, "no host" },
	{ PERFCTR_F_MULTIPLEX, PERFCTR_F_MULTIPLEX, "multiplexed" },
	{ PERFCTR_F_TOPDOWN, PERFCTR_F_TOPDOWN, "topdown" },
};
#undef LEVELS

int perfctr_flags__words(uint32_t flags, char *buf, size_t len)
{
	const char *sep = "";
	size_t i, n = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(flag_words) && n < len; i++) {
		if ((flags & flag_words[i].mask) != flag_words[i].value)
			continue;
		n += snprintf(buf + n, len - n, "%s%s", sep,
			      flag_words[i].words);
		sep = ", ";
	}
	if ((flags & ~PERFCTR_F_ALL) && n < len)
		n += snprintf(buf + n, len - n, ", unknown 0x%x",
			      flags & ~PERFCTR_F_ALL);
	return n < len ? 0 : -ENOSPC;
}
