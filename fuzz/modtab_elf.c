// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * modtab_elf.c - libFuzzer harness: any bytes as the module file
 * perfctr-run is given.  perfctr_modtab__read must return 0 or a
 * negative errno with a message, never crash, hang or leak, and what it
 * returns must be a table the rest of perfctr-run can trust.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libperfctr.h"
#include "memfile.h"
#include "tabcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct memfile f;
	struct perfctr_modtab tab;
	char err[512];
	int ret;

	err[0] = '\0';
	ret = perfctr_modtab__read(memfile__set(&f, data, size), &tab, err,
				   sizeof(err));
	tabcheck(ret, &tab, err);
	perfctr_modtab__free(&tab);
	return 0;
}
