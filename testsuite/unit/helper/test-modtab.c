/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-modtab.c - the request table read from real ELF objects that the
 * build's compiler makes here (.modinfo entries as MODULE_INFO() writes
 * them), and from corrupt, truncated and hostile files.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "libperfctr.h"
#include "tap.h"
#include "util.h"

#define INFO "#define INFO(tag, s) static const char tag[] " \
	"__attribute__((section(\".modinfo\"), used, aligned(1))) = s\n"
#define TABLE(n) "INFO(t, \"perfctr_table=v=1;n=" #n ";hash=0123456789abcdef;priv=stapusr\");\n"
#define REQ(tag, idx, id, ev) \
	"INFO(" tag ", \"perfctr_req=idx=" #idx ";id=" id ";event=" ev \
	";plm=uk;src=x.stp:" #idx ":1\");\n"

static char err[1024];

/* Compiles source to NAME.ko and reads it back. */
static int read_src(const char *name, const char *source, struct perfctr_modtab *tab)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "%s.ko", name);
	if (test_compile(rel, source))
		test_die("compile");
	err[0] = '\0';
	return perfctr_modtab__read(test_path(rel), tab, err, sizeof(err));
}

static void good(void)
{
	struct perfctr_modtab tab;
	int ret;

	ret = read_src("good", INFO "INFO(l, \"license=GPL\");\n" TABLE(3)
		       REQ("b", 2, "pf", "page-faults")
		       "INFO(v, \"vermagic=6.1.0 SMP\");\n"
		       REQ("a", 0, "tc", "cpu/event%3D0xc0%2Cumask%3D1/u"), &tab);
	is_int(ret, 0, "a module with a table: %s", err);
	is_int(tab.version, 1, "version");
	is_int(tab.n_declared, 3, "n declared");
	is_str(tab.hash, "0123456789abcdef", "hash");
	is_str(tab.priv, "stapusr", "privilege");
	is_int(tab.n, 2, "two requests present (one conditioned out)");
	is_int(tab.throttle, 0, "no throttle key: the kernel throttles nothing");
	if (tab.n == 2) {
		is_int(tab.reqs[0].idx, 0, "sorted by index");
		is_str(tab.reqs[0].id, "tc", "id");
		is_str(tab.reqs[0].event, "cpu/event=0xc0,umask=1/u", "event percent-decoded");
		is_int(tab.reqs[0].plm, PERFCTR_PLM_ALL, "plm");
		is_str(tab.reqs[0].src, "x.stp:0:1", "src");
		is_int(tab.reqs[1].idx, 2, "second index");
		is_str(tab.reqs[1].event, "page-faults", "second event");
	}
	perfctr_modtab__free(&tab);
	ok(tab.reqs == NULL && tab.n == 0, "free clears the table");
	perfctr_modtab__free(&tab);	/* twice is harmless */

	/* stap -D PERFCTR_SAMPLE_THROTTLE's mark (runtime/perfctr.h) */
	ret = read_src("throttle", INFO "INFO(t, \"perfctr_table=v=1;n=1;hash="
		       "0123456789abcdef;priv=stapusr;" PERFCTR_TABLE_THROTTLE_KEY
		       "=1\");\n" REQ("a", 0, "c", "cycles"), &tab);
	ok(ret == 0 && tab.throttle == 1 && tab.n == 1,
	   "the throttle key is read (%d: %s)", ret, err);
	perfctr_modtab__free(&tab);
	ret = read_src("plain", INFO "INFO(l, \"license=GPL\");\n", &tab);
	ok(ret == 0 && tab.version == 0 && tab.n == 0, "no table: version 0");
	ret = read_src("nomodinfo", "int x = 1;\n", &tab);
	ok(ret == 0 && tab.version == 0 && tab.n == 0, "no .modinfo at all: version 0");
	ret = read_src("empty", INFO TABLE(2), &tab);
	ok(ret == 0 && tab.version == 1 && tab.n_declared == 2 && tab.n == 0,
	   "a table whose counters were all conditioned out");
	perfctr_modtab__free(&tab);
	/* The last entry without its NUL is read within the section. */
	ret = read_src("unterminated", INFO TABLE(1)
		       "__asm__(\".section .modinfo,\\\"a\\\"\\n"
		       ".ascii \\\"perfctr_req=idx=0;id=c;event=cycles;plm=u;src=s\\\"\\n"
		       ".previous\");\n", &tab);
	ok(ret == 0 && tab.n == 1 && !strcmp(tab.reqs[0].src, "s"),
	   "last entry without NUL: read within bounds (%s)", err);
	perfctr_modtab__free(&tab);
}

