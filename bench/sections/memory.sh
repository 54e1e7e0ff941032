# memory.sh - what the module allocates (bench/run section): read from the
# module itself, a guru-mode script that prints the runtime's sizeof()s
# and the kernel's struct perf_event (bench/memory.stp), run in the guest.
# shellcheck shell=bash

memory_queue() {
	bench_add memory -g "@BENCH@/memory.stp"
}

memory_field() {
	bench_output memory | sed -n "s/^memory: $1 \([0-9]*\)$/\1/p" | grep . || echo nan
}

memory_table() {
	local cpu ev thr tid task
	cpu=$(memory_field per_cpu_slot) ev=$(memory_field perf_event)
	thr=$(memory_field thread_record_per_counter) tid=$(memory_field taskmap_entry)
	task=$(memory_field task_record_per_counter)
	echo "### Memory (arm64 guest kernel, sizeof() in the module)"
	echo
	echo "| what | bytes | notes |"
	echo "|---|---|---|"
	echo "| per counter per CPU: our slot | $cpu | two (event pointer, base) pairs and the index of the one that holds (struct perfctr_cpu / counters) |"
	echo "| per counter per CPU: the kernel's struct perf_event | $ev | allocated by perf for each counter on each CPU |"
	echo "| .thread, per tracked thread per counter | $thr | acc + start, in each of the record's two halves (struct perfctr_thread) |"
	echo "| .thread, per record | $(memory_field thread_record_base) + $tid | record header + task table entry; 1024 records at start, doubled when half are in use, up to PERFCTR_THREADS (1,048,576): at most 4 x the threads tracked at once + 1024 |"
	echo "| .thread, fixed | $(memory_field thread_filter) | a count per bucket of the tasks' hash (2^17): which threads may have a record |"
	echo "| .process, per task per counter | $task + $ev | our pointer + the task's own perf_event; PERFCTR_TASKS (1024) records at start |"
	echo
}
