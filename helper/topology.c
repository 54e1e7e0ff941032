/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topology.c - which CPUs each PMU counts on (its `cpus` or `cpumask`
 * file), and the counters the module cannot create as their scope
 * creates them (a copy per CPU, per task, or per socket): a PMU's
 * shared per-socket counters anywhere but .socket, anything else in
 * .socket, and on a hybrid machine an event that only one core PMU can
 * count.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "internal.h"

#define LIST_MAX 8192

/* The files that say which CPUs a PMU covers, first found wins, and
 * what each makes of it. */
const char *const pc_topo_cpu_files[PC_TOPO_NFILES] = { "cpus", "cpumask" };

static const struct {
	const char *name, *text;
} spans[] = {
	[PERFCTR_SPAN_ALL]	= { "every-cpu", "" },
	[PERFCTR_SPAN_CORE]	= { "core", "core PMU" },
	[PERFCTR_SPAN_HYBRID]	= { "hybrid-core", "hybrid core PMU" },
	[PERFCTR_SPAN_SOCKET]	= { "per-socket", "per socket" },
};

const char *perfctr_span__name(unsigned int span)
{
	return span < ARRAY_SIZE(spans) ? spans[span].name : "?";
}

const char *perfctr_span__text(unsigned int span)
{
	return span < ARRAY_SIZE(spans) ? spans[span].text : "?";
}

unsigned int pc_topo_span(const char *cpus_file, unsigned int n_core)
{
	if (!cpus_file)
		return PERFCTR_SPAN_ALL;
	if (strcmp(cpus_file, "cpus"))
		return PERFCTR_SPAN_SOCKET;
	return n_core > 1 ? PERFCTR_SPAN_HYBRID : PERFCTR_SPAN_CORE;
}

/* ------------------------------------------------------------- reading */

struct walk {
	struct perfctr_topology *t;
	const char *root;
	int err;
};

int pc_topo_read(int dirfd, int *type, const char **cpus_file, char **cpus)
{
	char buf[LIST_MAX], *end;
	unsigned long t;
	size_t i;

	if (pc_sysfs_read(dirfd, "type", buf, sizeof(buf)) > 0) {
		errno = 0;
		t = strtoul(buf, &end, 10);
		if (!errno && !*end && t <= INT32_MAX)
			*type = (int)t;
	}
	*cpus_file = NULL;
	*cpus = NULL;
	for (i = 0; i < PC_TOPO_NFILES; i++)
		if (pc_sysfs_read(dirfd, pc_topo_cpu_files[i], buf,
				  sizeof(buf)) >= 0) {
			*cpus_file = pc_topo_cpu_files[i];
			*cpus = strdup(buf);
			return *cpus ? 0 : -ENOMEM;
		}
	return 0;
}

static int pmu_read(struct perfctr_topo_pmu *p, const char *root)
{
	int fd = pc_sysfs_pmu_open(root, p->name), ret;

	p->type = PERFCTR_UNKNOWN;
	if (fd < 0)
		return 0;
	ret = pc_topo_read(fd, &p->type, &p->cpus_file, &p->cpus);
	close(fd);
	return ret;
}

static void pmu_add(const char *name, void *ctx)
{
	struct walk *w = ctx;
	struct perfctr_topology *t = w->t;
	struct perfctr_topo_pmu *p;

	if (w->err)
		return;
	p = realloc(t->pmus, (t->n + 1) * sizeof(*p));
	if (!p) {
		w->err = -ENOMEM;
		return;
	}
	t->pmus = p;
	p = &t->pmus[t->n];
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	if (!p->name) {
		w->err = -ENOMEM;
		return;
	}
	t->n++;
	w->err = pmu_read(p, w->root);
	t->n_core += p->cpus_file == pc_topo_cpu_files[0];
}

int perfctr_topology__read(const char *sysfs_root,
			   struct perfctr_topology **out)
{
	struct walk w = { .root = sysfs_root ? sysfs_root : "/sys" };
	unsigned int i;

