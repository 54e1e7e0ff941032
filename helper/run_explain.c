/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_explain.c - why perfctr-run refuses a counter: what else holds the
 * PMU's counters, which of a group's events perf refuses and why, which
 * payload the kernel will not record; then one line per problem, naming
 * where the script declared the counter.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include "run.h"
#include "perfctr_payload.h"

/* One line per problem, in table order, naming where the script
 * declared the counter. */
void plan__report(const struct plan *p)
{
	const struct perfctr_request *req;
	char what[PERFCTR_ID_MAX + PERFCTR_NAME_MAX + 32];
	unsigned int i;

	for (i = 0; i < p->tab->n; i++) {
		req = &p->tab->reqs[i];
		if (!p->req[i].why[0])
			continue;
		perfctr_request__describe(req, what, sizeof(what));
		if (req->src[0])
			fprintf(p->out, PROG ": %s: %s: %s\n", req->src, what,
				p->req[i].why);
		else
			fprintf(p->out, PROG ": %s: %s\n", what, p->req[i].why);
	}
}

/* Appends to buf[0..len) at n, as far as it goes; returns the new n. */
static size_t __attribute__((format(printf, 4, 5)))
addf(char *buf, size_t len, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n >= len)
		return n;
	va_start(ap, fmt);
	k = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return k < 0 ? len : n + k;
}

/* ` "a", group "g" ("b", "c")`: the pinned events a holder holds, a
 * group's together. */
static size_t holder_events(const struct perfctr_holder *h, char *buf,
			    size_t len, size_t n)
{
	const struct perfctr_request *r = h->reqs;
	const char *sep = "", *in;
	unsigned int j, k;

	for (j = 0; j < h->n; j++) {
		if (h->encs && (h->encs[j].flags & PERFCTR_F_MULTIPLEX))
			continue;
		if (!r[j].group[0]) {
			n = addf(buf, len, n, "%s \"%s\"", sep, r[j].event);
			sep = ",";
			continue;
		}
		for (k = 0; k < j && strcmp(r[k].group, r[j].group); k++)
			;
		if (k < j)
			continue;	/* named with its group's first */
		n = addf(buf, len, n, "%s group \"%s\" (", sep, r[j].group);
		for (k = j, in = ""; k < h->n; k++)
			if (!strcmp(r[k].group, r[j].group)) {
				n = addf(buf, len, n, "%s\"%s\"", in,
					 r[k].event);
				in = ", ";
			}
		n = addf(buf, len, n, ")");
		sep = ",";
	}
	return n;
}

/* "; script X.stp holds "a", "b"" for every other loaded perfctr
 * module with pinned counters: read from the kernel (sysfs), never stale. */
static size_t name_holders(const char *sysfs_root, char *buf, size_t len)
{
	struct perfctr_holder *h = NULL;
	int nh = perfctr_holders__read(sysfs_root, &h), i;
	size_t n = 0;

	for (i = 0; i < nh; i++) {
		n = addf(buf, len, n, "; %s (%s) holds", h[i].module,
			 h[i].n ? h[i].reqs[0].src : "?");
		n = holder_events(&h[i], buf, len, n);
	}
	if (nh > 0)
		perfctr_holders__free(h, nh);
	return n < len ? n : len - 1;
}

/* Why an event, or a group (name: `its events ("a", "b")`), does not
 * fit among the k events of the set: what else wants the counters. */
void explain__no_room(const struct plan *p, unsigned int k,
		      const char *what, const char *sysfs_root, char *buf,
		      size_t len)
{
	const char *sep = "";
	size_t n = 0;
	unsigned int i;

	n = addf(buf, len, n, "%s does not fit: the PMU has no free counter "
		 "for %s next to this script's other pinned events (", what,
		 strcmp(what, "it") ? "them" : "it");
	for (i = 0; i < k; i++)
		if (perfctr_trial__pinned(&p->set[i]) ||
		    (p->set[i].group && perfctr_trial__pinned(
				&p->set[p->set[i].group - 1]))) {
			n = addf(buf, len, n, "%s\"%s\"", sep,
				 p->tab->reqs[p->set_idx[i]].event);
			sep = ", ";
		}
	n = addf(buf, len, n, ")");
	if (n < len)
		n += name_holders(sysfs_root, buf + n, len - n);
	if (perfctr_watchdog__holds_counter())
		n = addf(buf, len, n, "; kernel.nmi_watchdog is 1: the NMI "
			 "watchdog may hold one counter per CPU");
	addf(buf, len, n, "; add .multiplex to the probe point%s to "
	     "time-share counters, with scaled counts", strcmp(what, "it") ?
	     "s of the group" : "");
}

/* `"a", "b", "c"`: the events of the group request r leads, and how
 * many of them count on the PMU (software events need no counter). */
