// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-json.c - the end-of-run report's JSON strings (runtime/
 * perfctr_json.h), built in userspace: quotes, backslashes and control
 * characters escaped; a string too long for its buffer cut from the
 * left behind "...", never past the buffer, always a whole string (a
 * cut never splits an escape); each result read back by a small JSON
 * string reader to the text it stands for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfctr_json.h"
#include "tap.h"

/* The text a JSON string stands for (\uXXXX below 0x80 only), or NULL
 * when it is not one JSON string and nothing after. */
static char *json_read(const char *j)
{
	char *out = malloc(strlen(j) + 1), *o = out;
	unsigned int c;

	if (!out || *j++ != '"')
		goto bad;
	while (*j && *j != '"') {
		if ((unsigned char)*j < 0x20)
			goto bad;
		if (*j != '\\') {
			*o++ = *j++;
			continue;
		}
		j++;
		if (*j == '"' || *j == '\\' || *j == '/') {
			*o++ = *j++;
		} else if (*j == 'u' && sscanf(j + 1, "%4x", &c) == 1 &&
			   c < 0x80 && strlen(j) >= 5) {
			*o++ = c;
			j += 5;
		} else {
			goto bad;
		}
	}
	if (*j != '"' || j[1])
		goto bad;
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

static void check(const char *what, const char *s, unsigned long len,
		  const char *want)
{
	char buf[512], *text;

	memset(buf, 'X', sizeof(buf));
	perfctr_json_str(buf, len, s);
	is_str(buf, want, "%s: as JSON", what);
	ok(strlen(buf) + 1 <= len && buf[len] == 'X', "%s: within its %lu "
	   "bytes", what, len);
	text = json_read(buf);
	ok(text && (strncmp(want, "\"...", 4) ?
		    !strcmp(text, s) :
		    !strcmp(text + 3, s + strlen(s) - strlen(text + 3))),
	   "%s: reads back as %s", what, strncmp(want, "\"...", 4) ?
	   "the string" : "\"...\" and the string's end");
	free(text);
}

int main(void)
{
	check("plain", "x.stp:3:1", 64, "\"x.stp:3:1\"");
	check("empty", "", 8, "\"\"");
	check("quote and backslash", "a\"b\\c", 64, "\"a\\\"b\\\\c\"");
	check("control characters", "a\tb\nc\x1f", 64,
	      "\"a\\u0009b\\u000ac\\u001f\"");
	check("exactly fits", "abcdef", 9, "\"abcdef\"");
	check("one byte short: cut from the left", "abcdef", 8, "\"...ef\"");
	check("a long path keeps its end", "/a/very/long/dir/x.stp:12:5", 20,
	      "\"...dir/x.stp:12:5\"");
	check("a cut never splits an escape", "ab\"\"cd", 10, "\"...\\\"cd\"");
	check("a cut before control characters", "abcdef\n", 14,
	      "\"...ef\\u000a\"");
	check("the smallest buffer", "abcdefgh", 8, "\"...gh\"");
	return tap_done();
}
