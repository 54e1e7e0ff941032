/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h - what the parser finds in a script: counter declarations (from
 * perfctr probe clauses) and counter reads, with their positions and the
 * stap conditionals they sit in.  The checker and the emitter read it.
 */
#ifndef PERFCTR_MODEL_H
#define PERFCTR_MODEL_H

#include <stddef.h>

#include "libperfctr.h"
#include "perfctr_payload.h"
#include "lexer.h"

#define MODEL_COND_DEPTH 8

/* One enclosing %( COND %? ... %: ... %): the condition's text and which
 * branch the construct sits in. */
struct cond_frame {
	const struct source *src;
	size_t off, len;	/* COND, between "%(" and "%?" */
	int in_else;
};

struct counter {
	/* what the request says (perfctr_iface.h): id, event, plm, src
	 * ("file:line:col", counter__locate), mux, scope, target, sample,
	 * hz, precise, gh, group, payload (what a sampling body reads of
	 * each sample, the functions it calls included: check.c), cpus,
	 * idx (its index in the request table) */
	PERFCTR_REQUEST_FIELDS(PERFCTR_REQUEST_MEMBER)
	int scope_given;		/* else: process with a target, cpu */
	struct token target_tok;
	const struct source *source;	/* the file of its clause */
	struct token where;		/* the "probe" keyword */
	struct token id_tok;
	struct token event_tok;		/* its event's name (a call's, for an
					 * event function) */
	int ncond;
	struct cond_frame cond[MODEL_COND_DEPTH];
	unsigned int missing_arg;	/* N: its clause, under a condition,
					 * names a script argument @N that
					 * was not given (stap says so where
					 * the condition holds: emit.c) */
	unsigned int event_fn;		/* 1 + index in event_fns: a call of
					 * it declared the counter */
	struct token group_tok;
	struct token cpus_tok;
	unsigned int group_no;		/* 1 + its group among the created
					 * ones (check.c), or 0 */
	unsigned int gslot;		/* its place among every created
					 * group's counters, in order */
	int used;			/* read somewhere */
};

/* The ways a script reads a counter: the macro, and the functions the
 * generated tapset defines (each unless the script defines its own). */
enum read_kind {
	READ_MACRO,		/* @perfctr("ID") */
	READ_FN_READ,		/* perfctr_read(ID) */
	READ_FN_COUNT,		/* perfctr_count(ID) */
	READ_FN_ENABLED,	/* perfctr_enabled(ID) */
	READ_FN_RUNNING,	/* perfctr_running(ID) */
	READ_FN_TOTAL,		/* perfctr_total(ID) */
	READ_FN_DELTA,		/* perfctr_delta(ID, START, STAMP) */
	READ_FN_SUM,		/* perfctr_sum(ID): over every CPU */
	READ_FN_SUM_AGE,	/* perfctr_sum_age(ID) */
	READ_FN_TOPDOWN,	/* perfctr_topdown(ID): a group's metric */
	READ_FN_AGE,		/* perfctr_age(ID): a .socket snapshot's */
	READ_FN_SOCKET,		/* perfctr_read_socket(ID, N): socket N's */
	READ_FN_STAMP,		/* perfctr_stamp(): takes no id */
	READ_NKINDS,
};

/* Their names, in enum read_kind order ("perfctr" for the macro). */
extern const char *const read_kind_names[READ_NKINDS];

/* Reads that take arguments after the id (perfctr_delta's start and
 * stamp, perfctr_read_socket's socket). */
static inline int read_kind_more_args(enum read_kind k)
{
	return k == READ_FN_DELTA || k == READ_FN_SOCKET;
}

/*
 * The static tapset's functions that name their own event
 * (tapset/perfctr.stp): a call of one declares the counter, no clause
 * needed.  event NULL: the call's string argument names it
 * (perfctr_read_event("EVENT")).  scope: the counter's, PERFCTR_SCOPE_CPU
 * (cpu_cycles()) or _THREAD (thread_cpu_cycles()).
 */
