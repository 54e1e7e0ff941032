/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-dump-pfm.c - the dump for CPUs this machine is not, through
 * LIBPFM_FORCE_PMU.  libpfm4 reads that variable once per process, so
 * each model is checked in a child (this program again, "--model M"),
 * whose "1 what" / "0 what" lines become TAP results here.
 *
 * Counter numbers are checked against libpfm4's own pfm_get_pmu_info and
 * against published ones where libpfm4 gives them: fixed counters (Intel
 * SDM vol. 3B, 20.2: Skylake 3, Ice Lake and Sapphire Rapids 4; AMD has
 * none), Skylake's 8 general-purpose counters with HT off, Zen 3's 6
 * (AMD PPR for family 19h).  libpfm4 gives Ice Lake and Sapphire Rapids
 * 16 (its maximum); the SDM says 8 per logical CPU: libpfm4 only there.
 */
#include <errno.h>
#include <stdarg.h>
#include <jansson.h>
#include <perfmon/pfmlib.h>
#include "dump.h"
#include "tap.h"
#include "util.h"

#define CPU_TYPE "bus/event_source/devices/cpu/type"

static const struct model {
	const char *force;
	int fixed;		/* published */
	int general;		/* published, or -1: libpfm4's only */
	int general_bits;	/* forced: Intel unknown, AMD 48 */
	const char *event, *umask;	/* one libpfm4 lists (umask or NULL) */
} models[] = {
	{ "skl", 3, 8, PERFCTR_UNKNOWN, "INST_RETIRED", "ANY_P" },
	{ "icl", 4, -1, PERFCTR_UNKNOWN, "INST_RETIRED", "ANY_P" },
	{ "spr", 4, -1, PERFCTR_UNKNOWN, "INST_RETIRED", "ANY" },
	{ "amd64_fam19h_zen3", 0, 6, 48, "RETIRED_INSTRUCTIONS", NULL },
};

/* ---------------------------------------------------------- the child */

#define CHECKS 18	/* say() calls in a child that runs to the end */

static void __attribute__((format(printf, 2, 3)))
say(int pass, const char *fmt, ...)
{
	va_list ap;

	printf("%d ", pass);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int pfm_info(const char *name, pfm_pmu_info_t *info)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		memset(info, 0, sizeof(*info));
		info->size = sizeof(*info);
		if (pfm_get_pmu_info(p, info) == PFM_SUCCESS &&
		    !strcmp(info->name, name))
			return 0;
	}
	return -1;
}

static const struct perfctr_dump_pmu *find(const struct perfctr_dump *d,
					   const char *name)
{
	unsigned int i;

	for (i = 0; i < d->n_pmus; i++)
		if (!strcmp(d->pmus[i].name, name))
			return &d->pmus[i];
	return NULL;
}

static int has_event(const struct perfctr_dump_pmu *p, const struct model *m)
{
	char name[PERFCTR_NAME_MAX];
	unsigned int i, j;

	snprintf(name, sizeof(name), "%s::%s", m->force, m->event);
	for (i = 0; i < p->n_events; i++) {
		if (strcmp(p->events[i].name, name))
			continue;
		for (j = 0; m->umask && j < p->events[i].n_attrs; j++)
			if (!strcmp(p->events[i].attrs[j].name, m->umask))
				return p->events[i].attrs[j].kind == PERFCTR_ATTR_UMASK;
		return !m->umask && p->events[i].source == PERFCTR_SRC_LIBPFM4;
	}
	return 0;
}

struct resolve {
	struct perfctr_resolver *r;
	int n, bad;
	char first_bad[PERFCTR_NAME_MAX];
};

static void resolve_one(const char *name, void *ctx)
{
	struct resolve *s = ctx;
	struct perfctr_encoding enc;

	memset(&enc, 0, sizeof(enc));
	s->n++;
	if (perfctr_resolver__resolve(s->r, name, 0, &enc, NULL, 0) &&
	    !s->bad++)
		snprintf(s->first_bad, sizeof(s->first_bad), "%s", name);
}

