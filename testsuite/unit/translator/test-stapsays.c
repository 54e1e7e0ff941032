// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-stapsays.c - which of stap's messages go before ours, as stap
 * 4.8 prints them: its parse and semantic errors, with our copy of the
 * script named and quoted as the user's; not its warnings, tips, pass
 * lines, summaries or complaints about the machine, nor errors in our
 * tapsets.
 */
#include <stdlib.h>
#include <string.h>

#include "stapsays.h"
#include "tap.h"

static const char stap_err[] =
	"Checking \"/lib/modules/6.1.0/build/.config\" failed with error: "
	"No such file or directory\n"
	"WARNING: Kernel function symbol table missing [man warning::symbols]\n"
	"parse error: expected literal string or number\n"
	"        saw: operator '*' at /sd/H/t.stp:1:22\n"
	"     source: probe begin { x = 1 +* 2 }                   \n"
	"                                  ^\n"
	"\n"
	"semantic error: unresolved function __perfctr_read_event: identifier "
	"'__perfctr_read_event' at /usr/share/x/tapset/perfctr.stp:70:63\n"
	"        source: function perfctr_read_event:long (event:string) { ... }\n"
	"\n"
	"semantic error: unresolved function foo: identifier 'foo' at "
	"/sd/H/t.stp:2:15\n"
	"        source: probe begin { foo() }\n"
	"                              ^\n"
	"\n"
	"2 parse errors.\n"
	"Pass 1: parse failed.  [man error::pass1]\n"
	"Tip: /usr/share/doc/systemtap/README.Debian should help you get "
	"started.\n";

int main(void)
{
	static const char *const hide[] = { "/usr/share/x/tapset", NULL };
	struct source src;
	struct spawn_map map = { "/sd/H/t.stp", "t.stp", &src };
	struct diag d;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	/* our copy: line 1 had a clause blanked after the probe */
	source__from_string(&src, SRC_FILE, "t.stp",
			    "probe begin { x = 1 +* 2 } probe perfctr.x {}\n"
			    "probe begin { foo() }\n", -1);
	source__blank(&src, 27, 18);
	diag__init(&d, f);
	is_int(stapsays__relay(stap_err, sizeof(stap_err) - 1, &map, hide, &d),
	       2, "two of stap's errors passed on");
	fclose(f);
	is_str(out, "parse error: expected literal string or number\n"
	       "        saw: operator '*' at t.stp:1:22\n"
	       "     source: probe begin { x = 1 +* 2 } probe perfctr.x {}\n"
	       "                                  ^\n"
	       "\n"
	       "semantic error: unresolved function foo: identifier 'foo' at "
	       "t.stp:2:15\n"
	       "        source: probe begin { foo() }\n"
	       "                              ^\n"
	       "\n",
	       "in stap's order and layout, the user's file named and quoted; "
	       "no warning, tip, summary or error in a hidden tapset");
	ok(d.errors == 2 && d.by_kind[DIAG_PARSE] == 1 &&
	   d.by_kind[DIAG_SEMANTIC] == 1, "counted by kind with ours");
	free(out);

	out = NULL;
	f = open_memstream(&out, &len);
	diag__init(&d, f);
	is_int(stapsays__relay(stap_err, sizeof(stap_err) - 1, NULL, hide, &d),
	       2, "no copy (-e): passed on as stap printed them");
	fclose(f);
	like(out, "saw: operator '*' at /sd/H/t.stp:1:22\n     source: probe "
	     "begin { x = 1 +* 2 }                   \n", "unmapped");
	free(out);
	source__free(&src);
	return tap_done();
}
