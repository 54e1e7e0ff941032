/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_json.h - a string as a JSON string, cut to fit a buffer: the
 * end-of-run report's (perfctr_report.c), whose lines must parse however
 * long a source path or an event name is.  Pure C, no kernel or libc
 * call: testsuite/unit/runtime/test-json.c runs it on the host.
 */
#ifndef PERFCTR_JSON_H
#define PERFCTR_JSON_H

/* Bytes c takes in a JSON string: \" \\ \u00XX, or itself. */
static inline unsigned int perfctr_json_char_len(unsigned char c)
{
	return c == '"' || c == '\\' ? 2 : c < 0x20 ? 6 : 1;
}

/*
 * s as a JSON string in buf, quotes included, at most len bytes with its
 * NUL (len >= 8).  A string too long loses its start, not its end, and
 * begins "...": a source position keeps its file's name and its line.
 */
static inline void perfctr_json_str(char *buf, unsigned long len,
				    const char *s)
{
	static const char hex[] = "0123456789abcdef";
	unsigned long need = 2, n = 0;
	const char *p;

	for (p = s; *p; p++)
		need += perfctr_json_char_len(*p);
	buf[n++] = '"';
	if (need + 1 > len) {
		buf[n++] = '.';
		buf[n++] = '.';
		buf[n++] = '.';
		need += 3;
		while (*s && need + 1 > len)
			need -= perfctr_json_char_len(*s++);
	}
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			buf[n++] = '\\';
			buf[n++] = c;
		} else if (c < 0x20) {
			buf[n++] = '\\';
			buf[n++] = 'u';
			buf[n++] = '0';
			buf[n++] = '0';
			buf[n++] = hex[c >> 4];
			buf[n++] = hex[c & 15];
		} else {
			buf[n++] = c;
		}
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

#endif /* PERFCTR_JSON_H */