/*
 * A module signed as the kernel's build signs one, or a compile server
 * for a Secure Boot machine (the kernel build tree's scripts/sign-file,
 * here with a throwaway key): the signature and its trailer are appended
 * after the ELF, which is read as before.
 */
static void sign(const char *ko)
{
	const char *kb = getenv("KERNEL_BUILD");
	char tool[512], cmd[4096];
	static const char magic[] = "~Module signature appended~\n";
	struct perfctr_modtab tab;
	size_t plain, len;
	char *text;
	int ret;

	snprintf(tool, sizeof(tool), "%s/scripts/sign-file", kb ? kb : "");
	if (!kb || !*kb || access(tool, X_OK) != 0 ||
	    system("command -v openssl >/dev/null") != 0) {
		ok(1, "# SKIP no kernel build tree with scripts/sign-file, or "
		   "no openssl (KERNEL_BUILD=%s)", kb ? kb : "");
		return;
	}
	free(test_read(test_path(ko), &plain));
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && openssl req -new -nodes "
		 "-utf8 -sha256 -days 1 -batch -x509 -subj '/CN=perfctr test' "
		 "-outform PEM -out '%s' -keyout '%s' >/dev/null 2>&1 && "
		 "'%s' sha256 '%s' '%s' '%s'", test_path(ko),
		 test_path("signed.ko"), test_path("cert.pem"),
		 test_path("key.pem"), tool, test_path("key.pem"),
		 test_path("cert.pem"), test_path("signed.ko"));
	ok(system(cmd) == 0, "sign-file signs a copy of %s", ko);
	text = test_read(test_path("signed.ko"), &len);
	ok(text && len > plain + sizeof(magic) &&
	   !memcmp(text + len - (sizeof(magic) - 1), magic, sizeof(magic) - 1),
	   "the signature is appended (%zu bytes to %zu)", plain, len);
	free(text);
	ret = perfctr_modtab__read(test_path("signed.ko"), &tab, err,
				   sizeof(err));
	ok(ret == 0 && tab.version == 1 && tab.n == 2 &&
	   !strcmp(tab.hash, "0123456789abcdef") &&
	   !strcmp(tab.reqs[0].id, "tc") && !strcmp(tab.reqs[1].id, "pf"),
	   "the signed module's table is read as the unsigned one's (%d: %s)",
	   ret, err);
	perfctr_modtab__free(&tab);
}

