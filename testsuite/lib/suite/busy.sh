# suite/busy.sh - run-suite's second run for a host too busy: a test
# whose run failed with signs that the host starved the guest (it ran past
# its limit, or its output or the kernel's log in its time has a line of
# testsuite/lib/busy-signs) runs once more, alone in a boot of its own,
# and that run decides.  A run that fails without such a sign fails, and
# so does one that fails again.  Not with REPEAT: repeated runs are for
# races, which a second chance would hide.
# Sourced by testsuite/guest/run-suite (bash), after its globals.
# shellcheck shell=bash
# shellcheck disable=SC2154 # run-suite's globals and the libraries'

BUSY_SIGNS=$top_srcdir/testsuite/lib/busy-signs
# per test I that ran again: the first run's reason and signs
declare -A BUSY=()
BUSY_PASSED=0 BUSY_FAILED=0

# busy_signs I: the signs of a busy host in test I's run (judged last:
# WORK is its boot), at most four lines, or nothing.
busy_signs() {
	local i=$1 job re
	job=$(job_name "$i" 1)
	[ "$(guest_job_field "$WORK" "$job" timeout)" != 1 ] ||
		echo "it ran past its limit (${T_TIMEOUT[i]}s)"
	re=$(grep -v '^#' "$BUSY_SIGNS" | cut -f1 | paste -sd '|' -)
	{
		guest_job_output "$WORK" "$job"
		guest_kernel_log "$WORK" | guest_kmsg_jobs in "$job"
	} | tr -d '\r' | { grep -E -m 3 -- "$re" || true; } | sed 's/^\[ *[0-9.]*\] //'
}

# busy_reruns: each test whose run failed with signs of a busy host runs
# again alone (R_WORK then names that boot: judge_all judges the second
# run); BUSY keeps what the first run showed.
busy_reruns() {
	local i signs
	[ "$REPEAT" = 1 ] || return 0
	for i in "${!T_FILE[@]}"; do
		runnable "$i" || continue
		DIAG=""
		judge_one_run "$i" 1 && continue
		# already run twice: its boot hung or died (boot_retry)
		[[ $WORK != *-retry ]] || continue
		signs=$(busy_signs "$i")
		[ -n "$signs" ] || continue
		BUSY[$i]="$(diag_reason); the signs: $(paste -sd ';' <<<"$signs")"
		cp "$(run_output "$i" 1)" "$SUITE/$i/output.first"
		boot_new "${T_BOOT[i]}"
		: >"$WORK/root/busy-rerun"	# /busy-rerun in the guest: the second run
		boot_add "$i" 1
		boot_go "${T_BOOT[i]}"
		tap_diag_note "$ARCH: ${T_ID[i]} failed with signs of a busy host" \
			"(${BUSY[$i]}); it ran again alone in ${WORK##*/}"
	done
}

# busy_result OK I: test I's TAP line after its second run.
busy_result() {
	if [ "$1" = 1 ]; then
		BUSY_PASSED=$((BUSY_PASSED + 1))
		tap_result 1 "$2" " (host too busy: passed when run again alone; the first run: ${BUSY[$2]})"
	else
		BUSY_FAILED=$((BUSY_FAILED + 1))
		DIAG="failed again when run alone; the first run: ${BUSY[$2]}"$'\n'$DIAG
		tap_result 0 "$2"
	fi
}

# busy_summary: the suite's count of the tests that ran again, apart.
busy_summary() {
	[ ${#BUSY[@]} -gt 0 ] || return 0
	tap_diag_note "$ARCH: host too busy: ${#BUSY[@]} tests failed with signs of a" \
		"busy host (testsuite/lib/busy-signs) and ran again alone:" \
		"$BUSY_PASSED passed, $BUSY_FAILED failed"
}
