/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * known.c - what stap-perfctr asks of a script's event names before a
 * module is built (perfctr-run --check-events): is the name one that
 * some machine knows, and, for a module that will run here, does this
 * machine resolve it as perfctr-run will when it starts the module.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "internal.h"

/*
 * The events the kernel's PMU drivers name in sysfs (events/), which a
 * script may write bare ("slots") for a machine whose kernel has them,
 * though this one does not and libpfm4 names them otherwise (or, for
 * another architecture, not at all), as the drivers of Linux 6 name them.
 */
static const char *const kernel_events[] = {
	/* arch/x86/events/core.c, intel/core.c: the core PMU (cpu,
	 * cpu_core, cpu_atom) */
	"cpu-cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	"mem-loads", "mem-loads-aux", "mem-stores", "slots",
	"topdown-total-slots", "topdown-slots-issued",
	"topdown-slots-retired", "topdown-fetch-bubbles",
	"topdown-recovery-bubbles", "topdown-retiring", "topdown-bad-spec",
	"topdown-fe-bound", "topdown-be-bound", "topdown-heavy-ops",
	"topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
	"tx-start", "tx-commit", "tx-abort", "tx-capacity", "tx-capacity-read",
	"tx-capacity-write", "tx-conflict", "el-start", "el-commit",
	"el-abort", "el-capacity", "el-conflict", "cycles-t", "cycles-ct",
	/* events/rapl.c (power), intel/cstate.c, msr.c */
	"energy-cores", "energy-pkg", "energy-ram", "energy-gpu",
	"energy-psys", "c1-residency", "c2-residency", "c3-residency",
	"c6-residency", "c7-residency", "c8-residency", "c9-residency",
	"c10-residency", "tsc", "aperf", "mperf", "pperf", "smi", "ptsc",
	"irperf", "cpu_thermal_margin",
	/* intel/uncore_snbep.c, uncore_snb.c: memory controllers */
	"cas_count_read", "cas_count_write", "clockticks", "data_reads",
	"data_writes",
	/* drivers/perf/arm_pmuv3.c: Arm's common events */
	"sw_incr", "l1i_cache_refill", "l1i_tlb_refill", "l1d_cache_refill",
	"l1d_cache", "l1d_tlb_refill", "ld_retired", "st_retired",
	"inst_retired", "exc_taken", "exc_return", "cid_write_retired",
	"pc_write_retired", "br_immed_retired", "br_return_retired",
	"unaligned_ldst_retired", "br_mis_pred", "cpu_cycles", "br_pred",
	"mem_access", "l1i_cache", "l1d_cache_wb", "l2d_cache",
	"l2d_cache_refill", "l2d_cache_wb", "bus_access", "memory_error",
	"inst_spec", "ttbr_write_retired", "bus_cycles", "chain",
	"l1d_cache_allocate", "l2d_cache_allocate", "br_retired",
	"br_mis_pred_retired", "stall_frontend", "stall_backend", "l1d_tlb",
	"l1i_tlb", "l2i_cache", "l2i_cache_refill", "l3d_cache_allocate",
	"l3d_cache_refill", "l3d_cache", "l3d_cache_wb", "l2d_tlb_refill",
	"l2i_tlb_refill", "l2d_tlb", "l2i_tlb", "remote_access", "ll_cache",
	"ll_cache_miss", "dtlb_walk", "itlb_walk", "ll_cache_rd",
	"ll_cache_miss_rd", "remote_access_rd", "l1d_cache_lmiss_rd",
	"op_retired", "op_spec", "stall", "stall_slot_backend",
	"stall_slot_frontend", "stall_slot", "sample_pop", "sample_feed",
	"sample_filtrate", "sample_collision", "cnt_cycles",
	"stall_backend_mem", "l1i_cache_lmiss", "l2d_cache_lmiss_rd",
	"l2i_cache_lmiss", "l3d_cache_lmiss_rd", "ldst_align_lat",
	"ld_align_lat", "st_align_lat", "mem_access_checked",
	"mem_access_checked_rd", "mem_access_checked_wr",
};

static int kernel_event(const char *base)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kernel_events); i++)
		if (!strcasecmp(kernel_events[i], base))
			return 1;
	return 0;
}

/* Of perf's own syntax (generic, raw, "PMU/TERMS/"), an event of a PMU
 * the kernel has here or a kernel names in sysfs, or of any PMU in
 * libpfm4's tables (pmus: which). */
static int known_anywhere(struct perfctr_resolver *r, const char *base,
			  char *pmus, size_t len)
{
	struct perfctr_encoding enc;

	pmus[0] = '\0';
	return strchr(base, '/') || kernel_event(base) ||
	       pc_generic_resolve(base, &enc, NULL, 0) != -ENOENT ||
	       pc_raw_resolve(base, &enc, NULL, 0) != -ENOENT ||
	       pc_sysfs_resolve(r->sysfs_root, base, &enc, NULL, 0) != -ENOENT ||
	       pc_pfm_known(r, base, pmus, len) > 0;
}