static size_t group_events(const struct plan *p, unsigned int r, char *buf,
			   size_t len, unsigned int *hw)
{
	const char *sep = "";
	unsigned int i;
	size_t n = 0;

	*hw = 0;
	buf[0] = '\0';
	for (i = 0; i < p->tab->n; i++)
		if (p->req[i].leader == r && plan__grouped(p, i)) {
			n = addf(buf, len, n, "%s\"%s\"", sep,
				 p->tab->reqs[i].event);
			sep = ", ";
			/* PERF_TYPE_SOFTWARE */
			*hw += p->req[i].enc.type != 1;
		}
	return n;
}

/*
 * Set entry k, a group's, did not open or fit on cpu: why, in msg, said
 * at the request it returns (the leader for what is the group's).  Perf's
 * rules decide: a sibling that opens alone and next to its leader but not
 * after the others makes the group too large for the PMU.
 */
unsigned int explain__group(const struct plan *p, unsigned int k, int cpu,
			    const char *sysfs_root, char *msg, size_t len)
{
	unsigned int r = p->set_idx[k], l = p->req[r].leader, hw, m = 0, i;
	const struct perfctr_request *req = &p->tab->reqs[r];
	struct perfctr_trial t[PERFCTR_GROUP_MAX];
	char events[WHY_MAX / 4], why[WHY_MAX / 2], what[WHY_MAX / 4];
	int err, res = p->res[k], pos;

	group_events(p, l, events, sizeof(events), &hw);
	if (res == -ENOSPC) {
		snprintf(what, sizeof(what), "its events (%s)", events);
		explain__no_room(p, k, what, sysfs_root, why, sizeof(why));
		snprintf(msg, len, "group \"%s\" cannot be counted on CPU %d: "
			 "%s", req->group, cpu, why);
		return l;
	}
	if (r != l) {
		for (i = 0; i < p->tab->n && m < PERFCTR_GROUP_MAX; i++) {
			pos = p->req[i].set_pos;
			if (p->req[i].leader == l && pos >= 0 &&
			    (unsigned int)pos <= k)
				t[m++] = p->set[pos];
		}
		for (i = 0; i < m; i++)
			t[i].group = 1;
		switch (perfctr_trials__group_why(t, m - 1, cpu, &err)) {
		case PERFCTR_GROUP_PAIR:
			perfctr_trial__explain(err, why, sizeof(why));
			snprintf(msg, len, "event \"%s\" cannot be in group "
				 "\"%s\" with \"%s\", which leads it: perf puts "
				 "a group's events on one PMU (software events "
				 "may join any group), and refuses it there on "
				 "CPU %d (%s)", req->event, req->group,
				 p->tab->reqs[l].event, cpu, why);
			return r;
		case PERFCTR_GROUP_SIZE:
			snprintf(msg, len, "group \"%s\" needs %u counters at "
				 "once (%s) and does not fit the PMU: perf "
				 "refuses \"%s\" on CPU %d next to the %u events "
				 "before it; a group is scheduled whole: make it "
				 "smaller, or split it", req->group, hw, events,
				 req->event, cpu, m - 1);
			return l;
		}
		res = err;
	}
	perfctr_trial__explain(res, why, sizeof(why));
	snprintf(msg, len, "event \"%s\" cannot be counted on CPU %d: %s",
		 req->event, cpu, why);
	return r;
}

/* Set entry k, a sampling clause, did not open on cpu: when the kernel
 * refuses the payload its body reads (a PMU without a branch stack), say
 * so in msg.  Returns 1 if it did. */
int explain__payload(const struct plan *p, unsigned int k, int cpu,
		     char *msg, size_t len)
{
	const struct perfctr_request *req = &p->tab->reqs[p->set_idx[k]];
	char why[WHY_MAX / 2];
	unsigned int bit;
	int err;

	if (!perfctr_trials__payload_why(&p->set[k], cpu, &bit, &err))
		return 0;
	snprintf(why, sizeof(why), "perf_event_open: %s", strerror(-err));
	if (bit == PERFCTR_PL_BRANCH)
		snprintf(msg, len, "%s reads the branch stack of each sample, "
			 "and the PMU records none for \"%s\" on CPU %d "
			 "(Intel's LBR, AMD's BRS or LbrExtV2, Arm's BRBE): "
			 "the kernel refuses PERF_SAMPLE_BRANCH_STACK for it "
			 "(%s)", perfctr_payload__fn(bit), req->event, cpu,
			 why);
	else if (bit == PERFCTR_PL_CALLCHAIN && err == -EOVERFLOW)
		snprintf(msg, len, "%s reads the call chain of each sample, "
			 "up to %d frames, and this machine's "
			 "kernel.perf_event_max_stack is lower: the kernel "
			 "refuses the chain for \"%s\" (%s); raise it "
			 "(sysctl kernel.perf_event_max_stack=%d)",
			 perfctr_payload__fn(bit), PERFCTR_MAX_STACK,
			 req->event, why, PERFCTR_MAX_STACK);
	else
		snprintf(msg, len, "%s: the kernel refuses the sample type it "
			 "needs for \"%s\" on CPU %d (%s)",
			 perfctr_payload__fn(bit), req->event, cpu, why);
	return 1;
}
