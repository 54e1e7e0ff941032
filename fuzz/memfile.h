/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memfile.h - a file in memory for the harnesses whose code under test
 * takes a path (perfctr_modtab__read opens the module itself): one memfd
 * per process, rewritten with each input, named by /proc/self/fd/N.
 */
#ifndef FUZZ_MEMFILE_H
#define FUZZ_MEMFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct memfile {
	int fd;
	char path[32];
};

/* Returns the path of a regular file holding exactly data[0..size). */
static inline const char *memfile__set(struct memfile *f, const void *data,
				       size_t size)
{
	if (!f->path[0]) {
		f->fd = memfd_create("fuzz", MFD_CLOEXEC);
		if (f->fd < 0)
			abort();
		snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
	}
	if (ftruncate(f->fd, 0) ||
	    (size && pwrite(f->fd, data, size, 0) != (ssize_t)size))
		abort();
	return f->path;
}

#endif /* FUZZ_MEMFILE_H */