	*out = NULL;
	w.t = calloc(1, sizeof(*w.t));
	if (!w.t || !(w.t->root = strdup(w.root))) {
		free(w.t);
		return -ENOMEM;
	}
	pc_sysfs_pmu_names(w.root, pmu_add, &w);
	if (w.err) {
		perfctr_topology__free(w.t);
		return w.err;
	}
	for (i = 0; i < w.t->n; i++)
		w.t->pmus[i].span = pc_topo_span(w.t->pmus[i].cpus_file,
						 w.t->n_core);
	*out = w.t;
	return 0;
}

void perfctr_topology__free(struct perfctr_topology *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->pmus[i].name);
		free(t->pmus[i].cpus);
	}
	free(t->pmus);
	free(t->root);
	free(t);
}

int perfctr_topology__hybrid(const struct perfctr_topology *t)
{
	return t && t->n_core > 1;
}

/* ------------------------------------------------------------ checking */

static int is_generic(const struct perfctr_encoding *enc)
{
	return enc->type == PERF_TYPE_HARDWARE ||
	       enc->type == PERF_TYPE_HW_CACHE;
}

static const struct perfctr_topo_pmu *of_type(const struct perfctr_topology *t,
					      uint64_t type)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (t->pmus[i].type >= 0 && (uint64_t)t->pmus[i].type == type)
			return &t->pmus[i];
	return NULL;
}

const struct perfctr_topo_pmu *
perfctr_topology__pmu(const struct perfctr_topology *t,
		      const struct perfctr_encoding *enc)
{
	if (is_generic(enc))
		return enc->config >> 32 ? of_type(t, enc->config >> 32) : NULL;
	return of_type(t, enc->type);
}

/* Does enc count on a core PMU: a generic hardware or cache event, a
 * raw one (arm64: no PMU of type 4, each CPU's core PMU takes it), or
 * an event of a PMU with a `cpus` file? */
static int on_core_pmu(const struct perfctr_topo_pmu *p,
		       const struct perfctr_encoding *enc)
{
	if (p)
		return p->span == PERFCTR_SPAN_CORE ||
		       p->span == PERFCTR_SPAN_HYBRID;
	return is_generic(enc) || enc->type == PERF_TYPE_RAW;
}

/* `16-23 ("cpu_atom")`: the core PMUs other than p, and their CPUs
 * (every core PMU when p is NULL). */
static void others(const struct perfctr_topology *t,
		   const struct perfctr_topo_pmu *p, char *buf, size_t len)
{
	const char *sep = "";
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < t->n; i++)
		if (&t->pmus[i] != p && t->pmus[i].span == PERFCTR_SPAN_HYBRID) {
			pc_err_append(buf, len, "%s%s (\"%s\")", sep,
				      t->pmus[i].cpus, t->pmus[i].name);
			sep = " and ";
		}
}

static const char *scope_name(const struct perfctr_request *req)
{
	if (req->sample || req->hz)
		return req->scope == PERFCTR_SCOPE_PROCESS ?
		       "a sampling probe per task" : "a sampling probe per CPU";
	return perfctr_scope__clause(req->scope);
}

static int per_socket(const struct perfctr_topo_pmu *p,
		      const struct perfctr_request *req, char *err, size_t len)
{
	return pc_err(err, len, -EOPNOTSUPP,
		      "event \"%s\" is of PMU \"%s\", whose cpumask \"%s\" "
		      "names the one CPU per socket (or die, or core) that "
		      "reads its counters: each counts for the whole socket, "
		      "once, and %s would be wrong; count it .socket (one "
		      "counter per socket, read from any CPU of it)",
		      req->event, p->name, p->cpus,
		      req->sample || req->hz ? "sampling it" :
		      req->scope == PERFCTR_SCOPE_PROCESS ? "a copy per task" :
		      "a copy per CPU");
}

/* .socket: events of a PMU with a cpumask only. */
static int not_socket(const struct perfctr_topo_pmu *p,
		      const struct perfctr_request *req, char *err, size_t len)
{
	char pmu[160];

	if (p)
		snprintf(pmu, sizeof(pmu), "of PMU \"%s\", which has no cpumask",
			 p->name);
	else
		snprintf(pmu, sizeof(pmu), "of no PMU with a cpumask");
	return pc_err(err, len, -EOPNOTSUPP,
		      "event \"%s\" is %s: .socket counts the counters a "
		      "socket shares (uncore, RAPL's power, C-state residency: "
		      "a PMU with a cpumask); count it .cpu", req->event, pmu);
}

