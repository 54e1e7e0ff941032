// SPDX-License-Identifier: GPL-2.0-only
/*
 * module-attr.c - for test-trial-fake: the attr the module builds for one
 * request from a perfctr_assign value, with the module's own code: its
 * parser (runtime/perfctr_assign.c, validation included) and the two
 * calls its counters and sampling clauses make (runtime/perfctr_cpus.c
 * perfctr_attr(), runtime/perfctr_sample.c perfctr_sample_attr()).  A
 * translation unit of its own: the runtime's headers and libperfctr.h
 * both name PERFCTR_PLM_*.
 */
#include "kcompat.h"	/* the kernel helpers perfctr_assign.c uses */
#include "perfctr_assign.c"
#include "module-attr.h"

int module_attr(char *assign, const char *hash,
		const struct module_req *m, struct perf_event_attr *a,
		char *err, size_t errlen)
{
	struct perfctr_request_desc reqs[MODULE_REQ_MAX] = { { 0 } };
	struct perfctr_slot slots[MODULE_REQ_MAX], *s;
	struct perfctr_request_desc *r;
	struct perfctr_table t = { .hash = hash, .reqs = reqs,
				   .n = MODULE_REQ_MAX, .max_cpus = 1 };
	int rc;

	if (m->idx >= MODULE_REQ_MAX)
		return -EINVAL;
	r = &reqs[m->idx];
	r->id = "c";
	r->event = "e";
	r->plm = m->plm;
	r->gh = m->gh;
	r->mux = m->mux;
	r->scope = m->scope;
	r->sample = m->sample;
	r->hz = m->hz;
	r->precise = m->precise;
	r->payload = m->payload;
	r->target = "";
	r->src = "t.stp:1:1";
	rc = perfctr_assign_parse(assign, &t, slots, NULL, err, errlen);
	if (rc)
		return rc;
	s = &slots[m->idx];
	perfctr_attr_counter(a, s->type, s->config, s->config1, s->config2,
			     s->flags);
	if (r->sample || r->hz)
		perfctr_attr_sample(a, r->sample, r->hz, r->precise,
				    r->payload);
	return 0;
}
