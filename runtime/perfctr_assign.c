// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_assign.c - parsing the perfctr_assign module parameter.
 *
 * The value comes from the helper, but staprun passes any name=value from
 * anyone allowed to run the module: treat it as hostile.  Every request
 * present in the module gets exactly one well-formed record whose flags
 * agree with the script's .user/.kernel, and nothing else is accepted.
 * Format (docs/design.md): HASH;IDX,TYPE,CONFIG,CONFIG1,CONFIG2,FLAGS;...
 * and, for each group, gLEADER,FD0,NCPU: where perfctr-run left its
 * events open; for each .socket counter, sIDX,CPU,...: the CPUs of its
 * PMU's cpumask; for a counter whose event has a sysfs unit or scale,
 * uIDX,MULT,SHIFT,UNIT; on a hybrid machine, for a counter created per
 * CPU, cIDX,TYPE,CONFIG,CONFIG1,CONFIG2,CPUS: its encoding on each core
 * PMU's CPUs (for a .cpus("LIST") counter on any machine: on the CPUs
 * it counts on, and on no other).  The events themselves are checked at start
 * (perfctr_group_event_check(), on what the fds hold).
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#endif	/* the userspace build (testsuite/unit/runtime) has kcompat.h first */
#include "perfctr.h"

#define PERFCTR_RECORD_FIELDS 6
#define PERFCTR_GROUP_FIELDS 3

/* Event types a script may count: not tracepoints or breakpoints (those
 * are probes, and a breakpoint is a hardware watchpoint). */
static int perfctr_type_allowed(unsigned int type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_SOFTWARE ||
	       type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW ||
	       type >= PERF_TYPE_MAX;	/* a dynamic PMU from sysfs */
}

/*
 * The u/k exclusions and pinning must be what the script asked for, and
 * so must the guest/host exclusions when its event name has :G or :H;
 * without them exclude_host must be clear and exclude_guest is free
 * (perf's default, dropped on a PMU that cannot tell guest from host),
 * as exclude_hv is (perf's :h), and topdown is, in a group.
 */
static int perfctr_flags_agree(unsigned int flags,
			       const struct perfctr_request_desc *r)
{
	unsigned int fixed = PERFCTR_F_EXCLUDE_USER | PERFCTR_F_EXCLUDE_KERNEL |
			     PERFCTR_F_MULTIPLEX | PERFCTR_F_EXCLUDE_HOST;
	unsigned int want = 0;

	if (!(r->plm & PERFCTR_PLM_USER))
		want |= PERFCTR_F_EXCLUDE_USER;
	if (!(r->plm & PERFCTR_PLM_KERNEL))
		want |= PERFCTR_F_EXCLUDE_KERNEL;
	if (r->mux)
		want |= PERFCTR_F_MULTIPLEX;
	if (!r->group_no)		/* topdown is read in groups only */
		fixed |= PERFCTR_F_TOPDOWN;
	if (r->gh) {
		fixed |= PERFCTR_F_EXCLUDE_GUEST;
		if (!(r->gh & PERFCTR_GH_GUEST))
			want |= PERFCTR_F_EXCLUDE_GUEST;
		if (!(r->gh & PERFCTR_GH_HOST))
			want |= PERFCTR_F_EXCLUDE_HOST;
	}
	return (flags & ~PERFCTR_F_ALL) == 0 && (flags & fixed) == want;
}

static int perfctr_split(char *rec, char **field, int max)
{
	int n = 0;
	char *f;

	while ((f = strsep(&rec, ",")) != NULL) {
		if (n == max)
			return -1;
		field[n++] = f;
	}
	return n;
}

