/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-dump-hw.c - the dump's counter widths and families, from CPUID
 * values of known CPUs rather than this one's.
 */
#include "dump.h"
#include "tap.h"

/* The width rules, against CPUID values of known CPUs: a Skylake
 * reports version 4, 4 counters of 48 bits, 3 fixed of 48 bits. */
static void widths(void)
{
	struct pc_cpuid intel = { .vendor = "GenuineIntel",
				  .eax_a = 4 | 4 << 8 | 48 << 16 | 7 << 24,
				  .edx_a = 3 | 48 << 5 };
	struct pc_cpuid vm = { .vendor = "GenuineIntel" };
	struct pc_cpuid amd = { .vendor = "AuthenticAMD" };
	struct perfctr_dump_pmu p;

#define FRESH() (memset(&p, 0, sizeof(p)), p.general = p.fixed = \
		 p.general_bits = p.fixed_bits = PERFCTR_UNKNOWN)
	FRESH();
	pc_hw_widths(&p, PC_FAM_INTEL, &intel, 0);
	ok(p.general_bits == 48 && p.fixed_bits == 48 && p.general == 4 &&
	   p.fixed == 3, "Intel: widths and counts from CPUID 0xA");
	FRESH();
	p.general = 8;
	pc_hw_widths(&p, PC_FAM_INTEL, &intel, 0);
	is_int(p.general, 8, "Intel: libpfm4's count is kept");
	FRESH();
	pc_hw_widths(&p, PC_FAM_INTEL, &intel, 1);
	is_int(p.general_bits, PERFCTR_UNKNOWN, "Intel, LIBPFM_FORCE_PMU: this CPU says nothing");
	FRESH();
	pc_hw_widths(&p, PC_FAM_INTEL, &vm, 0);
	is_int(p.general_bits, PERFCTR_UNKNOWN, "Intel, version 0 (a VM): unknown");
	FRESH();
	pc_hw_widths(&p, PC_FAM_INTEL, &amd, 0);
	is_int(p.general_bits, PERFCTR_UNKNOWN, "an Intel PMU on an AMD CPU: unknown");
	FRESH();
	pc_hw_widths(&p, PC_FAM_AMD, &amd, 1);
	ok(p.general_bits == 48 && p.fixed == 0, "AMD: 48 bits, no fixed counters");
	FRESH();
	pc_hw_widths(&p, PC_FAM_ARM, &amd, 0);
	ok(p.general_bits == 32 && p.fixed_bits == 64 && p.fixed == 1,
	   "Arm PMUv3: 32-bit event counters, 64-bit cycle counter");
	ok(p.general == PERFCTR_UNKNOWN && p.general_why &&
	   strstr(p.general_why, "counters available"),
	   "Arm PMUv3: how many event counters, said to be in the boot log");
	FRESH();
	p.general = 6;
	pc_hw_widths(&p, PC_FAM_ARM, &amd, 0);
	ok(p.general == 6 && !p.general_why,
	   "Arm PMUv3: libpfm4's count is kept, with no why");
	FRESH();
	pc_hw_widths(&p, PC_FAM_INTEL, &vm, 0);
	ok(!p.general_why, "Intel VM: unknown, but no Arm why");
	is_int(pc_hw_family("Intel Skylake", 1, "cpu", &amd), PC_FAM_INTEL, "family: libpfm4 Intel");
	is_int(pc_hw_family("AMD64 Fam19h Zen3", 1, "cpu", &intel), PC_FAM_AMD, "family: libpfm4 AMD");
	is_int(pc_hw_family("ARM Neoverse N1", 1, "x", &intel), PC_FAM_ARM, "family: libpfm4 Arm");
	is_int(pc_hw_family("Intel Skylake IMC", 0, "x", &intel), PC_FAM_UNKNOWN, "family: uncore");
	is_int(pc_hw_family(NULL, 0, "cpu", &intel), PC_FAM_INTEL, "family: sysfs cpu, Intel CPU");
	is_int(pc_hw_family(NULL, 0, "cpu_atom", &amd), PC_FAM_AMD, "family: sysfs cpu_atom, by vendor");
	is_int(pc_hw_family(NULL, 0, "armv8_pmuv3_0", &amd), PC_FAM_ARM, "family: sysfs armv8_*");
	is_int(pc_hw_family(NULL, 0, "cpufreq", &intel), PC_FAM_UNKNOWN, "family: other sysfs PMU");
}

int main(void)
{
	widths();
	return tap_done();
}
