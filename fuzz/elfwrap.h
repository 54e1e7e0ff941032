/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elfwrap.h - a well-formed relocatable ELF object (x86_64) whose only
 * section besides .shstrtab is a .modinfo with the given bytes: how the
 * harnesses hand a table to perfctr_modtab__read.
 */
#ifndef FUZZ_ELFWRAP_H
#define FUZZ_ELFWRAP_H

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char elfwrap_shstrtab[] = "\0.modinfo\0.shstrtab";	/* with its NUL */

/* ELF header, .modinfo's bytes, .shstrtab, then the section headers
 * (null, .modinfo, .shstrtab), as a linker leaves a relocatable object. */
static inline void *elfwrap(const uint8_t *data, size_t size, size_t *len)
{
	size_t info_off = sizeof(Elf64_Ehdr), str_off = info_off + size;
	size_t sh_off = (str_off + sizeof(elfwrap_shstrtab) + 7) & ~(size_t)7;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	char *buf;

	*len = sh_off + 3 * sizeof(Elf64_Shdr);
	buf = calloc(1, *len);
	if (!buf)
		abort();
	eh = (Elf64_Ehdr *)buf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_shoff = sh_off;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = 3;
	eh->e_shstrndx = 2;
	if (size)
		memcpy(buf + info_off, data, size);
	memcpy(buf + str_off, elfwrap_shstrtab, sizeof(elfwrap_shstrtab));
	sh = (Elf64_Shdr *)(buf + sh_off);
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_flags = SHF_ALLOC;
	sh[1].sh_offset = info_off;
	sh[1].sh_size = size;
	sh[1].sh_addralign = 1;
	sh[2].sh_name = 10;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = str_off;
	sh[2].sh_size = sizeof(elfwrap_shstrtab);
	sh[2].sh_addralign = 1;
	return buf;
}

#endif /* FUZZ_ELFWRAP_H */
