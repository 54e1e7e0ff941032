// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kconf.c - the kernel feature probes (kconf.h).  Each probe is a C file
 * that compiles only where the kernel has the feature; kbuild compiles them
 * all in one make -k run in a private temporary directory, beside a
 * control probe that compiles on every kernel (a failed control means
 * kbuild itself failed, and the answers mean nothing).  A feature is
 * absent only when its own probe failed with a diagnostic in its own
 * file; a probe that failed otherwise (make stopped, a file vanished) is
 * an error, never an answer to keep; it is tried once more first (the
 * first failure's words kept in kconf-KEY.retry, for whoever asks why a
 * build took longer).  What the module may link is read from the tree's
 * Module.symvers instead (exports[]).  One front-end probes a tree at a
 * time (a lock beside the kept answers).
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kconf.h"
#include "libperfctr.h"
#include "outdir.h"
#include "spawn.h"

struct kconf_probe {
	const char *macro;	/* defined when the code compiles */
	const char *code;
};

/* The table: what the runtime decides at build time, and how to tell. */
static const struct kconf_probe probes[] = {
	/* the control: every kernel */
	{ NULL,
	  "#include <linux/perf_event.h>\n"
	  "int perfctr_probe(struct perf_event *e) { return e->state; }\n" },
	/* the context's clock in struct perf_time_ctx (ctx->time.offset),
	 * not ctx->time and ctx->timeoffset (Linux 7.0) */
	{ "PERFCTR_HAVE_PERF_TIME_CTX",
	  "#include <linux/perf_event.h>\n"
	  "u64 perfctr_probe(struct perf_event_context *c)\n"
	  "{ return c->time.time + c->time.offset; }\n" },
	/* hrtimer_setup() sets the callback; hrtimer_init() is gone (6.13,
	 * 6.15) */
	{ "PERFCTR_HAVE_HRTIMER_SETUP",
	  "#include <linux/hrtimer.h>\n"
	  "static enum hrtimer_restart f(struct hrtimer *t)\n"
	  "{ return HRTIMER_NORESTART; }\n"
	  "void perfctr_probe(struct hrtimer *t)\n"
	  "{ hrtimer_setup(t, f, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD); }\n" },
	/* where perf counts a CPU's PMU-disabled sections (the direct read,
	 * runtime/perfctr_direct.h): per CPU in struct pmu (6.1, 6.12) */
	{ "PERFCTR_HAVE_PMU_DISABLE_COUNT",
	  "#include <linux/perf_event.h>\n"
	  "int perfctr_probe(struct pmu *p)\n"
	  "{ return *this_cpu_ptr(p->pmu_disable_count); }\n" },
	/* in the CPU's struct perf_cpu_pmu_context */
	{ "PERFCTR_HAVE_CPC_DISABLE_COUNT",
	  "#include <linux/perf_event.h>\n"
	  "int perfctr_probe(struct pmu *p)\n"
	  "{ return this_cpu_ptr(p->cpu_pmu_context)->pmu_disable_count; }\n" },
	/* there, each CPU's context allocated apart (a per-CPU pointer) */
	{ "PERFCTR_HAVE_CPC_PTR_DISABLE_COUNT",
	  "#include <linux/perf_event.h>\n"
	  "int perfctr_probe(struct pmu *p)\n"
	  "{ return (*this_cpu_ptr(p->cpu_pmu_context))->pmu_disable_count; }\n" },
	/* arm_pmu's counters in a bitmap, PMUv3's cycle counter at index 31
	 * and event counter N at N (Linux 6.11); before, a count of them,
	 * index 0 the cycle counter and N event counter N - 1.  The driver's
	 * own structure, not ARMV8_PMU_CYCLE_IDX, which KVM's header defines
	 * as 31 under the old mapping (runtime/perfctr_direct.h) */
	{ "PERFCTR_HAVE_ARM_PMU_CNTR_MASK",
	  "#ifndef CONFIG_ARM64\n#error only arm64's PMUv3\n#endif\n"
	  "#include <linux/perf/arm_pmu.h>\n"
	  "int perfctr_probe(struct arm_pmu *p)\n"
	  "{ return test_bit(31, p->cntr_mask); }\n" },
	/* a task's perf contexts an array, one per kind of PMU (6.1), not
	 * one context (6.2): runtime/perfctr_inherit.c walks them */
	{ "PERFCTR_HAVE_TASK_CTX_ARRAY",
	  "#include <linux/kernel.h>\n"
	  "#include <linux/sched.h>\n"
	  "int perfctr_probe(struct task_struct *t)\n"
	  "{ return ARRAY_SIZE(t->perf_event_ctxp); }\n" },
};