/* Nowhere: the nearest names of this machine, every libpfm4 table and
 * the kernel's sysfs events. */
static int unknown_anywhere(struct perfctr_resolver *r, const char *name,
			    const struct perfctr_name *n, char *err,
			    size_t len)
{
	return pc_resolve_unknown(r, name, n, kernel_events,
				  ARRAY_SIZE(kernel_events), err, len);
}

/* As perf list prints its JSON events: "inst_retired.any", "l1d_cache". */
static int json_style(const char *base)
{
	return base[0] && strspn(base, "abcdefghijklmnopqrstuvwxyz"
				 "0123456789_.") == strlen(base);
}

/* The sysfs events a JSON name is ("PMU/NAME/", NAME the JSON name or
 * with '_' for its '.'), that resolve here. */
struct sysfs_form {
	struct perfctr_resolver *r;
	char want[2][PERFCTR_NAME_MAX];
	char *err;
	size_t len;
	int n;			/* forms said */
};

static void sysfs_form_add(const char *name, void *ctx)
{
	struct sysfs_form *f = ctx;
	const char *slash = strchr(name, '/');
	struct perfctr_encoding enc;
	size_t n;
	int i;

	if (!slash)
		return;
	n = strlen(slash + 1);
	for (i = 0; i < 2; i++)
		if (n == strlen(f->want[i]) + 1 &&
		    !strncasecmp(slash + 1, f->want[i], n - 1) &&
		    !pc_sysfs_resolve(f->r->sysfs_root, name, &enc, NULL, 0)) {
			pc_err_append(f->err, f->len, "%s\"%s\"", f->n++ ?
				      " or " : "; here it is ", name);
			return;
		}
}

/* perf's JSON names: libpfm4's form (upper case, ':' for the first
 * '.'), said when it counts here or some PMU has it, and the sysfs
 * forms that count here. */
static void json_forms(struct perfctr_resolver *r, const char *base,
		       char *err, size_t len)
{
	struct sysfs_form f = { .r = r, .err = err, .len = len };
	struct perfctr_encoding enc;
	char up[PERFCTR_NAME_MAX], pmus[256], *dot;
	size_t i;

	if (!json_style(base))
		return;
	for (i = 0; base[i]; i++)
		up[i] = toupper((unsigned char)base[i]);
	up[i] = '\0';
	dot = strchr(up, '.');
	if (dot)
		*dot = ':';
	if (!pc_pfm_resolve(r, up, 0, &enc, NULL, 0))
		pc_err_append(err, len, "; perf's JSON name \"%s\" is "
			      "libpfm4's \"%s\", which counts here", base, up);
	else if (pc_pfm_known(r, up, pmus, sizeof(pmus)))
		pc_err_append(err, len, "; perf's JSON name \"%s\" is "
			      "libpfm4's \"%s\"", base, up);
	snprintf(f.want[0], sizeof(f.want[0]), "%s", base);
	snprintf(f.want[1], sizeof(f.want[1]), "%s", base);
	for (dot = f.want[1]; (dot = strchr(dot, '.')); )
		*dot = '_';
	pc_sysfs_names(r->sysfs_root, sysfs_form_add, &f);
}

/* Known elsewhere, not here: whose it is, and what this machine has. */
static int elsewhere(struct perfctr_resolver *r, const char *name,
		     const char *pmus, char *err, size_t len)
{
	char present[256];

	pc_pfm_present(r, present, sizeof(present));
	return pc_err(err, len, -ENODEV, "event \"%s\" is not on this "
		      "machine: libpfm4 has it for PMU %s; present here: %s",
		      name, pmus, present);
}

/* For a module that runs here: as perfctr-run will resolve it at start;
 * a name known elsewhere says whose it is. */
static int check_here(struct perfctr_resolver *r, const char *name,
		      const struct perfctr_name *n, char *err, size_t len)
{
	struct perfctr_encoding enc;
	char pmus[256];
	int ret = perfctr_resolver__resolve(r, name, 0, &enc, err, len);

	if (ret != -ENOENT)
		return ret ? -ENODEV : 0;
	if (!known_anywhere(r, n->base, pmus, sizeof(pmus)))
		return -ENOENT;		/* with this machine's nearest */
	if (pmus[0])
		return elsewhere(r, name, pmus, err, len);
	if (kernel_event(n->base))
		return pc_err(err, len, -ENODEV, "event \"%s\" is not on this "
			      "machine: no PMU here has it in sysfs, as some "
			      "kernels' PMUs do", name);
	return -ENODEV;
}

int perfctr_resolver__check(struct perfctr_resolver *r, const char *name,
			    int here, char *err, size_t len)
{
	struct perfctr_name n;
	char pmus[256];
	int ret;

	ret = perfctr_name__parse(name, &n, err, len);
	if (ret)
		return ret;
	if (here)
		ret = check_here(r, name, &n, err, len);
	else if (!known_anywhere(r, n.base, pmus, sizeof(pmus)))
		ret = unknown_anywhere(r, name, &n, err, len);
	if (ret)
		json_forms(r, n.base, err, len);
	return ret;
}
