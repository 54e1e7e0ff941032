# helper.sh - perfctr-run's start-up: from its exec to its exec of staprun
# (bench/run section).  perfctr-run runs with STAP_PERFCTR_STAPRUN set to
# noop (a program that exits at once) on a module declaring 1, 8 or 32
# counters; exec_time runs it 20 times and gives the median fork-to-exit
# time; the same for noop alone is taken off.  Guest (arm64, hardware
# events; 8 = 6 instructions + cycles + a software event, 32 = 32
# multiplexed instructions counters) with 1, 2 and 4 CPUs, in guest
# nanoseconds = instructions; host (software events: no PMU here) with its
# own CPUs, in wall nanoseconds.
# shellcheck shell=bash

HELPER_COUNTS="1 8 32"
HELPER_RUNS=${BENCH_HELPER_RUNS:-20}
HELPER_SW=(task-clock cpu-clock page-faults context-switches cpu-migrations
	   minor-faults major-faults alignment-faults)

# helper_script N hw|sw: N counters, each read once (an unread counter is
# not in the module's table); the module never loads: noop stands in.
helper_script() {
	local n=$1 kind=$2 i ev mod reads=
	for ((i = 1; i <= n; i++)); do
		mod=.cpu
		if [ "$kind" = sw ]; then
			ev=${HELPER_SW[(i - 1) % 8]}
		elif [ "$n" -gt 8 ]; then
			ev=instructions mod=.cpu.multiplex
		elif [ "$i" = 7 ]; then
			ev=cycles
		elif [ "$i" = 8 ]; then
			ev=context-switches
		else
			ev=instructions
		fi
		echo "probe perfctr.event(\"$ev\")$mod.counter(\"c$i\") {}"
		reads+=" + @perfctr(\"c$i\")"
	done
	echo "probe begin { printf(\"%d\\n\", 0$reads) exit() }"
}

helper_queue() {
	local n kind f
	for kind in hw sw; do
		for n in $HELPER_COUNTS; do
			f=$BENCH_WORK/scripts/helper_${kind}_$n.stp
			mkdir -p "$BENCH_WORK/scripts"
			helper_script "$n" "$kind" >"$f"
			bench_build "helper_${kind}_$n" "$f"
		done
	done
	helper_guest_jobs
	BENCH_EXTRA_BOOTS+=(2 4)
}

# The jobs of every boot (1, 2 and 4 CPUs): noop alone, then perfctr-run.
helper_guest_jobs() {
	local n
	bench_add_cmd helper_noop "@PROGS@/exec_time" "$HELPER_RUNS" "@PROGS@/noop"
	for n in $HELPER_COUNTS; do
		bench_add_cmd "helper_run_$n" env "STAP_PERFCTR_STAPRUN=@PROGS@/noop" \
			"@PROGS@/exec_time" "$HELPER_RUNS" @RUN@ "@MOD:helper_hw_$n@"
	done
	BENCH_REBOOT_JOBS="helper_noop $(printf 'helper_run_%s ' $HELPER_COUNTS)"
}

helper_median() {
	sed -n 's/^exec_time: .* median \([0-9]*\) ns$/\1/p' | tail -1 | grep . || echo nan
}

# Host: perfctr-run of this build tree on the software-event modules.
helper_host() {
	local d=$BENCH_WORK/host n noop
	mkdir -p "$d"
	for p in exec_time noop; do
		gcc -O2 -o "$d/$p" "$GUEST_PROGS_SRC/$p.c" "$GUEST_PROGS_SRC/common.c" || return
	done
	noop=$("$d/exec_time" "$HELPER_RUNS" "$d/noop" | helper_median)
	for n in $HELPER_COUNTS; do
		HELPER_HOST[$n]=$(STAP_PERFCTR_STAPRUN=$d/noop "$d/exec_time" \
			"$HELPER_RUNS" "$top_builddir/helper/perfctr-run" \
			"$BENCH_WORK/root/stap/${BENCH_KO[helper_sw_$n]}" | helper_median)
		HELPER_HOST[$n]=$(bench_over "${HELPER_HOST[$n]}" "$noop")
	done
}

helper_table() {
	local n smp row noop
	declare -gA HELPER_HOST
	helper_host
	echo "### Helper start-up: perfctr-run's exec to its exec of staprun (median of $HELPER_RUNS, over a bare exec)"
	echo
	echo "| counters | guest 1 CPU (instr.) | guest 2 CPUs | guest 4 CPUs | host $(nproc) CPUs (wall ms, software events) |"
	echo "|---|---|---|---|---|"
	for n in $HELPER_COUNTS; do
		row="| $n"
		for smp in 1 2 4; do
			noop=$(bench_output helper_noop "$smp" | helper_median)
			row+=" | $(bench_over "$(bench_output "helper_run_$n" "$smp" | helper_median)" "$noop")"
		done
		row+=" | $(awk -v v="${HELPER_HOST[$n]}" 'BEGIN { printf "%.2f", v / 1e6 }') |"
		echo "$row"
	done
	echo
}
