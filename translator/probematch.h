/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probematch.h - stap -l / -L patterns over perfctr probe points: parse
 * 'perfctr.event("cyc*").**' and match it against every form of a point
 * for one event.  Globs as stap's: '*', '?', '[...]' in component names
 * and string arguments, '**' for any number of components.
 */
#ifndef PERFCTR_PROBEMATCH_H
#define PERFCTR_PROBEMATCH_H

#include "libperfctr.h"

#define PM_COMPS_MAX 16
#define PM_COMP_NAME_MAX 64

struct pm_comp {
	char name[PM_COMP_NAME_MAX];
	char arg[PERFCTR_NAME_MAX];
	int has_arg;
};

struct pm_pattern {
	struct pm_comp c[PM_COMPS_MAX];
	int n;
};

/* Is this pattern about perfctr (its first component is "perfctr", or a
 * glob that "perfctr" matches: "perfctr*")? */
int probematch__is_perfctr(const char *text);

/* Parses a pattern.  Returns 0, or -EINVAL with a message in err. */
int probematch__parse(const char *text, struct pm_pattern *p, char *err,
		      size_t errlen);

/* Calls fn with every probe point for event that p matches, written as
 * a script would: perfctr.event("EVENT").counter("ID").  -l (forms 0)
 * shows the optional components (level, scope, .process's path, .cpus,
 * .group, .multiplex, a sampling probe's rate and .precise) only where
 * p names them; -L (forms 1) shows every form.  The forms are those the
 * scope table allows (perfctr_iface.h) and mark, the event's in the
 * names format (PERFCTR_NAMES_*, NULL for none), leaves: an event of a
 * PMU with a cpumask has one point, perfctr.event("EVENT").socket
 * .counter("ID"), .socket shown by both; one of a core PMU of several
 * only per-CPU counters, .cpus("PMU") shown by both; an .imprecise one
 * no .precise.  A pattern may stop early: the rest of a point is
 * implied ('perfctr.event("cycles")').  An argument is the pattern's own
 * when it gives one without a glob, else "ID", "PATH", "LIST", "G", N,
 * F or L.  Returns how many. */
typedef void pm_point_fn(const char *point, void *ctx);
int probematch__event(const struct pm_pattern *p, const char *event,
		      const char *mark, int forms, pm_point_fn *fn,
		      void *ctx);

/* Why p matches no point, when a rule says: its components break the
 * scope table (".thread cannot sample: ..."), or event (NULL: any) is
 * one whose mark leaves out what p names.  Returns 1 with the reason in
 * buf, else 0. */
int probematch__why(const struct pm_pattern *p, const char *event,
		    const char *mark, char *buf, size_t len);

/* For messages: the first component that names none of a perfctr
 * point's ("evnt"), or NULL; the event argument when it has no glob,
 * or NULL. */
const char *probematch__unknown_component(const struct pm_pattern *p);
const char *probematch__event_literal(const struct pm_pattern *p);
/* Nearest component names to name (for "similar: ..."), as "a, b". */
void probematch__similar(const char *name, char *buf, size_t len);

#endif /* PERFCTR_PROBEMATCH_H */