static void check_names(const struct perfctr_dump *d, const char *root)
{
	struct perfctr_resolver_opts o = { .sz = sizeof(o), .sysfs_root = root };
	struct resolve s = { 0 };

	if (perfctr_resolver__new(&o, &s.r))
		return say(0, "resolver");
	perfctr_dump__names(d, resolve_one, &s);
	perfctr_resolver__free(s.r);
	say(s.n > 100 && !s.bad, "every listed name resolves (first bad: %s)",
	    s.first_bad);
}

static void check_json(const struct perfctr_dump *d, unsigned int nevents)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *j, *events;

	perfctr_dump__write_json(d, f);
	fclose(f);
	j = json_loads(buf, 0, NULL);
	events = json_object_get(json_array_get(json_object_get(j, "pmus"), 0),
				 "events");
	say(j && json_array_size(events) == nevents,
	    "JSON parses back with all %u events", nevents);
	json_decref(j);
	free(buf);
}

static char *text_of(const struct perfctr_dump *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	perfctr_dump__write_text(d, f);
	fclose(f);
	return buf;
}

static unsigned int count(const char *text, const char *what)
{
	unsigned int n = 0;

	for (; text && (text = strstr(text, what)); text++)
		n++;
	return n;
}

/* The PMU in the summary and its section; every event listed once; a
 * modifier described once for the PMU, not under each event. */
static void check_text(const struct perfctr_dump *d,
		       const struct perfctr_dump_pmu *p, const struct model *m)
{
	char *buf = text_of(d), want[128];
	unsigned int i, listed = 0;

	snprintf(want, sizeof(want), "\n  cpu  type 4, all CPUs, libpfm4 %s (",
		 m->force);
	say(count(buf, want) == 1, "text: the summary says %s", want + 1);
	snprintf(want, sizeof(want), "\n\ncpu (type 4, all CPUs, libpfm4 %s: ",
		 m->force);
	say(count(buf, want) == 1, "text: its section");
	for (i = 0; i < p->n_events; i++) {
		snprintf(want, sizeof(want), "\n    %s  ", p->events[i].name);
		listed += count(buf, want) == 1;
	}
	say(listed == p->n_events, "text: each of its %u events once (%u)",
	    p->n_events, listed);
	say(count(buf, "\n    u                       monitor at user level\n") == 1,
	    "text: the modifier u described once, for the PMU");
	free(buf);
}

/* Without a sysfs PMU for it: the summary says so, no event is listed. */
static void check_text_absent(const struct perfctr_dump *d,
			      const struct model *m)
{
	char *buf = text_of(d), want[128];

	snprintf(want, sizeof(want), "\nPMUs only libpfm4 knows (the kernel "
		 "has none: their events cannot be counted here):\n  %s  "
		 "libpfm4 %s (", m->force, m->force);
	say(count(buf, want) == 1, "no sysfs cpu PMU, text: %s is one of "
	    "the PMUs only libpfm4 knows", m->force);
	snprintf(want, sizeof(want), "%s::", m->force);
	say(count(buf, want) == 0, "no sysfs cpu PMU, text: none of its "
	    "events");
	free(buf);
}

struct prefixed {
	const char *prefix;
	unsigned int n, with;
};

static void count_prefixed(const char *name, void *ctx)
{
	struct prefixed *c = ctx;

	c->n++;
	c->with += !strncmp(name, c->prefix, strlen(c->prefix));
}

/* A libpfm4 PMU that no sysfs PMU takes: none of its events can be
 * counted, so none is among the names a script can use (stap -l); the
 * names format lists each with the reason. */
static void check_absent(const struct perfctr_dump *d, const struct model *m)
{
	char prefix[64], *buf = NULL, *line, *tab;
	struct prefixed c = { prefix, 0, 0 };
	unsigned int listed = 0, closed = 0;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	snprintf(prefix, sizeof(prefix), "%s::", m->force);
	perfctr_dump__names(d, count_prefixed, &c);
	say(c.n > 0 && c.with == 0, "no sysfs cpu PMU: none of %s's events "
	    "among the %u names that can be counted", m->force, c.n);
	perfctr_dump__write_names(d, f);
	fclose(f);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		tab = strchr(line, '\t');
		listed++;
		closed += tab && strstr(tab, "the kernel has no PMU for "
					"libpfm4's") != NULL;
	}
	say(listed > 100 && closed == listed, "names format: each of %s's %u "
	    "names with why it cannot be counted (%u)", m->force, listed,
	    closed);
	free(buf);
}