static int perfctr_record(char *rec, const struct perfctr_request_desc *reqs,
			  unsigned int n, struct perfctr_slot *slots,
			  char *err, size_t errlen)
{
	char *f[PERFCTR_RECORD_FIELDS];
	struct perfctr_slot *d;
	unsigned long long config, config1, config2;
	unsigned int idx, type, flags;

	if (perfctr_split(rec, f, PERFCTR_RECORD_FIELDS) != PERFCTR_RECORD_FIELDS ||
	    kstrtouint(f[0], 10, &idx) || kstrtouint(f[1], 10, &type) ||
	    kstrtoull(f[2], 16, &config) || kstrtoull(f[3], 16, &config1) ||
	    kstrtoull(f[4], 16, &config2) || kstrtouint(f[5], 16, &flags)) {
		snprintf(err, errlen, "malformed record");
		return -EINVAL;
	}
	if (idx >= n || !reqs[idx].id) {
		snprintf(err, errlen, "record for unknown counter %u", idx);
		return -EINVAL;
	}
	if (slots[idx].assigned) {
		snprintf(err, errlen, "counter \"%s\" assigned twice",
			 reqs[idx].id);
		return -EINVAL;
	}
	if (!perfctr_type_allowed(type)) {
		snprintf(err, errlen, "counter \"%s\": event type %u is not "
			 "a counter type", reqs[idx].id, type);
		return -EINVAL;
	}
	if (!perfctr_flags_agree(flags, &reqs[idx])) {
		snprintf(err, errlen, "counter \"%s\": flags %#x contradict "
			 "the script (privilege levels, :G/:H, .multiplex)",
			 reqs[idx].id, flags);
		return -EINVAL;
	}
	/* its socket, unit and CPU records' stay */
	d = &slots[idx];
	d->assigned = 1;
	d->type = type;
	d->config = config;
	d->config1 = config1;
	d->config2 = config2;
	d->flags = flags;
	return 0;
}

/* "uIDX,MULT,SHIFT,UNIT": one count of counter IDX is MULT / 2^SHIFT
 * UNIT (its sysfs event's .scale and .unit). */
static int perfctr_unit_record(char *rec, const struct perfctr_table *t,
			       struct perfctr_slot *slots, char *err,
			       size_t errlen)
{
	char *f[4];
	struct perfctr_slot *s;
	unsigned long long mult;
	unsigned int idx, shift;
	size_t n;

	if (perfctr_split(rec + 1, f, 4) != 4 || kstrtouint(f[0], 10, &idx) ||
	    kstrtoull(f[1], 16, &mult) || kstrtouint(f[2], 10, &shift)) {
		snprintf(err, errlen, "malformed unit record");
		return -EINVAL;
	}
	if (idx >= t->n || !t->reqs[idx].id) {
		snprintf(err, errlen, "unit record for unknown counter %u", idx);
		return -EINVAL;
	}
	s = &slots[idx];
	n = strlen(f[3]);
	if (s->scale_mult) {
		snprintf(err, errlen, "counter \"%s\": unit assigned twice",
			 t->reqs[idx].id);
		return -EINVAL;
	}
	if (!mult || mult >> 53) {
		snprintf(err, errlen, "counter \"%s\": unit record's scale "
			 "%#llx / 2^%u: the multiplier must be 1 to 2^53 - 1",
			 t->reqs[idx].id, mult, shift);
		return -EINVAL;
	}
	if (shift > PERFCTR_SCALE_SHIFT_MAX) {
		snprintf(err, errlen, "counter \"%s\": unit record's scale "
			 "%#llx / 2^%u: the shift must be at most %d",
			 t->reqs[idx].id, mult, shift, PERFCTR_SCALE_SHIFT_MAX);
		return -EINVAL;
	}
	if (n >= PERFCTR_UNIT_MAX ||
	    strspn(f[3], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		   "0123456789_./-") != n) {
		snprintf(err, errlen, "counter \"%s\": unit record's unit "
			 "is not at most %d characters of [A-Za-z0-9_./-]",
			 t->reqs[idx].id, PERFCTR_UNIT_MAX - 1);
		return -EINVAL;
	}
	s->scale_mult = mult;
	s->scale_shift = shift;
	memcpy(s->unit, f[3], n + 1);
	return 0;
}

/* "sIDX,CPU,...": the CPUs of .socket counter IDX's PMU's cpumask, one
 * a socket, ascending. */
