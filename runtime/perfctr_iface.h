/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_iface.h - what the translator, the helper and the module say to
 * each other about a counter request, declared once (docs/design.md,
 * "The interface"): the levels, guest/host bits and scopes a request
 * names, the limits of its strings and of the module's tables, and the
 * request's fields as one list from which each component's struct, the
 * .modinfo writer and reader and the emitted initializer are made.
 *
 * Pure C (no kernel or libc type): the translator, the helper and the
 * module include it alike.
 */
#ifndef PERFCTR_IFACE_H
#define PERFCTR_IFACE_H

#include "perfctr_flags.h"	/* an assignment record's flags and unit */

/* The levels an event counts at (the script's .user/.kernel, perf's
 * :u/:k modifiers). */
enum perfctr_plm {
	PERFCTR_PLM_USER   = 1,
	PERFCTR_PLM_KERNEL = 2,
	PERFCTR_PLM_ALL    = 3,
	PERFCTR_PLM_HV     = 4,	/* perf's :h; only from a name's modifiers */
};

/* Whether an event counts while a KVM guest runs, and while the host
 * does: perf's :G and :H (docs/reliability.md, "KVM hosts").  0 when
 * the name says neither: perfctr-run then decides as perf does. */
enum perfctr_gh {
	PERFCTR_GH_GUEST = 1,
	PERFCTR_GH_HOST  = 2,
};

/* What a scope allows its counters (the scope table below). */
#define PERFCTR_SA_PER_CPU	0x01	/* the module makes them on each CPU */
#define PERFCTR_SA_PER_TASK	0x02	/* ... on each task it follows */
#define PERFCTR_SA_GROUP	0x04	/* .group("NAME") */
#define PERFCTR_SA_MUX		0x08	/* .multiplex */
#define PERFCTR_SA_CPUS		0x10	/* .cpus("LIST") */
#define PERFCTR_SA_SAMPLE	0x20	/* a sampling clause */
#define PERFCTR_SA_SUM		0x40	/* perfctr_sum(), over CPUs or sockets */
#define PERFCTR_SA_TOTAL	0x80	/* perfctr_total(), over its tasks */

/*
 * Whose work a counter counts: one row per scope, X(NAME, CLAUSE,
 * ALLOWS, READ): PERFCTR_SCOPE_NAME, the clause that asks for it, what
 * its counters may be (PERFCTR_SA_*) and the runtime's read of them
 * (runtime/perfctr.h; a .cpu counter's in a group or multiplexed has
 * its own).  The first is the default.
 */
#define PERFCTR_SCOPES(X)						\
	/* each CPU's, machine-wide */					\
	X(CPU, ".cpu", PERFCTR_SA_PER_CPU | PERFCTR_SA_GROUP |		\
	  PERFCTR_SA_MUX | PERFCTR_SA_CPUS | PERFCTR_SA_SAMPLE |	\
	  PERFCTR_SA_SUM, perfctr_read_local)				\
	/* each thread's own, every thread */				\
	X(THREAD, ".thread", PERFCTR_SA_PER_CPU | PERFCTR_SA_CPUS,	\
	  perfctr_read_thread)						\
	/* a process's threads and children */				\
	X(PROCESS, ".process", PERFCTR_SA_PER_TASK | PERFCTR_SA_SAMPLE |	\
	  PERFCTR_SA_TOTAL, perfctr_read_process)			\
	/* every task in a cgroup v2 subtree */				\
	X(CGROUP, ".cgroup", PERFCTR_SA_PER_CPU | PERFCTR_SA_CPUS,	\
	  perfctr_read_cgroup)						\
	/* a socket's, of a PMU with a cpumask */			\
	X(SOCKET, ".socket", PERFCTR_SA_SUM, perfctr_read_socket)

#define PERFCTR_SCOPE_ENUM(name, clause, allows, read)	PERFCTR_SCOPE_##name,
enum perfctr_scope {
	PERFCTR_SCOPES(PERFCTR_SCOPE_ENUM)
	PERFCTR_NSCOPES
};

#define PERFCTR_SCOPE_ALLOWS(name, clause, allows, read)		\
	case PERFCTR_SCOPE_##name: return allows;
#define PERFCTR_SCOPE_CLAUSE(name, clause, allows, read)		\
	case PERFCTR_SCOPE_##name: return clause;
