/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfctr_payload.h - what a sample carries besides its registers, as a
 * sampling body reads it: the payloads a clause may ask the kernel for
 * (PERFCTR_PL_*), and the decoding of the raw values perf hands an
 * overflow handler into what a script aggregates on.  Pure C, any
 * context: the module (perfctr_sample.c), perfctr-run (helper/sample.c)
 * and the unit tests (testsuite/unit/runtime/test-payload.c, against the
 * uapi's own PERF_MEM_* macros and bit fields) share it.
 *
 * Data source (union perf_mem_data_src, uapi linux/perf_event.h): fields
 * taken with the uapi's shifts, decoded into the words perf mem prints:
 * a level ("L1 hit", "RAM miss", "L3 or Local RAM hit"), a TLB ("L1 or
 * L2 hit", "Walker miss"), a snoop ("HitM"), a lock ("Yes") and an
 * operation ("LOAD").  Where the newer level numbers (mem_lvl_num) are
 * set they name the level, as perf mem prefers them; else the older
 * mem_lvl bits, every one set, joined with " or ".
 *
 * Weight (union perf_sample_weight, PERF_SAMPLE_WEIGHT_STRUCT): the
 * 32-bit weight perf calls "weight" (load latency in cycles on Intel's
 * PEBS, AMD's IBS), and the 16-bit "ins_lat" above it.
 *
 * Branch records (struct perf_branch_entry): from, to, and the bit
 * fields after them, which a script gets as one number in the layout
 * the fields have on a little-endian machine (bit 0 mispred, 1
 * predicted, 2 in_tx, 3 abort, 4-19 cycles, 20-23 type, 24-25 spec,
 * 26-29 new_type, 30-32 priv): PERFCTR_BR_*.
 */
#ifndef PERFCTR_PAYLOAD_H
#define PERFCTR_PAYLOAD_H

#include <linux/perf_event.h>

/* What a sampling clause asks the kernel to record with each sample: the
 * request table's payload=, the sample_type bits of its attr
 * (perfctr_attr.h).  The sample's period and its event's count need
 * nothing: every overflow has them. */
#define PERFCTR_PL_ADDR		0x01u	/* PERF_SAMPLE_ADDR */
#define PERFCTR_PL_PHYS		0x02u	/* PERF_SAMPLE_PHYS_ADDR */
#define PERFCTR_PL_WEIGHT	0x04u	/* PERF_SAMPLE_WEIGHT_STRUCT */
#define PERFCTR_PL_SRC		0x08u	/* PERF_SAMPLE_DATA_SRC */
#define PERFCTR_PL_BRANCH	0x10u	/* PERF_SAMPLE_BRANCH_STACK */
#define PERFCTR_PL_CALLCHAIN	0x20u	/* PERF_SAMPLE_CALLCHAIN */
#define PERFCTR_PL_ALL		0x3fu

/* The frames a sample's call chain holds at most, kernel and user
 * together: perf's default perf_event_max_stack.  A sampling event that
 * records the chain asks for as many (sample_max_stack), which the
 * kernel refuses where the sysctl is set lower. */
#define PERFCTR_MAX_STACK	127

/* The values a sampling body reads, each by a function of the tapset
 * (arg: what its index counts, "" for a function that takes none), and
 * the payload the clause must have asked for (0: every sample has it). */
enum perfctr_pv {
	PERFCTR_PV_ADDR, PERFCTR_PV_PHYS, PERFCTR_PV_WEIGHT,
	PERFCTR_PV_INS_LAT, PERFCTR_PV_SRC, PERFCTR_PV_PERIOD,
	PERFCTR_PV_COUNT, PERFCTR_PV_BRANCHES, PERFCTR_PV_BR_FROM,
	PERFCTR_PV_BR_TO, PERFCTR_PV_BR_FLAGS, PERFCTR_PV_CALLCHAIN,
	PERFCTR_PV_KERNEL_FRAMES, PERFCTR_PV_IP, PERFCTR_PV_N
};

#define PERFCTR_PV_BRANCH_INDEX \
	"the index of a branch record, 0 to perfctr_sample_branches() - 1"
#define PERFCTR_PV_FRAME_INDEX \
	"the index of a frame, 0 (the innermost) to perfctr_sample_callchain() - 1"

static const struct perfctr_pv_desc {
	const char *fn;
	unsigned int bit;
	const char *arg;
} perfctr_pvs[PERFCTR_PV_N] = {
	[PERFCTR_PV_ADDR] = { "perfctr_sample_addr", PERFCTR_PL_ADDR, "" },
	[PERFCTR_PV_PHYS] = { "perfctr_sample_phys_addr", PERFCTR_PL_PHYS, "" },
	[PERFCTR_PV_WEIGHT] = { "perfctr_sample_weight", PERFCTR_PL_WEIGHT, "" },
	[PERFCTR_PV_INS_LAT] = { "perfctr_sample_ins_lat", PERFCTR_PL_WEIGHT, "" },
	[PERFCTR_PV_SRC] = { "perfctr_sample_data_src", PERFCTR_PL_SRC, "" },
	[PERFCTR_PV_PERIOD] = { "perfctr_sample_period", 0, "" },
	[PERFCTR_PV_COUNT] = { "perfctr_sample_count", 0, "" },
	[PERFCTR_PV_BRANCHES] = { "perfctr_sample_branches", PERFCTR_PL_BRANCH, "" },
	[PERFCTR_PV_BR_FROM] = { "perfctr_sample_branch_from", PERFCTR_PL_BRANCH,
				 PERFCTR_PV_BRANCH_INDEX },
	[PERFCTR_PV_BR_TO] = { "perfctr_sample_branch_to", PERFCTR_PL_BRANCH,
			       PERFCTR_PV_BRANCH_INDEX },
	[PERFCTR_PV_BR_FLAGS] = { "perfctr_sample_branch_flags", PERFCTR_PL_BRANCH,
				  PERFCTR_PV_BRANCH_INDEX },
	[PERFCTR_PV_CALLCHAIN] = { "perfctr_sample_callchain",
				   PERFCTR_PL_CALLCHAIN, "" },
	[PERFCTR_PV_KERNEL_FRAMES] = { "perfctr_sample_kernel_frames",
				       PERFCTR_PL_CALLCHAIN, "" },
	[PERFCTR_PV_IP] = { "perfctr_sample_ip", PERFCTR_PL_CALLCHAIN,
			    PERFCTR_PV_FRAME_INDEX },
};

/* Does payload function d take an index? */
#define perfctr_pv_indexed(d)	((d)->arg[0] != '\0')

/* Level numbers newer than some kernels' uapi (Linux 6.12's values). */
#ifndef PERF_MEM_LVLNUM_L2_MHB
#define PERF_MEM_LVLNUM_L2_MHB	0x05
#define PERF_MEM_LVLNUM_MSC	0x06
#define PERF_MEM_LVLNUM_UNC	0x08
#endif

/* The field of a data source at shift, width bits. */
static inline unsigned int perfctr_src_field(unsigned long long src,
					     unsigned int shift,
					     unsigned int width)
{
	return (src >> shift) & ((1u << width) - 1);
}

#define PERFCTR_SRC_OP(s)	perfctr_src_field(s, PERF_MEM_OP_SHIFT, 5)
#define PERFCTR_SRC_LVL(s)	perfctr_src_field(s, PERF_MEM_LVL_SHIFT, 14)
#define PERFCTR_SRC_SNOOP(s)	perfctr_src_field(s, PERF_MEM_SNOOP_SHIFT, 5)
#define PERFCTR_SRC_LOCK(s)	perfctr_src_field(s, PERF_MEM_LOCK_SHIFT, 2)
#define PERFCTR_SRC_TLB(s)	perfctr_src_field(s, PERF_MEM_TLB_SHIFT, 7)
#define PERFCTR_SRC_LVLNUM(s)	perfctr_src_field(s, PERF_MEM_LVLNUM_SHIFT, 4)
#define PERFCTR_SRC_REMOTE(s)	perfctr_src_field(s, PERF_MEM_REMOTE_SHIFT, 1)
#define PERFCTR_SRC_SNOOPX(s)	perfctr_src_field(s, PERF_MEM_SNOOPX_SHIFT, 2)
#define PERFCTR_SRC_HOPS(s)	perfctr_src_field(s, PERF_MEM_HOPS_SHIFT, 3)

/* A name per bit of a field. */
struct perfctr_bit_name {
	unsigned int bit;
	const char *name;
};

static const struct perfctr_bit_name perfctr_mem_ops[] = {
	{ PERF_MEM_OP_LOAD, "LOAD" }, { PERF_MEM_OP_STORE, "STORE" },
	{ PERF_MEM_OP_PFETCH, "PFETCH" }, { PERF_MEM_OP_EXEC, "EXEC" },
};

static const struct perfctr_bit_name perfctr_mem_lvls[] = {
	{ PERF_MEM_LVL_L1, "L1" }, { PERF_MEM_LVL_LFB, "LFB/MAB" },
	{ PERF_MEM_LVL_L2, "L2" }, { PERF_MEM_LVL_L3, "L3" },
	{ PERF_MEM_LVL_LOC_RAM, "Local RAM" },
	{ PERF_MEM_LVL_REM_RAM1, "Remote RAM (1 hop)" },
	{ PERF_MEM_LVL_REM_RAM2, "Remote RAM (2 hops)" },
	{ PERF_MEM_LVL_REM_CCE1, "Remote Cache (1 hop)" },
	{ PERF_MEM_LVL_REM_CCE2, "Remote Cache (2 hops)" },
	{ PERF_MEM_LVL_IO, "I/O" }, { PERF_MEM_LVL_UNC, "Uncached" },
};

/* mem_lvl_num's names; a number without one is "L<n>". */
static const char *const perfctr_mem_lvlnums[16] = {
	[PERF_MEM_LVLNUM_L2_MHB] = "L2 MHB", [PERF_MEM_LVLNUM_MSC] = "MSC",
	[PERF_MEM_LVLNUM_UNC] = "Uncached", [PERF_MEM_LVLNUM_CXL] = "CXL",
	[PERF_MEM_LVLNUM_IO] = "I/O", [PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache",
	[PERF_MEM_LVLNUM_LFB] = "LFB/MAB", [PERF_MEM_LVLNUM_RAM] = "RAM",
	[PERF_MEM_LVLNUM_PMEM] = "PMEM",
};

/* mem_hops 1..4: how far the remote source was. */
static const char *const perfctr_mem_hops[8] = {
	[PERF_MEM_HOPS_0] = "core, same node",
	[PERF_MEM_HOPS_1] = "node, same socket",
	[PERF_MEM_HOPS_2] = "socket, same board",
	[PERF_MEM_HOPS_3] = "board",
};

static const struct perfctr_bit_name perfctr_mem_tlbs[] = {
	{ PERF_MEM_TLB_L1, "L1" }, { PERF_MEM_TLB_L2, "L2" },
	{ PERF_MEM_TLB_WK, "Walker" }, { PERF_MEM_TLB_OS, "Fault" },
};

/* mem_snoop's bits, then mem_snoopx's (shifted above them). */
static const struct perfctr_bit_name perfctr_mem_snoops[] = {
	{ PERF_MEM_SNOOP_NONE, "None" }, { PERF_MEM_SNOOP_HIT, "Hit" },
	{ PERF_MEM_SNOOP_MISS, "Miss" }, { PERF_MEM_SNOOP_HITM, "HitM" },
	{ PERF_MEM_SNOOPX_FWD << 5, "Fwd" }, { PERF_MEM_SNOOPX_PEER << 5, "Peer" },
};

/* Appends s to buf[0..len) at n, as far as it fits; returns the new n. */
static inline unsigned int perfctr_put(char *buf, unsigned int len,
				       unsigned int n, const char *s)
{
	while (*s && n + 1 < len)
		buf[n++] = *s++;
	if (n < len)
		buf[n] = '\0';
	return n;
}

/* The names of the bits of m that the table has, joined with " or ". */
static inline unsigned int perfctr_put_bits(char *buf, unsigned int len,
					    unsigned int n, unsigned int m,
					    const struct perfctr_bit_name *t,
					    unsigned int nt)
{
	unsigned int i, any = 0;

	for (i = 0; i < nt; i++) {
		if (!(m & t[i].bit))
			continue;
		if (any++)
			n = perfctr_put(buf, len, n, " or ");
		n = perfctr_put(buf, len, n, t[i].name);
	}
	return n;
}

#define PERFCTR_NBITS(t) (sizeof(t) / sizeof((t)[0]))

/* " hit", " miss", both, or nothing, from a field's HIT and MISS bits. */
static inline unsigned int perfctr_put_hit(char *buf, unsigned int len,
					   unsigned int n, unsigned int m,
					   unsigned int hit, unsigned int miss)
{
	if (m & hit)
		n = perfctr_put(buf, len, n, " hit");
	if (m & miss)
		n = perfctr_put(buf, len, n, " miss");
	return n;
}

/* The operation: "LOAD", "STORE", "PFETCH", "EXEC" (joined with " or "
 * when several are set), or "N/A". */
static inline void perfctr_mem_op(unsigned long long src, char *buf,
				  unsigned int len)
{
	unsigned int n = perfctr_put(buf, len, 0, "");

	n = perfctr_put_bits(buf, len, n, PERFCTR_SRC_OP(src), perfctr_mem_ops,
			     PERFCTR_NBITS(perfctr_mem_ops));
	if (!n)
		perfctr_put(buf, len, 0, "N/A");
}

/*
 * Where the access was served, and whether that level hit: "L1 hit",
 * "L3 miss", "RAM hit", "Remote RAM hit", "Any cache, remote core, same
 * node hit"; from mem_lvl_num when it names a level (N/A does not),
 * else from the mem_lvl bits ("L2 or L3 hit"); "N/A" when neither says.
 */
static inline void perfctr_mem_level(unsigned long long src, char *buf,
				     unsigned int len)
{
	unsigned int lvl = PERFCTR_SRC_LVL(src), num = PERFCTR_SRC_LVLNUM(src);
	unsigned int hops = PERFCTR_SRC_HOPS(src), n;
	char l[3] = { 'L', (char)('0' + num), 0 };	/* 1..7 */

	n = perfctr_put(buf, len, 0, "");
	if (num && num != PERF_MEM_LVLNUM_NA) {
		if (PERFCTR_SRC_REMOTE(src) && !hops)
			n = perfctr_put(buf, len, n, "Remote ");
		n = perfctr_put(buf, len, n, perfctr_mem_lvlnums[num] ?: l);
		if (hops && perfctr_mem_hops[hops]) {
			n = perfctr_put(buf, len, n, ", remote ");
			n = perfctr_put(buf, len, n, perfctr_mem_hops[hops]);
		}
	} else {
		n = perfctr_put_bits(buf, len, n, lvl, perfctr_mem_lvls,
				     PERFCTR_NBITS(perfctr_mem_lvls));
	}
	if (!n)
		n = perfctr_put(buf, len, 0, "N/A");
	perfctr_put_hit(buf, len, n, lvl, PERF_MEM_LVL_HIT, PERF_MEM_LVL_MISS);
}

/* The TLB: "L1 hit", "L1 or L2 hit", "Walker miss", "N/A". */
static inline void perfctr_mem_tlb(unsigned long long src, char *buf,
				   unsigned int len)
{
	unsigned int m = PERFCTR_SRC_TLB(src), n;

	n = perfctr_put_bits(buf, len, perfctr_put(buf, len, 0, ""), m,
			     perfctr_mem_tlbs, PERFCTR_NBITS(perfctr_mem_tlbs));
	if (!n)
		n = perfctr_put(buf, len, 0, "N/A");
	perfctr_put_hit(buf, len, n, m, PERF_MEM_TLB_HIT, PERF_MEM_TLB_MISS);
}

/* The snoop: "None", "Hit", "Miss", "HitM", "Fwd", "Peer" (joined with
 * " or "), or "N/A". */
static inline void perfctr_mem_snoop(unsigned long long src, char *buf,
				     unsigned int len)
{
	unsigned int m = PERFCTR_SRC_SNOOP(src) | PERFCTR_SRC_SNOOPX(src) << 5;

	if (!perfctr_put_bits(buf, len, perfctr_put(buf, len, 0, ""), m,
			      perfctr_mem_snoops,
			      PERFCTR_NBITS(perfctr_mem_snoops)))
		perfctr_put(buf, len, 0, "N/A");
}

/* A locked access: "Yes", "No", or "N/A" (the PMU does not say). */
static inline void perfctr_mem_lock(unsigned long long src, char *buf,
				    unsigned int len)
{
	unsigned int m = PERFCTR_SRC_LOCK(src);

	perfctr_put(buf, len, 0, m & PERF_MEM_LOCK_LOCKED ? "Yes" :
				 m & PERF_MEM_LOCK_NA ? "N/A" : "No");
}

/* The parts of a PERF_SAMPLE_WEIGHT_STRUCT weight: 0 var1_dw (perf's
 * "weight": a load's latency), 1 var2_w ("ins_lat"), 2 var3_w. */
static inline unsigned int perfctr_weight_part(unsigned long long full,
					       unsigned int part)
{
	switch (part) {
	case 0:
		return (unsigned int)(full & 0xffffffffULL);
	case 1:
		return (unsigned int)((full >> 32) & 0xffff);
	}
	return (unsigned int)(full >> 48);
}

/* A branch record's flags word: the fields at these bits. */
#define PERFCTR_BR_MISPRED	0
#define PERFCTR_BR_PREDICTED	1
#define PERFCTR_BR_IN_TX	2
#define PERFCTR_BR_ABORT	3
#define PERFCTR_BR_CYCLES	4	/* 16 bits */
#define PERFCTR_BR_TYPE		20	/* 4 bits */
#define PERFCTR_BR_SPEC		24	/* 2 bits */
#define PERFCTR_BR_NEW_TYPE	26	/* 4 bits */
#define PERFCTR_BR_PRIV		30	/* 3 bits */

static inline unsigned int perfctr_br_field(unsigned long long flags,
					    unsigned int shift,
					    unsigned int width)
{
	return (flags >> shift) & ((1u << width) - 1);
}

/* The flags word of a branch record, from its bit fields. */
static inline unsigned long long
perfctr_branch_flags(const struct perf_branch_entry *e)
{
	return (unsigned long long)e->mispred << PERFCTR_BR_MISPRED |
	       (unsigned long long)e->predicted << PERFCTR_BR_PREDICTED |
	       (unsigned long long)e->in_tx << PERFCTR_BR_IN_TX |
	       (unsigned long long)e->abort << PERFCTR_BR_ABORT |
	       (unsigned long long)e->cycles << PERFCTR_BR_CYCLES |
	       (unsigned long long)e->type << PERFCTR_BR_TYPE |
	       (unsigned long long)e->spec << PERFCTR_BR_SPEC |
	       (unsigned long long)e->new_type << PERFCTR_BR_NEW_TYPE |
	       (unsigned long long)e->priv << PERFCTR_BR_PRIV;
}

/* 1 mispredicted, 0 predicted, -1 the hardware does not say. */
static inline int perfctr_branch_mispred(unsigned long long flags)
{
	if (perfctr_br_field(flags, PERFCTR_BR_MISPRED, 1))
		return 1;
	return perfctr_br_field(flags, PERFCTR_BR_PREDICTED, 1) ? 0 : -1;
}

/* Cycles since the previous branch record (0: not known). */
static inline unsigned int perfctr_branch_cycles(unsigned long long flags)
{
	return perfctr_br_field(flags, PERFCTR_BR_CYCLES, 16);
}

/* The branch's type, as perf names PERF_BR_* (the new types where type
 * is PERF_BR_EXTEND_ABI), or "UNKNOWN". */
static inline const char *perfctr_branch_type_name(unsigned long long flags)
{
	static const char *const types[16] = {
		"UNKNOWN", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
		"SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
		"SERROR", "NO_TX", NULL,
	};
	static const char *const new_types[16] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2",
		"ARCH_3", "ARCH_4", "ARCH_5",
	};
	unsigned int t = perfctr_br_field(flags, PERFCTR_BR_TYPE, 4);

	if (types[t])
		return types[t];
	return new_types[perfctr_br_field(flags, PERFCTR_BR_NEW_TYPE, 4)] ?:
	       "UNKNOWN";
}

static inline void perfctr_branch_type(unsigned long long flags, char *buf,
				       unsigned int len)
{
	perfctr_put(buf, len, 0, perfctr_branch_type_name(flags));
}

#endif /* PERFCTR_PAYLOAD_H */
