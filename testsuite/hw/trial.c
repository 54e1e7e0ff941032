/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trial.c - every event name a script can use here (the generic ones,
 * the sysfs PMUs', libpfm4's for this CPU), and libpfm4's names for PMUs
 * the kernel does not have (-l leaves them out), resolved by the library and
 * trial-opened as perfctr-run opens them: pinned, CPU-wide, on a CPU of
 * the event's PMU.  Where CPU-wide counters are denied (not root,
 * perf_event_paranoid), again as a user-mode counter of this task.
 *
 * What counts as a failure: a name the library lists but cannot
 * resolve, unless it says the kernel has no PMU for it (an uncore PMU
 * libpfm4 knows from CPUID without its kernel driver): that name is
 * absent.  A warning: a name of a PMU the kernel has that it will not
 * open (absent or rejected): a script that names it is refused at load;
 * either our encoding is wrong or the event has rules of its own (a
 * group it must lead, a counter it must have), which the line names.
 * Then the payloads a sampling probe may read (payloads() below).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "hwcheck.h"
#include "perfctr_payload.h"

enum group { G_GENERIC, G_SYSFS, G_LIBPFM4, G_LIBPFM4_NO_PMU, G_N };

static const struct {
	const char *key, *words;
} groups[G_N] = {
	[G_GENERIC] = { "generic", "generic events" },
	[G_SYSFS] = { "sysfs", "sysfs PMU events" },
	[G_LIBPFM4] = { "libpfm4", "libpfm4 events of PMUs the kernel has" },
	[G_LIBPFM4_NO_PMU] = { "libpfm4_no_pmu",
			       "libpfm4 events of PMUs the kernel does not have" },
};

enum class { C_OPENS, C_ABSENT, C_REJECTED, C_BUSY, C_DENIED, C_OTHER,
	     C_UNRESOLVED, C_N };

static const char *const class_words[C_N] = {
	"opens", "absent", "rejected", "busy", "denied", "other", "unresolved",
};

/* The kernel's answers, by class. */
static const struct {
	int err;
	enum class cls;
} answers[] = {
	{ 0, C_OPENS },
	{ -ENOENT, C_ABSENT }, { -EOPNOTSUPP, C_ABSENT }, { -ENODEV, C_ABSENT },
	{ -EINVAL, C_REJECTED },
	{ -ENOSPC, C_BUSY }, { -EBUSY, C_BUSY },
	{ -EACCES, C_DENIED }, { -EPERM, C_DENIED },
};

struct state {
	const struct perfctr_dump *d;
	struct perfctr_resolver *r;
	FILE *out;
	int cpu;			/* for names without a PMU of their own */
	double deadline;
	unsigned int n[G_N][C_N];
	unsigned int task_only;		/* opened only as this task's counter */
	unsigned int failed, warned, tried, listed;
};

static enum class classify(int err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(answers); i++)
		if (answers[i].err == err)
			return answers[i].cls;
	return C_OTHER;
}

static enum group group_of(const struct perfctr_dump_pmu *p, const char *name)
{
	if (!strstr(name, "::") && !strchr(name, '/'))
		return G_GENERIC;
	if (!strstr(name, "::"))
		return G_SYSFS;
	return p && p->type != PERFCTR_UNKNOWN ? G_LIBPFM4 : G_LIBPFM4_NO_PMU;
}

/* CPU-wide; where that is denied, as a user-mode counter of this task:
 * *as_task 1 when that opens it.  Its refusal replaces the denial only
 * when it says the kernel has no such event (a PMU without task counters
 * or mode filters, msr/, rejects it: the denial stands). */
static int trial(const struct perfctr_encoding *enc, int cpu, int *as_task)
{
	struct perfctr_encoding user = *enc;
	struct perfctr_trial task;
	int err = perfctr_encoding__trial_open(enc, cpu, NULL, 0), again = 0;

	*as_task = 0;
	if (classify(err) != C_DENIED)
		return err;
	user.flags |= PERFCTR_F_EXCLUDE_KERNEL | PERFCTR_F_EXCLUDE_HV;
	perfctr_trial__init(&task, NULL, &user);
	task.per_task = 1;
	perfctr_trials__open(&task, 1, cpu, &again);
	*as_task = !again;
	return !again || classify(again) == C_ABSENT ? again : err;
}

static void one(const char *name, void *arg)
{
	struct state *s = arg;
	const struct perfctr_dump_pmu *p = hw_util_pmu_of(s->d, name);
	enum group g = group_of(p, name);
	struct perfctr_encoding enc;
	char why[512], encs[160];
	int cpu = hw_util_first_cpu(p, s->cpu), err, as_task, warn;
	enum class cls;

	s->listed++;
	if (s->deadline && hw_util_now() > s->deadline)
		return;
	s->tried++;
	err = perfctr_resolver__resolve(s->r, name, 0, &enc, why, sizeof(why));
	if (err == -ENODEV) {	/* its PMU is not the kernel's here */
		s->n[g][C_ABSENT]++;
		fprintf(s->out, "trial %s: absent: %s\n", name, why);
		return;
	}
	if (err) {
		s->n[g][C_UNRESOLVED]++;
		s->failed++;
		fprintf(s->out, "trial %s: unresolved: %s\n", name, why);
		return;
	}
	err = trial(&enc, cpu, &as_task);
	cls = classify(err);
	s->n[g][cls]++;
	if (cls == C_OPENS && as_task)
		s->task_only++;
	warn = g != G_GENERIC && g != G_LIBPFM4_NO_PMU &&
	       (cls == C_ABSENT || cls == C_REJECTED);
	s->warned += warn;
	hw_util_encoding(&enc, encs, sizeof(encs));
	fprintf(s->out, "trial %s: %s on cpu %d: %s%s%s", name, encs, cpu,
		class_words[cls], as_task ? " (only as this task's user-mode "
		"counter: CPU-wide is denied)" : "",
		warn ? " (warning: a PMU the kernel has)" : "");
	if (err) {
		perfctr_trial__explain(err, why, sizeof(why));
		fprintf(s->out, ": %s", why);
	}
	fputc('\n', s->out);
}

