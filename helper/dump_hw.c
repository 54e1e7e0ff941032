/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_hw.c - how wide a PMU's counters are, by family: Intel's from
 * CPUID leaf 0xA (general-purpose width EAX[23:16], fixed width
 * EDX[12:5], version EAX[7:0]); AMD's are 48 bits (AMD64 APM vol. 2,
 * "Performance Counters"); Arm PMUv3 event counters 32 bits and its
 * cycle counter 64 (Arm ARM D7, PMEVCNTR<n>_EL0 / PMCCNTR_EL0).  How
 * many event counters an Arm PMU has (PMCR_EL0.N) is in no sysfs file:
 * drivers/perf/arm_pmuv3.c reads it and arm_pmu.c says it only in its
 * boot message, "hw perfevents: enabled with NAME PMU driver, N counters
 * available", N with the cycle counter (its caps/ files, slots,
 * bus_slots, bus_width, threshold_max, branches, hold other numbers).
 */
#include <string.h>
#include <strings.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "dump.h"

/* libpfm4 core PMUs by the start of their description. */
static const struct {
	const char *prefix;
	enum pc_family fam;
} pfm_families[] = {
	{ "Intel", PC_FAM_INTEL },
	{ "AMD", PC_FAM_AMD },
	{ "Arm", PC_FAM_ARM },		/* "ARM Cortex A57", "Arm Neoverse V2" */
};

/* The CPU's own PMU by its sysfs name; PC_FAM_UNKNOWN: ask the CPU. */
static const struct {
	const char *prefix;
	int exact;
	enum pc_family fam;
} sysfs_families[] = {
	{ "cpu", 1, PC_FAM_UNKNOWN },
	{ "cpu_core", 1, PC_FAM_UNKNOWN },	/* Intel hybrid */
	{ "cpu_atom", 1, PC_FAM_UNKNOWN },
	{ "armv8_", 0, PC_FAM_ARM },
	{ "armv9_", 0, PC_FAM_ARM },
};

static const struct {
	const char *vendor;
	enum pc_family fam;
} vendors[] = {
	{ "GenuineIntel", PC_FAM_INTEL },
	{ "AuthenticAMD", PC_FAM_AMD },
	{ "HygonGenuine", PC_FAM_AMD },
};

#define BITS(v, hi, lo) (((v) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

#if defined(__x86_64__) || defined(__i386__)
void pc_cpuid_read(struct pc_cpuid *c)
{
	unsigned int max, a, b, cx, d;

	memset(c, 0, sizeof(*c));
	if (!__get_cpuid(0, &max, &b, &cx, &d))
		return;
	memcpy(c->vendor, &b, 4);
	memcpy(c->vendor + 4, &d, 4);
	memcpy(c->vendor + 8, &cx, 4);
	if (max >= 0xa && __get_cpuid_count(0xa, 0, &a, &b, &cx, &d)) {
		c->eax_a = a;
		c->edx_a = d;
	}
}
#else
void pc_cpuid_read(struct pc_cpuid *c)
{
	memset(c, 0, sizeof(*c));
}
#endif

static enum pc_family cpu_family(const struct pc_cpuid *c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vendors); i++)
		if (!strcmp(c->vendor, vendors[i].vendor))
			return vendors[i].fam;
	return PC_FAM_UNKNOWN;
}

enum pc_family pc_hw_family(const char *pfm_desc, int pfm_core,
			    const char *sysfs_name, const struct pc_cpuid *c)
{
	size_t i, n;

	if (pfm_desc) {
		for (i = 0; pfm_core && i < ARRAY_SIZE(pfm_families); i++)
			if (!strncasecmp(pfm_desc, pfm_families[i].prefix,
					 strlen(pfm_families[i].prefix)))
				return pfm_families[i].fam;
		return PC_FAM_UNKNOWN;
	}
	for (i = 0; i < ARRAY_SIZE(sysfs_families); i++) {
		n = strlen(sysfs_families[i].prefix);
		if (strncmp(sysfs_name, sysfs_families[i].prefix, n) ||
		    (sysfs_families[i].exact && sysfs_name[n]))
			continue;
		return sysfs_families[i].fam != PC_FAM_UNKNOWN ?
		       sysfs_families[i].fam : cpu_family(c);
	}
	return PC_FAM_UNKNOWN;
}

static void intel(struct perfctr_dump_pmu *p, const struct pc_cpuid *c)
{
	unsigned int version = BITS(c->eax_a, 7, 0);

	if (cpu_family(c) != PC_FAM_INTEL || version == 0)
		return;
	p->general_bits = BITS(c->eax_a, 23, 16);
	if (p->general == PERFCTR_UNKNOWN)
		p->general = BITS(c->eax_a, 15, 8);
	if (version < 2)
		return;
	p->fixed_bits = BITS(c->edx_a, 12, 5);
	if (p->fixed == PERFCTR_UNKNOWN)
		p->fixed = BITS(c->edx_a, 4, 0);
}

void pc_hw_widths(struct perfctr_dump_pmu *p, enum pc_family fam,
		  const struct pc_cpuid *c, int forced)
{
	switch (fam) {
	case PC_FAM_INTEL:
		if (!forced)
			intel(p, c);
		break;
	case PC_FAM_AMD:		/* no fixed counters */
		p->general_bits = 48;
		if (p->fixed == PERFCTR_UNKNOWN)
			p->fixed = 0;
		break;
	case PC_FAM_ARM:		/* the cycle counter is the fixed one */
		p->general_bits = 32;
		p->fixed_bits = 64;
		if (p->fixed == PERFCTR_UNKNOWN)
			p->fixed = 1;
		if (p->general == PERFCTR_UNKNOWN)
			p->general_why = "the kernel says it in no sysfs file, "
					 "only in its boot log: \"N counters "
					 "available\", the cycle counter among "
					 "them";
		break;
	case PC_FAM_UNKNOWN:
		break;
	}
}