static const struct {
	const char *name, *source, *msg;
	int ret;
} bad[] = {
	{ "notable", INFO REQ("a", 0, "c", "cycles"),
	  "perfctr_req entries without a perfctr_table entry", -EINVAL },
	{ "dupidx", INFO TABLE(2) REQ("a", 0, "c", "cycles") REQ("b", 0, "d", "cycles"),
	  "two perfctr_req entries with index 0", -EINVAL },
	{ "bigidx", INFO TABLE(3) REQ("a", 3, "c", "cycles"),
	  "counter \\\"c\\\" has index 3, but the table declares 3", -EINVAL },
	{ "dupid", INFO TABLE(2) REQ("a", 0, "c", "cycles") REQ("b", 1, "c", "cycles"),
	  "two perfctr_req entries for counter \\\"c\\\"", -EINVAL },
	{ "twotables", INFO TABLE(1) "INFO(u, \"perfctr_table=v=1;n=1;hash=0123456789abcdef;priv=stapusr\");\n",
	  "more than one perfctr_table entry", -EINVAL },
	{ "version2", INFO "INFO(t, \"perfctr_table=v=2;n=1;hash=0123456789abcdef;priv=stapusr\");\n",
	  "perfctr_table version 2; this perfctr-run reads version 1", -EINVAL },
	{ "toomany", INFO "INFO(t, \"perfctr_table=v=1;n=513;hash=0123456789abcdef;priv=stapusr\");\n",
	  "declares 513 counters (at most 512)", -EINVAL },
	{ "priv", INFO "INFO(t, \"perfctr_table=v=1;n=1;hash=0123456789abcdef;priv=root\");\n",
	  "unknown privilege \\\"root\\\"", -EINVAL },
	{ "hash", INFO "INFO(t, \"perfctr_table=v=1;n=1;hash=0123456789ABCDEF;priv=stapusr\");\n",
	  "field \\\"hash\\\" is not 16 lowercase hex digits", -EINVAL },
	{ "tablefields", INFO "INFO(t, \"perfctr_table=v=1;hash=0123456789abcdef;priv=stapusr\");\n",
	  "field \\\"n\\\" missing or out of order", -EINVAL },
	{ "escape", INFO TABLE(1) REQ("a", 0, "c%G1", "cycles"),
	  "field \\\"id\\\" has a bad %-escape in perfctr_req entry 1", -EINVAL },
	{ "escape2", INFO TABLE(1) REQ("a", 0, "c", "cyc%4"),
	  "field \\\"event\\\" has a bad %-escape", -EINVAL },
	{ "nul", INFO TABLE(1) REQ("a", 0, "c%00", "cycles"),
	  "bad %-escape", -EINVAL },
	{ "raw", INFO TABLE(1) REQ("a", 0, "c d", "cycles"),
	  "field \\\"id\\\" has a byte that should be escaped", -EINVAL },
	{ "cut", INFO TABLE(1)
	  "__asm__(\".section .modinfo,\\\"a\\\"\\n.ascii \\\"perfctr_req=idx=0;id=c\\\"\\n.previous\");\n",
	  "field \\\"event\\\" missing", -EINVAL },
	{ "twosections", INFO TABLE(1)
	  "__asm__(\".section .modinfo,\\\"a\\\",@progbits,unique,7\\n.asciz \\\"x=y\\\"\\n.previous\");\n",
	  "two .modinfo sections", -ENOEXEC },
};

static void corrupt_tables(void)
{
	struct perfctr_modtab tab;
	char want[256];
	const char *p;
	size_t i, k;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ret = read_src(bad[i].name, bad[i].source, &tab);
		is_int(ret, bad[i].ret, "%s: refused", bad[i].name);
		/* The messages above are C-escaped for the generated source. */
		for (p = bad[i].msg, k = 0; *p && k + 1 < sizeof(want); p++)
			if (!(p[0] == '\\' && p[1] == '"'))
				want[k++] = *p;
		want[k] = '\0';
		like(err, want, "%s: message", bad[i].name);
		like(err, "/", "%s: message names the file", bad[i].name);
		ok(tab.reqs == NULL && tab.n == 0, "%s: nothing left allocated", bad[i].name);
	}
}

static void many_requests(void)
{
	struct perfctr_modtab tab;
	char *src = malloc(600 * 120), *p = src;
	int i, ret;

	p += sprintf(p, INFO "INFO(t, \"perfctr_table=v=1;n=512;hash=0123456789abcdef;priv=stapsys\");\n");
	for (i = 0; i < 513; i++)
		p += sprintf(p, "INFO(r%d, \"perfctr_req=idx=%d;id=c%d;event=cycles;plm=uk;src=\");\n",
			     i, i % 512, i);
	ret = read_src("many", src, &tab);
	is_int(ret, -EINVAL, "513 requests: refused");
	like(err, "more than 512 perfctr_req entries", "513 requests: message");
	free(src);
}

