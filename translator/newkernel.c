// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * newkernel.c - why the real stap built no module for a newer kernel
 * (newkernel.h).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kconf.h"
#include "newkernel.h"
#include "spawn.h"
#include "strbuf.h"

/* Linux 6.13: kbuild builds M= modules in their own directory. */
#define KBUILD_OWN_DIR	(6 * 1000 + 13)
/* The oldest SystemTap seen to build for it (Debian forky's). */
#define STAP_BUILDS_IT	(5 * 1000 + 6)

static int version_of(const char *text)
{
	int major, minor;

	return sscanf(text, "%d.%d", &major, &minor) == 2 ?
	       major * 1000 + minor : -1;
}

/* The release of the kernel tree at kdir (its kernel.release), or "". */
static void tree_release(const char *kdir, char *rel, size_t size)
{
	char path[PATH_MAX + 32];
	FILE *f;

	rel[0] = '\0';
	snprintf(path, sizeof(path), "%s/include/config/kernel.release", kdir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(rel, (int)size, f))
		rel[0] = '\0';
	rel[strcspn(rel, "\n")] = '\0';
	fclose(f);
}

/* stap -V's "version X.Y/..." (on stdout from stap 4.8 to 5.6) as
 * X * 1000 + Y, or -1. */
static int stap_version(const char *real_stap)
{
	char *argv[] = { "stap", "-V", NULL };
	struct strbuf sb = { 0 };
	const char *at;
	int v = -1;

	if (spawn__capture(real_stap, argv, STDOUT_FILENO, 1, &sb) >= 0 &&
	    sb.buf && (at = strstr(sb.buf, "version ")))
		v = version_of(at + strlen("version "));
	strbuf__free(&sb);
	return v;
}

void newkernel__explain(const char *real_stap, const struct cmdline *cl)
{
	char kdir[PATH_MAX], rel[128];
	int kv, sv;

	if (cl->use_server || cl->last_pass < 4 ||
	    kconf__kernel_dir(cl, kdir, sizeof(kdir)) < 0)
		return;
	tree_release(kdir, rel, sizeof(rel));
	kv = version_of(rel);
	if (kv < KBUILD_OWN_DIR)
		return;
	sv = stap_version(real_stap);
	if (sv < 0 || sv >= STAP_BUILDS_IT)
		return;
	fprintf(stderr,
		"stap-perfctr: stap %d.%d built no module for Linux %s, which "
		"may be too new for it: from 6.13 kbuild builds a module in "
		"the module's own directory, where SystemTap 5.1 does not find "
		"the headers it generates (\"runtime_defines.h: No such file "
		"or directory\", for any script); SystemTap 5.6 builds them "
		"(Debian forky). Or boot a kernel before 6.13 (Debian "
		"trixie's 6.12)\n", sv / 1000, sv % 1000, rel);
}