static int perfctr_socket_record(char *rec, const struct perfctr_table *t,
				 struct perfctr_slot *slots, char *err,
				 size_t errlen)
{
	char *f[1 + PERFCTR_SOCKETS];
	struct perfctr_slot *s;
	unsigned int idx, cpu, k;
	int n = perfctr_split(rec + 1, f, 1 + PERFCTR_SOCKETS);

	if (n < 0) {
		snprintf(err, errlen, "socket record with more than %d "
			 "sockets (stap -D PERFCTR_SOCKETS=N)", PERFCTR_SOCKETS);
		return -EINVAL;
	}
	if (n < 2 || kstrtouint(f[0], 10, &idx)) {
		snprintf(err, errlen, "malformed socket record");
		return -EINVAL;
	}
	if (idx >= t->n || !t->reqs[idx].id ||
	    t->reqs[idx].scope != PERFCTR_SCOPE_SOCKET) {
		snprintf(err, errlen, "socket record for counter %u, which is "
			 "not a .socket counter", idx);
		return -EINVAL;
	}
	s = &slots[idx];
	if (s->nsock) {
		snprintf(err, errlen, "counter \"%s\": sockets assigned twice",
			 t->reqs[idx].id);
		return -EINVAL;
	}
	for (k = 0; k + 1 < (unsigned int)n; k++) {
		if (kstrtouint(f[k + 1], 10, &cpu)) {
			snprintf(err, errlen, "malformed socket record");
			return -EINVAL;
		}
		if (cpu >= t->max_cpus || (k && cpu <= s->sock_cpu[k - 1])) {
			snprintf(err, errlen, "counter \"%s\": socket CPU %u "
				 "out of range or order", t->reqs[idx].id, cpu);
			s->nsock = 0;
			return -EINVAL;
		}
		s->sock_cpu[k] = cpu;
		s->nsock = k + 1;
	}
	return 0;
}

/* Can request r's counter have an encoding per core PMU
 * (perfctr_iface.h)? */
static int perfctr_core_encoded(const struct perfctr_request_desc *r)
{
	return perfctr_scope__core_encoded(r->scope, r->sample || r->hz,
					   r->group_no != 0);
}

/* A core PMU's types: generic hardware and cache events (perf puts the
 * PMU's type in config[63:32]), raw, or a dynamic PMU's. */
static int perfctr_core_type(unsigned int type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE ||
	       type == PERF_TYPE_RAW || type >= PERF_TYPE_MAX;
}

/* "N" or "N-M" into e's next range, after the one before it. */
static int perfctr_cpu_range(char *f, struct perfctr_cpu_enc *e,
			     unsigned int max_cpus)
{
	char *lo = strsep(&f, "-");
	unsigned int a, b, k = e->nrange;

	if (k == PERFCTR_CPU_RANGES || kstrtouint(lo, 10, &a))
		return -EINVAL;
	b = a;
	if (f && kstrtouint(f, 10, &b))
		return -EINVAL;
	if (b < a || b >= max_cpus || (k && a <= e->hi[k - 1] + 1))
		return -ERANGE;
	e->lo[k] = a;
	e->hi[k] = b;
	e->nrange = k + 1;
	return 0;
}

/* "cIDX,TYPE,CONFIG,CONFIG1,CONFIG2,CPUS": counter IDX's encoding on the
 * CPUs of one core PMU, CPUS a list of "N" and "N-M", ascending and
 * apart (a CPU list as sysfs writes it). */
