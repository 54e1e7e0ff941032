// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_report.c - the end-of-run report for programs: what the human
 * warnings say about counts that are not whole (samples not run, threads
 * not counted, reads that raised errors, counters never on the PMU), one
 * JSON object a line.  Only when perfctr-run asks for it (perfctr_report=1,
 * stap-perfctr --counter-report): each object goes out as a warning,
 * "perfctr-report: {...}", and perfctr-run takes those lines off stderr
 * into the report file.  Without the parameter the module says nothing
 * more than it did.
 *
 * Included from perfctr.c, before the files that report.
 *   perfctr_read_failed()  any probe context, NMI included; error path only
 *   everything else        sleepable, at exit, while the transport still
 *                          carries messages
 */

#include "perfctr_json.h"

static bool perfctr_report_on;
module_param_named(perfctr_report, perfctr_report_on, bool, 0444);
MODULE_PARM_DESC(perfctr_report, "end-of-run report as JSON lines, set by "
		 "perfctr-run");

/* Reads of each counter that raised an error.  An atomic: the error path
 * runs in any context, NMI included, and is rare; the successful read
 * path never touches it. */
static atomic_long_t perfctr_read_errs_n[PERFCTR_NDECLARED];

/*
 * A message is at most STP_CTL_BUFFER_SIZE (384) bytes with stap's
 * "WARNING: "; a line cut short there would not parse.  The numbers take
 * what they need and the strings share the rest: an object's strings are
 * cut to fit, a source position from the left ("...dir/x.stp:3:1") so
 * that its file's name and line stay.
 */
#define PERFCTR_REPORT_LINE	360

/*
 * One object: its kind, the counter's clause (idx < 0: none, a loss of
 * the module's own), the numbers (fields, "\"name\":N,...") and whether
 * the counts it speaks of are incomplete.  A sampling clause has no id
 * of the script's ("__sample0" is the translator's): no "counter".
 */
static void perfctr_report_line(int idx, const char *kind,
				const char *fields, bool incomplete)
{
	const struct perfctr_request_desc *r;
	char src[PERFCTR_REPORT_LINE / 3], id[52], ev[64];
	size_t room;

	if (!perfctr_report_on)
		return;
	if (idx < 0) {
		_stp_warn(PERFCTR_REPORT_MARK "{\"kind\":\"%s\",%s,"
			  "\"incomplete\":%s}\n", kind, fields,
			  incomplete ? "true" : "false");
		return;
	}
	r = &perfctr_requests[idx];
	id[0] = '\0';
	if (!perfctr_samples(idx)) {
		strcpy(id, ",\"counter\":");
		perfctr_json_str(id + 11, sizeof(id) - 11, r->id);
	}
	perfctr_json_str(ev, sizeof(ev), r->event);
	/* the fixed text is under 100 bytes */
	room = PERFCTR_REPORT_LINE - 100 - strlen(fields) - strlen(id) -
	       strlen(ev);
	perfctr_json_str(src, min(room, sizeof(src)), r->src);
	_stp_warn(PERFCTR_REPORT_MARK "{\"kind\":\"%s\",\"src\":%s"
		  "%s,\"event\":%s,%s,\"incomplete\":%s}\n", kind,
		  src, id, ev, fields, incomplete ? "true" : "false");
}

/*
 * A sampling clause's line: its body's runs, and (with a period) the
 * overflows its count implies; .hz has none to compare ("not_run":null).
 * A .process clause's count is unknown when the task table was full (not
 * every task counted): null, and incomplete.
 */
static void __maybe_unused perfctr_report_sample(unsigned int idx,
						 unsigned long runs, u64 count,
						 bool known)
{
	u64 period = perfctr_requests[idx].sample, over, lost;
	char f[128];

	if (!known) {
		snprintf(f, sizeof(f), "\"samples\":%lu,\"count\":null,"
			 "\"overflows\":null,\"not_run\":null", runs);
		perfctr_report_line(idx, "sampling", f, true);
		return;
	}
	if (!period) {
		snprintf(f, sizeof(f), "\"samples\":%lu,\"count\":%llu,"
			 "\"overflows\":null,\"not_run\":null", runs, count);
		perfctr_report_line(idx, "sampling", f, false);
		return;
	}
	over = div64_u64(count, period);
	lost = over > runs ? over - runs : 0;
	snprintf(f, sizeof(f), "\"samples\":%lu,\"count\":%llu,"
		 "\"overflows\":%llu,\"not_run\":%llu", runs, count, over, lost);
	perfctr_report_line(idx, "sampling", f, lost > 0);
}

/* The threads of .process counters the task table had no room for. */
static void __maybe_unused perfctr_report_threads(int lost, int table)
{
	char f[64];

	snprintf(f, sizeof(f), "\"threads_lost\":%d,\"task_table\":%d",
		 lost, table);
	perfctr_report_line(-1, "threads_lost", f, lost > 0);
}

/* A read of counter idx failed with rc: counted, and why, for its
 * error.  Any context; only on the error path. */
static const char * __maybe_unused perfctr_read_failed(unsigned int idx, int rc)
{
	if (idx < PERFCTR_NDECLARED)
		atomic_long_inc(&perfctr_read_errs_n[idx]);
	return perfctr_read_error(idx, rc);
}

/*
 * A .multiplex per-CPU counter that was enabled on a CPU and never
 * running there (time_running 0: the PMU never had room for it) has no
 * count and no estimate on that CPU.  Its CPUs' events as they are now;
 * an event hotplug replaced is gone.  A group's, a .process or a .socket
 * counter's times are not looked at.  Sleepable, before the counters
 * are released; CPU hotplug held off.
 */
static unsigned int perfctr_never_running(unsigned int idx)
{
	struct perfctr_cpu *pc;
	struct perf_event *ev;
	u64 enabled, running;
	unsigned int n = 0;
	int cpu;

	if (!perfctr_requests[idx].mux || !perfctr_per_cpu(idx))
		return 0;
	for_each_online_cpu(cpu) {
		pc = per_cpu_ptr(perfctr_cpus, cpu);
		ev = READ_ONCE(pc->pair[idx][READ_ONCE(pc->cur[idx]) & 1].ev);
		if (!ev)
			continue;
		enabled = running = 0;
		perf_event_read_value(ev, &enabled, &running);
		n += enabled && !running;
	}
	return n;
}

/* Each counter's read errors and CPUs it never ran on.  Sleepable,
 * after every probe has finished and before the counters go. */
static void perfctr_report_counters(void)
{
	unsigned int i, never;
	long errs;
	char f[64];

	if (!perfctr_report_on)
		return;
	cpus_read_lock();
	for (i = 0; i < PERFCTR_NDECLARED; i++) {
		if (!perfctr_requests[i].id)
			continue;
		errs = atomic_long_read(&perfctr_read_errs_n[i]);
		if (errs) {
			snprintf(f, sizeof(f), "\"read_errors\":%ld", errs);
			perfctr_report_line(i, "read_errors", f, true);
		}
		never = perfctr_never_running(i);
		if (never) {
			snprintf(f, sizeof(f), "\"never_running_cpus\":%u",
				 never);
			perfctr_report_line(i, "never_running", f, true);
		}
	}
	cpus_read_unlock();
}