#define PERFCTR_SCOPE_READ(name, clause, allows, read)			\
	case PERFCTR_SCOPE_##name: return #read;

/* What scope allows its counters (PERFCTR_SA_*); 0 for no scope. */
static inline unsigned int perfctr_scope__allows(unsigned int scope)
{
	switch (scope) {
	PERFCTR_SCOPES(PERFCTR_SCOPE_ALLOWS)
	}
	return 0;
}

/* ".cpu", ".thread", ...; "?" for no scope. */
static inline const char *perfctr_scope__clause(unsigned int scope)
{
	switch (scope) {
	PERFCTR_SCOPES(PERFCTR_SCOPE_CLAUSE)
	}
	return "?";
}

/* The runtime's read of scope's counters, by name. */
static inline const char *perfctr_scope__read(unsigned int scope)
{
	switch (scope) {
	PERFCTR_SCOPES(PERFCTR_SCOPE_READ)
	}
	return "?";
}

/* Does the module make a counter of this scope on each CPU itself: a
 * per-CPU scope, not a sampling clause (stap makes those), not in a
 * group (perfctr-run opens those)?  Such a counter .cpus may restrict. */
static inline int perfctr_scope__made_per_cpu(unsigned int scope,
					      int samples, int grouped)
{
	return (perfctr_scope__allows(scope) & PERFCTR_SA_PER_CPU) &&
	       !samples && !grouped;
}

/* Can such a counter have an encoding per core PMU (a "cIDX" record
 * each): one made per CPU (the kernel maps each CPU's), or one per task
 * (.process counters and sampling clauses: a task event per core PMU)? */
static inline int perfctr_scope__core_encoded(unsigned int scope,
					     int samples, int grouped)
{
	return (perfctr_scope__allows(scope) & PERFCTR_SA_PER_TASK) ||
	       perfctr_scope__made_per_cpu(scope, samples, grouped);
}

/* The longest strings of a request, each with its NUL. */
#define PERFCTR_NAME_MAX	256	/* an event name */
#define PERFCTR_ID_MAX		64	/* a counter's or a group's id */
#define PERFCTR_SRC_MAX		512	/* "file:line:col", a path */
#define PERFCTR_CPU_LIST_MAX	128	/* a CPU list, "0-3,8" */

/* Counters one module may declare; counters in one group (the largest
 * PMU we know: arm64's 31 event counters and the cycle counter). */
#define PERFCTR_REQ_MAX		512
#define PERFCTR_GROUP_MAX	32

/* The most core PMUs a counter has an encoding for (a "cIDX,..." record
 * each), and CPU ranges in one record's CPU list. */
#define PERFCTR_CORE_PMUS	4
#define PERFCTR_CPU_RANGES	8

/*
 * A request's fields, in the order its perfctr_req value (.modinfo)
 * writes them: X(KIND, NAME, ARG, OPTIONAL) each, KIND one of
 *   UINT     a number (ARG 0)
 *   WORD     a string without blanks of at most ARG - 1 bytes
 *   STR      a string of at most ARG - 1 bytes, escaped where needed
 *   LETTERS  bits, written as the letters of the string ARG, bit 0 first
 * and OPTIONAL 1 where the value leaves out a field that is 0 or "".
 * A field added here reaches the translator's struct counter, the
 * helper's struct perfctr_request, the module's struct
 * perfctr_request_desc, the .modinfo text both ways and the emitted
 * initializer; only the code that sets and uses it is to be written.
 */
#define PERFCTR_REQUEST_FIELDS(X)					\
	X(UINT, idx, 0, 0)	/* its index in the table */		\
	X(WORD, id, PERFCTR_ID_MAX, 0)					\
	X(WORD, event, PERFCTR_NAME_MAX, 0)				\
	X(LETTERS, plm, "uk", 0)	/* enum perfctr_plm */		\
	X(STR, src, PERFCTR_SRC_MAX, 0)	/* "file:line:col" of it */	\
	X(UINT, mux, 0, 1)	/* .multiplex: not pinned, scaled */	\
	X(UINT, scope, 0, 1)	/* enum perfctr_scope */		\
	/* .process("PATH"), .cgroup("PATH"): the path, or "" */	\
	X(STR, target, PERFCTR_SRC_MAX, 1)				\
	X(UINT, sample, 0, 1)	/* .sample(N): the period, or 0 */	\
	X(UINT, hz, 0, 1)	/* .hz(F): the frequency, or 0 */	\
	X(UINT, precise, 0, 1)	/* .precise(L): 0..3 */		\
	X(LETTERS, gh, "gh", 1)	/* the name's :G/:H (enum perfctr_gh) */ \
	X(STR, group, PERFCTR_ID_MAX, 1)	/* .group("NAME"), or "" */ \
	/* a sampling clause's payload: what its body reads of each	\
	 * sample (PERFCTR_PL_*, perfctr_payload.h) */			\
	X(UINT, payload, 0, 1)						\
	/* .cpus("LIST"): a CPU list or a core PMU's name, or "" */	\
	X(STR, cpus, PERFCTR_CPU_LIST_MAX, 1)				\
	PERFCTR_REQUEST_TEST_FIELD(X)

