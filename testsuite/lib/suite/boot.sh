# suite/boot.sh - run-suite's boots: the guests that run the built
# modules, and the jobs each one runs.
# Sourced by testsuite/guest/run-suite (bash), after its globals.
# shellcheck shell=bash
# shellcheck disable=SC2154 # run-suite's globals and the libraries'

# Without REPEAT the guest runs the modules while the next ones build
# (build_and_boot): a boot starts, in the background, when the one before
# it has ended and GUEST_BATCH built tests (12) want the same number of
# CPUs (the tests with the longest limits build first); once every
# module is built, the rest boot, one boot per "smp:"
# value.  GUEST_BATCH=0: all builds first, then one boot per "smp:" value.
# With REPEAT: all builds first, then REPEAT_BOOTS boots per "smp:" value
# (repeat_boots).  Boot B with N CPUs has the work dir $SUITE/guest
# (GUEST_SMP) or $SUITE/guest-smpN, "-bB" after the first.

# build_and_boot: build every module and run every test.
build_and_boot() {
	local i order=() running=0
	BOOT_PID="" READY=()
	# the longest limits first: slow tests run in the early boots,
	# beside the builds, not in the last one after them
	mapfile -t order < <(for i in "${!T_FILE[@]}"; do
		buildable "$i" && echo "${T_TIMEOUT[i]} $i"
	done | sort -s -k1,1nr | cut -d' ' -f2)
	[ ${#order[@]} -gt 0 ] || return 0
	NEXT=0
	mkdir -p "$SUITE/${order[0]}"
	build_one "${order[0]}"
	for i in "${order[@]:1}"; do
		mkdir -p "$SUITE/$i"
		build_one "$i" &
		running=$((running + 1))
		while [ "$running" -ge "$BUILD_JOBS" ]; do
			reap_one && running=$((running - 1))
			promote "${order[@]}"
			maybe_boot 0
		done
	done
	while [ "$running" -gt 0 ]; do
		reap_one && running=$((running - 1))
		promote "${order[@]}"
		maybe_boot 0
	done
	BUILD_WALL=$(elapsed "$BUILD_T0")
	tap_diag_note "$ARCH: built the modules in ${BUILD_WALL}s"
	promote "${order[@]}"
	maybe_boot 1
}

# reap_one: wait for a build or the boot to end; true if it was a build.
reap_one() {
	local pid=""
	wait -n -p pid || true
	if [ -n "$BOOT_PID" ] && [ "$pid" = "$BOOT_PID" ]; then
		BOOT_PID=""
		return 1
	fi
	return 0
}

# promote ORDER...: the tests built since the last call, in ORDER (build
# order) up to the first still building, join READY[their smp value].
promote() {
	local order=("$@") i
	while [ "$NEXT" -lt ${#order[@]} ]; do
		i=${order[NEXT]}
		[ -f "$SUITE/$i/build.rc" ] || break
		runnable "$i" && READY[${T_BOOT[i]}]+=" $i"
		NEXT=$((NEXT + 1))
	done
}

# maybe_boot FINAL: unless a boot runs, boot the ready tests of a boot
# (T_BOOT) that has GUEST_BATCH of them (GUEST_SMP's first), in the
# background.  FINAL: boot every ready test, waiting for each boot.
maybe_boot() {
	local final=$1 smp batch=${GUEST_BATCH:-12} n ready
	while :; do
		if [ -n "$BOOT_PID" ]; then
			[ "$final" = 1 ] || return 0
			wait "$BOOT_PID" || true
			BOOT_PID=""
		fi
		smp=""
		for n in $(boot_smps); do
			read -r -a ready <<<"${READY[$n]:-}"
			[ ${#ready[@]} -gt 0 ] || continue
			if [ "$final" = 1 ] || { [ "$batch" -gt 0 ] && [ ${#ready[@]} -ge "$batch" ]; }; then
				smp=$n
				break
			fi
		done
		[ -n "$smp" ] || return 0
		boot_new "$smp"
		read -r -a ready <<<"${READY[$smp]}"
		for n in "${ready[@]}"; do
			boot_add "$n" 1
		done
		READY[$smp]=""
		boot_go "$smp" &
		BOOT_PID=$!
		if [ "$final" = 1 ]; then
			wait "$BOOT_PID" || true
			BOOT_PID=""
		fi
	done
}

# boot_smps: the boots the tests want (T_BOOT: their "smp:" values, and
# one for each "boot: own"), GUEST_SMP's first.
boot_smps() {
	local i smps=" $GUEST_SMP "
	for i in "${!T_FILE[@]}"; do
		[[ $smps == *" ${T_BOOT[i]} "* ]] || smps+="${T_BOOT[i]} "
	done
	echo "${smps:1:-1}"
}

# repeat_boots: REPEAT_BOOTS boots per "smp:" value; boot B runs test
# I's runs K with (K - 1) % REPEAT_BOOTS = B - 1, in rounds (every test's
# first run, then every test's second...).  A "boot: own" test changes
# the kernel for the runs after it (lockdep turns itself off after its
# first report): each of its runs gets a boot.
repeat_boots() {
	local smp b i k nb
	for smp in $(boot_smps); do
		nb=$REPEAT_BOOTS
		[[ $smp != */own-* ]] || nb=$REPEAT
		for ((b = 1; b <= nb; b++)); do
			boot_new "$smp"
			for ((k = b; k <= REPEAT; k += nb)); do
				for i in "${!T_FILE[@]}"; do
					[ "${T_BOOT[i]}" = "$smp" ] && runnable "$i" &&
						boot_add "$i" "$k"
				done
			done
			if [ -s "$WORK/root/jobs/list" ]; then
				boot_go "$smp"
			else
				unset 'WORKS[-1]'
			fi
		done
	done
}

# boot_new BOOT: a new boot (a T_BOOT: SMP CPUs, or SMP/own-ID, then
# /NEED for each need): sets WORK, adds it to WORKS.
boot_new() {
	local b n
	BOOT_N[$1]=$((${BOOT_N[$1]:-0} + 1))
	b=${BOOT_N[$1]}
	WORK=$SUITE/guest
	[ "$1" = "$GUEST_SMP" ] || WORK=$SUITE/guest-smp${1//[,=\/]/-}
	[ "$b" = 1 ] || WORK+=-b$b
	rm -rf "$WORK"
	mkdir -p "$WORK/root/jobs" "$WORK/root/stap"
	: >"$WORK/root/jobs/list"
	for n in $GUEST_NEEDS_KNOWN; do
		[[ $1/ != */$n/* ]] || guest_need_add "$WORK" "$n"
	done
	WORKS+=("$WORK")
	BOOTED=1
}

# boot_add I K: test I's run K in the boot being made ($WORK).
boot_add() {
	local ko script
	R_WORK[$1.$2]=$WORK
	ko=$(cat "$SUITE/$1/ko")
	[ -z "$ko" ] || [ -e "$WORK/root/stap/$(basename "$ko")" ] || {
		guest_module_add "$WORK" "$ko"
		script=${T_FILE[$1]}
		CUR=$1
		[ -z "${T_SCRIPT[$1]}" ] || script=$(subst "${T_SCRIPT[$1]}")
		cp "$script" "$WORK/root/stap/$(basename "$ko" .ko).stp"
	}
	add_job "$1" "$2" "$ko"
}

# boot_go BOOT: boot $WORK with its CPUs (BOOT: a T_BOOT); its wall and
# CPU seconds go to boot.wall and boot.cpu there.
boot_go() {
	local smp=${1%%/*} n try
	n=$(grep -c . "$WORK/root/jobs/list")
	for try in 1 2; do
		GUEST_SMP=$smp run_timed "$WORK/boot.cpu" guest_boot "$WORK" 2>"$WORK/boot.err" || true
		echo "$GUEST_BOOT_WALL" >"$WORK/boot.wall"
		guest_was_ready "$WORK" || [ "$try" = 2 ] || continue
		break
	done
	tap_diag_note "$ARCH: the guest ran $n modules in ${GUEST_BOOT_WALL}s" \
		"(${WORK##*/}; $ARCH_QEMU ${ARCH_QEMU_ARGS[*]} -smp $smp)"
	tap_diag_note "$ARCH: guest PMU: $(guest_pmu_summary "$WORK");" \
		"jump labels $(guest_ready_field "$WORK" labels)"
	if [ -e "$WORK/hung" ]; then
		boot_retry "$smp" HUNG "$(paste -sd ';' "$WORK/cpus" 2>/dev/null)"
	elif ! grep -q '^### guest-done' "$WORK/results.log" 2>/dev/null; then
		boot_retry "$smp" DIED "its console: ${WORK##*/}/console.log"
	fi
}

# boot_retry SMP HUNG|DIED WHERE: the boot in $WORK hung (QEMU stopped by
# guest_wait_qemu: silent past a job's limit, or at the boot's;
# guest_dump_cpus said where its vCPUs were: WHERE) or died (a guest
# kernel panic): said here, with the job it was in, and the jobs it did
# not finish run once more in a boot of their own, $WORK-retry
# ($WORK/retry names it: the judges look there for those jobs), the one
# it was in last.  A job that hangs that boot too fails; a panic fails
# ARCH/dmesg, which reads every boot's kernel log, whatever the retry
# does.
boot_retry() {
	local smp=${1%%/*} hung=$WORK r=$WORK-retry job
	job=$(awk '/^### guest-job-begin / { j = $3 } /^### guest-job-end / { j = "" }
		END { print (j == "" ? "none" : j) }' "$hung/results.log")
	tap_diag_note "$ARCH: the guest $2 in ${hung##*/} during job $job:" \
		"$3; the jobs it did not finish run again in ${r##*/}, that one last"
	# seen through QEMU's gdbstub (GUEST_GDB=1: guest-gdb.sh)
	[ ! -s "$hung/irqs" ] || tap_diag_note "$ARCH: at the hang: $(paste -sd ';' "$hung/irqs")"
	[ ! -s "$hung/ipis" ] || tap_diag_note "$ARCH: cross-CPU calls at the hang: $(paste -sd ';' "$hung/ipis")"
	[ ! -s "$hung/stacks" ] || tap_diag_note "$ARCH: the vCPUs' registers and stacks: $hung/stacks"
	# and their gist in the log, which outlives the work dir (the next
	# suite on this architecture empties it)
	[ ! -s "$hung/stacks" ] || grep -E '^(Thread |rip |eflags |  sp\+)' "$hung/stacks" |
		head -n 40 | sed 's/^/#   /'
	rm -rf "$r"
	mkdir -p "$r"
	cp -a "$hung/root" "$r/root"
	[ ! -f "$hung/needs" ] || cp "$hung/needs" "$r/needs"
	: >"$r/root/retry"	# /retry in the guest: this boot is a retry
	# the job it was in runs last: one that hangs the guest again (a
	# lost IPI under a loaded host's TCG did, twice) takes no other job
	# down with it
	awk -v j="$job" '$1 == j { last = $0; next } { print } END { if (last != "") print last }' \
		<(while read -r name limit; do
			[ -e "$hung/out/$name.status" ] || echo "$name $limit"
		done <"$hung/root/jobs/list") >"$r/root/jobs/list"
	echo "$r" >"$hung/retry"
	GUEST_SMP=$smp run_timed "$r/boot.cpu" guest_boot "$r" 2>"$r/boot.err" || true
	echo "$GUEST_BOOT_WALL" >"$r/boot.wall"
	tap_diag_note "$ARCH: the guest ran $(grep -c . "$r/root/jobs/list") modules again in ${GUEST_BOOT_WALL}s (${r##*/})"
}

# guest_was_ready WORK: did the boot get as far as its first job?  One
# that died before (a kernel that did not come up under a loaded host's
# TCG) boots once more: no test ran in it.  Its console is kept as
# console.log.1.
guest_was_ready() {
	grep -q '^### guest-ready' "$1/results.log" 2>/dev/null && return 0
	cp "$1/console.log" "$1/console.log.1" 2>/dev/null || true
	tap_diag_note "$ARCH: the guest did not come up in ${1##*/}; booting it again" \
		"(the first console: ${1##*/}/console.log.1)"
	return 1
}

# guest_totals: GUEST_WALL and GUEST_CPU, the boots' sums.
guest_totals() {
	local w
	GUEST_WALL=0 GUEST_CPU=0
	for w in "${WORKS[@]}" $(cat "${WORKS[@]/%//retry}" 2>/dev/null); do
		GUEST_WALL=$(sum "$GUEST_WALL" "$(cat "$w/boot.wall" 2>/dev/null || echo 0)")
		GUEST_CPU=$(sum "$GUEST_CPU" "$(cat "$w/boot.cpu" 2>/dev/null || echo 0)")
	done
}

# job_name I K: the guest job of test I's run K (".rK" when repeated).
job_name() {
	local id=${T_ID[$1]}
	id=${id//[^A-Za-z0-9_.-]/_}
	[ "$REPEAT" = 1 ] || id+=.r$2
	echo "$id"
}

# run_output I K: where the output of test I's run K is kept.
run_output() {
	if [ "$REPEAT" = 1 ]; then echo "$SUITE/$1/output"; else echo "$SUITE/$1/output.$2"; fi
}

# custom_run I KO: test I's "run:" command for the guest shell, with its
# placeholders filled (after st_parse: ST_RUN holds the run options).
custom_run() {
	local cmd run
	run=$(shjoin "$(guest_runner)" "${ST_RUN[@]}")
	cmd=$(subst "${T_RUN[$1]}")
	cmd=${cmd//@RUN@/$run}
	cmd=${cmd//@MODULE@//stap/$(basename "$2")}
	cmd=${cmd//@SCRIPT@//stap/$(basename "$2" .ko).stp}
	printf '%s' "${cmd//@NAME@/$(basename "$2" .ko)}"
}

# add_job I K KO: test I's run K (module KO) as a job of $WORK.
add_job() {
	local i=$1 k=$2 ko=$3
	test_words "$i"
	st_parse "${WORDS[@]}"
	if [ -n "${T_RUN[i]}" ]; then
		guest_job_add "$WORK" "$(job_name "$i" "$k")" "${T_TIMEOUT[i]}" \
			sh -c "$(custom_run "$i" "$ko")"
	else
		guest_job_add "$WORK" "$(job_name "$i" "$k")" "${T_TIMEOUT[i]}" \
			"$(guest_runner)" "${ST_RUN[@]}" \
			"/stap/$(basename "$ko")" "${ST_GLOBALS[@]}"
	fi
}
