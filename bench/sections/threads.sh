# threads.sh - what following a new thread costs (bench/run section):
# bench_loop threads (pthread_create() and pthread_join() of a thread
# that returns at once) in the process a .process counter follows
# (bench/scopes/sw_process.stp), over the same in a module with no
# counters (sw_none.stp); in the 1-CPU boot and with 4 CPUs.  Each new
# thread's counters are created at its start and released after it ends,
# after a grace period, by the release work; a thread that waited for
# that work would wait for the grace period (with one CPU online
# synchronize_rcu() returns at once, so the 4-CPU figure shows it).
# shellcheck shell=bash

THREADS_N=${BENCH_THREADS_N:-1000}

threads_queue() {
	local s
	for s in none process; do
		bench_add "threads_$s" -c "@PROGS@/bench_loop threads $THREADS_N" \
			"@BENCH@/scopes/sw_$s.stp"
	done
	BENCH_REBOOT_JOBS+=" threads_none threads_process"
	[[ " ${BENCH_EXTRA_BOOTS[*]} " == *" 4 "* ]] || BENCH_EXTRA_BOOTS+=(4)
}

threads_table() {
	local c none proc
	echo "### A new thread in a followed process: guest ns per pthread_create() and join (arm64, -icount shift=0)"
	echo
	echo "| CPUs | no counters | one .process counter | over no counters |"
	echo "|---|---|---|---|"
	for c in 1 4; do
		none=$(bench_least threads_none "$c")
		proc=$(bench_least threads_process "$c")
		echo "| $c | $none | $proc | $(bench_over "$proc" "$none") ($(bench_ratio "$proc" "$none")) |"
	done
	echo
}
