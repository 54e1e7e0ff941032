/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priv.c - the privilege rule against perf_event_open(2) for the rows
 * only real hardware answers (the guests' comparison, priv_diff, has
 * software events and test PMUs): a raw core event with and without
 * Intel's AnyThread bit (config bit 21), generic cycles per task in user
 * mode, in kernel mode, CPU-wide, and sampled with the physical address.
 * As root: at each kernel.perf_event_paranoid level, -1 to 3 (restored
 * after), a child as user nobody opens each row; its answer (allowed;
 * refused: EACCES or EPERM; any other error: not a privilege answer)
 * against what perfctr_priv_rule() decides for the same request.
 */
#include <errno.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hwcheck.h"
#include "perfctr_priv_rule.h"

#define NOBODY 65534
#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define INTEL_CYCLES 0x3c	/* UNHALTED_CORE_CYCLES, raw */

struct priv_row {
	const char *name;
	uint32_t type;
	uint64_t config;
	int kernel;		/* counts kernel mode too */
	int cpu_wide;
	int phys;		/* samples with the physical address */
};

static const struct priv_row rows[] = {
	{ "raw-task-user", PERF_TYPE_RAW, INTEL_CYCLES, 0, 0, 0 },
	{ "raw-anythread-task-user", PERF_TYPE_RAW,
	  INTEL_CYCLES | (1ULL << 21), 0, 0, 0 },
	{ "cycles-task-user", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  0, 0, 0 },
	{ "cycles-task-kernel", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  1, 0, 0 },
	{ "cycles-cpu-user", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  0, 1, 0 },
	{ "cycles-sample-phys-task-user", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CPU_CYCLES, 0, 0, 1 },
};

/* In a child as user nobody: 'A' allowed, 'R' refused, 'E' an error
 * that is not perf's privilege answer, '?' the child failed. */
static char open_as_nobody(const struct priv_row *r)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = r->type,
				     .config = r->config };
	int status, fd;
	pid_t pid;

	a.exclude_kernel = a.exclude_hv = !r->kernel;
	if (r->phys) {
		a.sample_period = 100000;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
				PERF_SAMPLE_PHYS_ADDR;
	}
	pid = fork();
	if (pid < 0)
		return '?';
	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(3);
		fd = syscall(SYS_perf_event_open, &a, r->cpu_wide ? -1 : 0,
			     r->cpu_wide ? 0 : -1, -1, 0);
		if (fd >= 0)
			_exit(0);
		_exit(errno == EACCES || errno == EPERM ? 1 : 2);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return '?';
	return "AREE?"[WEXITSTATUS(status) < 3 ? WEXITSTATUS(status) : 3];
}

static char rule_says(const struct priv_row *r, int paranoid)
{
	struct perfctr_priv_what w = {
		.flags = r->kernel ? 0 : PERFCTR_F_EXCLUDE_KERNEL,
		.config = r->type == PERF_TYPE_RAW ? r->config : 0,
		.payload = r->phys ? PERFCTR_PL_PHYS : 0,
		.per_task = !r->cpu_wide,
	};
	int need;

	return perfctr_priv_rule(&w, paranoid, &need) ? 'R' : 'A';
}

static int paranoid_set(int level)
{
	FILE *f = fopen(PARANOID, "w");
	int bad;

	if (!f)
		return -errno;
	bad = fprintf(f, "%d\n", level) < 0;
	return fclose(f) || bad ? -EIO : 0;
}

int hw_priv_run(FILE *out, FILE *keys)
{
	unsigned int i, looser = 0, stricter = 0, unanswered = 0;
	char perf[8], rule[8];
	int old, level, rc = 0;
	FILE *f;

	if (geteuid())
		return -EPERM;
	f = fopen(PARANOID, "r");
	if (!f || fscanf(f, "%d", &old) != 1) {
		if (f)
			fclose(f);
		return -EIO;
	}
	fclose(f);
	fprintf(out, "user %d, kernel.perf_event_paranoid -1..3: perf | "
		"rule (A allowed, R refused, E not a privilege answer)\n",
		NOBODY);
	for (i = 0; i < ARRAY_SIZE(rows) && !rc; i++) {
		const char *verdict = "";
		int k;

		for (level = -1, k = 0; level <= 3 && !rc; level++, k++) {
			rc = paranoid_set(level);
			perf[k] = open_as_nobody(&rows[i]);
			rule[k] = rule_says(&rows[i], level);
			if (perf[k] == 'R' && rule[k] == 'A')
				verdict = " LOOSER";
			else if (perf[k] == 'A' && rule[k] == 'R' && !*verdict)
				verdict = " stricter";
			else if (perf[k] != 'A' && perf[k] != 'R' && !*verdict)
				verdict = " unanswered";
		}
		perf[k] = rule[k] = '\0';
		looser += !strcmp(verdict, " LOOSER");
		stricter += !strcmp(verdict, " stricter");
		unanswered += !strcmp(verdict, " unanswered");
		fprintf(out, "  %-30s %s | %s%s\n", rows[i].name, perf, rule,
			verdict);
		if (keys)
			fprintf(keys, "priv.%s=%s|%s\n", rows[i].name, perf,
				rule);
	}
	if (paranoid_set(old) && !rc)
		rc = -EIO;
	if (rc)
		return rc;
	fprintf(out, "rows %zu looser %u stricter %u unanswered %u\n",
		ARRAY_SIZE(rows), looser, stricter, unanswered);
	if (keys)
		fprintf(keys, "priv.looser=%u\npriv.stricter=%u\n"
			"priv.unanswered=%u\n", looser, stricter, unanswered);
	return looser ? 1 : 0;
}
