# suite/judge.sh - run-suite's results: each test's TAP line from its
# run's output, and the suite's own checks of the modules and the guest
# (read path, per-CPU data, IBT, options, dmesg).
# Sourced by testsuite/guest/run-suite (bash), after its globals.
# shellcheck shell=bash
# shellcheck disable=SC2154 # run-suite's globals and the libraries'

tap_diag_note() {
	echo "# $*"
}

# tap_result OK I [DIRECTIVE]: one TAP line; the diagnostics collected in
# DIAG follow a failure.
tap_result() {
	local ok=$1 i=$2 extra=${3:-} desc
	TAP_N=$((TAP_N + 1))
	desc=${T_ID[i]}${T_DESC[i]:+: ${T_DESC[i]}}
	if [ "$ok" = 1 ]; then
		echo "ok $TAP_N - $desc$extra"
	else
		TAP_FAILED=$((TAP_FAILED + 1))
		echo "not ok $TAP_N - $desc$extra"
		printf '%s' "$DIAG" | sed 's/^/#   /'
	fi
}

# diag TEXT...: add a line to DIAG.
diag() {
	DIAG+="$*"$'\n'
}

# diag_file TITLE FILE: add (the end of) FILE to DIAG.
diag_file() {
	local lines
	lines=$(wc -l <"$2")
	diag "$1 ($lines lines$([ "$lines" -gt "$MAX_DIAG_LINES" ] && echo ", the last $MAX_DIAG_LINES")):"
	DIAG+=$(tail -n "$MAX_DIAG_LINES" "$2" | sed 's/^/  | /')$'\n'
}

# check_regexes FILE LIST MODE: each ERE in LIST (one per line) must match
# (MODE=match) or must not match (MODE=nomatch) some line of FILE.
check_regexes() {
	local file=$1 mode=$3 re rc ok=1
	while IFS= read -r re; do
		[ -n "$re" ] || continue
		rc=0
		grep -qE -- "$re" "$file" || rc=$?
		if [ "$rc" -gt 1 ]; then
			diag "bad regular expression: $re"
			ok=0
		elif [ "$mode" = match ] && [ "$rc" != 0 ]; then
			diag "no line matches: $re"
			ok=0
		elif [ "$mode" = nomatch ] && [ "$rc" = 0 ]; then
			diag "a line matches what must not appear: $re"
			diag "  $(grep -m1 -E -- "$re" "$file")"
			ok=0
		fi
	done <<<"$2"
	[ "$ok" = 1 ]
}

# judge_build_fail I: the build must have failed with a matching message.
judge_build_fail() {
	local i=$1 d=$SUITE/$1
	if [ "$(cat "$d/build.rc")" = 0 ]; then
		diag "the build succeeded; expected it to fail matching: ${T_BUILD_FAIL[i]}"
		return 1
	fi
	check_regexes "$d/build.log" "${T_BUILD_FAIL[i]}" match || {
		diag_file "stap said" "$d/build.log"
		return 1
	}
}

