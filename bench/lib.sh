# bench/lib.sh - run many benchmark modules in ONE guest boot, sourced by
# bench/run-*.  Under QEMU -icount shift=0 one nanosecond of guest time is
# one guest instruction, so a figure is an instruction count that repeats
# run to run, whatever the host is doing.
#
#   bench_setup ARCH SMP          before anything else
#   bench_build JOB [stap options] SCRIPT [ARGS]
#                                 build SCRIPT, put it in the guest
#   bench_add JOB [stap options] SCRIPT [ARGS]
#                                 build SCRIPT (bench/NAME.stp names are
#                                 relative to bench/) and queue a run of it
#   bench_add_cmd JOB CMD...      queue a guest command (words, @PROGS@ and
#                                 @RUN@ expanded; @MOD:JOB@ = JOB's module)
#   bench_boot                    boot once, run the queue in order
#   bench_output JOB [CPUS]       what JOB printed (in the boot with CPUS)
#   bench_least JOB [CPUS]        least "N ns per iteration" bench_loop printed
# shellcheck shell=bash
set -uo pipefail
BENCH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../testsuite/lib/common.sh
. "$BENCH_TOP/testsuite/lib/common.sh"
# shellcheck source=../testsuite/lib/arch.sh
. "$BENCH_TOP/testsuite/lib/arch.sh"
# shellcheck source=../testsuite/lib/guest.sh
. "$BENCH_TOP/testsuite/lib/guest.sh"
# shellcheck source=../testsuite/lib/stap.sh
. "$BENCH_TOP/testsuite/lib/stap.sh"

declare -A BENCH_KO
BENCH_FAILED=0

bench_setup() {
	export GUEST_ICOUNT_SHIFT=0 GUEST_SMP=$2
	BENCH_SMP=$2
	guest_load_config
	arch_setup "$1"
	[ -z "$(arch_missing)" ] || die "cannot run on $ARCH here: $(arch_missing)"
	arch_fetch
	guest_stap_env
	BENCH_KBUILD=$("$BENCH_TOP/testsuite/lib/guest-kernel" --arch "$ARCH")
	guest_prepare
	BENCH_PROGS=$(guest_progs_dir)
	BENCH_WORK=$(guest_work_new bench)
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		log "work dir (kept): $BENCH_WORK"
	else
		# shellcheck disable=SC2064 # expand now
		trap "rm -rf '$BENCH_WORK'" EXIT
	fi
}

bench_expand() {
	local a=${1//@PROGS@/$BENCH_PROGS}
	printf '%s' "${a//@BENCH@/$BENCH_TOP/bench}"
}

# bench_build JOB [stap options] SCRIPT [ARGS]: build, copy into the guest
# (@MOD:JOB@), queue nothing.
bench_build() {
	local job=$1 a args=() ko
	shift
	for a in "$@"; do
		args+=("$(bench_expand "$a")")
	done
	st_parse "${args[@]}"
	if ! ko=$(cd "$BENCH_TOP/bench" && st_build "$BENCH_KBUILD" 2>"$BENCH_WORK/$job.build"); then
		log "$job: the build failed:"
		sed 's/^/  /' "$BENCH_WORK/$job.build" >&2
		BENCH_FAILED=1
		return 1
	fi
	BENCH_KO[$job]=$(basename "$ko")
	guest_module_add "$BENCH_WORK" "$ko"
}

bench_add() {
	bench_build "$@" || return
	local job=$1
	guest_job_add "$BENCH_WORK" "$job" 120 "$(guest_runner)" "${ST_RUN[@]}" \
		"/stap/${BENCH_KO[$job]}" "${ST_GLOBALS[@]}"
}

bench_add_cmd() {
	local job=$1 a args=() k
	shift
	for a in "$@"; do
		a=$(bench_expand "$a")
		a=${a//@RUN@/$(guest_runner)}
		for k in "${!BENCH_KO[@]}"; do
			a=${a//@MOD:$k@//stap/${BENCH_KO[$k]}}
		done
		args+=("$a")
	done
	guest_job_add "$BENCH_WORK" "$job" 120 "${args[@]}"
}

# bench_boot: boot with every queued job (GUEST_SMP CPUs), then once more
# for each CPU count in BENCH_EXTRA_BOOTS with only BENCH_REBOOT_JOBS.
BENCH_EXTRA_BOOTS=()
BENCH_REBOOT_JOBS=""
bench_boot() {
	local smp job
	bench_boot_one "$GUEST_SMP"
	for smp in "${BENCH_EXTRA_BOOTS[@]}"; do
		for job in $BENCH_REBOOT_JOBS; do
			grep "^$job " "$BENCH_WORK/root/jobs/list.all"
		done >"$BENCH_WORK/root/jobs/list"
		GUEST_SMP=$smp bench_boot_one "$smp"
	done
}

bench_boot_one() {
	local t0
	[ -f "$BENCH_WORK/root/jobs/list.all" ] ||
		cp "$BENCH_WORK/root/jobs/list" "$BENCH_WORK/root/jobs/list.all"
	t0=$(now)
	GUEST_SMP=$1 guest_boot "$BENCH_WORK" || BENCH_FAILED=1
	rm -rf "$BENCH_WORK/out.$1"
	mv "$BENCH_WORK/out" "$BENCH_WORK/out.$1"
	log "guest boot, $1 CPU(s), $(wc -l <"$BENCH_WORK/root/jobs/list") jobs: $(elapsed "$t0")s"
}

# bench_output JOB [CPUS]: what JOB printed in the boot with CPUS (the
# first boot's by default).
bench_output() {
	cat "$BENCH_WORK/out.${2:-$BENCH_SMP}/$1" 2>/dev/null || true
}

# A missing figure is "nan" (and the job's output goes to stderr): the
# table still prints, the run fails at the end.
bench_least() {
	local v
	v=$(bench_output "$1" "${2:-}" |
	    sed -n 's/^bench_loop: .*: \([0-9.]*\) ns per iteration$/\1/p' |
	    sort -n | head -1)
	if [ -z "$v" ]; then
		log "$1: no figure; its output:"
		bench_output "$1" | head -20 | sed 's/^/  /' >&2
		BENCH_FAILED=1
		v=nan
	fi
	echo "$v"
}

# Arithmetic for the tables: (a - b) / d, one decimal.
bench_over() {
	awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { printf "%.1f", (a - b) / d }'
}
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'
}
bench_row() { printf '| %s | %s | %s | %s |\n' "$@"; }
