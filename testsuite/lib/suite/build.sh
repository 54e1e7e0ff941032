# suite/build.sh - run-suite's builds: each test's module, built in the
# background, and which tests can build and run.
# Sourced by testsuite/guest/run-suite (bash), after its globals.
# shellcheck shell=bash
# shellcheck disable=SC2154 # run-suite's globals and the libraries'

# build_one I: build test I's module (in the background); leaves in
# $SUITE/I: ko (the module's path), build.log, build.rc, build.secs (wall)
# and build.cpu (CPU seconds).
build_one() {
	local i=$1 d=$SUITE/$1 rc=0 t0
	t0=$(now)
	if [ "${T_MODULE[i]}" = none ]; then
		: >"$d/ko"
		: >"$d/build.log"
		echo 0.0 >"$d/build.cpu"
	else
		run_timed "$d/build.cpu" build_words "$i" >"$d/ko" 2>"$d/build.log" || rc=$?
	fi
	echo "$rc" >"$d/build.rc"
	elapsed "$t0" >"$d/build.secs"
}

# build_words I: build test I's module; print its path.  SUITE_STAP_OPTS:
# more stap options for every module (a hang hunt's variant: hang-hunt).
# stap's overload guard is off (STP_NO_OVERLOAD): it ends a run whose
# probes take a share of the CPU it judges too large, and a TCG guest on a
# busy host reaches that share for the host's sake, not the probes'
# (perfctr_direct_x86 once, beside other guest work); no test is about it.
# A probe tries SUITE_TRYLOCK times, 10 us apart, to take the script's
# globals (MAXTRYLOCK: 1 s; stap's default is 100 tries, 1 ms) unless the
# test says how long: stap skips a probe that waits longer, and a vCPU
# that holds them while the busy host stops it, or while the selftest's
# NMI readers run on it (40 ms for one handler on a loaded host), makes
# the other's wait that long (perfctr_pmu_stopped and
# perfctr_race_threads lost markers so under a full CI).
build_words() (
	local more=() lock=()
	test_words "$1"
	read -ra more <<<"${SUITE_STAP_OPTS:-}"
	[[ " ${WORDS[*]} ${more[*]} " == *MAXTRYLOCK=* ]] ||
		lock=(-D "MAXTRYLOCK=${SUITE_TRYLOCK:-100000}")
	st_parse -D STP_NO_OVERLOAD "${lock[@]}" "${more[@]}" "${WORDS[@]}"
	st_build "$KBUILD"
)

# buildable I: does test I need a module built?
buildable() {
	case ${T_KIND[$1]} in test | build-fail) [ -z "${T_ERROR[$1]}" ] ;; *) false ;; esac
}

# runnable I: was test I built, to be run in the guest?
runnable() {
	[ "${T_KIND[$1]}" = test ] && [ -z "${T_ERROR[$1]}" ] &&
		[ "$(cat "$SUITE/$1/build.rc")" = 0 ]
}

# build_all: every test that needs a module, BUILD_JOBS at a time, the
# first alone (on a fresh cache it runs stap's kernel autoconf probes,
# about 40 s, which the others then reuse).
build_all() {
	local i running=0 first=1
	for i in "${!T_FILE[@]}"; do
		buildable "$i" || continue
		mkdir -p "$SUITE/$i"
		if [ "$first" = 1 ]; then
			build_one "$i"
			first=0
			continue
		fi
		build_one "$i" &
		running=$((running + 1))
		if [ "$running" -ge "$BUILD_JOBS" ]; then
			wait -n || true
			running=$((running - 1))
		fi
	done
	wait || true
}
