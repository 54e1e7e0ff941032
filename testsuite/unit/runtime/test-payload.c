// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-payload.c - what a sample carries (runtime/perfctr_payload.h),
 * against the kernel's own definitions in the uapi linux/perf_event.h:
 * data sources built with PERF_MEM_S() and read back through the bit
 * fields of union perf_mem_data_src, weights through union
 * perf_sample_weight, branch records through struct perf_branch_entry's
 * bit fields; the words perf mem prints for the data sources PMUs
 * report; and the attr bits a payload asks for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfctr_attr.h"
#include "tap.h"

/* The kernel's PERF_MEM_NA (include/linux/perf_event.h, not uapi): what
 * perf_prepare_sample() gives a sample without a data source. */
#define MEM_NA (PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | \
		PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) | \
		PERF_MEM_S(TLB, NA))

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Every field, for random values, as the uapi's bit fields see it. */
static void fields(void)
{
	union perf_mem_data_src u;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int i, bad = 0;

	for (i = 0; i < 100000; i++) {
		u.val = next_rand(&seed);
		bad += PERFCTR_SRC_OP(u.val) != u.mem_op ||
		       PERFCTR_SRC_LVL(u.val) != u.mem_lvl ||
		       PERFCTR_SRC_SNOOP(u.val) != u.mem_snoop ||
		       PERFCTR_SRC_LOCK(u.val) != u.mem_lock ||
		       PERFCTR_SRC_TLB(u.val) != u.mem_dtlb ||
		       PERFCTR_SRC_LVLNUM(u.val) != u.mem_lvl_num ||
		       PERFCTR_SRC_REMOTE(u.val) != u.mem_remote ||
		       PERFCTR_SRC_SNOOPX(u.val) != u.mem_snoopx ||
		       PERFCTR_SRC_HOPS(u.val) != u.mem_hops;
	}
	is_int(bad, 0, "data source: every field of 100000 values as "
	       "union perf_mem_data_src's bit fields read it");
}

typedef void (*decoder)(unsigned long long, char *, unsigned int);

static void says(const char *what, decoder fn, unsigned long long src,
		 const char *want)
{
	char buf[128];

	memset(buf, 'x', sizeof(buf));
	fn(src, buf, sizeof(buf));
	ok(!strcmp(buf, want), "%s: \"%s\" (got \"%s\")", what, want, buf);
}

#define LOAD PERF_MEM_S(OP, LOAD)
#define HIT PERF_MEM_S(LVL, HIT)
#define MISS PERF_MEM_S(LVL, MISS)

/* Data sources as PMUs report them (Intel's PEBS load-latency table,
 * AMD's IBS, older PMUs' mem_lvl bits), in the words perf mem prints. */
static void decoding(void)
{
	says("L1 hit (lvl and lvl_num)", perfctr_mem_level, LOAD | HIT |
	     PERF_MEM_S(LVL, L1) | PERF_MEM_S(LVLNUM, L1), "L1 hit");
	says("L3 miss", perfctr_mem_level, LOAD | MISS | PERF_MEM_S(LVL, L3) |
	     PERF_MEM_S(LVLNUM, L3), "L3 miss");
	says("LFB", perfctr_mem_level, LOAD | HIT | PERF_MEM_S(LVL, LFB) |
	     PERF_MEM_S(LVLNUM, LFB), "LFB/MAB hit");
	says("local RAM", perfctr_mem_level, LOAD | HIT |
	     PERF_MEM_S(LVL, LOC_RAM) | PERF_MEM_S(LVLNUM, RAM), "RAM hit");
	says("remote RAM", perfctr_mem_level, LOAD | HIT |
	     PERF_MEM_S(LVLNUM, RAM) | PERF_MEM_S(REMOTE, REMOTE),
	     "Remote RAM hit");
	says("remote cache, hops", perfctr_mem_level, LOAD | HIT |
	     PERF_MEM_S(LVLNUM, ANY_CACHE) | PERF_MEM_S(REMOTE, REMOTE) |
	     PERF_MEM_S(HOPS, 0), "Any cache, remote core, same node hit");
	says("lvl_num L4, no name", perfctr_mem_level, HIT |
	     PERF_MEM_S(LVLNUM, L4), "L4 hit");
	says("mem_lvl bits only: all of them", perfctr_mem_level, HIT |
	     PERF_MEM_S(LVL, L2) | PERF_MEM_S(LVL, L3), "L2 or L3 hit");
	says("remote cache (2 hops), bits", perfctr_mem_level, HIT |
	     PERF_MEM_S(LVL, REM_CCE2), "Remote Cache (2 hops) hit");
	says("uncached, no hit or miss", perfctr_mem_level,
	     PERF_MEM_S(LVL, UNC), "Uncached");
	says("lvl_num N/A: the bits", perfctr_mem_level, HIT |
	     PERF_MEM_S(LVL, L1) | PERF_MEM_S(LVLNUM, NA), "L1 hit");
	says("nothing recorded (PERF_MEM_NA): level", perfctr_mem_level,
	     MEM_NA, "N/A");
	says("nothing recorded: TLB", perfctr_mem_tlb, MEM_NA, "N/A");
	says("nothing recorded: snoop", perfctr_mem_snoop, MEM_NA, "N/A");
	says("nothing recorded: lock", perfctr_mem_lock, MEM_NA, "N/A");
	says("nothing recorded: op", perfctr_mem_op, MEM_NA, "N/A");
	says("TLB L1 or L2 hit", perfctr_mem_tlb, PERF_MEM_S(TLB, HIT) |
	     PERF_MEM_S(TLB, L1) | PERF_MEM_S(TLB, L2), "L1 or L2 hit");
	says("TLB walker miss", perfctr_mem_tlb, PERF_MEM_S(TLB, MISS) |
	     PERF_MEM_S(TLB, WK), "Walker miss");
	says("TLB OS fault", perfctr_mem_tlb, PERF_MEM_S(TLB, OS), "Fault");
	says("snoop HitM", perfctr_mem_snoop, PERF_MEM_S(SNOOP, HITM), "HitM");
	says("snoop none", perfctr_mem_snoop, PERF_MEM_S(SNOOP, NONE), "None");
	says("snoopx forward", perfctr_mem_snoop, PERF_MEM_S(SNOOP, HIT) |
	     PERF_MEM_S(SNOOPX, FWD), "Hit or Fwd");
	says("snoopx peer", perfctr_mem_snoop, PERF_MEM_S(SNOOPX, PEER),
	     "Peer");
	says("locked", perfctr_mem_lock, PERF_MEM_S(LOCK, LOCKED), "Yes");
	says("not locked", perfctr_mem_lock, PERF_MEM_S(OP, LOAD), "No");
	says("load", perfctr_mem_op, LOAD, "LOAD");
	says("store", perfctr_mem_op, PERF_MEM_S(OP, STORE), "STORE");
	says("prefetch or exec", perfctr_mem_op, PERF_MEM_S(OP, PFETCH) |
	     PERF_MEM_S(OP, EXEC), "PFETCH or EXEC");
}

