/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump.h - what the files of the dump (dump*.c) share with each other
 * and with white-box tests; not part of the public API (libperfctr.h).
 */
#ifndef PERFCTR_DUMP_H
#define PERFCTR_DUMP_H

#include <string.h>
#include "internal.h"

/* dump.c: growing arrays, owned strings, whole files, sorting. */

/* The array arr (n elements of size bytes) with room for one more: arr
 * itself or a bigger copy; NULL when out of memory (arr untouched). */
void *pc_dump_grow(void *arr, unsigned int n, size_t size);
/* Appends one zeroed element to arr (an lvalue, n its count); evaluates
 * to it, or to NULL (nothing changed) when out of memory. */
#define PC_PUSH(arr, n) ({						\
	__typeof__(arr) p_ = pc_dump_grow((arr), (n), sizeof(*(arr)));	\
	if (p_) {							\
		(arr) = p_;						\
		memset(&p_[n], 0, sizeof(*p_));				\
		p_ = &p_[(n)++];					\
	}								\
	p_;								\
})

/* strdup that takes NULL for "". */
char *pc_dump_strdup(const char *s);
/* Reads a whole file below dirfd (at most 1 MiB), without its trailing
 * white space.  Returns its length (*text malloc'd) or a negative errno. */
int pc_dump_read(int dirfd, const char *path, char **text);
/* Sorts attrs by kind, then name. */
void pc_dump_sort_attrs(struct perfctr_dump_attr *a, unsigned int n);
void pc_dump_attrs_free(struct perfctr_dump_attr *a, unsigned int n);
/* Appends a PMU entry named name; NULL when out of memory. */
struct perfctr_dump_pmu *pc_dump_add_pmu(struct perfctr_dump *d,
					 const char *name);

/* dump_sysfs.c: every PMU under SYSFS/bus/event_source/devices, with
 * its type, CPUs, caps, format terms and events/ files. */
int pc_dump_sysfs(struct perfctr_dump *d, const char *root);

/* dump_pfm.c: the libpfm4 PMUs present (perf's pseudo PMUs aside),
 * merged into the sysfs PMU that their events are encoded for. */
int pc_dump_pfm(struct perfctr_dump *d);

/* dump_generic.c: perf's generic events, trial-opened on cpu (or not,
 * cpu < 0). */
int pc_dump_generic(struct perfctr_dump *d, int cpu);

/* dump_names.c: what can be counted here.  A generic event opens unless
 * its trial open said the kernel has no such event; a PMU's events open
 * when the kernel has the PMU (a type in sysfs: libpfm4 alone does not
 * make one).  pc_dump_pmu_why says why not, for a PMU that does not. */
int pc_dump_generic_opens(const struct perfctr_dump_generic *g);
int pc_dump_pmu_opens(const struct perfctr_dump_pmu *p);
void pc_dump_pmu_why(const struct perfctr_dump_pmu *p, char *buf, size_t len);

/* dump_hw.c: counter widths.  The CPU's vendor and its architectural
 * performance monitoring leaf (CPUID 0xA) on x86; zeros elsewhere. */
struct pc_cpuid {
	char vendor[13];	/* "GenuineIntel", "AuthenticAMD", "" */
	unsigned int eax_a, edx_a;	/* CPUID.0xA */
};
void pc_cpuid_read(struct pc_cpuid *c);

enum pc_family { PC_FAM_UNKNOWN, PC_FAM_INTEL, PC_FAM_AMD, PC_FAM_ARM };

/* The family of a PMU's counters: a libpfm4 core PMU by its description
 * ("Intel Skylake"), else the CPU's own PMU by its sysfs name ("cpu":
 * the CPU's vendor; "armv8_pmuv3_0"). */
enum pc_family pc_hw_family(const char *pfm_desc, int pfm_core,
			    const char *sysfs_name, const struct pc_cpuid *c);
/* Fills p's widths (and, for an Intel CPU libpfm4 does not know, its
 * counts) for that family.  CPUID describes this CPU, not a PMU that
 * LIBPFM_FORCE_PMU emulates: forced, Intel widths stay unknown. */
void pc_hw_widths(struct perfctr_dump_pmu *p, enum pc_family fam,
		  const struct pc_cpuid *c, int forced);

#endif /* PERFCTR_DUMP_H */
