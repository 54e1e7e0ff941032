# translator.sh - what the translator pass adds to `stap -p4` (bench/run
# section, host wall time, medians).  For each script: the front-end alone
# (stap-perfctr with a fake stap that exits at once, less the fake stap
# run directly: the exec real stap pays anyway), beside the whole
# `stap-perfctr -p4` for the arm64 guest, cached (stap's module cache hit:
# passes 1-3 and the cache check, the worst case for our share) and
# uncached (--poison-cache: pass 4 compiles the module).
# shellcheck shell=bash

TRANSLATOR_RUNS=${BENCH_TRANSLATOR_RUNS:-11}
TRANSLATOR_P4_RUNS=${BENCH_TRANSLATOR_P4_RUNS:-3}
# Scripts and their stap arguments, ';' between words, script arguments
# after '--' (examples: as their guest tests run them).
TRANSLATOR_SCRIPTS=(
	"syscall-ipc.stp|-c;@PROGS@/bench_loop syscalls 2000"
	"ipc-by-process.stp|-c;@PROGS@/insn_loop 5000000"
	"profile.stp|-d;@PROGS@/insn_loop;-c;@PROGS@/insn_loop 2000"
	"top-functions.stp|-d;@PROGS@/insn_loop;-c;@PROGS@/insn_loop 2000;--;3"
	"lock-hold.stp|-c;@PROGS@/locker 4 100 10000;--;@PROGS@/locker"
	"cache-misses-by-function.stp|-c;@PROGS@/touch_pages 2000"
	"gen5000.stp|"
)
# uncached: minutes per script on a loaded 2-CPU host; BENCH_UNCACHED=1
[ "${BENCH_UNCACHED:-0}" = 1 ] && TRANSLATOR_UNCACHED="syscall-ipc.stp gen5000.stp" ||
	TRANSLATOR_UNCACHED=""

# A 5,000-line script: 8 counters, 999 five-line functions reading them,
# and a probe calling every function.
translator_gen5000() {
	local i
	for ((i = 1; i <= 8; i++)); do
		echo "probe perfctr.event(\"$([ "$i" = 1 ] && echo cycles || echo instructions)\").counter(\"c$i\") {}"
	done
	for ((i = 1; i <= 999; i++)); do
		printf 'function f%d:long (x:long) {\n\ta = @perfctr("c%d")\n\tb = perfctr_read("c%d")\n\treturn x + a - b\n}\n' \
			"$i" $((i % 8 + 1)) $(((i + 3) % 8 + 1))
	done
	echo 'global sum'
	printf 'probe kprobe.function("__arm64_sys_getppid") {\n'
	for ((i = 1; i <= 999; i++)); do
		printf '\tsum += f%d(%d)\n' "$i" "$i"
	done
	echo '}'
}

# translator_args ENTRY: the words of an entry's arguments, @PROGS@ set.
translator_args() {
	local a=${1#*|}
	TRANSLATOR_ARGV=()
	[ -n "$a" ] && IFS=';' read -r -a TRANSLATOR_ARGV <<<"${a//@PROGS@/$BENCH_PROGS}"
	translator_split_args
}

translator_script_path() {
	[ "$1" = gen5000.stp ] && echo "$BENCH_WORK/scripts/gen5000.stp" ||
		echo "$BENCH_TOP/examples/$1"
}

# translator_median N CMD...: median wall ms of N runs.
translator_median() {
	local n=$1 i t0 ts=()
	shift
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1 </dev/null || { echo nan; return; }
		ts+=($((($(date +%s%N) - t0) / 1000)))
	done
	printf '%s\n' "${ts[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}

translator_table() {
	local e name path fake fe p4 p4u share_u stap cmd base
	mkdir -p "$BENCH_WORK/scripts" "$BENCH_WORK/fake"
	translator_gen5000 >"$BENCH_WORK/scripts/gen5000.stp"
	fake=$top_builddir/testsuite/unit/translator/fake-stap
	stap=$top_builddir/translator/stap-perfctr
	guest_runtime_opts
	echo "### Translator pass: wall ms on the host ($(nproc) CPUs), medians"
	echo
	echo "| script | lines | front-end alone ($TRANSLATOR_RUNS runs) | stap -p4, cached ($TRANSLATOR_P4_RUNS) | share | stap -p4, uncached (1) | share |"
	echo "|---|---|---|---|---|---|---|"
	for e in "${TRANSLATOR_SCRIPTS[@]}"; do
		name=${e%%|*}
		path=$(translator_script_path "$name")
		translator_args "$e"
		base=$(FAKE_STAP_OUT=$BENCH_WORK/fake translator_median "$TRANSLATOR_RUNS" "$fake" -p4 "$path")
		fe=$(FAKE_STAP_OUT=$BENCH_WORK/fake STAP_PERFCTR_STAP=$fake \
			translator_median "$TRANSLATOR_RUNS" "$stap" -p4 \
			"${TRANSLATOR_OPTS[@]}" "$path" "${TRANSLATOR_POS[@]}")
		fe=$(bench_over "$fe" "$base")
		cmd=("$stap" -p4 -r "$BENCH_KBUILD" "${GUEST_RUNTIME_OPTS[@]}" "${ARCH_STAP_OPTS[@]}")
		"${cmd[@]}" "${TRANSLATOR_OPTS[@]}" "$path" "${TRANSLATOR_POS[@]}" >/dev/null 2>"$BENCH_WORK/p4.err" ||
			{ log "$name: stap -p4 failed:"; sed 's/^/  /' "$BENCH_WORK/p4.err" >&2; BENCH_FAILED=1; }
		p4=$(translator_median "$TRANSLATOR_P4_RUNS" "${cmd[@]}" "${TRANSLATOR_OPTS[@]}" "$path" "${TRANSLATOR_POS[@]}")
		p4u="" share_u=""
		if [[ " $TRANSLATOR_UNCACHED " == *" $name "* ]]; then
			p4u=$(translator_median 1 "${cmd[@]}" --poison-cache "${TRANSLATOR_OPTS[@]}" "$path" "${TRANSLATOR_POS[@]}")
			share_u=$(awk -v a="$fe" -v b="$p4u" 'BEGIN { printf "%.2f%%", 100 * a / b }')
		fi
		echo "| $name | $(wc -l <"$path") | $fe | $p4 | $(awk -v a="$fe" -v b="$p4" 'BEGIN { printf "%.2f%%", 100 * a / b }') | $p4u | $share_u |"
	done
	echo
}

# The entry's words: options before "--", script arguments after.
translator_split_args() {
	local a seen=0
	TRANSLATOR_OPTS=() TRANSLATOR_POS=()
	for a in "${TRANSLATOR_ARGV[@]}"; do
		if [ "$a" = -- ]; then
			seen=1
		elif [ "$seen" = 1 ]; then
			TRANSLATOR_POS+=("$a")
		else
			TRANSLATOR_OPTS+=("$a")
		fi
	done
}

translator_queue() { :; }