/* Every string fits any buffer: cut, terminated, never past its end. */
static void short_buffers(void)
{
	uint64_t seed = 12345;
	decoder fns[] = { perfctr_mem_level, perfctr_mem_tlb,
			  perfctr_mem_snoop, perfctr_mem_lock, perfctr_mem_op,
			  perfctr_branch_type };
	char buf[16];
	unsigned int len, f;
	int i, bad = 0;

	for (i = 0; i < 20000; i++) {
		unsigned long long v = next_rand(&seed);

		for (f = 0; f < sizeof(fns) / sizeof(fns[0]); f++)
			for (len = 1; len < 12; len++) {
				memset(buf, 'x', sizeof(buf));
				fns[f](v, buf, len);
				bad += strlen(buf) >= len || buf[len] != 'x';
			}
	}
	is_int(bad, 0, "every decoder, random values, buffers of 1 to 11 "
	       "bytes: terminated, never past the end");
}

static void weights(void)
{
	union perf_sample_weight w;

	memset(&w, 0, sizeof(w));
	w.var1_dw = 0x89abcdef;
	w.var2_w = 0x1234;
	w.var3_w = 0xfedc;
	ok(perfctr_weight_part(w.full, 0) == 0x89abcdef &&
	   perfctr_weight_part(w.full, 1) == 0x1234 &&
	   perfctr_weight_part(w.full, 2) == 0xfedc,
	   "weight: var1_dw, var2_w, var3_w of union perf_sample_weight");
}

/* A record's flags word from its bit fields, decoded back; on this
 * (little-endian) machine, the word the kernel stores after from and to. */
