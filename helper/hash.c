/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hash.c - FNV-1a 64: the table hash and the translator's
 * content-addressed names.  Small, stable, and the same everywhere.
 */
#include "internal.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME  0x100000001b3ull

uint64_t perfctr_hash__init(void)
{
	return FNV_OFFSET;
}

uint64_t perfctr_hash__add(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		h ^= *s++;
		h *= FNV_PRIME;
	}
	return h;
}
