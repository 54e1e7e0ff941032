/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-name.c - perfctr_name__parse: base, modifiers, errors. */
#include <errno.h>
#include "libperfctr.h"
#include "tap.h"

#define U PERFCTR_PLM_USER
#define K PERFCTR_PLM_KERNEL
#define H PERFCTR_PLM_HV

static const struct {
	const char *name, *base;
	unsigned int plm, precise;
} good[] = {
	{ "cycles", "cycles", 0, 0 },
	{ "cycles:u", "cycles", U, 0 },
	{ "cycles:k", "cycles", K, 0 },
	{ "cycles:uk", "cycles", U | K, 0 },
	{ "cycles:ukh", "cycles", U | K | H, 0 },
	{ "cycles:ukp", "cycles", U | K, 1 },
	{ "cycles:ppp", "cycles", 0, 3 },
	{ "r1c0:u", "r1c0", U, 0 },
	{ "L1-dcache-load-misses:k", "L1-dcache-load-misses", K, 0 },
	/* libpfm4 unit masks stay in the base */
	{ "INST_RETIRED:ANY_P", "INST_RETIRED:ANY_P", 0, 0 },
	{ "INST_RETIRED:ANY_P:u", "INST_RETIRED:ANY_P", U, 0 },
	{ "icl::INST_RETIRED:ANY_P:k", "icl::INST_RETIRED:ANY_P", K, 0 },
	{ "icl::INST_RETIRED", "icl::INST_RETIRED", 0, 0 },
	{ "inst_retired:any_p", "inst_retired:any_p", 0, 0 },
	{ "br_inst_retired:conditional", "br_inst_retired:conditional", 0, 0 },
	{ "mem_load_retired:l3_miss:c=2", "mem_load_retired:l3_miss:c=2", 0, 0 },
	{ "mem_load_retired.l3_miss", "mem_load_retired.l3_miss", 0, 0 },
	/* sysfs PMU terms: modifiers after the closing slash */
	{ "cpu/event=0xc0,umask=1/", "cpu/event=0xc0,umask=1/", 0, 0 },
	{ "cpu/event=0xc0/u", "cpu/event=0xc0/", U, 0 },
	{ "cpu/event=0xc0/:uk", "cpu/event=0xc0/", U | K, 0 },
	{ "cpu/inst_retired/kp", "cpu/inst_retired/", K, 1 },
};

static const struct {
	const char *name, *msg;
} bad[] = {
	{ "cycles:x", "unknown modifier 'x' in \"cycles:x\"" },
	{ "cycles:ux", "unknown modifier 'x' in \"cycles:ux\"" },
	{ "r1c0:g", "unknown modifier 'g' in \"r1c0:g\"" },
	{ "cycles:", "empty modifier list in \"cycles:\"" },
	{ "cycles:pppp", "too many 'p' modifiers in \"cycles:pppp\" (at most 3)" },
	{ "cpu/event=1/x", "unknown modifier 'x' in \"cpu/event=1/x\"" },
	{ "cpu/event=1/:", "empty modifier list in \"cpu/event=1/:\"" },
	{ "", "empty event name" },
	{ ":u", "empty event name in \":u\"" },
	{ "cyc les", "control or blank character in event name \"cyc les\"" },
	{ "cyc\tles", "control or blank character" },
};

/* A counter's levels from its name and its clause's .user/.kernel
 * (perfctr_name__counter_plm): plm, or 0 and the message. */
static const struct {
	const char *name;
	unsigned int clause, plm;
	const char *msg;
} levels[] = {
	{ "cycles", 0, PERFCTR_PLM_ALL, NULL },
	{ "cycles:k", 0, PERFCTR_PLM_KERNEL, NULL },
	{ "cycles:uh", 0, PERFCTR_PLM_USER, NULL },
	{ "cycles:h", PERFCTR_PLM_USER, PERFCTR_PLM_USER, NULL },
	{ "cycles:u", PERFCTR_PLM_USER, PERFCTR_PLM_USER, NULL },
	{ "cycles", PERFCTR_PLM_KERNEL, PERFCTR_PLM_KERNEL, NULL },
	{ "cycles:h", 0, 0, "\"cycles:h\" counts neither user nor kernel "
	  "mode; add ':u' or ':k'" },
	{ "cycles:u", PERFCTR_PLM_KERNEL, 0, "modifier ':u' in \"cycles:u\" "
	  "contradicts '.kernel'" },
	{ "cycles:uk", PERFCTR_PLM_USER, 0, "modifier ':uk' in" },
	{ "cycles:pp", 0, 0, "modifier 'p' in \"cycles:pp\": a counter counts "
	  "every event" },
};

static void counter_levels(void)
{
	struct perfctr_name n;
	unsigned int plm;
	char err[256];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		err[0] = '\0';
		plm = 0;
		ret = perfctr_name__parse(levels[i].name, &n, err, sizeof(err));
		if (!ret)
			ret = perfctr_name__counter_plm(levels[i].name, &n,
							levels[i].clause, &plm,
							err, sizeof(err));
		if (levels[i].msg) {
			is_int(ret, -EINVAL, "\"%s\" with clause level %u: "
			       "refused", levels[i].name, levels[i].clause);
			like(err, levels[i].msg, "  and says why");
		} else {
			is_int(ret, 0, "\"%s\" with clause level %u: %s",
			       levels[i].name, levels[i].clause, err);
			is_int(plm, levels[i].plm, "  counts at level %u",
			       levels[i].plm);
		}
	}
}

int main(void)
{
	struct perfctr_name n;
	char err[256], longname[PERFCTR_NAME_MAX + 8];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		err[0] = '\0';
		ret = perfctr_name__parse(good[i].name, &n, err, sizeof(err));
		is_int(ret, 0, "parse \"%s\" %s", good[i].name, err);
		is_str(n.base, good[i].base, "\"%s\": base", good[i].name);
		is_int(n.plm, good[i].plm, "\"%s\": plm", good[i].name);
		is_int(n.precise, good[i].precise, "\"%s\": precise", good[i].name);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ret = perfctr_name__parse(bad[i].name, &n, err, sizeof(err));
		is_int(ret, -EINVAL, "\"%s\" is refused", bad[i].name);
		like(err, bad[i].msg, "\"%s\": message", bad[i].name);
	}
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ret = perfctr_name__parse(longname, &n, err, sizeof(err));
	is_int(ret, -EINVAL, "an over-long name is refused");
	like(err, "longer than 255 bytes", "and says how long is allowed");
	longname[PERFCTR_NAME_MAX - 1] = '\0';
	is_int(perfctr_name__parse(longname, &n, NULL, 0), 0,
	       "255 bytes is fine, and a NULL err buffer is allowed");
	counter_levels();
	return tap_done();
}