# judge_run I: every run of test I must pass (judge_one_run); with
# several runs, DIAG says which failed: one line each, then the first
# failure's diagnostics.
judge_run() {
	local i=$1 d=$SUITE/$1 k failed=() first="" reason
	if [ "$(cat "$d/build.rc")" != 0 ]; then
		diag "the module did not build"
		diag_file "stap said" "$d/build.log"
		return 1
	fi
	for ((k = 1; k <= REPEAT; k++)); do
		DIAG=""
		judge_one_run "$i" "$k" && continue
		failed+=("$k")
		reason=$(diag_reason)
		[ -n "$first" ] || first=$DIAG
		[ "$REPEAT" = 1 ] || REPEAT_DIAG+="run $k: $reason"$'\n'
	done
	RUNS_FAILED=${#failed[@]}
	DIAG=""
	[ "$RUNS_FAILED" = 0 ] && return 0
	if [ "$REPEAT" != 1 ]; then
		diag "$RUNS_FAILED of $REPEAT runs failed (runs ${failed[*]}):"
		DIAG+=$REPEAT_DIAG
		diag "the first failure, run ${failed[0]} ($(run_output "$i" "${failed[0]}")):"
	fi
	DIAG+=$first
	return 1
}

# diag_reason: DIAG's first line, with the next when it ends in ":".
diag_reason() {
	printf '%s' "$DIAG" | awk 'NR == 1 { l = $0; if (l !~ /:$/) exit }
		NR == 2 { sub(/^ *\| */, ""); l = l " " $0; exit } END { print l }'
}

# judge_one_run I K: status, time limit, and the output checks of test I's
# run K.
judge_one_run() {
	local i=$1 k=$2 out job status want ok=1
	job=$(job_name "$i" "$k")
	out=$(run_output "$i" "$k")
	WORK=${R_WORK[$i.$k]:-$SUITE/guest}
	# a job its boot did not finish ran again after a hang (boot_retry)
	[ -e "$WORK/out/$job.status" ] || [ ! -s "$WORK/retry" ] || WORK=$(cat "$WORK/retry")
	guest_job_output "$WORK" "$job" >"$out"
	status=$(guest_job_field "$WORK" "$job" status)
	if [ -z "$status" ]; then
		if grep -q "guest-job-begin $job\$" "$WORK/results.log"; then
			diag "the guest died or hung during this test"
			console_tail 15 >"$SUITE/$i/console-tail"
			diag_file "the end of the guest's console" "$SUITE/$i/console-tail"
		else
			diag "not run: the guest died before this test"
		fi
		[ -s "$out" ] && diag_file "output" "$out"
		return 1
	fi
	if [ "$(guest_job_field "$WORK" "$job" timeout)" = 1 ]; then
		diag "timed out after ${T_TIMEOUT[i]}s"
		ok=0
	fi
	if [ -n "${T_LOAD_FAIL[i]}" ]; then
		if [ "$status" = 0 ]; then
			diag "exit status 0; expected a refusal to load"
			ok=0
		fi
		check_regexes "$out" "${T_LOAD_FAIL[i]}" match || ok=0
	fi
	want=${T_EXIT[i]:-0}
	if [ -n "${T_EXIT[i]}" ] || [ -z "${T_LOAD_FAIL[i]}" ]; then
		[ "$status" = "$want" ] || { diag "exit status $status, expected $want"; ok=0; }
	fi
	check_regexes "$out" "${T_EXPECT[i]}" match || ok=0
	check_regexes "$out" "${T_EXPECT_NOT[i]}" nomatch || ok=0
	# guest-init found a CPU offline after the job (online_cpus)
	if grep -q '^guest-init: cpu[0-9]* \(offline after the job\|did not come online\)' "$out"; then
		diag "a CPU was left offline:"
		DIAG+=$(grep '^guest-init: cpu' "$out" | sed 's/^/  | /')$'
'
		ok=0
	fi
	if grep -qE -- "$SELF_FAIL_RE" "$out"; then
		diag "the script reported a failure:"
		DIAG+=$(grep -E -- "$SELF_FAIL_RE" "$out" | head -n 10 | sed 's/^/  | /')$'\n'
		ok=0
	fi
	judge_kernel_reports "$i" "$job" || ok=0
	[ "$ok" = 1 ] && return 0
	diag_file "output" "$out"
	return 1
}

# judge_kernel_reports I JOB: what the kernel reported while test I's run
# (JOB) ran: nothing, or what its kernel-report directives want.
judge_kernel_reports() {
	local i=$1 reports=$SUITE/$1/kernel-reports
	guest_job_kernel_reports "$WORK" "$2" >"$reports"
	if [ -n "${T_KREPORT[i]}" ]; then
		if [ ! -s "$reports" ]; then
			diag "the kernel reported nothing; the test wants a report"
			return 1
		fi
		check_regexes "$reports" "${T_KREPORT[i]}" match && return 0
		diag_file "the kernel reported" "$reports"
		return 1
	fi
	[ -s "$reports" ] || return 0
	diag_file "the guest kernel reported, while this test ran" "$reports"
	return 1
}

# kreport_jobs: the jobs whose kernel reports are on purpose (their tests'
# kernel-report directives judged them), one per line.
kreport_jobs() {
	local i k
	for i in "${!T_FILE[@]}"; do
		[ -n "${T_KREPORT[i]}" ] || continue
		for ((k = 1; k <= REPEAT; k++)); do job_name "$i" "$k"; done
	done
}

# judge_all: one TAP line per test; with REPEAT, each says how many of its
# runs failed, and REPEAT_SUMMARY collects the same, one line per test.
judge_all() {
	local i ok
	REPEAT_SUMMARY=""
	for i in "${!T_FILE[@]}"; do
		DIAG="" REPEAT_DIAG="" RUNS_FAILED=""
		ok=1
		case ${T_KIND[i]} in
		fixture) continue ;;
		skip) tap_result 1 "$i" " # SKIP ${T_SKIP[i]}"; continue ;;
		esac
		if [ -n "${T_ERROR[i]}" ]; then
			diag "${T_ERROR[i]}"
			ok=0
		elif [ "${T_KIND[i]}" = build-fail ]; then
			judge_build_fail "$i" || ok=0
		else
			judge_run "$i" || ok=0
		fi
		if [ -n "${BUSY[$i]:-}" ]; then	# ran again (busy_reruns)
			busy_result "$ok" "$i"
			continue
		fi
		if [ "$REPEAT" = 1 ] || [ -z "$RUNS_FAILED" ]; then
			tap_result "$ok" "$i"
			continue
		fi
		tap_result "$ok" "$i" " ($RUNS_FAILED of $REPEAT runs failed)"
		REPEAT_SUMMARY+="${T_ID[i]}: $REPEAT runs, $RUNS_FAILED failed"$'\n'
	done
}