/* One of a socket's ids for cpu (SYSFS/devices/system/cpu/cpuN/
 * topology/FILE), or -1 where sysfs does not say. */
static long cpu_topo(const char *root, int cpu, const char *file)
{
	char path[128], buf[32], *end;
	long v;
	int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return -1;
	snprintf(path, sizeof(path), "devices/system/cpu/cpu%d/topology/%s",
		 cpu, file);
	v = pc_sysfs_read(dfd, path, buf, sizeof(buf)) > 0 ?
	    strtol(buf, &end, 10) : -1;
	close(dfd);
	return v;
}

/* Two CPUs of p's cpumask in one socket (package and die, where sysfs
 * has them): a per-core PMU (cstate_core), which .socket cannot count
 * once per socket. */
static int two_in_a_socket(const struct perfctr_topology *t,
			   const struct perfctr_topo_pmu *p,
			   const struct perfctr_request *req, char *err,
			   size_t len)
{
	long pkg[2], die[2];
	int *cpus, n, i, j, ret = 0;

	n = perfctr_cpus__parse(p->cpus, &cpus);
	if (n < 0)
		return pc_err(err, len, -EOPNOTSUPP, "PMU \"%s\": cannot read "
			      "its cpumask \"%s\"", p->name, p->cpus);
	for (i = 0; i < n && !ret; i++) {
		pkg[0] = cpu_topo(t->root, cpus[i], "physical_package_id");
		die[0] = cpu_topo(t->root, cpus[i], "die_id");
		for (j = 0; j < i && pkg[0] >= 0 && !ret; j++) {
			pkg[1] = cpu_topo(t->root, cpus[j], "physical_package_id");
			die[1] = cpu_topo(t->root, cpus[j], "die_id");
			if (pkg[0] == pkg[1] && die[0] == die[1])
				ret = pc_err(err, len, -EOPNOTSUPP,
					     "event \"%s\" is of PMU \"%s\", "
					     "whose cpumask \"%s\" names CPUs "
					     "%d and %d of one socket (package "
					     "%ld): its counters are per core, "
					     "and .socket counts once per "
					     "socket; count it with perf stat "
					     "-a -e '%s'", req->event, p->name,
					     p->cpus, cpus[j], cpus[i], pkg[0],
					     req->event);
		}
	}
	free(cpus);
	return ret;
}

/*
 * Per task on a hybrid machine, a counter or sampling clause of a generic
 * event is a task event per core PMU (perfctr_topology__core_encodings()),
 * counts summed; x86 takes generic hardware and cache events so (the
 * PMU's type in config[63:32]), Arm generic hardware events (each cluster
 * PMU's alias).  Anything else binds to one core PMU, which counts only
 * the task's time on its own CPUs: refused.
 */
static int per_task(const struct perfctr_topology *t,
		    const struct perfctr_topo_pmu *p,
		    const struct perfctr_request *req,
		    const struct perfctr_encoding *enc, char *err, size_t len)
{
	int x86 = of_type(t, PERF_TYPE_RAW) != NULL;
	char cpus[512];

	if (!p && (enc->type == PERF_TYPE_HARDWARE || (x86 && is_generic(enc))))
		return 0;
	others(t, p, cpus, sizeof(cpus));
	if (p)
		return pc_err(err, len, -EOPNOTSUPP,
			      "%s of \"%s\" on a hybrid machine: a per-task "
			      "event binds to one core PMU (\"%s\", CPUs %s) "
			      "and would miss the task's time on CPUs %s; "
			      "count a generic event (\"cycles\", "
			      "\"instructions\"...): a task event per core "
			      "PMU, summed%s", scope_name(req), req->event,
			      p->name, p->cpus, cpus,
			      req->sample || req->hz ? ", or sample .cpu" : "");
	return pc_err(err, len, -EOPNOTSUPP,
		      "%s of \"%s\" on a hybrid machine: a per-task event "
		      "binds to one of the core PMUs (CPUs %s) and would miss "
		      "the task's time on the others' CPUs (only a generic "
		      "hardware event is a task event per core PMU here); "
		      "count it with .thread (a copy per CPU, each on its "
		      "CPU's core PMU)%s", scope_name(req), req->event, cpus,
		      req->sample || req->hz ? ", or sample .cpu" : "");
}