static int perfctr_cpu_record(char *rec, const struct perfctr_table *t,
			      struct perfctr_slot *slots, char *err,
			      size_t errlen)
{
	char *f[5 + PERFCTR_CPU_RANGES];
	struct perfctr_cpu_enc e = { .nrange = 0 };
	const struct perfctr_request_desc *r;
	int n = perfctr_split(rec + 1, f, 5 + PERFCTR_CPU_RANGES), k, rc;
	unsigned int idx;

	if (n < 0) {
		snprintf(err, errlen, "CPU record with more than %d CPU ranges",
			 PERFCTR_CPU_RANGES);
		return -EINVAL;
	}
	if (n < 6 || kstrtouint(f[0], 10, &idx) ||
	    kstrtouint(f[1], 10, &e.type) || kstrtoull(f[2], 16, &e.config) ||
	    kstrtoull(f[3], 16, &e.config1) || kstrtoull(f[4], 16, &e.config2)) {
		snprintf(err, errlen, "malformed CPU record");
		return -EINVAL;
	}
	r = idx < t->n ? &t->reqs[idx] : NULL;
	if (!r || !r->id || !perfctr_core_encoded(r)) {
		snprintf(err, errlen, "CPU record for counter %u, which is "
			 "not one counter per CPU or per task (.cpu, .thread, "
			 ".cgroup not sampling, not in a group; .process)",
			 idx);
		return -EINVAL;
	}
	if (!perfctr_core_type(e.type) &&
	    !(perfctr_req_has_cpus(r) && perfctr_type_allowed(e.type))) {	/* .cpus: any */
		snprintf(err, errlen, "counter \"%s\": CPU record of type %u, "
			 "which is no core PMU's", r->id, e.type);
		return -EINVAL;
	}
	if (slots[idx].nenc == PERFCTR_CORE_PMUS) {
		snprintf(err, errlen, "counter \"%s\": more than %d CPU "
			 "records", r->id, PERFCTR_CORE_PMUS);
		return -EINVAL;
	}
	for (k = 5; k < n; k++) {
		rc = perfctr_cpu_range(f[k], &e, t->max_cpus);
		if (rc == -ERANGE) {
			snprintf(err, errlen, "counter \"%s\": CPU record "
				 "names CPUs out of order, or CPUs this kernel "
				 "lacks (it has %u)", r->id, t->max_cpus);
			return -EINVAL;
		}
		if (rc) {
			snprintf(err, errlen, "malformed CPU record");
			return -EINVAL;
		}
	}
	slots[idx].enc[slots[idx].nenc++] = e;
	return 0;
}

/* Which of s's CPU records name cpu: the first, and how many. */
static const struct perfctr_cpu_enc *
perfctr_cpu_enc_count(const struct perfctr_slot *s, unsigned int cpu,
		      unsigned int *count)
{
	const struct perfctr_cpu_enc *found = NULL;
	unsigned int i, k;

	*count = 0;
	for (i = 0; i < s->nenc; i++)
		for (k = 0; k < s->enc[i].nrange; k++)
			if (cpu >= s->enc[i].lo[k] && cpu <= s->enc[i].hi[k]) {
				found = found ? found : &s->enc[i];
				(*count)++;
			}
	return found;
}

const struct perfctr_cpu_enc *perfctr_slot_cpu_enc(const struct perfctr_slot *s,
						   unsigned int cpu)
{
	unsigned int count;

	return perfctr_cpu_enc_count(s, cpu, &count);
}

/* s's CPUs as a list ("0-3,8") into buf, for a message. */
static void perfctr_cpu_list(const struct perfctr_slot *s,
			     unsigned int max_cpus, char *buf, size_t len)
{
	unsigned int cpu, lo, count;
	size_t n = 0;

	buf[0] = '\0';
	for (cpu = 0; cpu < max_cpus && n < len; cpu++) {
		if (!perfctr_cpu_enc_count(s, cpu, &count))
			continue;
		for (lo = cpu; cpu + 1 < max_cpus &&
		     perfctr_cpu_enc_count(s, cpu + 1, &count); cpu++)
			;
		n += lo == cpu ? snprintf(buf + n, len - n, "%s%u",
					  n ? "," : "", lo) :
		     snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "", lo,
			      cpu);
	}
}

/* A counter's CPU records name every CPU of the kernel's once; a .cpus
 * counter's (r->cpus) name some, each once: the CPUs it counts on. */