static void not_modules(void)
{
	struct perfctr_modtab tab;

	test_write("text.ko", "this is not an ELF file\n");
	is_int(perfctr_modtab__read(test_path("text.ko"), &tab, err, sizeof(err)),
	       -ENOEXEC, "a text file: -ENOEXEC");
	like(err, "not an ELF object", "a text file: message");
	test_write("zero.ko", "");
	is_int(perfctr_modtab__read(test_path("zero.ko"), &tab, err, sizeof(err)),
	       -ENOEXEC, "an empty file: -ENOEXEC");
	is_int(perfctr_modtab__read(test_path("nowhere.ko"), &tab, err, sizeof(err)),
	       -ENOENT, "a missing file: -ENOENT");
	like(err, "No such file", "a missing file: message");
	is_int(perfctr_modtab__read(test_dir, &tab, err, sizeof(err)),
	       -ENOEXEC, "a directory: -ENOEXEC");
	if (mkfifo(test_path("fifo.ko"), 0600))
		test_die("mkfifo");
	is_int(perfctr_modtab__read(test_path("fifo.ko"), &tab, err, sizeof(err)),
	       -ENOEXEC, "a FIFO: -ENOEXEC, without waiting for a writer");
	is_int(perfctr_modtab__read(test_path("good.ko"), &tab, NULL, 0), 0,
	       "a NULL err buffer is allowed");
	perfctr_modtab__free(&tab);
}

/* An empty .modinfo: libelf gives no buffer at all (fuzz/regressions/
 * modtab_table/empty-section: arithmetic on that NULL). */
static void empty_section(void)
{
	struct perfctr_modtab tab;
	int ret;

	ret = read_src("emptysec", "__asm__(\".section .modinfo,\\\"a\\\",@progbits\\n\"\n"
		       "\"\t.previous\");\n", &tab);
	ok(ret == 0 && tab.version == 0 && tab.n == 0,
	   "an empty .modinfo: no table (%d: %s)", ret, err);
	perfctr_modtab__free(&tab);
}

/* Every prefix of a good module, and bytes of it flipped: never a
 * crash (valgrind watches the reads), never a table from a cut file. */
static void damaged(void)
{
	struct perfctr_modtab tab;
	size_t len, i, cut_ok = 0, flip_ok = 0, flips = 0;
	char *good = test_read(test_path("good.ko"), &len), *copy;
	unsigned int seed = 1;
	int ret;

	if (!good)
		test_die("good.ko");
	for (i = 0; i < len; i++) {
		test_write_len("cut.ko", good, i);
		ret = perfctr_modtab__read(test_path("cut.ko"), &tab, err, sizeof(err));
		cut_ok += ret == -ENOEXEC || (ret == 0 && tab.version == 0) || ret == -EINVAL;
		perfctr_modtab__free(&tab);
	}
	is_int(cut_ok, len, "all %zu truncations refused or tableless", len);
	copy = malloc(len);
	for (i = 0; i < 1000; i++) {
		memcpy(copy, good, len);
		/* Flip a few bytes, mostly in the headers where it hurts. */
		for (int k = 0; k < 4; k++) {
			size_t at = rand_r(&seed) % (k ? len : 64);

			copy[at] ^= 1 + rand_r(&seed) % 255;
		}
		test_write_len("flip.ko", copy, len);
		ret = perfctr_modtab__read(test_path("flip.ko"), &tab, err, sizeof(err));
		flips++;
		flip_ok += ret == 0 ? tab.n <= tab.n_declared && (tab.n == 0 || tab.reqs) :
			   ret == -ENOEXEC || ret == -EINVAL;
		perfctr_modtab__free(&tab);
	}
	is_int(flip_ok, flips, "%zu damaged copies: each read or refused cleanly", flips);
	free(copy);
	free(good);
}

int main(void)
{
	test_mkdtemp();
	good();
	sign("good.ko");
	corrupt_tables();
	many_requests();
	not_modules();
	empty_section();
	damaged();
	test_cleanup();
	return tap_done();
}