/* A field that exists only in the interface's own unit test
 * (testsuite/unit/iface/), built with -DPERFCTR_TEST_FIELD: it proves
 * that a field added above needs no other declaration. */
#ifdef PERFCTR_TEST_FIELD
#define PERFCTR_REQUEST_TEST_FIELD(X)	X(UINT, test_field, 0, 1)
#else
#define PERFCTR_REQUEST_TEST_FIELD(X)
#endif

/* A field as a member of a struct that holds its strings (the
 * translator's, the helper's) ... */
#define PERFCTR_MEMBER_UINT(name, arg)		unsigned int name;
#define PERFCTR_MEMBER_LETTERS(name, arg)	unsigned int name;
#define PERFCTR_MEMBER_WORD(name, arg)		char name[arg];
#define PERFCTR_MEMBER_STR(name, arg)		char name[arg];
#define PERFCTR_REQUEST_MEMBER(kind, name, arg, opt)			\
	PERFCTR_MEMBER_##kind(name, arg)

/* ... and of the module's, which points at its strings. */
#define PERFCTR_DESC_UINT(name, arg)		unsigned int name;
#define PERFCTR_DESC_LETTERS(name, arg)		unsigned int name;
#define PERFCTR_DESC_WORD(name, arg)		const char *name;
#define PERFCTR_DESC_STR(name, arg)		const char *name;
#define PERFCTR_REQUEST_DESC_MEMBER(kind, name, arg, opt)		\
	PERFCTR_DESC_##kind(name, arg)

/* The longest perfctr_req value, with its NUL: "KEY=VALUE" for each
 * field, ';' between them (and the NUL after the last), every byte of
 * a string escaped (three bytes each), every number of ten digits. */
