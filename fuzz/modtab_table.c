// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * modtab_table.c - libFuzzer harness: any bytes as the contents of a
 * module's .modinfo section, in an otherwise well-formed ELF object, so
 * that every input reaches the table parser (modtab.c, kv.c,
 * request.c).  Same promises as modtab_elf.c (tabcheck.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libperfctr.h"
#include "elfwrap.h"
#include "memfile.h"
#include "tabcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct memfile f;
	struct perfctr_modtab tab;
	char err[512];
	size_t len;
	void *elf = elfwrap(data, size, &len);
	int ret;

	err[0] = '\0';
	ret = perfctr_modtab__read(memfile__set(&f, elf, len), &tab, err,
				   sizeof(err));
	free(elf);
	TABCHECK(ret != -ENOEXEC);	/* the ELF around it is sound */
	tabcheck(ret, &tab, err);
	perfctr_modtab__free(&tab);
	return 0;
}