static void branches(void)
{
	struct perf_branch_entry e;
	uint64_t seed = 777, word;
	unsigned long long f;
	int i, bad = 0, raw = 0;

	for (i = 0; i < 100000; i++) {
		uint64_t r = next_rand(&seed);

		memset(&e, 0, sizeof(e));
		e.mispred = r & 1;
		e.predicted = r >> 1 & 1;
		e.in_tx = r >> 2 & 1;
		e.abort = r >> 3 & 1;
		e.cycles = r >> 4 & 0xffff;
		e.type = r >> 20 & 0xf;
		e.spec = r >> 24 & 3;
		e.new_type = r >> 26 & 0xf;
		e.priv = r >> 30 & 7;
		f = perfctr_branch_flags(&e);
		bad += perfctr_br_field(f, PERFCTR_BR_MISPRED, 1) != e.mispred ||
		       perfctr_br_field(f, PERFCTR_BR_PREDICTED, 1) != e.predicted ||
		       perfctr_br_field(f, PERFCTR_BR_IN_TX, 1) != e.in_tx ||
		       perfctr_br_field(f, PERFCTR_BR_ABORT, 1) != e.abort ||
		       perfctr_branch_cycles(f) != e.cycles ||
		       perfctr_br_field(f, PERFCTR_BR_TYPE, 4) != e.type ||
		       perfctr_br_field(f, PERFCTR_BR_SPEC, 2) != e.spec ||
		       perfctr_br_field(f, PERFCTR_BR_NEW_TYPE, 4) != e.new_type ||
		       perfctr_br_field(f, PERFCTR_BR_PRIV, 3) != e.priv ||
		       perfctr_branch_mispred(f) != (e.mispred ? 1 :
						     e.predicted ? 0 : -1);
		memcpy(&word, (const char *)&e + 2 * sizeof(uint64_t),
		       sizeof(word));
		raw += word != f;
	}
	is_int(bad, 0, "branch records: 100000 of them, every bit field of "
	       "struct perf_branch_entry through the flags word");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	is_int(raw, 0, "  the flags word is the kernel's own third word");
#else
	ok(1, "  # SKIP big-endian: the bit fields sit elsewhere");
#endif

	memset(&e, 0, sizeof(e));
	e.type = PERF_BR_CALL;
	ok(!strcmp(perfctr_branch_type_name(perfctr_branch_flags(&e)), "CALL"),
	   "PERF_BR_CALL is CALL");
	e.type = PERF_BR_IND_CALL;
	ok(!strcmp(perfctr_branch_type_name(perfctr_branch_flags(&e)),
		   "IND_CALL"), "PERF_BR_IND_CALL is IND_CALL");
	e.type = PERF_BR_NO_TX;
	ok(!strcmp(perfctr_branch_type_name(perfctr_branch_flags(&e)), "NO_TX"),
	   "PERF_BR_NO_TX is NO_TX");
	e.type = PERF_BR_EXTEND_ABI;
	e.new_type = PERF_BR_NEW_FAULT_DATA;
	ok(!strcmp(perfctr_branch_type_name(perfctr_branch_flags(&e)),
		   "FAULT_DATA"), "PERF_BR_EXTEND_ABI, PERF_BR_NEW_FAULT_DATA "
	   "is FAULT_DATA");
	e.new_type = PERF_BR_NEW_ARCH_5;
	ok(!strcmp(perfctr_branch_type_name(perfctr_branch_flags(&e)),
		   "ARCH_5"), "PERF_BR_NEW_ARCH_5 is ARCH_5");
	e.new_type = 12;
	ok(!strcmp(perfctr_branch_type_name(perfctr_branch_flags(&e)),
		   "UNKNOWN"), "a new type the uapi does not name: UNKNOWN");
	e.type = PERF_BR_UNKNOWN;
	ok(perfctr_branch_mispred(perfctr_branch_flags(&e)) == -1,
	   "neither mispredicted nor predicted: -1");
}

/* What each payload asks of the kernel, and the branch stack's levels
 * as perf_event_open(2) would set them from the exclude bits. */
static void attrs(void)
{
	struct perf_event_attr a;

	perfctr_attr_counter(&a, PERF_TYPE_HARDWARE, 0, 0, 0,
			     PERFCTR_F_EXCLUDE_KERNEL | PERFCTR_F_EXCLUDE_HV);
	perfctr_attr_sample(&a, 100000, 0, 0, 0);
	ok(a.sample_type == 0 && a.branch_sample_type == 0,
	   "no payload: no sample_type bit");
	perfctr_attr_sample(&a, 100000, 0, 0, PERFCTR_PL_ALL);
	ok(a.sample_type == (PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR |
			     PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |
			     PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_CALLCHAIN),
	   "every payload: ADDR, PHYS_ADDR, WEIGHT_STRUCT, DATA_SRC, "
	   "BRANCH_STACK, CALLCHAIN");
	ok(a.sample_max_stack == PERFCTR_MAX_STACK,
	   "the call chain asks for %d frames (got %u)", PERFCTR_MAX_STACK,
	   a.sample_max_stack);
	ok(a.branch_sample_type == (PERF_SAMPLE_BRANCH_ANY |
				    PERF_SAMPLE_BRANCH_USER),
	   "  branch stack of a .user event: any branch, user level");
	perfctr_attr_counter(&a, PERF_TYPE_HARDWARE, 0, 0, 0, 0);
	perfctr_attr_sample(&a, 100000, 0, 0, PERFCTR_PL_BRANCH);
	ok(a.branch_sample_type == (PERF_SAMPLE_BRANCH_ANY |
				    PERF_SAMPLE_BRANCH_USER |
				    PERF_SAMPLE_BRANCH_KERNEL |
				    PERF_SAMPLE_BRANCH_HV),
	   "  of an event at every level: user, kernel, hv");
	ok(!strcmp(perfctr_pvs[PERFCTR_PV_SRC].fn, "perfctr_sample_data_src") &&
	   perfctr_pvs[PERFCTR_PV_SRC].bit == PERFCTR_PL_SRC &&
	   !perfctr_pvs[PERFCTR_PV_PERIOD].bit &&
	   perfctr_pvs[PERFCTR_PV_BR_TO].arg,
	   "the payload functions' table");
}

int main(void)
{
	fields();
	decoding();
	short_buffers();
	weights();
	branches();
	attrs();
	return tap_done();
}
