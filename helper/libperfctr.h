/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libperfctr.h - the one public header of the helper library, used by the
 * translator (stap-perfctr) and the helper (perfctr-run).
 *
 * Conventions (libbpf's): object__verb names, negative errno returns, no
 * hidden global state; option structs carry their size so they can grow.
 * Formats exchanged with the module are described in docs/design.md.
 */
#ifndef LIBPERFCTR_H
#define LIBPERFCTR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------------ names */

/* The levels (enum perfctr_plm), guest/host bits (enum perfctr_gh),
 * scopes, limits and the request's fields (struct perfctr_request) are
 * the interface's, shared with the translator and the module. */
#include "perfctr_iface.h"

/* An event name split into its base and perf-style modifiers:
 * "cycles:u" -> base "cycles", plm USER.  Modifiers understood: u, k, h,
 * G, H, p (repeatable, precise level); the others at most once each.  A
 * name with no modifier has plm, gh and precise 0.
 * Where they go: after the last ':' ("cycles:u", "INST_RETIRED:ANY_P:k")
 * or after a PMU term list's closing '/' ("cpu/event=0xc0/u").  A last
 * ':' group that is not all modifier letters belongs to the name (a
 * libpfm4 unit mask), except after a generic or raw name. */
struct perfctr_name {
	char base[PERFCTR_NAME_MAX];
	unsigned int plm;	/* 0 = not given, else enum perfctr_plm bits */
	unsigned int gh;	/* 0 = not given, else enum perfctr_gh bits */
	unsigned int precise;	/* number of 'p' modifiers */
};

/* Returns 0, or -EINVAL with a message in err ("unknown modifier 'x' in
 * \"cycles:x\"").  Does not look at the machine. */
int perfctr_name__parse(const char *name, struct perfctr_name *out,
			char *err, size_t errlen);

/* The levels a counter of event name (parsed into n) counts at, given
 * its clause's .user or .kernel (clause_plm; 0 for none, as for an event
 * function): the translator's rule for every counter, at the script's
 * position.  Returns 0 with *plm, or -EINVAL with why in err: a 'p'
 * (precision is a sampling clause's .precise(L)), ':h' alone with no
 * .user/.kernel (neither user nor kernel mode), or ':u'/':k' against the
 * clause's. */
int perfctr_name__counter_plm(const char *name, const struct perfctr_name *n,
			      unsigned int clause_plm, unsigned int *plm,
			      char *err, size_t errlen);

/* -------------------------------------------------------------- requests */

/* A sampling clause's placeholder encoding in stap's perf probe (raw,
 * config MAGIC | index), which the module replaces at start. */
#define PERFCTR_SAMPLE_TYPE	4u		/* PERF_TYPE_RAW */
#define PERFCTR_SAMPLE_MAGIC	0x7e5700000000ULL

/* Writes the value of a perfctr_req entry (after "perfctr_req=").
 * Returns its length, or -ENOSPC; -EINVAL for an empty id or event or a
 * plm that is not u, k or uk. */
int perfctr_request__format(const struct perfctr_request *req,
			    char *buf, size_t len);
/* Parses such a value (fields in the order written, escapes checked).
 * Returns 0 or -EINVAL. */
int perfctr_request__parse(const char *s, struct perfctr_request *req);
/* What the script wrote, for messages: a counter's id ("counter \"c\""),
 * a sampling probe ("sampling probe on \"cycles\""), or the call that
 * declared the counter ("cpu_cycles()", "perfctr_read_event(\"X\")":
 * ids the translator made start with "__"). */
void perfctr_request__describe(const struct perfctr_request *req, char *buf,
			       size_t len);

/* FNV-1a 64 over the formatted requests, in index order, each followed
 * by one NUL byte (as they sit in .modinfo): the table hash that module
 * and helper must agree on.  Written as 16 lowercase hex digits.
 * Returns 0, or the error of a request that cannot be formatted (hex is
 * then empty). */
int perfctr_table__hash(const struct perfctr_request *reqs, unsigned int n,
			char hex[17]);

/* The request table of a built module. */
struct perfctr_modtab {
	unsigned int version;
	unsigned int n_declared;	/* translator's count; indices < this */
	char hash[17];
	char priv[16];			/* stapdev, stapsys, stapusr */
	unsigned int throttle;		/* -D PERFCTR_SAMPLE_THROTTLE */
	unsigned int n;			/* requests present in the module */
	struct perfctr_request *reqs;	/* n of them, sorted by idx */
};

/* Reads the table from a .ko's .modinfo section.  Returns 0 (a module
 * without perfctr entries gives version == 0, n == 0 and n_declared ==
 * 0; a module with a table has version 1 even if n == 0), -ENOENT /
 * -EACCES for unreadable files, -ENOEXEC for a file that is not a
 * readable ELF object (not ELF, truncated, corrupt section headers),
 * -EINVAL for a corrupt or hostile table (message in err). */
int perfctr_modtab__read(const char *ko_path, struct perfctr_modtab *tab,
			 char *err, size_t errlen);
void perfctr_modtab__free(struct perfctr_modtab *tab);

/* ------------------------------------------------------------- encodings */

/* The flags (PERFCTR_F_*) are the assignment's: runtime/perfctr_flags.h. */
#include "perfctr_flags.h"
/* flags in words ("user only, no hypervisor, no guest"), as far as len
 * allows: 0, or -ENOSPC when cut (flags.c). */
int perfctr_flags__words(uint32_t flags, char *buf, size_t len);
/* Longest words: every set of bits named, and an unknown remainder. */
#define PERFCTR_FLAGS_WORDS_MAX	160

/* What the module needs to create a counter (a perf_event_attr subset). */
struct perfctr_encoding {
	uint32_t type;
	uint64_t config, config1, config2;
	uint32_t flags;		/* PERFCTR_F_* */
};

/* Sampling clauses (sample.c).  The smallest period that keeps enc
 * under the kernel's sample-rate limit (procfs_root/sys/kernel/
 * perf_event_max_sample_rate).  */
unsigned long long perfctr_sample__min_period(
	const struct perfctr_encoding *enc, const char *procfs_root);
/* Can the clause's samples carry the payload its body reads (the
 * request's payload, PERFCTR_PL_*): a data address (faults, breakpoints,
 * precise memory events), a weight or data source (precise memory
 * events: PEBS, IBS)?  The branch stack is the trial open's to find.
 * Returns 0, or -EINVAL with every payload that cannot be had, and why,
 * in err. */
int perfctr_sample__payload(const struct perfctr_request *req,
			    const struct perfctr_encoding *enc,
			    const char *sysfs_root, char *err, size_t len);
/* The function that reads payload bit (PERFCTR_PL_*): for messages. */
const char *perfctr_payload__fn(unsigned int bit);
/* Can this machine sample as req asks (.sample(N) not below the smallest
 * period, .hz(F) not above the limit, .precise(L) on a PMU that has it)?
 * Returns 0, or -EINVAL with the reason, and the value allowed, in err.
 * With throttle, a period below the smallest is the kernel's to throttle
 * (as perf record -c): 1, with that said in err. */
int perfctr_sample__check(const struct perfctr_request *req,
			  const struct perfctr_encoding *enc,
			  const char *sysfs_root, const char *procfs_root,
			  int throttle, char *err, size_t len);


/* The records' longest lengths, PERFCTR_ASSIGN_*_MAX, and the longest
 * assignment a module takes, PERFCTR_ASSIGN_LEN(), are the interface's
 * (perfctr_iface.h). */

/* Appends one record to a perfctr_assign value (docs/design.md).  The
 * caller starts the buffer with the table hash.  Returns 0 or -ENOSPC
 * (buffer unchanged). */
int perfctr_assign__append(char *buf, size_t len, unsigned int idx,
			   const struct perfctr_encoding *enc);

/* What one count of a sysfs event is: its .unit (e.g. "Joules"; ""
 * for none) and .scale as written ("" for none), the scale as
 * mult / 2^shift (mult 0 for none). */
struct perfctr_unit {
	char unit[PERFCTR_UNIT_MAX];
	char scale[64];
	uint64_t mult;
	unsigned int shift;
};

/* The unit and scale of event, a counter's name, when it is "PMU/NAME/"
 * with NAME in the PMU's events/ (else none), from sysfs_root (NULL:
 * "/sys").  Returns 0, or -EINVAL (a file that cannot be read, a unit
 * the assignment cannot carry, a scale that is empty or not a number
 * above 0), -ERANGE (a scale the module cannot take as mult / 2^shift),
 * with u as far as read and err naming the file and its value. */
int perfctr_unit__read(const char *sysfs_root, const char *event,
		       struct perfctr_unit *u, char *err, size_t errlen);

/* "6.103515625e-5" as mult / 2^shift, mult odd (exact for a binary
 * fraction; 53 bits of any other).  Returns 0, -EINVAL, -ERANGE. */
int perfctr_scale__parse(const char *s, uint64_t *mult, unsigned int *shift);

/* Appends a counter's unit record, ";uIDX,MULT,SHIFT,UNIT" (MULT hex),
 * when u has a unit or a scale.  Returns 0 or -ENOSPC. */
int perfctr_assign__append_unit(char *buf, size_t len, unsigned int idx,
				const struct perfctr_unit *u);

/* Appends a counter's encoding on one core PMU's CPUs, ";cIDX,TYPE,
 * CONFIG,CONFIG1,CONFIG2,CPUS" (CPUS its sysfs list).  Returns 0 or
 * -ENOSPC. */
struct perfctr_core_enc;
int perfctr_assign__append_cpu(char *buf, size_t len, unsigned int idx,
			       const struct perfctr_core_enc *c);

/* Appends a .socket counter's record: request idx is opened on cpus[n],
 * one a socket, ascending.  Returns 0 or -ENOSPC. */
int perfctr_assign__append_socket(char *buf, size_t len, unsigned int idx,
				  const int *cpus, int n);

/* Appends a group's record: the group led by request idx has its events
 * open on ncpu CPUs, CPU by CPU in ascending order and each CPU's in
 * the group's order, at fds fd0 on.  Returns 0 or -ENOSPC. */
int perfctr_assign__append_group(char *buf, size_t len, unsigned int idx,
				 unsigned int fd0, unsigned int ncpu);

/* ------------------------------------------------------------- resolving */

struct perfctr_resolver;

struct perfctr_resolver_opts {
	size_t sz;			/* sizeof(struct perfctr_resolver_opts) */
	const char *sysfs_root;		/* default "/sys"; tests point elsewhere */
	int no_libpfm;			/* skip libpfm4 names */
};

int perfctr_resolver__new(const struct perfctr_resolver_opts *opts,
			  struct perfctr_resolver **out);
void perfctr_resolver__free(struct perfctr_resolver *r);

/* Resolves an event name (generic perf name, PMU/sysfs name, raw rNNNN,
 * libpfm4 name) with its modifiers, for this machine, in that order.
 * plm is the request's level (0 = from the name's modifiers, else all).
 * A nonzero plm is authoritative: a u/k modifier in the name must say
 * the same ("cycles:u" needs plm 0 or USER).  Flags as perf 6.1 sets
 * them, with .user and .kernel (plm USER, KERNEL) as :u and :k:
 * exclude_guest alone when nothing is said; else exclude_user/kernel
 * for the levels left out and exclude_hv unless 'h' is given; :G/:H
 * exclude what they leave out (exclude_guest, exclude_host), and
 * without them 'u' excludes the guest.  'p' is refused: precision is
 * for sampling.  Returns 0, -ENOENT for an unknown name (err says so
 * and lists the nearest valid names), -ENODEV for a libpfm4 PMU that is
 * not present, -EINVAL for a malformed one. */
int perfctr_resolver__resolve(struct perfctr_resolver *r, const char *name,
			      unsigned int plm, struct perfctr_encoding *enc,
			      char *err, size_t errlen);

/* The same for a module's request: its event, level, and the :G/:H its
 * name must have (gh); .precise counts as perf's 'p' (which excludes the
 * guest unless :G/:H say otherwise). */
int perfctr_resolver__resolve_request(struct perfctr_resolver *r,
				      const struct perfctr_request *req,
				      struct perfctr_encoding *enc,
				      char *err, size_t errlen);

/* What stap-perfctr asks of an event name before it builds a module
 * (perfctr-run --check-events): is it a name some machine knows (perf's
 * own syntax: a generic or raw name, "PMU/TERMS/"; an event of a PMU
 * the kernel has here, or one that kernels name in sysfs elsewhere
 * ("slots"); an event of any PMU in libpfm4's tables, present or not),
 * and, with here, does this machine resolve it (as
 * perfctr_resolver__resolve, at the name's own level)?  Returns 0;
 * -ENOENT for a name no machine knows (err: the nearest names; with
 * here, this machine's); -ENODEV for one this machine cannot count
 * (err: why, as perfctr-run would refuse it); -EINVAL for a malformed
 * name.  Where a refused name is as perf list prints its JSON events
 * ("inst_retired.any"), err adds libpfm4's form ("INST_RETIRED:ANY")
 * and the sysfs forms ("PMU/inst_retired/") that count here. */
int perfctr_resolver__check(struct perfctr_resolver *r, const char *name,
			    int here, char *err, size_t len);
/* perfctr-run --check-events answers a line a name: PERFCTR_CHECK_OK,
 * or the verdict, a tab and why. */
#define PERFCTR_CHECK_OK	"ok"
#define PERFCTR_CHECK_UNKNOWN	"unknown"	/* -ENOENT: no machine's */
#define PERFCTR_CHECK_NOT_HERE	"not-here"	/* not this machine's */

/* The perf_event_attr that opens enc as the module creates it: type,
 * config*, the exclude bits of flags, pinned unless MULTIPLEX; the rest
 * zero (the caller adds disabled, read_format...).  Needs
 * <linux/perf_event.h> where it is called. */
struct perf_event_attr;
void perfctr_encoding__attr(const struct perfctr_encoding *enc,
			    struct perf_event_attr *attr);

/* Opens the encoding as a pinned counter on cpu (pid -1), reads it once
 * and closes it: can this machine count it now?  Returns 0, or a negative
 * errno with the reason in err (no such PMU event, permission under
 * perf_event_paranoid, does not fit: ERROR state). */
int perfctr_encoding__trial_open(const struct perfctr_encoding *enc, int cpu,
				 char *err, size_t errlen);

/* One event as the module will open it: a request's encoding (as it
 * will be assigned) and what else the module takes from the request. */
struct perfctr_trial {
	struct perfctr_encoding enc;
	unsigned int per_task;	/* .process: a task's event (cpu -1) */
	unsigned int sample, hz, precise;	/* a sampling clause's */
	unsigned int payload;	/* and what it records (PERFCTR_PL_*) */
	unsigned int gh;	/* the name's :G/:H (keeps exclude_guest) */
	/* In a group: 1 + the index of its leader in the set (its own
	 * for the leader, which comes first); 0: not in one. */
	unsigned int group;
	/* A group's events stay open when keep is set and the whole set
	 * opened: fd says where (not closed on exec: perfctr-run hands
	 * them to the module), else -1. */
	int keep, fd;
};

/* The trial of a request (NULL: a counter per CPU) with encoding enc. */
void perfctr_trial__init(struct perfctr_trial *t,
			 const struct perfctr_request *req,
			 const struct perfctr_encoding *enc);

/* A sampling clause t that did not open on cpu: was it its payload?
 * Opens it again alone without the payload, then with each payload bit
 * alone.  Returns 1 with the first bit the kernel refuses (*bit) and
 * its error (*err), or 0 when the event fails without a payload too. */
int perfctr_trials__payload_why(const struct perfctr_trial *t, int cpu,
				unsigned int *bit, int *err);

/* Counters are pinned unless multiplexed; sampling clauses are not. */
int perfctr_trial__pinned(const struct perfctr_trial *t);

/* A set as the module will hold it on cpu while a followed task runs
 * there: the per-CPU events on cpu, the per-task ones as this process's,
 * which moves to cpu for it (and back) when it may run there (else they
 * are not tried: res 0).  The attrs are the module's (perfctr_attr.h);
 * opens all, then reads each once, then closes all.  res[i] gets 0 or
 * the negative errno for t[i]; -ENOSPC means it opened but could not be
 * scheduled next to the others (ERROR state; a pinned task event that
 * did not run).  As perf does, an event without :G/:H that the PMU
 * refuses with exclude_guest (EINVAL) is opened without it, and
 * t[i].enc.flags says so.  Returns 0 when all fit, else the first
 * failure's errno. */
int perfctr_trials__open(struct perfctr_trial *t, unsigned int n, int cpu,
			 int *res);

/* Why member k of a group failed to open next to members 0..k-1 (t[0]
 * leads it) on cpu: PERFCTR_GROUP_EVENT, the event cannot be opened
 * even alone (*err: why); PERFCTR_GROUP_PAIR, not next to its leader
 * (another PMU: perf puts a group on one, software events aside);
 * PERFCTR_GROUP_SIZE, next to its leader but not after all the others:
 * the group does not fit the PMU. */
enum { PERFCTR_GROUP_EVENT, PERFCTR_GROUP_PAIR, PERFCTR_GROUP_SIZE };
int perfctr_trials__group_why(const struct perfctr_trial *t, unsigned int k,
			      int cpu, int *err);

/* Says in words why a trial open failed with err (a negative errno from
 * the functions above); names perf_event_paranoid and its value for
 * permission errors. */
void perfctr_trial__explain(int err, char *buf, size_t len);

/* ------------------------------------------------------------ privilege */

/* A stapsys or stapusr module counts only what perf_event_open would let
 * its user count (priv.c; docs/design.md, "Privilege and
 * perf_event_paranoid").  Does the rule apply to this table and user (not
 * root, module not built for stapdev)? */
int perfctr_priv__applies(const struct perfctr_modtab *tab, unsigned int uid);

/* PROCFS_ROOT/sys/kernel/perf_event_paranoid ("/proc" when NULL or
 * empty), or PERFCTR_PARANOID_UNKNOWN. */
#define PERFCTR_PARANOID_UNKNOWN (-100)
int perfctr_paranoid__read(const char *procfs_root);

/* The perf_event_open rule a request with this encoding breaks at this
 * level, for a user without CAP_PERFMON ("counting in kernel mode"), and
 * the level it needs (*need); NULL when perf allows it.  An unknown level
 * refuses everything. */
const char *perfctr_priv__rule(const struct perfctr_request *req,
			       const struct perfctr_encoding *enc,
			       int paranoid, int *need);

/* 0 when the rule does not apply or allows the request, else -EACCES with
 * the refusal in err (the sysctl's value, the rule, the level needed). */
int perfctr_priv__check(const struct perfctr_modtab *tab,
			const struct perfctr_request *req,
			const struct perfctr_encoding *enc, int paranoid,
			unsigned int uid, char *err, size_t errlen);

/* ------------------------------------------------------------- topdown */

/* Intel's topdown events (runtime/perfctr_topdown.h): the kind of enc
 * (enum perfctr_td_kind: a metric 0..7, PERFCTR_TD_SLOTS_KIND) when its
 * PMU in SYSFS has the topdown events, else PERFCTR_TD_NONE (-1). */
int perfctr_topdown__kind(const char *sysfs_root,
			  const struct perfctr_encoding *enc);

/* -------------------------------------------------------------- topology */

/*
 * Which CPUs a PMU counts on, from its sysfs directory (docs/design.md,
 * "PMU topology"): a `cpus` file names a core PMU's CPUs (hybrid x86,
 * every arm_pmu); a `cpumask` file names the one CPU per socket (die,
 * core) on which its shared counters are read (uncore, RAPL, cstate).
 */
enum perfctr_span {
	PERFCTR_SPAN_ALL,	/* neither file: every CPU */
	PERFCTR_SPAN_CORE,	/* `cpus`, the only core PMU */
	PERFCTR_SPAN_HYBRID,	/* `cpus`, one core PMU of several */
	PERFCTR_SPAN_SOCKET,	/* `cpumask`: one counter per socket */
};

struct perfctr_topo_pmu {
	char *name;
	int type;		/* perf type, PERFCTR_UNKNOWN if unreadable */
	unsigned int span;	/* enum perfctr_span */
	const char *cpus_file;	/* "cpus", "cpumask", or NULL */
	char *cpus;		/* that file's list, or NULL */
};

struct perfctr_topology {
	unsigned int n;
	struct perfctr_topo_pmu *pmus;	/* sorted by name */
	unsigned int n_core;		/* PMUs with a `cpus` file */
	char *root;			/* the sysfs it was read from */
};

/* Reads SYSFS/bus/event_source/devices (sysfs_root NULL: "/sys").
 * Returns 0 (no PMU directory: n 0), or -ENOMEM. */
int perfctr_topology__read(const char *sysfs_root,
			   struct perfctr_topology **out);
void perfctr_topology__free(struct perfctr_topology *t);

/* Several core PMUs (cpu_core and cpu_atom; an arm_pmu per cluster)? */
int perfctr_topology__hybrid(const struct perfctr_topology *t);

/* The PMU that counts enc: the one whose type is enc's (a generic
 * event's extended type, config bits 32-63, counts as its type).  NULL
 * for a generic event without one, a raw event where no PMU has type
 * 4 (arm64: each CPU's core PMU takes it), or an unknown type. */
const struct perfctr_topo_pmu *
perfctr_topology__pmu(const struct perfctr_topology *t,
		      const struct perfctr_encoding *enc);

/* Can a counter of req with encoding enc be created as the module
 * creates it (a copy per CPU, or per task for .process; one per socket
 * for .socket)?  Refused: a PMU with a `cpumask` in any scope but
 * .socket, and in .socket any other event, or one whose cpumask names
 * two CPUs of one socket (a per-core PMU: cstate_core); on a hybrid
 * machine an event of one core PMU per CPU (it cannot be created on the
 * other PMUs' CPUs), and any core PMU's event per task (it binds to one
 * core PMU and misses the task's time on the others).  Returns 0, or
 * -EOPNOTSUPP with why and what to do in err. */
int perfctr_topology__check(const struct perfctr_topology *t,
			    const struct perfctr_request *req,
			    const struct perfctr_encoding *enc,
			    char *err, size_t len);

/* A counter's encoding on one core PMU's CPUs (a "cIDX" record). */
struct perfctr_core_enc {
	struct perfctr_encoding enc;
	char pmu[64];
	char cpus[PERFCTR_CPU_LIST_MAX];	/* its `cpus` list */
};

/* On a hybrid machine, the encodings of a counter the module creates
 * per CPU (.cpu, .thread, .cgroup; not sampling, not in a group) of a
 * generic hardware event (enc: type 0, or 3, without an extended type):
 * one per core PMU, for its CPUs.  Intel (a core PMU has type 4,
 * PERF_TYPE_RAW): the generic event with the PMU's type in config bits
 * 32-63, as perf opens it.  Arm (no PMU has type 4): the PMU's own type
 * and the event number of its sysfs alias (cycles: events/cpu_cycles);
 * cache events there are left to the kernel (0).  A counter with
 * .cpus("LIST") gets records for the CPUs of its list only, on any
 * machine: those encodings for the CPUs each core PMU has of the list,
 * or its one encoding for the list.  Returns how many (at most
 * PERFCTR_CORE_PMUS) in out, 0 when one encoding serves every CPU,
 * or -EOPNOTSUPP (-EINVAL: the list, perfctr_topology__restrict) with
 * why in err. */
int perfctr_topology__core_encodings(const struct perfctr_topology *t,
				     const struct perfctr_request *req,
				     const struct perfctr_encoding *enc,
				     struct perfctr_core_enc *out,
				     char *err, size_t len);

/* The CPUs of req's .cpus("LIST") on this machine: the CPUs of the
 * list, or the `cpus` of the core PMU LIST names.  Returns how many,
 * with their ids in *cpus (malloc'd, ascending); 0 (and NULL) when req
 * has no .cpus; or -EINVAL with why in err: a CPU the machine lacks (not
 * in SYSFS/devices/system/cpu/possible, else online), no core PMU of
 * that name (with the nearest names), one that names no CPUs. */
int perfctr_topology__restrict(const struct perfctr_topology *t,
			       const struct perfctr_request *req, int **cpus,
			       char *err, size_t len);

/* The CPUs a .socket counter of enc is opened on: its PMU's cpumask,
 * one CPU a socket.  Returns how many, with their ids in *cpus
 * (malloc'd, ascending), or -ENOENT (no PMU with a cpumask counts
 * enc), -EINVAL (a malformed mask), -ENOMEM. */
int perfctr_topology__socket_cpus(const struct perfctr_topology *t,
				  const struct perfctr_encoding *enc,
				  int **cpus);

/* "every-cpu", "core", "hybrid-core", "per-socket" (JSON), and how the
 * text dump marks it ("" for every-cpu). */
const char *perfctr_span__name(unsigned int span);
const char *perfctr_span__text(unsigned int span);

/* ------------------------------------------------------------------ cpus */

/* Parses a CPU list ("0-3,5", as sysfs writes them).  Returns the
 * number of CPUs with their ids in *cpus (malloc'd, ascending), or
 * -EINVAL (malformed), -ENOMEM. */
int perfctr_cpus__parse(const char *list, int **cpus);

/* cpus[0..n) (ascending) as sysfs writes a list, "0-3,8", into buf.
 * Returns the number of ranges, or -ENOSPC when it does not fit. */
int perfctr_cpus__format(const int *cpus, int n, char *buf, size_t len);

/* Is cpu in the CPU list?  1, 0, or -EINVAL, -ENOMEM. */
int perfctr_cpus__has(const char *list, int cpu);

/* Reads SYSFS/devices/system/cpu/online ("0-3,5").  Returns the number
 * of CPUs with their ids in *cpus (malloc'd, ascending), or -ENOENT,
 * -EINVAL (malformed), -ENOMEM. */
int perfctr_cpus__online(const char *sysfs_root, int **cpus);

/* Does the kernel's NMI watchdog hold a counter on every CPU
 * (/proc/sys/kernel/nmi_watchdog is 1)?  1, 0, or 0 when unknown. */
int perfctr_watchdog__holds_counter(void);

/* ------------------------------------------------------------- utilities */

/* FNV-1a 64, incrementally: h = perfctr_hash__add(perfctr_hash__init(), p, n).
 * The translator names content-addressed files with it; the table hash
 * (perfctr_table__hash) is built on it too. */
uint64_t perfctr_hash__init(void);
uint64_t perfctr_hash__add(uint64_t h, const void *p, size_t n);

/* Up to max names from cands[0..n) that are close to name (a likely typo:
 * small edit distance, case-insensitive), nearest first, into out.
 * Returns how many.  Used for "did you mean" in every error about a name. */
size_t perfctr_suggest(const char *name, const char *const *cands, size_t n,
		       const char **out, size_t max);

/* ------------------------------------------------------------------ dump */

/*
 * What the machine offers and what is in use, as data (stap
 * --dump-counters, stap -l 'perfctr.**').  Filled by perfctr_dump__collect,
 * sorted by name at every level, written by the two writers.  Every
 * string is owned by the dump.
 */

#define PERFCTR_UNKNOWN (-1)	/* a count or width nobody can tell */

/* Where a modifier comes from, and how it is written in a name. */
enum perfctr_dump_attr_kind {
	PERFCTR_ATTR_UMASK,	/* libpfm4 unit mask: EVENT:NAME */
	PERFCTR_ATTR_BOOL,	/* libpfm4 modifier: EVENT:NAME */
	PERFCTR_ATTR_INT,	/* libpfm4 modifier: EVENT:NAME=N */
	PERFCTR_ATTR_TERM,	/* sysfs format term: PMU/NAME=N/ */
};

struct perfctr_dump_attr {
	char *name;
	char *desc;		/* TERM: its bits, "config:0-7" */
	unsigned int kind;	/* enum perfctr_dump_attr_kind */
	int is_default;		/* a umask used when none is given */
};

enum perfctr_dump_source {
	PERFCTR_SRC_SYSFS,	/* an events/ file: name "PMU/EVENT/" */
	PERFCTR_SRC_LIBPFM4,	/* libpfm4's table: name "PMU::EVENT" */
};

struct perfctr_dump_event {
	char *name;		/* as a script writes it */
	char *desc;		/* libpfm4's text; sysfs: the file's terms */
	unsigned int source;	/* enum perfctr_dump_source */
	unsigned int n_attrs;	/* libpfm4 umasks and modifiers; a sysfs */
	struct perfctr_dump_attr *attrs; /* event takes its PMU's terms */
};

struct perfctr_dump_pmu {
	char *name;		/* sysfs name, or libpfm4's when sysfs has none */
	int type;		/* perf type from sysfs, PERFCTR_UNKNOWN if none */
	char *cpus;		/* cpumask or cpus file; NULL: every CPU */
	const char *cpus_file;	/* "cpus", "cpumask" (static), or NULL */
	unsigned int span;	/* enum perfctr_span */
	char *pfm_name;		/* libpfm4's PMU, NULL when it knows none */
	char *pfm_desc;
	int software;		/* kernel software events: no counter limit */
	int general, fixed;		/* counters, or PERFCTR_UNKNOWN */
	int general_bits, fixed_bits;	/* their widths, or PERFCTR_UNKNOWN */
	/* Why general is unknown where nobody can know it here (static),
	 * or NULL. */
	const char *general_why;
	unsigned int n_caps;
	struct perfctr_dump_attr *caps;	/* caps/ files: name, desc = value */
	unsigned int n_terms;
	struct perfctr_dump_attr *terms; /* format/ files (PERFCTR_ATTR_TERM) */
	unsigned int n_events;
	struct perfctr_dump_event *events;
};

/* One of perf's generic events and whether this kernel opens it. */
struct perfctr_dump_generic {
	char *name;
	struct perfctr_encoding enc;
	int tried;		/* a trial open was made */
	int open_err;		/* 0, or its negative errno */
};

/* A loaded module that holds counters, from its read-only parameters
 * SYSFS/module/NAME/parameters/perfctr_requests and perfctr_assign. */
struct perfctr_holder {
	char *module;
	char hash[17];			/* perfctr_assign's table hash */
	unsigned int n;
	struct perfctr_request *reqs;	/* n, by idx */
	struct perfctr_encoding *encs;	/* n, same order; NULL: not assigned */
	char *problem;			/* NULL, or what is wrong with them */
};

struct perfctr_dump {
	int nmi_watchdog;	/* perfctr_watchdog__holds_counter() */
	int trial_cpu;		/* where the generic events were tried */
	unsigned int n_pmus;
	struct perfctr_dump_pmu *pmus;
	unsigned int n_generic;
	struct perfctr_dump_generic *generic;
	unsigned int n_holders;
	struct perfctr_holder *holders;
};

struct perfctr_dump_opts {
	size_t sz;		/* sizeof(struct perfctr_dump_opts) */
	const char *sysfs_root;	/* default "/sys" */
	int no_libpfm;		/* leave libpfm4 out */
	int no_trial;		/* do not trial-open the generic events */
};

/* Collects everything.  Returns 0 (parts the machine lacks are left
 * empty: no PMU directory, no module with counters), -ENOMEM, or
 * -EINVAL for bad opts. */
int perfctr_dump__collect(const struct perfctr_dump_opts *opts,
			  struct perfctr_dump **out);
void perfctr_dump__free(struct perfctr_dump *d);

/* For people (a summary of what opens here, then each PMU's events with
 * the modifiers once per PMU; sorted), JSON (everything, per event), and
 * names (perfctr_dump__names' names, one a line; then, after a tab, why
 * a name cannot be counted here, for those that cannot, or a mark for
 * one that not every point counts; a why never starts with '.'):
 *   .socket          of a PMU with a cpumask: only .socket counts it
 *   .cpus("PMU")     of one core PMU of several (hybrid): counted per CPU
 *                    only, with .cpus("PMU") (perfctr_topology__check)
 *   .imprecise       samples without .precise: its PMU has no
 *                    caps/max_precise (software events among them)
 * Return 0, -ENOMEM, or -EIO when f fails. */
#define PERFCTR_NAMES_SOCKET	".socket"
#define PERFCTR_NAMES_CPUS	".cpus"
#define PERFCTR_NAMES_IMPRECISE	".imprecise"

int perfctr_dump__write_text(const struct perfctr_dump *d, FILE *f);
int perfctr_dump__write_json(const struct perfctr_dump *d, FILE *f);
int perfctr_dump__write_names(const struct perfctr_dump *d, FILE *f);

/* Calls fn with every event name a script can use here, sorted, each
 * once: the generic names, except those a trial open found the kernel
 * lacks (no permission or no room now still counts as here); and of
 * every PMU the kernel has (a type in sysfs), "PMU/EVENT/", "PMU::EVENT"
 * (when it needs no umask) and "PMU::EVENT:UMASK".  The events of a
 * libpfm4 PMU that no sysfs PMU takes are not here: the kernel cannot
 * count them.  Returns 0, or -ENOMEM (fn not called). */
typedef void perfctr_name_fn(const char *name, void *ctx);
int perfctr_dump__names(const struct perfctr_dump *d, perfctr_name_fn *fn,
			void *ctx);

/* The other names a script could write, that cannot be counted here,
 * sorted, each once, with why: the generic events the kernel lacks, the
 * events of libpfm4 PMUs that no sysfs PMU takes.  Returns 0, or
 * -ENOMEM (fn not called). */
typedef void perfctr_closed_fn(const char *name, const char *why, void *ctx);
int perfctr_dump__closed_names(const struct perfctr_dump *d,
			       perfctr_closed_fn *fn, void *ctx);

/* The loaded modules that hold counters, sorted by name, read from
 * SYSFS/module (sysfs_root NULL: "/sys").  A module whose parameters
 * cannot be read or parsed is still listed, with problem set.  Returns
 * how many (*out malloc'd, NULL when none), or -ENOMEM. */
int perfctr_holders__read(const char *sysfs_root, struct perfctr_holder **out);

/* --dump-counters[=FORMAT]: collects and writes the dump in FORMAT ("" or
 * "text", "json", "names") to out.  Returns 0, or a negative errno with the reason
 * in err (unknown format, collection or write failure). */
int perfctr_dump__print(const char *format, const char *sysfs_root,
			FILE *out, char *err, size_t errlen);
void perfctr_holders__free(struct perfctr_holder *h, unsigned int n);

#endif /* LIBPERFCTR_H */