/* The names of libpfm4 PMUs the kernel does not have, which -l does not
 * list: tried too, to show that the kernel refuses them (absent).  The
 * generic events the kernel lacks are not: the dump's trial said so. */
static void one_closed(const char *name, const char *why, void *arg)
{
	if (strstr(name, "::"))
		one(name, arg);
}

static void summary(const struct state *s, FILE *out, FILE *keys)
{
	const char *status = s->failed ? "fail" :
			     s->warned || s->tried < s->listed ? "warn" : "ok";
	unsigned int g, c, total;

	for (g = 0; g < G_N; g++) {
		for (total = 0, c = 0; c < C_N; c++)
			total += s->n[g][c];
		fprintf(out, "trial: %s: %u tried", groups[g].words, total);
		for (c = 0; c < C_N; c++)
			if (s->n[g][c])
				fprintf(out, ", %u %s", s->n[g][c], class_words[c]);
		fputc('\n', out);
		if (!keys)
			continue;
		fprintf(keys, "trial.%s.tried=%u\n", groups[g].key, total);
		for (c = 0; c < C_N; c++)
			fprintf(keys, "trial.%s.%s=%u\n", groups[g].key,
				class_words[c], s->n[g][c]);
	}
	fprintf(out, "trial: %u of %u names tried%s, %u failed, %u warnings, "
		"%u opened only as this task's counter: %s\n", s->tried,
		s->listed, s->tried < s->listed ? " (out of time)" : "",
		s->failed, s->warned, s->task_only, status);
	if (keys)
		fprintf(keys, "trial.listed=%u\ntrial.tried=%u\ntrial.failed=%u\n"
			"trial.warnings=%u\ntrial.task_only=%u\ntrial=%s\n",
			s->listed, s->tried, s->failed, s->warned,
			s->task_only, status);
}

/*
 * What a sample can carry here (perfctr_payload.h): the payload trial
 * opens perfctr-run makes for sampling probes that read them, with the
 * probe's sample type, branch sample type and precision.  A page fault's
 * address opens everywhere; a branch stack where the PMU has one (LBR,
 * BRBE); a precise memory event's address, weight and data source where
 * the PMU has PEBS (mem-loads) or IBS (ibs_op).  Reported, never a
 * failure: a machine without them refuses such probes at load.
 */
static const struct {
	const char *key, *names[3];
	unsigned int precise, payload;
} payload_trials[] = {
	{ "fault_addr", { "page-faults" }, 0,
	  PERFCTR_PL_ADDR | PERFCTR_PL_PHYS },
	{ "branch", { "cycles" }, 0, PERFCTR_PL_BRANCH },
	{ "mem_pebs", { "cpu/mem-loads,ldlat=30/", "cpu_core/mem-loads,ldlat=30/" },
	  2, PERFCTR_PL_ADDR | PERFCTR_PL_WEIGHT | PERFCTR_PL_SRC },
	{ "mem_ibs", { "ibs_op//" }, 0,
	  PERFCTR_PL_ADDR | PERFCTR_PL_WEIGHT | PERFCTR_PL_SRC },
};

static void payloads(struct state *s, FILE *out, FILE *keys)
{
	struct perfctr_request req;
	struct perfctr_encoding enc;
	struct perfctr_trial t;
	char why[512];
	const char *name;
	unsigned int i, k;
	int err, res;

	for (i = 0; i < ARRAY_SIZE(payload_trials); i++) {
		err = -ENOENT;
		name = payload_trials[i].names[0];
		for (k = 0; k < 3 && payload_trials[i].names[k]; k++) {
			name = payload_trials[i].names[k];
			err = perfctr_resolver__resolve(s->r, name, 0, &enc,
							why, sizeof(why));
			if (!err)
				break;
		}
		if (!err) {
			memset(&req, 0, sizeof(req));
			req.sample = 100003;
			req.precise = payload_trials[i].precise;
			req.payload = payload_trials[i].payload;
			perfctr_trial__init(&t, &req, &enc);
			err = perfctr_trials__open(&t, 1, s->cpu, &res);
			if (err)
				perfctr_trial__explain(err, why, sizeof(why));
		}
		fprintf(out, "trial payload %s (%s, payload %#x): %s%s%s\n",
			payload_trials[i].key, name, payload_trials[i].payload,
			class_words[classify(err)], err ? ": " : "",
			err ? why : "");
		if (keys)
			fprintf(keys, "trial.payload.%s=%s\n",
				payload_trials[i].key,
				class_words[classify(err)]);
	}
}

int hw_trial_run(const struct hw_trial_opts *o, FILE *out, FILE *keys)
{
	struct state s = { .out = out };
	struct perfctr_dump *d;
	int err;

	s.cpu = hw_util_first_online(o->sysfs_root);
	if (o->seconds > 0)
		s.deadline = hw_util_now() + o->seconds;
	err = hw_util_machine(o->sysfs_root, &s.r, &d);
	if (err)
		return err;
	s.d = d;
	err = perfctr_dump__names(d, one, &s);
	if (!err)
		err = perfctr_dump__closed_names(d, one_closed, &s);
	if (!err) {
		payloads(&s, out, keys);
		summary(&s, out, keys);
	}
	perfctr_dump__free(d);
	perfctr_resolver__free(s.r);
	if (err)
		return err;
	return s.failed ? 1 : 0;
}
