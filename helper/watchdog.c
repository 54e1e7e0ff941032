/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * watchdog.c - the kernel's hard-lockup (NMI) watchdog takes one cycles
 * counter on every CPU for as long as it runs: a script that needs every
 * counter must know.
 */
#include <stdio.h>
#include "internal.h"

#define NMI_WATCHDOG "/proc/sys/kernel/nmi_watchdog"

int perfctr_watchdog__holds_counter(void)
{
	FILE *f = fopen(NMI_WATCHDOG, "re");
	int on = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &on) != 1)
		on = 0;
	fclose(f);
	return on == 1;
}
