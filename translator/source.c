// SPDX-License-Identifier: GPL-2.0-or-later
/* source.c - loading script text and blanking parts of it. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source.h"

/* Script files are small; refuse absurd ones instead of exhausting memory. */
#define SOURCE_MAX (64u << 20)

int source__load_fd(struct source *src, int fd, const char *name)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nbuf;

			if (cap >= SOURCE_MAX) {
				free(buf);
				return -EFBIG;
			}
			nbuf = realloc(buf, cap *= 2);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	memset(src, 0, sizeof(*src));
	src->text = buf;
	src->len = len;
	src->name = name;
	src->argv_index = -1;
	return 0;
}

int source__load_file(struct source *src, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = source__load_fd(src, fd, path);
	close(fd);
	if (!err)
		src->origin = SRC_FILE;
	return err;
}

int source__from_string(struct source *src, enum source_origin origin,
			const char *name, const char *text, int argv_index)
{
	memset(src, 0, sizeof(*src));
	src->text = strdup(text);
	if (!src->text)
		return -ENOMEM;
	src->len = strlen(text);
	src->origin = origin;
	src->name = name;
	src->argv_index = argv_index;
	return 0;
}

void source__free(struct source *src)
{
	free(src->text);
	free(src->as_read);
	src->text = src->as_read = NULL;
}

static const char *line_of(const char *p, size_t n, int line, size_t *len)
{
	const char *end = p + n, *eol;

	while (--line > 0 && p < end) {
		p = memchr(p, '\n', end - p);
		if (!p)
			p = end;
		else
			p++;
	}
	eol = memchr(p, '\n', end - p);
	*len = (eol ? eol : end) - p;
	return p;
}

const char *source__line(const struct source *src, int line, size_t *len)
{
	return line_of(source__as_read(src), src->len, line, len);
}

const char *source__line_now(const struct source *src, int line, size_t *len)
{
	return line_of(src->text, src->len, line, len);
}

/* Keeps the text as read before the first rewrite: a message about a
 * blanked clause still quotes it.  Without memory, messages show blanks. */
static void keep_as_read(struct source *src)
{
	if (!src->as_read && (src->as_read = malloc(src->len + 1)))
		memcpy(src->as_read, src->text, src->len + 1);
}

void source__write(struct source *src, size_t off, const char *text)
{
	size_t n = strlen(text);

	keep_as_read(src);
	if (off + n <= src->len) {
		memcpy(src->text + off, text, n);
		src->changed = 1;
	}
}

void source__blank(struct source *src, size_t off, size_t len)
{
	size_t i;

	keep_as_read(src);
	for (i = off; i < off + len && i < src->len; i++)
		if (src->text[i] != '\n')
			src->text[i] = ' ';
	src->changed = 1;
}
