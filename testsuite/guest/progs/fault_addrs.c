/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fault_addrs N - 2N page faults at addresses it prints, with the
 * physical address each faulting access found mapped.
 *
 * Pins itself to CPU 0.  Before the first marker: maps 2N fresh
 * anonymous pages (no huge pages), and a private mapping of an N-page
 * memfd whose pages it reads (each maps the file's page read-only), and
 * finds those pages' frames in /proc/self/pagemap (root only).  Between
 * the markers: a write to every other fresh page, highest first (N
 * faults on pages nothing maps: physical address 0), then a write to
 * each memfd page (N copy-on-write faults, each on a page that maps the
 * file's frame), each at an offset into the page that differs from
 * page to page; no other fault, no system call.  Then prints
 * "fault_addrs: 2N faults" and, per fault, "page VADDR PHYS" (hex, page
 * aligned; PHYS what the faulting access found mapped, 0 for none).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"

#define PAGE 4096ul
#define PROG "fault_addrs"

struct fault {
	uintptr_t addr;		/* where the write goes */
	uint64_t phys;		/* the frame mapped there before it */
};

/* The frame mapped at addr, from pagemap (bits 0-54; bit 63 present). */
static uint64_t frame_of(int pagemap, uintptr_t addr)
{
	uint64_t e;

	if (pread(pagemap, &e, sizeof(e), addr / PAGE * sizeof(e)) !=
	    sizeof(e))
		guest_fail(PROG, "pagemap");
	if (!(e >> 63) || !(e & ((1ull << 55) - 1))) {
		fprintf(stderr, PROG ": no frame in pagemap for %#lx (not "
			"root?)\n", (unsigned long)addr);
		exit(1);
	}
	return (e & ((1ull << 55) - 1)) * PAGE;
}

int main(int argc, char **argv)
{
	long n = guest_count_arg(PROG, "N", argv[1], 1), i;
	volatile char *anon, *file;
	struct fault *f;
	char *page;
	int fd, pagemap;

	(void)argc;
	guest_pin_cpu(0);
	anon = guest_fresh_pages(PROG, 2 * n);
	fd = memfd_create(PROG, 0);
	page = calloc(1, PAGE);
	f = calloc(2 * n, sizeof(*f));
	if (fd < 0 || !page || !f)
		guest_fail(PROG, "memfd, memory");
	for (i = 0; i < n; i++)
		if (write(fd, page, PAGE) != (ssize_t)PAGE)
			guest_fail(PROG, "write");
	file = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		    0);
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (file == MAP_FAILED || pagemap < 0)
		guest_fail(PROG, "mmap, pagemap");
	for (i = 0; i < n; i++) {
		(void)file[i * PAGE];
		f[i].addr = (uintptr_t)anon + (2 * n - 2 - 2 * i) * PAGE +
			    (i * 72) % PAGE;
		f[n + i].addr = (uintptr_t)file + i * PAGE + (i * 136) % PAGE;
		f[n + i].phys = frame_of(pagemap, (uintptr_t)file + i * PAGE);
	}

	guest_marker(MARK_START);
	for (i = 0; i < 2 * n; i++)
		*(volatile char *)f[i].addr = 1;
	guest_marker(MARK_END);

	printf(PROG ": %ld faults\n", 2 * n);
	for (i = 0; i < 2 * n; i++)
		printf("page %lx %llx\n", (unsigned long)(f[i].addr & ~(PAGE - 1)),
		       (unsigned long long)f[i].phys);
	return 0;
}
