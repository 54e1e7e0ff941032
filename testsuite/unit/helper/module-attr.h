/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * module-attr.h - the module's attr for one request (module-attr.c),
 * for test-trial-fake; plain types only.
 */
#ifndef PERFCTR_TEST_MODULE_ATTR_H
#define PERFCTR_TEST_MODULE_ATTR_H

#include <stddef.h>
#include <linux/perf_event.h>

#define MODULE_REQ_MAX 8

/* The request's fields the module's table has, by their values. */
struct module_req {
	unsigned int idx, plm, gh, mux, scope, sample, hz, precise, payload;
};

/* Parses assign (modified) against a table holding the one request m
 * and builds its attr as the module does.  Returns 0, or the parser's
 * -EINVAL with its reason in err. */
int module_attr(char *assign, const char *hash,
		const struct module_req *m, struct perf_event_attr *a,
		char *err, size_t errlen);

#endif /* PERFCTR_TEST_MODULE_ATTR_H */