static int perfctr_cpu_records_check(struct perfctr_slot *s,
				     const struct perfctr_request_desc *r,
				     unsigned int max_cpus,
				     char *err, size_t errlen)
{
	unsigned int cpu, count;
	char list[96];

	if (perfctr_req_has_cpus(r) && !s->nenc) {
		snprintf(err, errlen, "counter \"%s\" has .cpus(\"%s\") and "
			 "no CPU record: perfctr-run names its CPUs", r->id,
			 r->cpus);
		return -EINVAL;
	}
	for (cpu = 0; s->nenc && cpu < max_cpus; cpu++) {
		perfctr_cpu_enc_count(s, cpu, &count);
		if (count == 1 || (!count && perfctr_req_has_cpus(r)))
			continue;
		snprintf(err, errlen, "counter \"%s\": %s CPU %u (CPU "
			 "records must name each of the kernel's %u CPUs "
			 "once)", r->id, count ? "several CPU records name" :
			 "no CPU record names", cpu, max_cpus);
		return -EINVAL;
	}
	if (perfctr_req_has_cpus(r)) {
		perfctr_cpu_list(s, max_cpus, list, sizeof(list));
		snprintf(s->cpus_why, sizeof(s->cpus_why), "counts on CPUs %s "
			 "only (.cpus(\"%s\")), not on this CPU", list,
			 r->cpus);
	}
	return 0;
}

/* "gLEADER,FD0,NCPU": the group request LEADER leads. */
static int perfctr_group_record(char *rec, const struct perfctr_table *t,
				struct perfctr_group_slot *gslots,
				char *err, size_t errlen)
{
	char *f[PERFCTR_GROUP_FIELDS];
	const struct perfctr_request_desc *r;
	const struct perfctr_group_desc *g;
	struct perfctr_group_slot gs = { .assigned = 1 };
	unsigned int idx;

	if (perfctr_split(rec + 1, f, PERFCTR_GROUP_FIELDS) !=
	    PERFCTR_GROUP_FIELDS || kstrtouint(f[0], 10, &idx) ||
	    kstrtouint(f[1], 10, &gs.fd0) || kstrtouint(f[2], 10, &gs.ncpu)) {
		snprintf(err, errlen, "malformed group record");
		return -EINVAL;
	}
	r = idx < t->n ? &t->reqs[idx] : NULL;
	g = r && r->id && r->group_no && r->group_no <= t->ngroups ?
	    &t->groups[r->group_no - 1] : NULL;
	if (!g || !g->n || g->leader != idx) {
		snprintf(err, errlen, "group record for counter %u, which "
			 "leads no group", idx);
		return -EINVAL;
	}
	if (gslots[r->group_no - 1].assigned) {
		snprintf(err, errlen, "group \"%s\" assigned twice", g->name);
		return -EINVAL;
	}
	if (!gs.ncpu || gs.ncpu > t->max_cpus ||
	    gs.fd0 > (unsigned int)INT_MAX - gs.ncpu * g->n) {
		snprintf(err, errlen, "group \"%s\": %u CPUs from fd %u: "
			 "out of range", g->name, gs.ncpu, gs.fd0);
		return -EINVAL;
	}
	gslots[r->group_no - 1] = gs;
	return 0;
}