#define NPROBES (sizeof(probes) / sizeof(probes[0]))

/*
 * What the module may link: a symbol the build tree's Module.symvers
 * exports to every module (no namespace), as modpost and the module
 * loader will judge the module's use of it.  No C probe can tell: a
 * symbol exported to named modules alone is declared in the headers all
 * the same.
 */
struct kconf_export {
	const char *macro;	/* defined when any module may link symbol */
	const char *symbol;
};

static const struct kconf_export exports[] = {
	/* the width of x86's counters (the direct read, runtime/
	 * perfctr_direct.h): exported to every GPL module on 6.1 and 6.12,
	 * to KVM's modules alone on 7.2 (EXPORT_SYMBOL_FOR_KVM) */
	{ "PERFCTR_HAVE_X86_PMU_CAP", "perf_get_x86_pmu_capability" },
};

#define NEXPORTS (sizeof(exports) / sizeof(exports[0]))

int kconf__kernel_dir(const struct cmdline *cl, char *dir, size_t size)
{
	struct utsname u;
	const char *rel = cl->release;
	int n;

	if (rel && strchr(rel, '/'))
		n = snprintf(dir, size, "%s", rel);
	else {
		if (!rel) {
			if (uname(&u) < 0)
				return -errno;
			rel = u.release;
		}
		n = snprintf(dir, size, "/lib/modules/%s/build", rel);
	}
	return n < (int)size ? 0 : -ENAMETOOLONG;
}

/* What the answer depends on: the tree (its path and the files that
 * change with its configuration), how make runs, and the probes. */
static uint64_t cache_key(const struct cmdline *cl, const char *kdir,
			  const char *make)
{
	static const char *const files[] = {
		"Makefile", ".config", "include/generated/autoconf.h",
		"include/generated/utsrelease.h", "Module.symvers",
	};
	uint64_t h = perfctr_hash__init();
	char path[4096];
	struct stat st;
	unsigned int i;

	h = perfctr_hash__add(h, kdir, strlen(kdir) + 1);
	h = perfctr_hash__add(h, make, strlen(make) + 1);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", kdir, files[i]);
		if (stat(path, &st) < 0)
			continue;
		h = perfctr_hash__add(h, &st.st_mtime, sizeof(st.st_mtime));
		h = perfctr_hash__add(h, &st.st_size, sizeof(st.st_size));
	}
	if (cl->arch)
		h = perfctr_hash__add(h, cl->arch, strlen(cl->arch) + 1);
	for (i = 0; i < (unsigned int)cl->n_kbuild; i++)
		h = perfctr_hash__add(h, cl->kbuild_args[i],
				      strlen(cl->kbuild_args[i]) + 1);
	for (i = 0; i < NPROBES; i++)
		h = perfctr_hash__add(h, probes[i].code,
				      strlen(probes[i].code) + 1);
	for (i = 0; i < NEXPORTS; i++)
		h = perfctr_hash__add(h, exports[i].symbol,
				      strlen(exports[i].symbol) + 1);
	return h;
}

static int write_text(const char *dir, const char *name, const char *text)
{
	char path[4096];
	size_t len = strlen(text);
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = -EIO;
	close(fd);
	return err;
}

/* The probes and a Kbuild that names them, in dir. */
static int write_probes(const char *dir)
{
	char name[32], kbuild[64 + NPROBES * 16] = "obj-m :=";
	unsigned int i;
	int err;

	for (i = 0; i < NPROBES; i++) {
		snprintf(name, sizeof(name), "p%u.c", i);
		err = write_text(dir, name, probes[i].code);
		if (err)
			return err;
		snprintf(name, sizeof(name), " p%u.o", i);
		strcat(kbuild, name);
	}
	strcat(kbuild, "\n");
	return write_text(dir, "Kbuild", kbuild);
}

