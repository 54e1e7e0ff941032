// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * holders.c - libFuzzer harness: the reader of what loaded perfctr
 * modules hold (perfctr_holders__read, helper/dump_holders.c), which
 * --dump-counters and perfctr-run's refusals use.  The input is a
 * module's two read-only parameters: perfctr_requests (its perfctr_req
 * values, one a line), a NUL byte, then perfctr_assign (the records,
 * docs/design.md); without a NUL there is no perfctr_assign file.  They
 * are written under a private sysfs root each time.
 *
 * Promises: 1 holder (or -ENOMEM); a holder without a problem has
 * well-formed requests in index order, each with its encoding, and an
 * assign hash that is its requests' table hash; a holder with a problem
 * says what it is and has no encodings.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libperfctr.h"
#include "tabcheck.h"

static char root[64], dir[128];

static void cleanup(void)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/perfctr_requests", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/perfctr_assign", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/module/fuzz_mod", root);
	rmdir(dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/module", root);
	rmdir(path);
	rmdir(root);
}

static void setup(void)
{
	char path[192];

	snprintf(root, sizeof(root), "%s/fuzz-holders.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	atexit(cleanup);
	snprintf(path, sizeof(path), "%s/module", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/module/fuzz_mod", root);
	mkdir(path, 0700);
	snprintf(dir, sizeof(dir), "%s/parameters", path);
	if (mkdir(dir, 0700))
		abort();
}

static void put(const char *name, const void *data, size_t size)
{
	char path[192];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

static void check_holder(const struct perfctr_holder *h)
{
	char want[17];
	unsigned int i;

	TABCHECK(h->module && !strcmp(h->module, "fuzz_mod"));
	for (i = 0; i < h->n; i++)
		tabcheck_request(&h->reqs[i]);
	if (h->problem) {
		TABCHECK(h->problem[0] && !h->encs);
		return;
	}
	TABCHECK(h->encs || !h->n);
	for (i = 1; i < h->n; i++)
		TABCHECK(h->reqs[i].idx > h->reqs[i - 1].idx);
	TABCHECK(tabcheck_hash(h->hash));
	TABCHECK(perfctr_table__hash(h->reqs, h->n, want) == 0 &&
		 !strcmp(want, h->hash));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	struct perfctr_holder *hs;
	char path[192];
	int n;

	if (!root[0])
		setup();
	put("perfctr_requests", data, nul ? (size_t)(nul - data) : size);
	snprintf(path, sizeof(path), "%s/perfctr_assign", dir);
	if (nul)
		put("perfctr_assign", nul + 1, size - (nul + 1 - data));
	else
		unlink(path);
	n = perfctr_holders__read(root, &hs);
	TABCHECK(n == 1 || n == -ENOMEM);
	if (n == 1) {
		check_holder(&hs[0]);
		perfctr_holders__free(hs, n);
	}
	return 0;
}
