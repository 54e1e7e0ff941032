// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-priv.c - what perfctr-run refuses a stapsys or stapusr module's
 * user (priv.c): perf_event_open's rules under perf_event_paranoid, on a
 * made-up /proc; stapdev modules and root are not limited.
 */
#include <errno.h>
#include <string.h>

#include <linux/perf_event.h>

#include "libperfctr.h"
#include "perfctr_payload.h"
#include "tap.h"
#include "util.h"

static const struct perfctr_encoding user_only = {
	.flags = PERFCTR_F_EXCLUDE_KERNEL | PERFCTR_F_EXCLUDE_HV };
static const struct perfctr_encoding kernel_too = { .flags = 0 };

static struct perfctr_modtab tab(const char *priv)
{
	struct perfctr_modtab t = { .version = 1 };

	snprintf(t.priv, sizeof(t.priv), "%s", priv);
	return t;
}

/* perfctr_priv__check as user 1000: allowed, or refused with want. */
static void expect(const char *priv, unsigned int scope,
		   const struct perfctr_encoding *enc, int paranoid,
		   unsigned int uid, const char *want)
{
	struct perfctr_modtab t = tab(priv);
	struct perfctr_request req = { .scope = scope };
	char err[512] = "";
	int rc = perfctr_priv__check(&t, &req, enc, paranoid, uid, err,
				     sizeof(err));

	if (!want)
		ok(rc == 0, "%s, scope %u, flags %#x, paranoid %d, uid %u: "
		   "allowed", priv, scope, enc->flags, paranoid, uid);
	else
		ok(rc == -EACCES && strstr(err, want), "%s, scope %u, flags "
		   "%#x, paranoid %d, uid %u: \"%s\"", priv, scope, enc->flags,
		   paranoid, uid, want);
	if (want ? !(rc == -EACCES && strstr(err, want)) : rc)
		tap_diag(err);
}

