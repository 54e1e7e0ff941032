# suite/directives.sh - run-suite's directives: each test's "#! key:
# value" lines read into its T_* fields (run-suite's header lists them),
# and what its boot needs.
# Sourced by testsuite/guest/run-suite (bash), after its globals.
# shellcheck shell=bash
# shellcheck disable=SC2154 # run-suite's globals and the libraries'

# directive I TEXT: file one "#! key: value" of test I.
directive() {
	local i=$1 text=$2 key val=""
	text=${text#"${text%%[![:space:]]*}"}
	key=${text%%:*}
	[[ $text == *:* ]] && val=${text#*:} && val=${val#"${val%%[![:space:]]*}"}
	case $key in
	test) T_DESC[i]=$val ;;
	stap) T_STAP[i]+=" $val" ;;
	args) T_ARGS[i]+=" $val" ;;
	expect) T_EXPECT[i]+=$val$'\n' ;;
	expect-not) T_EXPECT_NOT[i]+=$val$'\n' ;;
	exit) T_EXIT[i]=$val ;;
	timeout) T_TIMEOUT[i]=$val ;;
	load-fail) T_LOAD_FAIL[i]+=$val$'\n' ;;
	build-fail) T_BUILD_FAIL[i]+=$val$'\n'; T_KIND[i]=build-fail ;;
	skip) T_SKIP[i]=$val; T_KIND[i]=skip ;;
	fixture) T_KIND[i]=fixture ;;
	run) T_RUN[i]=$val ;;
	script) T_SCRIPT[i]=$val ;;
	smp) T_SMP[i]=$val ;;
	boot) T_BOOT[i]=$val ;;
	module) T_MODULE[i]=$val ;;
	kernel) T_KERNEL[i]=$val ;;
	stacks) T_STACKS[i]=$val ;;
	kernel-report) T_KREPORT[i]+=$val$'\n' ;;
	needs) T_NEEDS[i]+=" $val" ;;
	*) T_ERROR[i]+="unknown directive '#! $text'; " ;;
	esac
}

# too_old I: test I (kernel: X.Y) is skipped on an older guest kernel.
too_old() {
	local i=$1 want=${T_KERNEL[$1]} have
	[ -n "$want" ] || return 0
	[[ $want =~ ^[0-9]+\.[0-9]+$ ]] || { T_ERROR[i]+="kernel is not X.Y; "; return 0; }
	have=$(sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<<"$ARCH_RELEASE")
	[ "$(printf '%s\n%s\n' "$want" "$have" | sort -V | head -n 1)" = "$want" ] && return 0
	T_KIND[i]=skip T_SKIP[i]="needs Linux $want or later; this guest runs $ARCH_RELEASE"
}

# other_stack I: test I (stacks: S...) is skipped on a stack it does not
# name, or (stacks: !S...) on one it names with a "!".
other_stack() {
	local i=$1 list=" ${T_STACKS[$1]} "
	[ -n "${T_STACKS[i]}" ] || return 0
	if [[ $list == *" !"* ]]; then
		[[ $list == *" !$GUEST_STACK "* ]] || return 0
		T_KIND[i]=skip T_SKIP[i]="not on the $GUEST_STACK stack (stacks:${T_STACKS[i]})"
		return 0
	fi
	[[ $list == *" $GUEST_STACK "* ]] && return 0
	T_KIND[i]=skip T_SKIP[i]="runs on the ${T_STACKS[i]} stack(s), not on $GUEST_STACK"
}

# round_plan: TEST_ROUND[NAME], the round of make check's that runs test
# NAME of the architecture, for a suite whose tests take turns
# (guest/run-job: GUEST_ROUND_CORE, the list that runs in every round,
# and GUEST_ROUNDS): the others, fixtures aside, in name order, take
# rounds 1 to GUEST_ROUNDS in turn.  Nothing without GUEST_ROUND_CORE or
# with a GUEST_ROUND that is not a number (all).
declare -A TEST_ROUND=()
round_plan() {
	local f name core fixtures k=0
	[ -n "${GUEST_ROUND_CORE:-}" ] && [[ ${GUEST_ROUND:-} =~ ^[1-9][0-9]*$ ]] || return 0
	core=" $(list_names "$GUEST_ROUND_CORE" | tr '\n' ' ') "
	# (grep -l fails where no file is a fixture: arm64's)
	fixtures=" $(grep -l '^#![[:space:]]*fixture' "$top_srcdir/testsuite/guest/$ARCH"/*.stp |
		tr '\n' ' ' || :) "
	for f in "$top_srcdir/testsuite/guest/$ARCH"/*.stp; do
		name=${f##*/} name=${name%.stp}
		[[ $core != *" $name "* && $fixtures != *" $f "* ]] || continue
		TEST_ROUND[$name]=$((k % GUEST_ROUNDS + 1))
		k=$((k + 1))
	done
}

# other_round I: test I is skipped in a round of make check that is not
# its own (round_plan).
other_round() {
	local i=$1 name=${T_FILE[$1]##*/} r
	r=${TEST_ROUND[${name%.stp}]:-}
	[ -n "$r" ] && [ "$r" != "$GUEST_ROUND" ] || return 0
	case ${T_KIND[i]} in test | build-fail) ;; *) return 0 ;; esac
	T_KIND[i]=skip T_SKIP[i]="make check runs it in round $r of $GUEST_ROUNDS, this is round $GUEST_ROUND (lists/$(basename "$GUEST_ROUND_CORE") runs in every round, GUEST_ROUND=all runs every test)"
}

