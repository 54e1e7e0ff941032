# scopes.sh - what each counter scope costs outside probes (bench/run
# section): a module with one counter of the scope, read only at the end,
# over a module with none (bench/scopes/sw_*.stp), per context switch (a
# pipe round trip between two SCHED_FIFO tasks on one CPU: 2 switches,
# each at a blocking read; bench_loop.c says why FIFO) and per system
# call (getppid(), nothing probing it: the tax every system call pays).
# .thread three times: tasks the script never reads (a bit test at each
# switch); the same built as a script that reads .thread counters at
# switches is (-D PERFCTR_THREAD_SWITCH_READS: the switch-in note, without
# a sched_switch probe's own cost); and both tasks read once before their
# loop (the bookkeeping).
# shellcheck shell=bash

SCOPES_N=${BENCH_SCOPES_N:-20000}

scopes_queue() {
	local s mode
	for s in none cpu thread thread_read process; do
		for mode in switches syscalls; do
			bench_add "sw_${s}_$mode" -c "@PROGS@/bench_loop $mode $SCOPES_N" \
				"@BENCH@/scopes/sw_$s.stp"
		done
	done
	for mode in switches syscalls; do
		bench_add "sw_thread_note_$mode" -D PERFCTR_THREAD_SWITCH_READS \
			-c "@PROGS@/bench_loop $mode $SCOPES_N" \
			"@BENCH@/scopes/sw_thread.stp"
	done
}

scopes_what() {
	case $1 in
	thread) echo "one .thread counter, tasks not read" ;;
	thread_note) echo "the same, with the switch-in note (a script that reads .thread counters at switches)" ;;
	thread_read) echo "one .thread counter, both tasks read once" ;;
	*) echo "one .$1 counter" ;;
	esac
}

scopes_table() {
	local s
	echo "### Outside probes: guest instructions per context switch and per system call (arm64, 1 CPU)"
	echo
	echo "| module | per switch | per system call | baseline |"
	echo "|---|---|---|---|"
	echo "| no counters | $(bench_over "$(bench_least sw_none_switches)" 0 2) | $(bench_least sw_none_syscalls) | pipe round trip / 2; getppid() |"
	for s in cpu thread thread_note thread_read process; do
		echo "| $(scopes_what "$s") | $(bench_over "$(bench_least "sw_${s}_switches")" "$(bench_least sw_none_switches)" 2) | $(bench_over "$(bench_least "sw_${s}_syscalls")" "$(bench_least sw_none_syscalls)") | over no counters |"
	done
	echo
}