struct event_fn {
	const char *name;
	const char *event;
	unsigned int scope;
};
extern const struct event_fn event_fns[];
extern const unsigned int nevent_fns;

/*
 * What a sample carries: a sampling body reads it with the functions of
 * perfctr_pvs[] (runtime/perfctr_payload.h: PERFCTR_PV_*), and decodes
 * it with these, pure, callable anywhere (one argument: the value;
 * string: what they return).
 */
struct decoder_fn {
	const char *name;
	int string;
};
extern const struct decoder_fn decoder_fns[];
extern const unsigned int ndecoder_fns;

/* The static tapset's script functions (perfctr_ratio() ...): they need
 * no counter, only the tapset on stap's path.  payload: what a sampling
 * body that calls one records for it (PERFCTR_PL_*), which the generated
 * tapset then reads in an overload of its own (emit.c). */
struct tapset_fn {
	const char *name;
	unsigned int payload;
};
extern const struct tapset_fn tapset_fns[];
extern const unsigned int ntapset_fns;

/* The probes a read sits in, by their points' first components: the task
 * a probe runs in decides whether a .process counter can be read there.
 * begin, end and error run in stap's own thread, never a followed task;
 * a timer in whatever task it interrupts. */
enum read_probe {
	PROBE_BEGIN = 1,
	PROBE_END = 2,
	PROBE_ERROR = 4,
	PROBE_TIMER = 8,		/* timer.* */
	PROBE_OTHER = 16,
};

struct counter_read {
	char id[PERFCTR_ID_MAX];	/* for an event_fn call: the event */
	struct source *src;
	struct token where;		/* a counter read's literal id, else name */
	struct token name;		/* @perfctr, or the function's name */
	size_t blank_off, blank_len;	/* the literal id (and perfctr_delta's
					 * comma after it), which a rewritten
					 * read no longer passes; blank_len 0
					 * for a literal read: other arguments
					 * than it takes, never rewritten */
	enum read_kind kind;
	unsigned int event_fn;		/* 1 + index in event_fns, or 0 */
	int dynamic;			/* the id is an expression */
	unsigned int probes;		/* PROBE_* of the probe it is in; 0 in
					 * a function */
	unsigned int counter;		/* 1 + index of the counter it reads
					 * (check.c), or 0 */
	unsigned int site;		/* 1 + its site (rewrite.c), or 0 */
	unsigned int payload_fn;	/* 1 + PERFCTR_PV_*: a call of a
					 * payload function, or 0 */
	unsigned int clause;		/* 1 + index of the sampling clause
					 * whose body it is in, or 0 */
	unsigned int fn;		/* 1 + index in functions of the
					 * function it is in, or 0 */
	unsigned int stmt;		/* 1 + index in stmts of the probe
					 * it is in, or 0 */
};

/* A function a script or tapset defines, and what its body reads of a
 * sample, directly and through the functions it calls (check.c). */
struct script_fn {
	char name[PERFCTR_ID_MAX];
	unsigned int payload;
	int at_switch;			/* a probe_stmt at_switch calls it,
					 * or a function that is */
};

/* A call in a function's, a sampling clause's or a probe's body, by
 * name: how a sample's payload reaches the clause whose body calls a
 * function that reads it, and a context switch the functions a
 * sched_switch probe calls. */
struct script_call {
	unsigned int fn;		/* 1 + caller in functions, or 0 */
	unsigned int clause;		/* 1 + calling clause, or 0 */
	unsigned int stmt;		/* 1 + calling probe in stmts, or 0 */
	char name[PERFCTR_ID_MAX];
};

/* A probe statement other than a perfctr clause: its probe points as
 * written (each one's tokens joined, without a '?' or '!' after it),
 * and for an alias the names it defines (before its '='), each list
 * NUL-separated; whether its body runs in the thread a context switch
 * takes out, before the runtime's sched_switch hook (check.c). */
struct probe_stmt {
	char *points;
	size_t points_len;
	char *names;
	size_t names_len;
	int at_switch;
};