/* Is req's counter one the module creates on each CPU (.cpu, .thread,
 * .cgroup; not sampling, not in a group): one .cpus may restrict? */
static int made_per_cpu(const struct perfctr_request *req)
{
	return perfctr_scope__made_per_cpu(req->scope, req->sample || req->hz,
					   req->group[0] != '\0');
}

/* Is every CPU of set[0..n) in p's `cpus`? */
static int within(const struct perfctr_topo_pmu *p, const int *set, int n)
{
	int *have, nhave, i, j = 0;

	nhave = perfctr_cpus__parse(p->cpus, &have);
	for (i = 0; i < n && nhave > 0; i++) {
		while (j < nhave && have[j] < set[i])
			j++;
		if (j == nhave || have[j] != set[i])
			break;
	}
	free(have);
	return nhave > 0 && i == n;
}

/* An event of core PMU p alone, per CPU: on the CPUs of its .cpus
 * ("LIST") when they are all p's, else refused, saying how to restrict
 * it. */
static int one_core_type(const struct perfctr_topology *t,
			 const struct perfctr_topo_pmu *p,
			 const struct perfctr_request *req, char *err,
			 size_t len)
{
	char cpus[512];
	int *set, n = 0, fits;

	if (req->cpus[0]) {
		n = perfctr_topology__restrict(t, req, &set, err, len);
		if (n < 0)
			return n;
		fits = within(p, set, n);
		free(set);
		if (fits)
			return 0;
		return pc_err(err, len, -EOPNOTSUPP,
			      "event \"%s\" is of core PMU \"%s\" (CPUs %s) "
			      "only, and its .cpus(\"%s\") names other CPUs, "
			      "on which the kernel cannot create it; restrict "
			      "it to its PMU's CPUs with .cpus(\"%s\")",
			      req->event, p->name, p->cpus, req->cpus,
			      p->name);
	}
	others(t, p, cpus, sizeof(cpus));
	return pc_err(err, len, -EOPNOTSUPP,
		      "event \"%s\" is of core PMU \"%s\" (CPUs %s) only, and "
		      "this machine is hybrid: %s needs a copy on every CPU, "
		      "and the kernel cannot create it on CPUs %s; restrict it "
		      "to its PMU's CPUs with .cpus(\"%s\"), or count a "
		      "generic event (\"cycles\", \"instructions\"...), which "
		      "each CPU's core PMU takes", req->event, p->name, p->cpus,
		      scope_name(req), cpus, p->name);
}

int perfctr_topology__check(const struct perfctr_topology *t,
			    const struct perfctr_request *req,
			    const struct perfctr_encoding *enc,
			    char *err, size_t len)
{
	const struct perfctr_topo_pmu *p = perfctr_topology__pmu(t, enc);
	int socket = p && p->span == PERFCTR_SPAN_SOCKET, *set, n;

	if (req->cpus[0] && !made_per_cpu(req))
		return pc_err(err, len, -EOPNOTSUPP, ".cpus(\"%s\") restricts "
			      "a counter made per CPU (.cpu, .thread, .cgroup; "
			      "not sampling, not in a group), not %s%s",
			      req->cpus, req->group[0] ? "a group's counter, " :
			      "", scope_name(req));
	if (req->cpus[0]) {	/* its CPUs are there */
		n = perfctr_topology__restrict(t, req, &set, err, len);
		if (n < 0)
			return n;
		free(set);
	}
	if (req->scope == PERFCTR_SCOPE_SOCKET)
		return socket ? two_in_a_socket(t, p, req, err, len) :
		       not_socket(p, req, err, len);
	if (socket)
		return per_socket(p, req, err, len);
	if (!perfctr_topology__hybrid(t) || !on_core_pmu(p, enc))
		return 0;
	if (req->scope == PERFCTR_SCOPE_PROCESS)
		return per_task(t, p, req, enc, err, len);
	if (p)
		return one_core_type(t, p, req, err, len);
	return 0;
}

/* ------------------------------------------------- core PMU encodings */

/* The generic hardware events an arm_pmu names in its sysfs events/
 * (drivers/perf/arm_pmuv3.c: armv8_pmuv3_perf_map, and the aliases of
 * those PMUv3 event numbers). */