int main(void)
{
	struct perfctr_modtab t;
	const int P = PERFCTR_SCOPE_PROCESS, C = PERFCTR_SCOPE_CPU,
		T = PERFCTR_SCOPE_THREAD;

	t = tab("stapusr");
	ok(perfctr_priv__applies(&t, 1000), "stapusr, a user: applies");
	ok(!perfctr_priv__applies(&t, 0), "stapusr, root: does not apply");
	t = tab("stapsys");
	ok(perfctr_priv__applies(&t, 1000), "stapsys, a user: applies");
	t = tab("stapdev");
	ok(!perfctr_priv__applies(&t, 1000), "stapdev: does not apply");

	/* Debian's 3: nothing at all for users */
	expect("stapusr", P, &user_only, 3, 1000,
	       "kernel.perf_event_paranoid is 3, and any counter needs 2 or "
	       "less for user 1000 (a stapusr module");
	expect("stapusr", P, &user_only, 2, 1000, NULL);
	expect("stapusr", P, &kernel_too, 2, 1000,
	       "is 2, and counting in kernel mode needs 1 or less");
	expect("stapusr", P, &kernel_too, 1, 1000, NULL);
	expect("stapusr", C, &user_only, 1, 1000,
	       "is 1, and a CPU-wide counter (.cpu, .thread, .cgroup, .multiplex) "
	       "needs 0 or less");
	expect("stapsys", T, &user_only, 1, 1000, "a CPU-wide counter");
	expect("stapusr", C, &kernel_too, 0, 1000, NULL);
	expect("stapusr", T, &kernel_too, -1, 1000, NULL);
	expect("stapusr", C, &kernel_too, PERFCTR_PARANOID_UNKNOWN, 1000,
	       "kernel.perf_event_paranoid cannot be read");
	/* a group's counters are CPU-wide: perfctr-run opens them per CPU
	 * as the user, and perf would refuse the same */
	{
		struct perfctr_modtab g = tab("stapusr");
		struct perfctr_request req = { .scope = C, .group = "ipc" };
		char err[512] = "";

		ok(perfctr_priv__check(&g, &req, &user_only, 1, 1000, err,
				       sizeof(err)) == -EACCES &&
		   strstr(err, "is 1, and a group's counter (CPU-wide: "
			  "perfctr-run opens it on each CPU) needs 0 or less "
			  "for user 1000"), "stapusr, a group's counter, "
			  "paranoid 1: refused as CPU-wide (%s)", err);
		ok(perfctr_priv__check(&g, &req, &kernel_too, 0, 1000, err,
				       sizeof(err)) == 0,
		   "  at 0: allowed, as perf allows it");
		ok(perfctr_priv__check(&g, &req, &kernel_too, 2, 1000, err,
				       sizeof(err)) == -EACCES &&
		   strstr(err, "counting in kernel mode"),
		   "  at 2, counting in kernel mode: refused for that first");
	}
	/* a sample's physical address: perf_allow_kernel whatever the
	 * levels (kernel/events/core.c) */
	{
		struct perfctr_modtab u = tab("stapusr");
		struct perfctr_request req = { .scope = P,
					       .payload = PERFCTR_PL_PHYS };
		char err[512] = "";

		ok(perfctr_priv__check(&u, &req, &user_only, 2, 1000, err,
				       sizeof(err)) == -EACCES &&
		   strstr(err, "is 2, and a sample's physical address needs 1 "
			  "or less"), "stapusr, .process, user only, a "
			  "physical address, paranoid 2: refused (%s)", err);
		ok(perfctr_priv__check(&u, &req, &user_only, 1, 1000, err,
				       sizeof(err)) == 0, "  at 1: allowed");
		req.payload = PERFCTR_PL_ADDR;
		ok(perfctr_priv__check(&u, &req, &user_only, 2, 1000, err,
				       sizeof(err)) == 0,
		   "  a virtual address at 2: allowed");
	}
	/* Intel's AnyThread bit (config bit 21): perf_allow_cpu on x86 */
	{
		struct perfctr_modtab u = tab("stapusr");
		struct perfctr_request req = { .scope = P };
		struct perfctr_encoding any = user_only;
		char err[512] = "";
		int rc;

		any.type = PERF_TYPE_RAW;
		any.config = 0x2000c0;	/* INST_RETIRED.ANY_P, AnyThread */
		rc = perfctr_priv__check(&u, &req, &any, 1, 1000, err,
					 sizeof(err));
#if defined(__x86_64__) || defined(__i386__)
		ok(rc == -EACCES && strstr(err, "is 1, and the AnyThread bit "
					   "(config bit 21: it counts the "
					   "sibling hyperthread's work too) "
					   "needs 0 or less"),
		   "x86: .process raw event with AnyThread, paranoid 1: "
		   "refused (%s)", err);
#else
		ok(rc == 0, "not x86: config bit 21 is no AnyThread bit");
#endif
		ok(perfctr_priv__check(&u, &req, &any, 0, 1000, err,
				       sizeof(err)) == 0, "  at 0: allowed");
		any.config = 0xc0;
		ok(perfctr_priv__check(&u, &req, &any, 1, 1000, err,
				       sizeof(err)) == 0,
		   "  without the bit at 1: allowed");
	}
	/* root, and stapdev modules: anything */
	expect("stapusr", C, &kernel_too, 3, 0, NULL);
	expect("stapdev", C, &kernel_too, 3, 1000, NULL);

	test_mkdtemp();
	test_write("proc/sys/kernel/perf_event_paranoid", "2\n");
	is_int(perfctr_paranoid__read(test_path("proc")), 2,
	       "perf_event_paranoid read from PROC/sys/kernel");
	is_int(perfctr_paranoid__read(test_path("none")),
	       PERFCTR_PARANOID_UNKNOWN, "absent: unknown");
	test_write("proc/sys/kernel/perf_event_paranoid", "x\n");
	is_int(perfctr_paranoid__read(test_path("proc")),
	       PERFCTR_PARANOID_UNKNOWN, "garbage: unknown");
	test_cleanup();
	return tap_done();
}