struct model {
	struct counter *counters;
	size_t ncounters, counters_cap;
	struct counter_read *reads;
	size_t nreads, reads_cap;
	int dynamic_reads;		/* a read whose id is not a literal */
	unsigned int dynamic_kinds;	/* 1 << read_kind of such reads */
	unsigned int tapset_calls;	/* 1 << index in tapset_fns: called */
	unsigned int tapset_user_defined;	/* ... defined by the script */
	unsigned int ngroups;		/* groups created (check.c) */
	unsigned int ngslots;		/* and their counters */
	struct script_fn *fns;
	size_t nfns, fns_cap;
	struct script_call *calls;
	size_t ncalls, calls_cap;
	struct probe_stmt *stmts;
	size_t nstmts, stmts_cap;
	int macro_reads;		/* @perfctr(@param) in a macro body */
	int thread_switch_reads;	/* a .thread counter may be read at a
					 * context switch (check.c) */
	unsigned int decoders;		/* 1 << index in decoder_fns: called */
	unsigned int dec_user_defined;	/* ... defined by the script */
	unsigned int pl_user_defined;	/* 1 << PERFCTR_PV_*: the script's
					 * own */
	unsigned int user_defined;	/* 1 << read_kind: the script's own */
	unsigned int fn_user_defined;	/* 1 << index in event_fns: same */
	/* script arguments, for @N / $N inside perfctr clauses */
	char *const *args;
	int nargs;
	int has_target;			/* stap -c CMD or -x PID */
	int calls_target;		/* the script calls target() */
	int stapusr;			/* --privilege=stapusr */
};

/* A sampling clause: its probe runs a body, it is not read. */
static inline int counter__samples(const struct counter *c)
{
	return c->sample || c->hz;
}

/* A counter in a perf event group (.group("NAME")). */
static inline int counter__grouped(const struct counter *c)
{
	return c->group[0] != '\0';
}

/* A counter the script reads (@perfctr and the read functions). */
static inline int counter__readable(const struct counter *c)
{
	return c->used && !counter__samples(c);
}

void model__init(struct model *m, char *const *args, int nargs);
void model__free(struct model *m);
struct counter *model__add_counter(struct model *m);
struct counter_read *model__add_read(struct model *m);
struct counter *model__find(const struct model *m, const char *id);
/* The request counter c makes (its interface fields). */
void counter__request(const struct counter *c, struct perfctr_request *r);
/* Places counter c at token where of source s: its source, where, and
 * the request's src ("file:line:col"). */
void counter__locate(struct counter *c, const struct source *s,
		     const struct token *where);
/* True when the scripts use perfctr at all (something to generate). */
int model__active(const struct model *m);
/* The event_fns index of a function name, or -1. */
int model__event_fn(const char *name, size_t len);
/* The PERFCTR_PV_* a function name reads, or -1. */
int model__payload_fn(const char *name, size_t len);
/* The decoder_fns index of a function name, or -1. */
int model__decoder_fn(const char *name, size_t len);
/* Does the script read payloads or call their decoders (the runtime's
 * and the generated tapset's payload parts)? */
int model__uses_payload(const struct model *m);
struct script_fn *model__add_fn(struct model *m);
struct script_call *model__add_call(struct model *m);
struct probe_stmt *model__add_stmt(struct model *m);
/* The tapset_fns index of a function name, or -1. */
int model__tapset_fn(const char *name, size_t len);
/* True when the scripts call the static tapset's own functions: stap
 * needs the tapset, even with nothing to generate. */
int model__uses_tapset(const struct model *m);
/* Is this way of reading defined by the script itself? */
int model__user_defined(const struct model *m, enum read_kind kind);
/* A read as the script writes it, for messages: @perfctr("ID"),
 * perfctr_delta("ID", ...), cpu_cycles(), perfctr_read(...). */
void model__describe_read(const struct counter_read *r, char *buf,
			  size_t len);

#endif /* PERFCTR_MODEL_H */