int perfctr_assign_parse(char *s, const struct perfctr_table *t,
			 struct perfctr_slot *slots,
			 struct perfctr_group_slot *gslots,
			 char *err, size_t errlen)
{
	char *rec = strsep(&s, ";");
	unsigned int i;
	int rc;

	memset(slots, 0, t->n * sizeof(*slots));
	if (t->ngroups)
		memset(gslots, 0, t->ngroups * sizeof(*gslots));
	if (!rec || strcmp(rec, t->hash) != 0) {
		snprintf(err, errlen, "assignment made for another module "
			 "(table %s, this module has %s)", rec ? rec : "none",
			 t->hash);
		return -EINVAL;
	}
	while ((rec = strsep(&s, ";")) != NULL) {
		if (rec[0] == 'g' && t->ngroups)
			rc = perfctr_group_record(rec, t, gslots, err, errlen);
		else if (rec[0] == 's')
			rc = perfctr_socket_record(rec, t, slots, err, errlen);
		else if (rec[0] == 'u')
			rc = perfctr_unit_record(rec, t, slots, err, errlen);
		else if (rec[0] == 'c')
			rc = perfctr_cpu_record(rec, t, slots, err, errlen);
		else
			rc = perfctr_record(rec, t->reqs, t->n, slots, err,
					    errlen);
		if (rc)
			return -EINVAL;
	}
	for (i = 0; i < t->n; i++) {
		if (t->reqs[i].id && !slots[i].assigned) {
			snprintf(err, errlen, "counter \"%s\" has no assignment",
				 t->reqs[i].id);
			return -EINVAL;
		}
		if (t->reqs[i].id && t->reqs[i].scope == PERFCTR_SCOPE_SOCKET &&
		    !slots[i].nsock) {
			snprintf(err, errlen, "counter \"%s\" has no sockets: "
				 "perfctr-run names their CPUs", t->reqs[i].id);
			return -EINVAL;
		}
		if (t->reqs[i].id &&
		    perfctr_cpu_records_check(&slots[i], &t->reqs[i],
					      t->max_cpus, err, errlen))
			return -EINVAL;
	}
	for (i = 0; i < t->ngroups; i++)
		if (t->groups[i].n && !gslots[i].assigned) {
			snprintf(err, errlen, "group \"%s\" has no events: "
				 "perfctr-run opens them", t->groups[i].name);
			return -EINVAL;
		}
	return 0;
}

/* The attr fields that say what an event counts and how it is
 * scheduled, as the module would set them (perfctr_attr.h); a
 * sibling is never pinned (perf: only a leader may be).  perf may
 * give an event of a generic type the type of the PMU that took it
 * (Linux 6.12: cpu-clock and task-clock are PMUs of their own). */
static const char *perfctr_attr_differs(const struct perf_event_attr *have,
					const struct perf_event_attr *want,
					unsigned int pmu_type)
{
	if ((have->type != want->type &&
	     (want->type >= PERF_TYPE_MAX || have->type != pmu_type)) ||
	    have->config != want->config ||
	    have->config1 != want->config1 || have->config2 != want->config2)
		return "counts another event";
	if (have->exclude_user != want->exclude_user ||
	    have->exclude_kernel != want->exclude_kernel ||
	    have->exclude_hv != want->exclude_hv ||
	    have->exclude_guest != want->exclude_guest ||
	    have->exclude_host != want->exclude_host)
		return "counts at other privilege levels";
	if (have->pinned != want->pinned)
		return have->pinned ? "is pinned" : "is not pinned";
	if (have->sample_period || have->freq)
		return "samples";
	if (have->exclusive || have->inherit)
		return "is exclusive or inherited";
	return NULL;
}

int perfctr_group_event_check(const struct perfctr_slot *s, unsigned int mux,
			      unsigned int member,
			      const struct perf_event_attr *attr,
			      unsigned int pmu_type, int cpu, int *want,
			      int prev, unsigned int max_cpus, char *err,
			      size_t errlen)
{
	struct perf_event_attr a;
	const char *why;

	perfctr_attr_counter(&a, s->type, s->config, s->config1, s->config2,
			     s->flags);
	a.pinned = !member && !mux;
	why = perfctr_attr_differs(attr, &a, pmu_type);
	if (why) {
		snprintf(err, errlen, "the event %s (type %u config %#llx "
			 "pinned %u, the assignment's type %u config %#llx "
			 "pinned %u)", why, attr->type,
			 (unsigned long long)attr->config, attr->pinned,
			 a.type, (unsigned long long)a.config, a.pinned);
		return -EINVAL;
	}
	if (cpu < 0 || (unsigned int)cpu >= max_cpus) {
		snprintf(err, errlen, "the event counts %s", cpu < 0 ?
			 "a task, not a CPU" : "on no CPU this kernel has");
		return -EINVAL;
	}
	if (!member) {
		if (cpu <= prev) {
			snprintf(err, errlen, "CPU %d comes after CPU %d", cpu,
				 prev);
			return -EINVAL;
		}
		*want = cpu;
	} else if (cpu != *want) {
		snprintf(err, errlen, "the event counts on CPU %d, its leader "
			 "on CPU %d", cpu, *want);
		return -EINVAL;
	}
	return 0;
}
