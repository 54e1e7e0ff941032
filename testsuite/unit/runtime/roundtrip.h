/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * roundtrip.h - an assignment as plain numbers, between the helper's
 * writer (roundtrip-write.c, with the helper's headers) and the module's
 * parser (test-assign-roundtrip.c, with the runtime's): the two sets of
 * headers cannot meet in one file.
 */
#ifndef ROUNDTRIP_H
#define ROUNDTRIP_H

#include <stddef.h>

#define RT_COUNTERS 16
#define RT_SOCKETS 8
#define RT_CORES 4

struct rt_enc {
	unsigned int type;
	unsigned long long config, config1, config2;
};

struct rt_counter {
	int present;
	struct rt_enc enc;
	unsigned int flags;
	unsigned long long mult;	/* 0: no unit record */
	unsigned int shift;
	char unit[16];
	unsigned int nsock;
	int sock[RT_SOCKETS];
	unsigned int ncore;
	struct rt_enc core[RT_CORES];
	char cpus[RT_CORES][64];	/* each core record's CPU list */
};

struct rt_assign {
	const char *hash;
	unsigned int n;
	struct rt_counter c[RT_COUNTERS];
	int group_leader;		/* -1: no group record */
	unsigned int fd0, ncpu;
};

/* a's records, as perfctr-run writes them (helper/assign.c), into buf:
 * the hash, then each counter's record, unit, sockets and CPU records,
 * then the group's.  Returns 0 or a negative errno. */
int rt_write(const struct rt_assign *a, char *buf, size_t len);

#endif /* ROUNDTRIP_H */
