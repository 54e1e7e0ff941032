// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * events.c - the script's event names, asked of perfctr-run, which
 * resolves them as it will when it starts the module (the front-end
 * links no libpfm4): one run for all of them, before stap builds
 * anything.  A name no machine knows is refused whatever the module is
 * for; one this machine cannot count only when the module will run
 * here, and not under a stap conditional (it may be for another
 * machine).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "events.h"
#include "spawn.h"

/* stap's -a name of this machine's architecture (uname's, but arm64). */
static const char *arch_name(const struct utsname *u)
{
	return strcmp(u->machine, "aarch64") ? u->machine : "arm64";
}

/* Built for this kernel, loaded here: no -r another release, no -a
 * another architecture, no --remote host, no compile server. */
static int runs_here(const struct cmdline *cl)
{
	struct utsname u;

	if (cl->remote || cl->use_server || uname(&u) < 0)
		return 0;
	return (!cl->release || !strcmp(cl->release, u.release)) &&
	       (!cl->arch || !strcmp(cl->arch, arch_name(&u)));
}

/* The counters whose names are asked: those the module creates, but one
 * that stands for a script argument not given (@N under a condition:
 * stap reports it where the condition holds). */
static int asked(const struct counter *c)
{
	return c->used && !c->missing_arg;
}

/* The distinct events of the counters the module creates, after argv[2]. */
static char **names_argv(const struct model *m, const char *helper,
			 int here, size_t *n)
{
	char **argv = calloc(m->ncounters + 3, sizeof(*argv));
	size_t i, j;

	if (!argv)
		return NULL;
	argv[0] = (char *)helper;
	argv[1] = here ? "--check-events=here" : "--check-events";
	*n = 0;
	for (i = 0; i < m->ncounters; i++) {
		if (!asked(&m->counters[i]))
			continue;
		for (j = 0; j < *n; j++)
			if (!strcmp(argv[2 + j], m->counters[i].event))
				break;
		if (j == *n)
			argv[2 + (*n)++] = (char *)m->counters[i].event;
	}
	return argv;
}

/* What perfctr-run says of a name (libperfctr.h, PERFCTR_CHECK_*). */
enum verdict { V_OK, V_UNKNOWN, V_NOT_HERE, V_BAD };

static enum verdict verdict_of(const char *word, const char *why)
{
	if (!strcmp(word, PERFCTR_CHECK_OK))
		return why ? V_BAD : V_OK;
	if (why && !strcmp(word, PERFCTR_CHECK_UNKNOWN))
		return V_UNKNOWN;
	if (why && !strcmp(word, PERFCTR_CHECK_NOT_HERE))
		return V_NOT_HERE;
	return V_BAD;
}

/* perfctr-run's answer, a line a name: a verdict, and after a tab why
 * (cut in place).  Returns 0, or -1 when it is not that. */
static int answers_split(char *text, size_t n, enum verdict *verdict,
			 char **why)
{
	char *line = text, *next, *tab;
	size_t i;

	for (i = 0; i < n; i++, line = next) {
		next = line ? strchr(line, '\n') : NULL;
		if (!next)
			return -1;
		*next++ = '\0';
		tab = strchr(line, '\t');
		if (tab)
			*tab++ = '\0';
		why[i] = tab;
		verdict[i] = verdict_of(line, tab);
		if (verdict[i] == V_BAD)
			return -1;
	}
	return line && *line ? -1 : 0;
}

/* A counter's refusal, named as perfctr-run names it. */
static void refuse(const struct counter *c, enum verdict v, const char *why,
		   struct diag *d)
{
	char who[PERFCTR_ID_MAX + PERFCTR_NAME_MAX + 32];
	struct perfctr_request req;

	counter__request(c, &req);
	perfctr_request__describe(&req, who, sizeof(who));
	diag__report(d, DIAG_SEMANTIC, c->source, &c->event_tok, "%s: %s%s",
		     who, why, v == V_NOT_HERE ? " (the module is for this "
		     "machine: not stap -r, -a, --remote or a compile "
		     "server)" : "");
}

int events__check(const struct model *m, const struct cmdline *cl,
		  const char *helper, struct diag *d)
{
	int here = runs_here(cl), errors = 0;
	enum verdict *verdict = NULL;
	char **argv, **why = NULL;
	struct strbuf out = { 0 };
	size_t n = 0, i, j;

	argv = names_argv(m, helper, here, &n);
	if (argv && n) {
		verdict = calloc(n, sizeof(*verdict));
		why = calloc(n, sizeof(*why));
	}
	if (!verdict || !why ||
	    spawn__capture(helper, argv, STDOUT_FILENO, 1, &out) != 0 ||
	    answers_split(out.buf, n, verdict, why) < 0)
		n = 0;		/* not asked, or no answer: ours, not the script's */
	for (i = 0; i < m->ncounters && n; i++) {
		const struct counter *c = &m->counters[i];

		if (!asked(c))
			continue;
		for (j = 0; strcmp(argv[2 + j], c->event); j++)
			;
		if (verdict[j] == V_UNKNOWN ||
		    (verdict[j] == V_NOT_HERE && !c->ncond)) {
			refuse(c, verdict[j], why[j], d);
			errors++;
		}
	}
	strbuf__free(&out);
	free(verdict);
	free(why);
	free(argv);
	return errors;
}