# repeat_summary: after the TAP lines, what each repeated test did.
repeat_summary() {
	[ -n "$REPEAT_SUMMARY" ] || return 0
	tap_diag_note "repeat: $REPEAT runs of each test over $REPEAT_BOOTS boot(s) per smp value"
	printf '%s' "$REPEAT_SUMMARY" | sed 's/^/# repeat: /'
}

# console_tail N: the last N lines of the guest's console (its kernel
# messages when it could not send its log).
console_tail() {
	tr -d '\r' <"$WORK/console.log" | tail -n "$1"
}

# diag_kernel: add the guest kernel's reports.
diag_kernel() {
	diag "the kernel reported:"
	DIAG+=$(guest_kernel_reports "$WORK" "${KREPORT_JOBS[@]}" |
		head -n "$MAX_DIAG_LINES" | sed 's/^/  | /')$'\n'
}

# perfctr_modules: the perfctr modules built here, a path a line.
perfctr_modules() {
	local d ko
	for d in "$SUITE"/*/; do
		[ -s "$d/ko" ] || continue
		ko=$(cat "$d/ko")
		modinfo -F perfctr_table "$ko" 2>/dev/null | grep -q . && echo "$ko"
	done
	return 0
}

# judge_static NAME DESC each|all CHECK...: a static check of the perfctr
# modules built here, one TAP line: CHECK runs with each module's path
# last, or once with all of them.
judge_static() {
	local i=${#T_FILE[@]} name=$1 desc=$2 how=$3 ko out ok=1 kos=()
	shift 3
	T_ID[i]=$ARCH/$name T_DESC[i]=$desc
	DIAG=""
	mapfile -t kos < <(perfctr_modules)
	if [ ${#kos[@]} = 0 ] && ! uses_perfctr; then
		tap_result 1 "$i" " # SKIP no test here uses perfctr"
		unset 'T_ID[i]' 'T_DESC[i]'
		return 0
	elif [ ${#kos[@]} = 0 ]; then
		diag "no perfctr module was built"
		ok=0
	elif [ "$how" = all ]; then
		out=$("$@" "${kos[@]}" 2>&1) || { ok=0; diag "$out"; }
	else
		for ko in "${kos[@]}"; do
			out=$(OBJDUMP=$ARCH_OBJDUMP "$@" "$ko" 2>&1) ||
				{ ok=0; diag "$(basename "$ko"): $out"; }
		done
	fi
	T_DESC[i]+=" (${#kos[@]} modules)"
	tap_result "$ok" "$i"
	unset 'T_ID[i]' 'T_DESC[i]'
}

# stap_runtime_dir: the stap runtime the suite's modules are built with.
stap_runtime_dir() {
	guest_runtime_opts
	if [ "${#GUEST_RUNTIME_OPTS[@]}" = 2 ]; then
		echo "${GUEST_RUNTIME_OPTS[1]}"
	elif stack_is_tree; then
		echo "$TREE_ROOT/usr/share/systemtap/runtime"
	else
		echo "$STAP_RUNTIME_DIR"
	fi
}

# static_checks: how many TAP lines judge_modules prints.
static_checks() {
	if [ "$ARCH" = x86_64 ]; then echo 3; else echo 2; fi
}

# judge_modules: the static checks (docs/reliability.md, "Static checks"):
# no read or switch path can sleep, lock or allocate (a static check:
# Debian kernels lack atomic-sleep debugging) or needs more than 1 KiB of
# the module's own stack; no static per-CPU data of the runtime's; on
# x86_64, no indirect call into a function this kernel seals for IBT.
judge_modules() {
	local map=$ARCH_DIR/kallsyms/$ARCH_RELEASE.map
	if stack_is_debug; then	# KASAN redzones and KCSAN calls grow every frame
		judge_static read-path "counter reads cannot sleep, lock or allocate (stack not checked: sanitizer frames)" \
			each "$here/lib/check-read-path"
	else
		judge_static read-path "counter reads cannot sleep, lock or allocate, within 1 KiB of stack" \
			each "$here/lib/check-read-path" -s 1024
	fi
	judge_static percpu "no static per-CPU data of the runtime's" \
		each "$here/lib/check-percpu"
	[ "$ARCH" = x86_64 ] &&
		judge_static ibt "no indirect call into a function $ARCH_RELEASE seals for IBT" \
			all "$here/lib/check-ibt" -s "$(stap_runtime_dir)" "$ARCH_VMLINUZ" "$map" \
			"$top_srcdir/runtime"
	return 0
}

# has_options_check: a stack other than the configured one gets its stap's
# option table checked against the front-end's, once (on x86_64).
has_options_check() {
	stack_is_tree && [ "$ARCH" = x86_64 ]
}

# judge_options: stap-options.test on the stack's stap (stap 5.1's table
# is not 4.8's: the front-end must read both command lines as stap does).
judge_options() {
	local i=${#T_FILE[@]} out ok=1
	T_ID[i]=$ARCH/stap-options T_DESC[i]="the front-end reads $GUEST_STACK's stap options as that stap does"
	DIAG=""
	out=$(top_builddir=$top_builddir top_srcdir=$top_srcdir \
		"$here/unit/translator/stap-options.test" \
		"$here/lib/chroot-run" "$TREE_ROOT" stap 2>&1) ||
		{ ok=0; diag "$out"; }
	tap_result "$ok" "$i"
	unset 'T_ID[i]' 'T_DESC[i]'
}

# uses_perfctr: does a test of this run (or the script it names) use
# perfctr (a probe point or a read)?  Without one, no module has a read
# path to check.
uses_perfctr() {
	local i f
	for i in "${!T_FILE[@]}"; do
		case ${T_KIND[i]} in test | build-fail) ;; *) continue ;; esac
		f=${T_FILE[i]}
		if [ -n "${T_SCRIPT[i]}" ]; then
			CUR=$i
			f=$(subst "${T_SCRIPT[i]}")
		fi
		grep -qsE '(^|[^[:alnum:]_])(perfctr[.]|@perfctr[(]|perfctr_read[(])' \
			"$f" && return 0
	done
	return 1
}

# judge_dmesg: the guest kernel's log must be clean, in every boot.  When
# a guest died before it could send the log, its console (errors and
# worse) is checked.
judge_dmesg() {
	local i=${#T_FILE[@]} ok=1
	mapfile -t KREPORT_JOBS < <(kreport_jobs)
	T_ID[i]=$ARCH/dmesg T_DESC[i]="guest kernel log has no BUG, WARNING or Oops"
	DIAG=""
	for WORK in "${WORKS[@]}"; do
		[ ${#WORKS[@]} = 1 ] || diag "the boot in ${WORK##*/}:"
		if [ -s "$WORK/retry" ]; then	# hung (said above): its console, and the retry
			[ -z "$(guest_kernel_reports "$WORK" "${KREPORT_JOBS[@]}")" ] || { diag_kernel; ok=0; }
			WORK=$(cat "$WORK/retry")
		fi
		if [ ! -f "$WORK/out/dmesg" ]; then
			diag "no kernel log: the guest did not finish (boot log: $WORK/console.log)"
			[ -s "$WORK/boot.err" ] && DIAG+=$(sed 's/^/  | /' "$WORK/boot.err")$'\n'
			[ -n "$(guest_kernel_reports "$WORK" "${KREPORT_JOBS[@]}")" ] && diag_kernel
			ok=0
		elif [ -n "$(guest_kernel_reports "$WORK" "${KREPORT_JOBS[@]}")" ]; then
			diag_kernel
			ok=0
		fi
		# a suite that asks for the labels free proves nothing if held
		if [ "$ARCH" = x86_64 ] && [ -n "${GUEST_LABELS:-}" ] &&
			[ "$(guest_ready_field "$WORK" labels)" != "$GUEST_LABELS" ]; then
			diag "the jump labels were $(guest_ready_field "$WORK" labels); GUEST_LABELS=$GUEST_LABELS"
			ok=0
		fi
	done
	tap_result "$ok" "$i"
	unset 'T_ID[i]' 'T_DESC[i]'
	note_known_reports
}

# note_known_reports: the boots' kernel reports in code that is not ours
# (testsuite/lib/known-reports), said apart: how many of each first line.
note_known_reports() {
	local w known
	for w in "${WORKS[@]}"; do
		[ -s "$w/retry" ] && w=$(cat "$w/retry")
		known=$(guest_known_reports "$w")
		[ -n "$known" ] || continue
		tap_diag_note "$ARCH: kernel reports in code not ours, listed apart" \
			"(testsuite/lib/known-reports), in ${w##*/}:"
		awk 'NR == 1 || prev == "--" { sub(/^\[ *[0-9.]+\] /, ""); print } { prev = $0 }' \
			<<<"$known" | sort | uniq -c | sed 's/^ */#   /' | head -n 10
	done
}
