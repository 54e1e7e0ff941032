/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kconf.h - what the target kernel's headers offer the runtime, found the
 * way stap's autoconf finds it: a small probe per feature, compiled by the
 * kernel's own kbuild (its compiler, flags and headers).  A distribution
 * kernel that backports a change has it in its headers whatever its
 * version says, so the runtime never decides by version number.
 */
#ifndef PERFCTR_KCONF_H
#define PERFCTR_KCONF_H

#include "options.h"
#include "strbuf.h"

/* The build tree stap will use: -r DIR, /lib/modules/RELEASE/build for
 * -r RELEASE, else the running kernel's.  Returns 0 or -errno. */
int kconf__kernel_dir(const struct cmdline *cl, char *dir, size_t size);

/*
 * Adds "#define PERFCTR_HAVE_X 1" lines to defines for each feature the
 * kernel in kdir has, compiling the probes with make (STAP_PERFCTR_MAKE,
 * a command line split at spaces, else "make") and the -a and -B options
 * stap would pass it, and for each symbol its Module.symvers exports to
 * every module.  The answer is kept (outdir__keep), keyed by the build
 * tree, how make runs and the probes, so that only a new kernel pays the
 * compile (a few seconds).
 * Returns 0, or -errno when no probe could run (kbuild failed outright:
 * why says how, with the end of its output).
 */
int kconf__probe(const struct cmdline *cl, const char *kdir,
		 struct strbuf *defines, char *why, size_t why_size);

#endif /* PERFCTR_KCONF_H */
