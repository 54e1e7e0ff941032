/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * newkernel.h - why the real stap built no module: a kernel newer than
 * that stap can build for.  Linux 6.13's kbuild builds an external module
 * in the module's own directory; SystemTap 5.1 (Debian trixie's) then
 * finds none of its generated headers ("runtime_defines.h: No such file
 * or directory") and builds no module at all, counters or not, for Linux
 * 6.13 and later (trixie-backports' 7.3).  SystemTap 5.6 (forky's) builds
 * them; the releases between were not tried.
 */
#ifndef PERFCTR_NEWKERNEL_H
#define PERFCTR_NEWKERNEL_H

#include "options.h"

/*
 * After the real stap (real_stap) failed to build for cl: when the kernel
 * it built for is 6.13 or later and that stap is older than 5.6, says so
 * on stderr, with what to do.  Says nothing otherwise (a compile server's
 * build, a kernel tree it cannot read, a stap it cannot ask).
 */
void newkernel__explain(const char *real_stap, const struct cmdline *cl);

#endif /* PERFCTR_NEWKERNEL_H */