static const char *const arm_aliases[] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= "cpu_cycles",
	[PERF_COUNT_HW_INSTRUCTIONS]		= "inst_retired",
	[PERF_COUNT_HW_CACHE_REFERENCES]	= "l1d_cache",
	[PERF_COUNT_HW_CACHE_MISSES]		= "l1d_cache_refill",
	[PERF_COUNT_HW_BRANCH_MISSES]		= "br_mis_pred",
	[PERF_COUNT_HW_BUS_CYCLES]		= "bus_cycles",
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= "stall_frontend",
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= "stall_backend",
};

/* Can req's counter have an encoding per core PMU (perfctr_iface.h)? */
static int core_encoded(const struct perfctr_request *req)
{
	return perfctr_scope__core_encoded(req->scope, req->sample || req->hz,
					   req->group[0] != '\0');
}

/* The event number of p's sysfs event `name` ("event=0x0011"). */
static int arm_event(const struct perfctr_topology *t,
		     const struct perfctr_topo_pmu *p, const char *name,
		     uint64_t *config)
{
	char path[96], buf[64], *end;
	int fd = pc_sysfs_pmu_open(t->root, p->name), n;

	if (fd < 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "events/%s", name);
	n = pc_sysfs_read(fd, path, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || strncmp(buf, "event=0x", 8))
		return -EINVAL;
	errno = 0;
	*config = strtoull(buf + 8, &end, 16);
	return errno || *end || end == buf + 8 ? -EINVAL : 0;
}

/* A CPU list the module takes: at most PERFCTR_CPU_RANGES ranges. */
static int list_fits(const char *cpus)
{
	const char *c;
	int n = 1;

	if (!cpus || !*cpus || strlen(cpus) >= PERFCTR_CPU_LIST_MAX)
		return 0;
	for (c = cpus; *c; c++)
		n += *c == ',';
	return n <= PERFCTR_CPU_RANGES;
}

static int restricted(const struct perfctr_topology *t,
		      const struct perfctr_request *req,
		      const struct perfctr_encoding *enc,
		      struct perfctr_core_enc *out, char *err, size_t len);

int perfctr_topology__core_encodings(const struct perfctr_topology *t,
				     const struct perfctr_request *req,
				     const struct perfctr_encoding *enc,
				     struct perfctr_core_enc *out,
				     char *err, size_t len)
{
	const struct perfctr_topo_pmu *p;
	const char *alias = NULL;
	unsigned int i;
	int n = 0, x86 = of_type(t, PERF_TYPE_RAW) != NULL;

	if (req->cpus[0] && made_per_cpu(req))
		return restricted(t, req, enc, out, err, len);
	if (!perfctr_topology__hybrid(t) || !core_encoded(req) ||
	    !is_generic(enc) || enc->config >> 32)
		return 0;
	if (!x86) {
		if (enc->type != PERF_TYPE_HARDWARE)
			return 0;	/* each cluster's PMU takes it */
		if (enc->config < ARRAY_SIZE(arm_aliases))
			alias = arm_aliases[enc->config];
		if (!alias)
			return pc_err(err, len, -EOPNOTSUPP, "event \"%s\" "
				      "(generic hardware event %llu) on a "
				      "hybrid Arm machine: its core PMUs' "
				      "event number for it is not known; "
				      "count each PMU's own event", req->event,
				      (unsigned long long)enc->config);
	}
	for (i = 0; i < t->n; i++) {
		p = &t->pmus[i];
		if (p->span != PERFCTR_SPAN_HYBRID)
			continue;
		if (n == PERFCTR_CORE_PMUS || p->type < 0 ||
		    !list_fits(p->cpus) || strlen(p->name) >= sizeof(out->pmu))
			return pc_err(err, len, -EOPNOTSUPP, "event \"%s\": "
				      "this machine's core PMUs (\"%s\", "
				      "CPUs %s...) are more than %d, or name "
				      "their CPUs in more than %d ranges",
				      req->event, p->name,
				      p->cpus ? p->cpus : "?",
				      PERFCTR_CORE_PMUS,
				      PERFCTR_CPU_RANGES);
		out[n].enc = *enc;
		if (x86) {
			out[n].enc.config |= (uint64_t)p->type << 32;
		} else {
			out[n].enc.type = (uint32_t)p->type;
			if (arm_event(t, p, alias, &out[n].enc.config))
				return pc_err(err, len, -EOPNOTSUPP,
					      "event \"%s\" on core PMU \"%s\" "
					      "(CPUs %s): it has no sysfs "
					      "event \"%s\" to count it with",
					      req->event, p->name, p->cpus,
					      alias);
		}
		snprintf(out[n].pmu, sizeof(out[n].pmu), "%s", p->name);
		snprintf(out[n].cpus, sizeof(out[n].cpus), "%s", p->cpus);
		n++;
	}
	return n;
}