static struct perfctr_dump *collect(const char *root)
{
	struct perfctr_dump_opts o = { .sz = sizeof(o), .sysfs_root = root,
				       .no_trial = 1 };
	struct perfctr_dump *d = NULL;

	if (perfctr_dump__collect(&o, &d))
		say(0, "collect");
	return d;
}

static int child(const struct model *m, const char *dir)
{
	const struct perfctr_dump_pmu *p;
	struct perfctr_dump *d;
	pfm_pmu_info_t info;
	char root[512];
	unsigned int i, n = 0;

	snprintf(root, sizeof(root), "%s/with-cpu", dir);
	if (pfm_initialize() != PFM_SUCCESS || pfm_info(m->force, &info) ||
	    !(d = collect(root)))
		return 1;
	p = find(d, "cpu");
	say(p && p->pfm_name && !strcmp(p->pfm_name, m->force),
	    "the sysfs cpu PMU (type 4) is libpfm4's %s", m->force);
	if (!p) {
		perfctr_dump__free(d);
		return 1;
	}
	say(p->general == info.num_cntrs, "general-purpose counters as "
	    "pfm_get_pmu_info says (%s)", m->force);
	say(m->general < 0 || p->general == m->general,
	    "general-purpose counters as published (%s)", m->force);
	say(p->fixed == info.num_fixed_cntrs && p->fixed == m->fixed,
	    "fixed counters as libpfm4 and as published (%s)", m->force);
	say(p->general_bits == m->general_bits, "counter width (%s)", m->force);
	for (i = 0; i < p->n_events; i++)
		n += p->events[i].source == PERFCTR_SRC_LIBPFM4;
	say((int)n == info.nevents, "all of libpfm4's %s events", m->force);
	say(has_event(p, m), "%s: a known event and umask", m->event);
	check_names(d, root);
	check_json(d, p->n_events);
	check_text(d, p, m);
	perfctr_dump__free(d);

	snprintf(root, sizeof(root), "%s/without", dir);
	if (!(d = collect(root)))
		return 1;
	p = find(d, m->force);
	say(p && p->type == PERFCTR_UNKNOWN && p->pfm_name,
	    "no sysfs cpu PMU: %s stands alone, not in sysfs", m->force);
	check_absent(d, m);
	check_text_absent(d, m);
	perfctr_dump__free(d);
	return 0;
}

/* --------------------------------------------------------- the parent */

static void run_model(const char *self, const struct model *m)
{
	char cmd[1024], line[512];
	int lines = 0, status;
	FILE *f;

	setenv("LIBPFM_FORCE_PMU", m->force, 1);
	snprintf(cmd, sizeof(cmd), "'%s' --model %s '%s'", self, m->force,
		 test_dir);
	f = popen(cmd, "r");
	if (!f)
		test_die("popen");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ok(line[0] == '1', "%s: %s", m->force, line + 2);
		lines++;
	}
	status = pclose(f);
	ok(status == 0 && lines == CHECKS, "%s: the child ran every check",
	   m->force);
}

int main(int argc, char **argv)
{
	char self[512];
	ssize_t n;
	size_t i;

	if (argc == 4 && !strcmp(argv[1], "--model"))
		for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
			if (!strcmp(models[i].force, argv[2]))
				return child(&models[i], argv[3]);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		test_die("readlink");
	self[n] = '\0';
	test_mkdtemp();
	test_write("with-cpu/" CPU_TYPE, "4\n");
	test_write("with-cpu/devices/system/cpu/online", "0\n");
	test_write("without/devices/system/cpu/online", "0\n");
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		run_model(self, &models[i]);
	test_cleanup();
	return tap_done();
}
