/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_flags.h - the flags of an assignment record (docs/design.md,
 * "The assignment"): what perfctr-run decided for a request and what the
 * module checks against its own table, then builds its attrs from
 * (perfctr_attr.h).  Shared by the module and the helper.
 */
#ifndef PERFCTR_FLAGS_H
#define PERFCTR_FLAGS_H

#define PERFCTR_F_EXCLUDE_USER		0x1u
#define PERFCTR_F_EXCLUDE_KERNEL	0x2u
#define PERFCTR_F_EXCLUDE_HV		0x4u
/* Not pinned: the counter time-shares the PMU and reads are scaled
 * estimates.  From the request's .multiplex, never from resolution. */
#define PERFCTR_F_MULTIPLEX		0x8u
/* Not counting while a KVM guest runs on the CPU (perf's exclude_guest),
 * or while the host does (exclude_host): docs/reliability.md, "KVM
 * hosts". */
#define PERFCTR_F_EXCLUDE_GUEST		0x10u
#define PERFCTR_F_EXCLUDE_HOST		0x20u
/* One of Intel's topdown events (perfctr_topdown.h), on a PMU that has
 * them: perfctr-run's finding, for a group's perfctr_topdown(). */
#define PERFCTR_F_TOPDOWN		0x40u
#define PERFCTR_F_ALL			0x7fu

/* What one count of a counter is (a sysfs event's .unit and .scale, the
 * assignment's "uIDX,MULT,SHIFT,UNIT"): a unit of at most
 * PERFCTR_UNIT_MAX - 1 characters, and MULT / 2^SHIFT of it. */
#define PERFCTR_UNIT_MAX		16
#define PERFCTR_SCALE_SHIFT_MAX		96

#endif /* PERFCTR_FLAGS_H */
