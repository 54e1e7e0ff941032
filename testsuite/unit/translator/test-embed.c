// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-embed.c - the runtime's C embedded in the generated tapset
 * (translator/embed.c): a made-up runtime's includes expanded in place,
 * wherever they are (the preprocessor reads an include under a false #if
 * as none), but once for a guarded file that went in unconditionally;
 * what cannot be embedded refused with file:line; the real runtime
 * (top_srcdir/runtime) leaves no quoted include behind, holds each of
 * perfctr.h's headers once, and comes out the same twice.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embed.h"
#include "tap.h"

static char dir[] = "/tmp/test-embed.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static void clean(void)
{
	static const char *const names[] = { "perfctr.h", "perfctr.c",
		"a.c", "b.c", "t.c", "x.h", "y.h", NULL };
	char path[PATH_MAX];
	int i;

	for (i = 0; names[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
}

/* Where needle is in hay, or -1. */
static long at(const char *hay, const char *needle)
{
	const char *p = hay ? strstr(hay, needle) : NULL;

	return p ? p - hay : -1;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while (hay && (hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void made_up(void)
{
	struct runtime_text rt;
	char why[PATH_MAX + 128];
	const char *b;

	put("perfctr.h", "#ifndef H\n#define H\n#include <linux/cpu.h>\n"
	    "  #  include \"x.h\"\t/* flags */\nint h;\n#endif\n");
	put("x.h", "int x;");
	put("perfctr.c", "#include \"a.c\"\nint c;\n#include \"b.c\"\n");
	put("a.c", "#include \"perfctr.h\"\n#ifdef X\n#include \"t.c\"\n"
	    "#endif\nint a;\n");
	put("b.c", "#include \"t.c\"\nint b;\n");
	put("t.c", "#ifndef T\n#define T\nint t;\n#endif\n");
	ok(embed__runtime(dir, &rt, why, sizeof(why)) == 0,
	   "a made-up runtime embeds");
	ok(rt.head.buf && at(rt.head.buf, "#include <linux/cpu.h>\n") > 0 &&
	   at(rt.head.buf, "/* runtime: x.h */\nint x;\nint h;\n") > 0 &&
	   !strstr(rt.head.buf, "#include \""),
	   "the header: a kernel include kept, its own include (blanks, a "
	   "comment after) replaced by the file, a newline added");
	b = rt.body.buf;
	ok(b && count(b, "int t;") == 2 && count(b, "int h;") == 0 &&
	   strstr(b, "/* runtime: a.c */\n"
		  "/* runtime: perfctr.h, above */\n") &&
	   at(b, "#ifdef X\n/* runtime: t.c */\n#ifndef T\n") > 0 &&
	   at(b, "int t;") < at(b, "int a;") && at(b, "int a;") <
	   at(b, "int c;") && at(b, "int c;") < at(b, "int b;") &&
	   strstr(b, "int c;\n/* runtime: b.c */\n/* runtime: t.c */\n") &&
	   !strstr(b, "#include \""),
	   "the body: each file wherever it is included, in order (an "
	   "include under an #if, then again where the guard decides), "
	   "the head's guarded header not again");
	embed__free(&rt);

	put("perfctr.h", "/* head */\n#ifndef H\n#define H\n"
	    "#include \"y.h\"\n#ifdef K\n#include \"t.c\"\n#endif\n"
	    "#endif\nint after;\n");
	put("y.h", "// y\n#ifndef Y\n#define Y\nint y;\n#endif /* Y */\n\n");
	put("a.c", "#include \"perfctr.h\"\n#include \"y.h\"\n"
	    "#include \"t.c\"\nint a;\n");
	ok(embed__runtime(dir, &rt, why, sizeof(why)) == 0 &&
	   count(rt.head.buf, "int y;") == 1 &&
	   count(rt.body.buf, "int y;") == 0 &&
	   count(rt.body.buf, "/* runtime: y.h, above */") == 2 &&
	   count(rt.body.buf, "int after;") == 1 &&
	   count(rt.body.buf, "int t;") == 2 &&
	   count(rt.body.buf, "/* runtime: t.c, above */") == 1,
	   "again: a guarded header the head holds (comments around its "
	   "guard) goes in once; a header with text after its guard goes "
	   "in at each include, and so does one under an #if until an "
	   "include under none");
	embed__free(&rt);
	put("perfctr.h", "#ifndef H\n#define H\n#include <linux/cpu.h>\n"
	    "  #  include \"x.h\"\t/* flags */\nint h;\n#endif\n");
	put("a.c", "#include \"perfctr.h\"\n#ifdef X\n#include \"t.c\"\n"
	    "#endif\nint a;\n");

	put("b.c", "int b;\n#include \"sub/t.c\"\n");
	ok(embed__runtime(dir, &rt, why, sizeof(why)) < 0 &&
	   strstr(why, "/b.c:2: ") && strstr(why, "own directory"),
	   "an include of another directory refused at its line: %s", why);
	put("b.c", "int b;\n\n#include \"gone.c\"\n");
	ok(embed__runtime(dir, &rt, why, sizeof(why)) < 0 &&
	   strstr(why, "/b.c:3: cannot read gone.c: No such file or directory"),
	   "a missing file refused where it is included: %s", why);
	put("b.c", "int b;\n/* %} */\n");
	ok(embed__runtime(dir, &rt, why, sizeof(why)) < 0 &&
	   strstr(why, "/b.c:2: holds \"%}\""),
	   "a file holding %%} refused (it would end the embedded C): %s",
	   why);
	put("b.c", "#include \"b.c\"\n");
	ok(embed__runtime(dir, &rt, why, sizeof(why)) == 0 &&
	   count(rt.body.buf, "/* runtime: b.c */") == 1,
	   "a file that includes itself goes in once");
	embed__free(&rt);
}

static void real_runtime(void)
{
	const char *top = getenv("top_srcdir");
	struct runtime_text one, two;
	char rdir[PATH_MAX], why[PATH_MAX + 128];
	int ok1, ok2;

	snprintf(rdir, sizeof(rdir), "%s/runtime", top ? top : ".");
	ok1 = embed__runtime(rdir, &one, why, sizeof(why)) == 0;
	ok(ok1, "the runtime embeds (%s)", ok1 ? rdir : why);
	ok2 = embed__runtime(rdir, &two, why, sizeof(why)) == 0;
	if (!ok1 || !ok2)
		return;
	ok(!strstr(one.head.buf, "#include \"") &&
	   !strstr(one.body.buf, "#include \"") &&
	   !strstr(one.head.buf, rdir) && !strstr(one.body.buf, rdir),
	   "no quoted include left, and no path of this tree");
	ok(count(one.head.buf, "/* runtime: perfctr.h */") == 1 &&
	   count(one.body.buf, "/* runtime: perfctr_taskmap.c */") == 2 &&
	   count(one.body.buf, "/* runtime: perfctr_assign.c */") == 1 &&
	   count(one.body.buf, "/* runtime: perfctr.h */") == 0 &&
	   count(one.body.buf, "/* runtime: perfctr.h, above */") == 1 &&
	   strstr(one.body.buf, "perfctr_start("),
	   "perfctr.h in the head; perfctr.c in the body with what it "
	   "includes where it includes it (perfctr_taskmap.c from both its "
	   "includers, under #ifs), perfctr.h not again");
	ok(count(one.head.buf, "/* runtime: perfctr_flags.h */") == 1 &&
	   count(one.head.buf, "/* runtime: perfctr_payload.h */") == 1 &&
	   count(one.head.buf, "/* runtime: perfctr_readerr.h */") == 1 &&
	   !strstr(one.body.buf, "/* runtime: perfctr_flags.h */") &&
	   !strstr(one.body.buf, "/* runtime: perfctr_payload.h */") &&
	   !strstr(one.body.buf, "/* runtime: perfctr_attr.h */") &&
	   !strstr(one.body.buf, "/* runtime: perfctr_readerr.h */"),
	   "the headers perfctr.h holds once, in the head (perfctr_flags.h "
	   "and perfctr_payload.h not again from perfctr_priv_rule.h)");
	ok(one.head.len == two.head.len && one.body.len == two.body.len &&
	   !memcmp(one.head.buf, two.head.buf, one.head.len) &&
	   !memcmp(one.body.buf, two.body.buf, one.body.len),
	   "the same text twice (stap's module cache hits)");
	embed__free(&one);
	embed__free(&two);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	made_up();
	real_runtime();
	clean();
	rmdir(dir);
	return tap_done();
}