/* make [the STAP_PERFCTR_MAKE words] -C kdir M=dir -k -s [ARCH=]
 * [-B args] p0.o ... (the probes want names, a bit each), run through env so that PATH finds make, and with
 * no make of ours above it: under a make -j (make check) MAKEFLAGS names
 * a jobserver whose descriptors this make does not inherit ("read jobs
 * pipe: Bad file descriptor"). */
static int run_make(const struct cmdline *cl, const char *make,
		    const char *kdir, const char *dir, unsigned int want,
		    struct strbuf *out)
{
	char *argv[64 + OPTIONS_MAX_B + NPROBES], *words, *w, *save = NULL;
	char targets[NPROBES][16], cdir[4096 + 4], mdir[4096 + 4], arch[64];
	unsigned int i;
	int n = 0, rc;

	words = strdup(make);
	if (!words)
		return -ENOMEM;
	argv[n++] = "env";
	argv[n++] = "-u";
	argv[n++] = "MAKEFLAGS";
	argv[n++] = "-u";
	argv[n++] = "MFLAGS";
	argv[n++] = "-u";
	argv[n++] = "MAKELEVEL";
	for (w = strtok_r(words, " ", &save); w && n < 40;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	snprintf(cdir, sizeof(cdir), "-C%s", kdir);
	snprintf(mdir, sizeof(mdir), "M=%s", dir);
	argv[n++] = cdir;
	argv[n++] = mdir;
	argv[n++] = "-k";
	argv[n++] = "-s";
	if (cl->arch) {
		snprintf(arch, sizeof(arch), "ARCH=%s", cl->arch);
		argv[n++] = arch;
	}
	for (i = 0; i < (unsigned int)cl->n_kbuild; i++)
		argv[n++] = cl->kbuild_args[i];
	for (i = 0; i < NPROBES; i++) {
		if (!(want & (1u << i)))
			continue;
		snprintf(targets[i], sizeof(targets[i]), "p%u.o", i);
		argv[n++] = targets[i];
	}
	argv[n] = NULL;
	rc = spawn__capture("/usr/bin/env", argv, STDERR_FILENO, 1, out);
	free(words);
	return rc < 0 ? -ECHILD : 0;
}

static int built(const char *dir, unsigned int i)
{
	char path[4096 + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/p%u.o", dir, i);
	return stat(path, &st) == 0 && st.st_size > 0;
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* The probes, their objects and kbuild's by-products: the whole tree,
 * depth first, links removed and not followed. */
static void remove_dir(const char *dir)
{
	if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		fprintf(stderr, "stap-perfctr: cannot remove %s: %s\n", dir,
			strerror(errno));
}

/* Did make say why probe i failed, in its own file ("pI.c:LINE:")? */
static int failed_in_itself(const struct strbuf *out, unsigned int i)
{
	char name[32];
	const char *p;
	size_t n;

	if (!out->buf)
		return 0;
	n = (size_t)snprintf(name, sizeof(name), "p%u.c:", i);
	for (p = strstr(out->buf, name); p; p = strstr(p + 1, name))
		if ((p == out->buf || p[-1] == '/' || p[-1] == ' ' ||
		     p[-1] == '\n') &&
		    p[n] >= '0' && p[n] <= '9')
			return 1;
	return 0;
}

static void say_why(char *why, size_t why_size, const char *what,
		    const char *kdir, const char *make,
		    const struct strbuf *out)
{
	size_t at = out->len > 600 ? out->len - 600 : 0;

	snprintf(why, why_size, "%s against the kernel headers in %s (%s): "
		 "%s", what, kdir, make, out->buf ? out->buf + at : "no output");
}

static int compile(const struct cmdline *cl, const char *kdir,
		   const char *make, struct strbuf *defines,
		   char *why, size_t why_size)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf out = { 0 };
	unsigned int i, answered = 0;
	char dir[4096];
	int err;

	snprintf(dir, sizeof(dir), "%s/stap-perfctr-kconf.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -errno;
	err = write_probes(dir);
	if (!err)
		err = run_make(cl, make, kdir, dir, (1u << NPROBES) - 1, &out);
	if (!err && !built(dir, 0)) {
		say_why(why, why_size, "cannot compile", kdir, make, &out);
		err = -EIO;
	}
	while (!err) {
		unsigned int lost = 0, own = 0;

		for (i = 1; i < NPROBES; i++) {
			if (answered & (1u << i))
				continue;
			if (built(dir, i))
				strbuf__printf(defines, "#define %s 1\n",
					       probes[i].macro);
			else if (failed_in_itself(&out, i))
				own++;
			else {
				lost |= 1u << i;
				continue;
			}
			answered |= 1u << i;
		}
		if (!lost)
			break;
		if (!own) {
			say_why(why, why_size, "cannot tell whether the kernel "
				"has what the runtime probes for", kdir, make,
				&out);
			err = -EAGAIN;
			break;
		}
		/* a probe that failed can stop the others with it (7.x
		 * kbuild): those, once more, without it */
		strbuf__free(&out);
		err = run_make(cl, make, kdir, dir, lost | 1, &out);
	}
	strbuf__free(&out);
	remove_dir(dir);
	return err;
}

/*
 * Adds the define of each export that kdir's Module.symvers gives every
 * module.  Its lines: CRC, symbol, module, EXPORT_SYMBOL[_GPL], and the
 * namespace, empty for all ("module:kvm,kvm-amd,kvm-intel" names the
 * only modules that may link it).  A tree without one exports nothing
 * we can count on.
 */
static void find_exports(const char *kdir, struct strbuf *defines)
{
	char path[4096 + 16], *line = NULL, *f[5], *p, *tab;
	unsigned int i, n, found = 0;
	size_t cap = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/Module.symvers", kdir);
	fp = fopen(path, "r");
	if (!fp)
		return;
	while (getline(&line, &cap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		for (n = 0, p = line; n < 5; p = tab + 1) {
			f[n++] = p;
			tab = strchr(p, '\t');
			if (!tab)
				break;
			*tab = '\0';
		}
		if (n < 4 || strncmp(f[3], "EXPORT_SYMBOL", 13) ||
		    (n == 5 && f[4][0]))
			continue;
		for (i = 0; i < NEXPORTS; i++)
			if (!(found & (1u << i)) &&
			    !strcmp(f[1], exports[i].symbol)) {
				strbuf__printf(defines, "#define %s 1\n",
					       exports[i].macro);
				found |= 1u << i;
			}
	}
	free(line);
	fclose(fp);
}

int kconf__probe(const struct cmdline *cl, const char *kdir,
		 struct strbuf *defines, char *why, size_t why_size)
{
	const char *make = getenv("STAP_PERFCTR_MAKE");
	struct strbuf found = { 0 };
	char name[32], lock[40], retry[40];
	int err, lock_fd;

	if (!make || !*make)
		make = "make";
	snprintf(name, sizeof(name), "kconf-%016llx",
		 (unsigned long long)cache_key(cl, kdir, make));
	snprintf(lock, sizeof(lock), "%s.lock", name);
	/* (no lock where the directory is not ours: only repeated work) */
	lock_fd = outdir__lock(lock);
	if (outdir__recall(name, &found) == 0) {
		err = 0;
	} else {
		strbuf__add(&found, "", 0);
		err = compile(cl, kdir, make, &found, why, why_size);
		if (err == -EAGAIN) {
			snprintf(retry, sizeof(retry), "%s.retry", name);
			outdir__keep(retry, why, strlen(why));
			found.len = 0;
			strbuf__add(&found, "", 0);
			err = compile(cl, kdir, make, &found, why, why_size);
		}
		if (err == -EAGAIN)
			err = -EIO;
		if (!err)
			find_exports(kdir, &found);
		/* a cache that cannot be written costs a compile next time */
		if (!err)
			outdir__keep(name, found.buf ? found.buf : "",
				     found.len);
	}
	if (lock_fd >= 0)
		close(lock_fd);
	/* the runtime guesses by version only where this line is missing */
	if (!err)
		strbuf__printf(defines, "#define PERFCTR_KCONF 1\n%.*s",
			       (int)found.len, found.buf ? found.buf : "");
	strbuf__free(&found);
	return err;
}
