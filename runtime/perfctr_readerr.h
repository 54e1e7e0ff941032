/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_readerr.h - the read outcomes of the runtime's own: what a read
 * answers, besides 0 and a kernel errno, when a counter has no count to
 * give for a reason of this module (not on this CPU's list, not a .socket
 * counter, its group lost, inside perf's reprogramming of the PMU or an
 * update of its count, not a topdown metric), and the message each puts in the error the read
 * raises.  Pure C, no kernel type: the module
 * (perfctr.c decodes them, the reads return them) and the translator
 * (emit.c names PERFCTR_RE_NOT_SOCKET in generated code) share it.
 *
 * Every outcome is below -4095 (-MAX_ERRNO): a read's rc is 0, a negative
 * errno in the kernel's sense, or one of these, never one for another.
 * Constants only: the read path returns and compares them, nothing more.
 */
#ifndef PERFCTR_READERR_H
#define PERFCTR_READERR_H

/*
 * X(NAME, message): PERFCTR_RE_NAME, and what follows the counter's name
 * in its read's error ("perfctr: counter \"pf\" MESSAGE near ...").  NULL:
 * the counter's own message (a .cpus counter's, perfctr_assign.c:
 * "counts on CPUs 0-3 only (.cpus(\"0-3\")), not on this CPU").
 */
#define PERFCTR_READ_ERRS(X)						\
	/* a .cpus counter read on a CPU it does not count on */	\
	X(NOT_HERE, NULL)						\
	/* perfctr_age(), perfctr_read_socket() of another counter */	\
	X(NOT_SOCKET, "is not a .socket counter: perfctr_age() and "	\
	  "perfctr_read_socket() read a .socket counter's snapshots "	\
	  "(other counters are read live)")				\
	/* a group member that perf took off with its CPU (hotplug) */	\
	X(LOST, "is in a group that the kernel took off this CPU when "	\
	  "the CPU went offline: perf does not put a group back, "	\
	  "and a module cannot make one (run the script again to "	\
	  "count on this CPU)")						\
	/* a read inside perf's reprogramming of the PMU (a probe on	\
	 * perf's own code): perfctr_pmu_moving() */			\
	X(REPROGRAM, "was read inside perf's reprogramming of this "	\
	  "CPU's PMU, where the counter and the kernel's copy of it "	\
	  "disagree and a read would corrupt the count (a probe on "	\
	  "perf's or the PMU driver's own code; read it elsewhere)")	\
	/* a read of a counter whose update by the module's own	\
	 * pmu->read it interrupted (an NMI, a probe on the driver's	\
	 * read): perfctr_event_read_alone() */			\
	X(UPDATING, "was read inside the kernel's update of its own "	\
	  "count on this CPU, which the read interrupted (an NMI, or a "\
	  "probe on the PMU driver's read): the count is half written "	\
	  "there (read it elsewhere)")					\
	/* perfctr_topdown() of a counter that is not a metric */	\
	X(NOT_TOPDOWN, "is not one of Intel's topdown metrics: "	\
	  "perfctr_topdown() decodes a \"topdown-*\" counter in a "	\
	  "group led by \"slots\"")

enum perfctr_read_err {
	PERFCTR_RE_BASE = -8192,	/* below them all; no outcome */
#define PERFCTR_RE_ENUM(name, msg)	PERFCTR_RE_##name,
	PERFCTR_READ_ERRS(PERFCTR_RE_ENUM)
#undef PERFCTR_RE_ENUM
	PERFCTR_RE_END			/* above them all; no outcome */
};

/* One outcome: its name ("PERFCTR_RE_LOST") and its message. */
struct perfctr_read_err_row {
	const char *name;
	const char *msg;
};

/* The rows, in the order of the enum: outcome rc is row
 * rc - PERFCTR_RE_BASE - 1 (perfctr_read_err_row()). */
#define PERFCTR_READ_ERR_ROWS {						\
	PERFCTR_READ_ERRS(PERFCTR_RE_ROW)				\
}
#define PERFCTR_RE_ROW(name, msg)	{ "PERFCTR_RE_" #name, msg },

/* Is rc one of these outcomes? */
static inline int perfctr_read_err_is(int rc)
{
	return rc > PERFCTR_RE_BASE && rc < PERFCTR_RE_END;
}

#endif /* PERFCTR_READERR_H */