# parse_test I FILE: read test I's directives from FILE's leading comments.
parse_test() {
	local i=$1 f=$2 line n=0
	T_FILE[i]=$f
	T_ID[i]=$(basename "$(dirname "$f")")/$(basename "$f" .stp)
	T_DESC[i]="" T_KIND[i]=test T_STAP[i]="" T_ARGS[i]="" T_EXPECT[i]=""
	T_EXPECT_NOT[i]="" T_EXIT[i]="" T_LOAD_FAIL[i]="" T_BUILD_FAIL[i]=""
	T_TIMEOUT[i]=$DEFAULT_TIMEOUT T_SKIP[i]="" T_RUN[i]="" T_SCRIPT[i]=""
	T_ERROR[i]="" T_SMP[i]=$GUEST_SMP T_MODULE[i]="" T_KERNEL[i]=""
	T_STACKS[i]="" T_KREPORT[i]="" T_BOOT[i]="" T_NEEDS[i]=""
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		'#! /'* | '#!/'*) [ "$n" = 1 ] || directive "$i" "${line#??}" ;;
		'#!'*) directive "$i" "${line#??}" ;;
		'#'* | '//'* | '') ;;
		*) break ;;
		esac
	done <"$f"
	[[ ${T_TIMEOUT[i]} =~ ^[0-9]+$ ]] || T_ERROR[i]+="timeout is not a number; "
	too_old "$i"
	other_stack "$i"
	other_round "$i"
	[[ -z ${T_EXIT[i]} || ${T_EXIT[i]} =~ ^[0-9]+$ ]] || T_ERROR[i]+="exit is not a number; "
	[[ ${T_SMP[i]} =~ ^[1-9][0-9]*(,sockets=[1-9][0-9]*)?$ ]] ||
		T_ERROR[i]+="smp is not a number of CPUs (and sockets=S); "
	case ${T_BOOT[i]} in
	"") T_BOOT[i]=${T_SMP[i]} ;;
	own) T_BOOT[i]=${T_SMP[i]}/own-${T_ID[i]//[^A-Za-z0-9_]/_} ;;
	*) T_ERROR[i]+="boot: '${T_BOOT[i]}' is not own; " ;;
	esac
	case ${T_MODULE[i]} in
	"") ;;
	none) [[ -n ${T_RUN[i]} && ${T_RUN[i]} != *@RUN@* && ${T_RUN[i]} != *@MODULE@* &&
		${T_RUN[i]} != *@NAME@* ]] ||
		T_ERROR[i]+="module: none needs a run: command that names no @RUN@, @MODULE@ or @NAME@; " ;;
	*) T_ERROR[i]+="module: '${T_MODULE[i]}' is not none; " ;;
	esac
	needs "$i"
	return 0
}

# needs I: test I's needs (guest.sh) join its boot key; one this guest
# cannot have skips it, saying why.
needs() {
	local i=$1 n why
	for n in ${T_NEEDS[i]}; do
		if [[ " $GUEST_NEEDS_KNOWN " != *" $n "* ]]; then
			T_ERROR[i]+="needs: '$n' is not one of: $GUEST_NEEDS_KNOWN; "
			continue
		fi
		T_BOOT[i]+=/$n
		why=$(guest_need_missing "$n")
		if [ -n "$why" ] && [ "${T_KIND[i]}" = test ]; then
			T_KIND[i]=skip T_SKIP[i]="needs $n: $why"
		fi
	done
	return 0
}

# suite_needs: the needs of the tests that will run, words.
suite_needs() {
	local i
	for i in "${!T_FILE[@]}"; do
		if [ "${T_KIND[i]}" = test ] && [ -z "${T_ERROR[i]}" ]; then
			# shellcheck disable=SC2086 # words
			printf '%s\n' ${T_NEEDS[i]}
		fi
	done | sort -u | paste -sd' ' -
}

# subst TEXT: the placeholders a directive may use.
subst() {
	local s=${1//@PROGS@/$(guest_progs_dir)}
	s=${s//@SRCDIR@/$(dirname "$(readlink -f "${T_FILE[CUR]}")")}
	s=${s//@TOPSRC@/$top_srcdir}
	printf '%s' "${s//@ARCH@/$ARCH}"
}

# test_words I: set WORDS to test I's stap command line (options, the
# script, its arguments).
test_words() {
	local i=$1 stap args
	CUR=$i
	stap=$(subst "${T_STAP[i]}")
	args=$(subst "${T_ARGS[i]}")
	WORDS=()
	mapfile -d '' -t WORDS < <(split_words "$stap")
	if [ -n "${T_SCRIPT[i]}" ]; then
		WORDS+=("$(subst "${T_SCRIPT[i]}")")
	else
		WORDS+=("${T_FILE[i]}")
	fi
	local a=()
	mapfile -d '' -t a < <(split_words "$args")
	[ ${#a[@]} -gt 0 ] && WORDS+=(-- "${a[@]}")
	return 0
}
