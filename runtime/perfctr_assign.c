// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_assign.c - parsing the perfctr_assign module parameter.
 *
 * The value comes from the helper, but staprun passes any name=value from
 * anyone allowed to run the module: treat it as hostile.  Every request
 * present in the module gets exactly one well-formed record whose flags
 * agree with the script's .user/.kernel, and nothing else is accepted.
 * Format (docs/design.md): HASH;IDX,TYPE,CONFIG,CONFIG1,CONFIG2,FLAGS;...
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include "kcompat.h"	/* testsuite/unit/runtime: the userspace build */
#endif
#include "perfctr.h"

#define PERFCTR_RECORD_FIELDS 6

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
 * as exclude_hv is (perf's :h).
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
	struct perfctr_slot s = { .assigned = 1 };
	unsigned int idx;

	if (perfctr_split(rec, f, PERFCTR_RECORD_FIELDS) != PERFCTR_RECORD_FIELDS ||
	    kstrtouint(f[0], 10, &idx) || kstrtouint(f[1], 10, &s.type) ||
	    kstrtoull(f[2], 16, &s.config) || kstrtoull(f[3], 16, &s.config1) ||
	    kstrtoull(f[4], 16, &s.config2) || kstrtouint(f[5], 16, &s.flags)) {
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
	if (!perfctr_type_allowed(s.type)) {
		snprintf(err, errlen, "counter \"%s\": event type %u is not "
			 "a counter type", reqs[idx].id, s.type);
		return -EINVAL;
	}
	if (!perfctr_flags_agree(s.flags, &reqs[idx])) {
		snprintf(err, errlen, "counter \"%s\": flags %#x contradict "
			 "the script (privilege levels, :G/:H, .multiplex)",
			 reqs[idx].id, s.flags);
		return -EINVAL;
	}
	slots[idx] = s;
	return 0;
}

int perfctr_assign_parse(char *s, const char *hash,
			 const struct perfctr_request_desc *reqs,
			 unsigned int n, struct perfctr_slot *slots,
			 char *err, size_t errlen)
{
	char *rec = strsep(&s, ";");
	unsigned int i;

	memset(slots, 0, n * sizeof(*slots));
	if (!rec || strcmp(rec, hash) != 0) {
		snprintf(err, errlen, "assignment made for another module "
			 "(table %s, this module has %s)", rec ? rec : "none",
			 hash);
		return -EINVAL;
	}
	while ((rec = strsep(&s, ";")) != NULL)
		if (perfctr_record(rec, reqs, n, slots, err, errlen))
			return -EINVAL;
	for (i = 0; i < n; i++)
		if (reqs[i].id && !slots[i].assigned) {
			snprintf(err, errlen, "counter \"%s\" has no assignment",
				 reqs[i].id);
			return -EINVAL;
		}
	return 0;
}