#define PERFCTR_FMT_UINT(arg)		10
#define PERFCTR_FMT_LETTERS(arg)	(sizeof(arg) - 1)
#define PERFCTR_FMT_WORD(arg)		(3 * ((arg) - 1))
#define PERFCTR_FMT_STR(arg)		(3 * ((arg) - 1))
#define PERFCTR_REQUEST_FMT_LEN(kind, name, arg, opt)			\
	+ sizeof(#name) + 1 + PERFCTR_FMT_##kind(arg)
#define PERFCTR_REQ_FMT_MAX						\
	(0 PERFCTR_REQUEST_FIELDS(PERFCTR_REQUEST_FMT_LEN))

/*
 * The table's .modinfo entry (perfctr_table=v=1;n=N;hash=H;priv=P) may
 * end with this key: the script was built with stap -D
 * PERFCTR_SAMPLE_THROTTLE, and perfctr-run lets a .sample(N) below the
 * machine's smallest period through for the kernel to throttle, as perf
 * record -c does, instead of refusing it (helper/sample.c).
 */
#define PERFCTR_TABLE_THROTTLE_KEY	"throttle"

/* One counter request as the helper reads it from .modinfo. */
struct perfctr_request {
	PERFCTR_REQUEST_FIELDS(PERFCTR_REQUEST_MEMBER)
};

/*
 * The assignment (perfctr_assign=HASH;REC;REC...: docs/design.md, "The
 * assignment") that perfctr-run writes (helper/assign.c) and the module
 * parses (perfctr_assign.c).  Its records, and the longest each can be
 * with the ';' before it, from its fields' widths: a decimal field an
 * unsigned int's (10 digits), a hexadecimal one a u64's (16), the flags
 * 32 bits' (8), a CPU a non-negative int's (10).
 *   IDX,TYPE,CONFIG,CONFIG1,CONFIG2,FLAGS  a counter's encoding
 *   uIDX,MULT,SHIFT,UNIT                   what one count is
 *   cIDX,TYPE,CONFIG,CONFIG1,CONFIG2,CPUS  its encoding on some CPUs
 *   sIDX,CPU,...                           a .socket counter's CPUs
 *   gIDX,FD0,NCPU                          where a group's fds are
 */
#define PERFCTR_REC_DEC		10
#define PERFCTR_REC_HEX		16
#define PERFCTR_ASSIGN_HASH_LEN	16
/* ";" 2 decimal, 3 hexadecimal fields, the flags (32 bits), 5 commas */
#define PERFCTR_ASSIGN_REC_MAX						\
	(1 + 2 * PERFCTR_REC_DEC + 3 * PERFCTR_REC_HEX + 8 + 5)
/* ";u" 2 decimal, 1 hexadecimal field, the unit, 3 commas */
#define PERFCTR_ASSIGN_UNIT_MAX						\
	(2 + 2 * PERFCTR_REC_DEC + PERFCTR_REC_HEX + PERFCTR_UNIT_MAX - 1 + 3)
/* ";c" 2 decimal, 3 hexadecimal fields, the CPU list, 5 commas */
#define PERFCTR_ASSIGN_CPU_MAX						\
	(2 + 2 * PERFCTR_REC_DEC + 3 * PERFCTR_REC_HEX +		\
	 PERFCTR_CPU_LIST_MAX - 1 + 5)
/* ";s" the index, ncpu CPUs after a comma each */
#define PERFCTR_ASSIGN_SOCKET_MAX(ncpu)					\
	(2 + PERFCTR_REC_DEC + (ncpu) * (1 + PERFCTR_REC_DEC))
/* ";g" 3 decimal fields, 2 commas */
#define PERFCTR_ASSIGN_GROUP_MAX	(2 + 3 * PERFCTR_REC_DEC + 2)

/* The longest assignment (with its NUL, without "perfctr_assign=") for
 * a module of ndeclared requests, ngroups groups and nsocket .socket
 * counters of at most sockets CPUs each: every request with its record,
 * a unit's and a CPU record per core PMU.  The module's buffer has this
 * size, and perfctr-run refuses an assignment longer than it. */
#define PERFCTR_ASSIGN_LEN(ndeclared, ngroups, nsocket, sockets)	\
	(PERFCTR_ASSIGN_HASH_LEN + 1 +					\
	 (ndeclared) * (PERFCTR_ASSIGN_REC_MAX + PERFCTR_ASSIGN_UNIT_MAX +	\
			PERFCTR_CORE_PMUS * PERFCTR_ASSIGN_CPU_MAX) +	\
	 (ngroups) * PERFCTR_ASSIGN_GROUP_MAX +				\
	 (nsocket) * PERFCTR_ASSIGN_SOCKET_MAX(sockets))

/*
 * The end-of-run report (stap-perfctr --counter-report, --counter-status;
 * docs/design.md, "The end-of-run report").  The module writes each
 * object as a warning that begins with PERFCTR_REPORT_MARK when
 * perfctr-run gives it perfctr_report=1; perfctr-run takes those lines
 * off staprun's stderr.  stap-perfctr tells perfctr-run through the
 * environment, since stap runs it:
 *   PERFCTR_ENV_REPORT      where the objects go, a file or "-" (stderr)
 *   PERFCTR_ENV_STATUS      "1": perfctr-run's own exit status is
 *                           PERFCTR_EXIT_INCOMPLETE for a run whose
 *                           counts are not whole
 *   PERFCTR_ENV_INCOMPLETE  a file perfctr-run writes "incomplete" into
 *                           for such a run (stap-perfctr's, which cannot
 *                           see perfctr-run's status through stap's)
 * The status is none of stap's and staprun's (0 and 1), nor a shell's
 * (126, 127, 128 + a signal).
 */
#define PERFCTR_REPORT_MARK	"perfctr-report: "
#define PERFCTR_ENV_REPORT	"STAP_PERFCTR_REPORT"
#define PERFCTR_ENV_STATUS	"STAP_PERFCTR_STATUS"
#define PERFCTR_ENV_INCOMPLETE	"STAP_PERFCTR_INCOMPLETE"
#define PERFCTR_EXIT_INCOMPLETE	3

#endif /* PERFCTR_IFACE_H */