int perfctr_topology__socket_cpus(const struct perfctr_topology *t,
				  const struct perfctr_encoding *enc,
				  int **cpus)
{
	const struct perfctr_topo_pmu *p = perfctr_topology__pmu(t, enc);

	*cpus = NULL;
	if (!p || p->span != PERFCTR_SPAN_SOCKET)
		return -ENOENT;
	return perfctr_cpus__parse(p->cpus, cpus);
}

/* -------------------------------------------------------- .cpus("LIST") */

/* The CPUs this machine may have: SYSFS/devices/system/cpu/possible
 * (the kernel's nr_cpu_ids follows it), else the online ones. */
static int machine_cpus(const struct perfctr_topology *t, int **cpus)
{
	char buf[LIST_MAX];
	int dfd = open(t->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), n;

	*cpus = NULL;
	if (dfd < 0)
		return -errno;
	n = pc_sysfs_read(dfd, "devices/system/cpu/possible", buf, sizeof(buf));
	close(dfd);
	if (n > 0)
		return perfctr_cpus__parse(buf, cpus);
	return perfctr_cpus__online(t->root, cpus);
}

/* The names of the core PMUs, for a message. */
static void core_names(const struct perfctr_topology *t, char *buf,
		       size_t len)
{
	unsigned int i;
	const char *sep = "";

	buf[0] = '\0';
	for (i = 0; i < t->n; i++)
		if (t->pmus[i].span == PERFCTR_SPAN_CORE ||
		    t->pmus[i].span == PERFCTR_SPAN_HYBRID) {
			pc_err_append(buf, len, "%s\"%s\" (CPUs %s)", sep,
				      t->pmus[i].name, t->pmus[i].cpus);
			sep = ", ";
		}
}

/* .cpus("NAME"): the `cpus` of core PMU NAME. */
static int pmu_cpus(const struct perfctr_topology *t,
		    const struct perfctr_request *req, int **cpus, char *err,
		    size_t len)
{
	const struct perfctr_topo_pmu *p = NULL;
	struct pc_suggest s;
	char names[512];
	unsigned int i;
	int n;

	pc_suggest_init(&s, req->cpus);
	for (i = 0; i < t->n; i++) {
		if (t->pmus[i].span != PERFCTR_SPAN_CORE &&
		    t->pmus[i].span != PERFCTR_SPAN_HYBRID)
			continue;
		if (!strcmp(t->pmus[i].name, req->cpus))
			p = &t->pmus[i];
		pc_suggest_add(t->pmus[i].name, &s);
	}
	if (!p) {
		core_names(t, names, sizeof(names));
		if (!names[0])
			return pc_err(err, len, -EINVAL, ".cpus(\"%s\"): this "
				      "machine has no core PMU with a `cpus` "
				      "file, \"%s\" or another: give a CPU list "
				      "(\"0-3\")", req->cpus, req->cpus);
		pc_err(err, len, -EINVAL, ".cpus(\"%s\"): this machine has "
		       "no core PMU \"%s\" (its core PMUs, those with a `cpus` "
		       "file: %s)", req->cpus, req->cpus, names);
		pc_suggest_append(&s, "", err, len);
		return -EINVAL;
	}
	n = perfctr_cpus__parse(p->cpus, cpus);
	if (n <= 0)
		return pc_err(err, len, -EINVAL, ".cpus(\"%s\"): core PMU "
			      "\"%s\" names no CPUs (its `cpus` is \"%s\")",
			      req->cpus, p->name, p->cpus);
	return n;
}

int perfctr_topology__restrict(const struct perfctr_topology *t,
			       const struct perfctr_request *req, int **cpus,
			       char *err, size_t len)
{
	char list[256];
	int *have, nhave, n, i, j = 0;

	*cpus = NULL;
	if (!req->cpus[0])
		return 0;
	if (!(req->cpus[0] >= '0' && req->cpus[0] <= '9'))
		return pmu_cpus(t, req, cpus, err, len);
	n = perfctr_cpus__parse(req->cpus, cpus);
	if (n <= 0)
		return pc_err(err, len, -EINVAL, ".cpus(\"%s\"): not a CPU "
			      "list (\"0-3,8\") nor a core PMU's name",
			      req->cpus);
	nhave = machine_cpus(t, &have);
	if (nhave <= 0) {
		free(*cpus);
		*cpus = NULL;
		return pc_err(err, len, -EINVAL, ".cpus(\"%s\"): cannot read "
			      "this machine's CPUs under %s", req->cpus,
			      t->root);
	}
	for (i = 0; i < n; i++) {
		while (j < nhave && have[j] < (*cpus)[i])
			j++;
		if (j < nhave && have[j] == (*cpus)[i])
			continue;
		if (perfctr_cpus__format(have, nhave, list, sizeof(list)) < 0)
			snprintf(list, sizeof(list), "%d-%d", have[0],
				 have[nhave - 1]);
		pc_err(err, len, -EINVAL, ".cpus(\"%s\"): this machine has no "
		       "CPU %d (its CPUs: %s)", req->cpus, (*cpus)[i], list);
		free(have);
		free(*cpus);
		*cpus = NULL;
		return -EINVAL;
	}
	free(have);
	return n;
}

/* The CPUs of set[0..n) that list names, into out. */
static int intersect(const int *set, int n, const char *list, int *out)
{
	int *have, nhave, i, j = 0, m = 0;

	nhave = perfctr_cpus__parse(list, &have);
	for (i = 0; i < n && nhave > 0; i++) {
		while (j < nhave && have[j] < set[i])
			j++;
		if (j < nhave && have[j] == set[i])
			out[m++] = set[i];
	}
	free(have);
	return m;
}

/* A restricted counter's CPU records: on a hybrid machine, a generic
 * hardware event's encoding on each core PMU for the CPUs of its list
 * that PMU has; anything else (one PMU's event, software, a raw one
 * the kernel places): its one encoding, for the list. */
static int restricted(const struct perfctr_topology *t,
		      const struct perfctr_request *req,
		      const struct perfctr_encoding *enc,
		      struct perfctr_core_enc *out, char *err, size_t len)
{
	const struct perfctr_topo_pmu *p = perfctr_topology__pmu(t, enc);
	struct perfctr_core_enc full[PERFCTR_CORE_PMUS];
	struct perfctr_request all = *req;
	int *set, *part = NULL, n, k, m = 0, i, ranges = 0;

	n = perfctr_topology__restrict(t, req, &set, err, len);
	if (n < 0)
		return n;
	all.cpus[0] = '\0';
	k = perfctr_topology__core_encodings(t, &all, enc, full, err, len);
	if (k < 0 || !(part = malloc(n * sizeof(*part)))) {
		free(set);
		return k < 0 ? k : pc_err(err, len, -ENOMEM, "out of memory");
	}
	if (!k) {	/* one encoding on every CPU */
		full[0].enc = *enc;
		snprintf(full[0].pmu, sizeof(full[0].pmu), "%s",
			 p ? p->name : "");
		k = 1;
	}
	for (i = 0; i < k && ranges >= 0; i++) {
		int c = k == 1 ? n : intersect(set, n, full[i].cpus, part);

		if (!c)
			continue;
		out[m] = full[i];
		ranges = perfctr_cpus__format(k == 1 ? set : part, c,
					      out[m].cpus, sizeof(out[m].cpus));
		if (ranges > PERFCTR_CPU_RANGES)
			ranges = -ENOSPC;
		m++;
	}
	free(set);
	free(part);
	if (ranges < 0)
		return pc_err(err, len, -EOPNOTSUPP, "event \"%s\": "
			      ".cpus(\"%s\") names its CPUs%s in more than %d "
			      "ranges", req->event, req->cpus,
			      k > 1 ? " on one core PMU" : "",
			      PERFCTR_CPU_RANGES);
	return m;
}
