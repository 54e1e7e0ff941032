# test-lib.sh - what every .test script shares: a TAP case, a comparison,
# a skip, the result.  Sourced first thing (bash):
#
#   . "${top_srcdir:-.}/testsuite/lib/test-lib.sh"
#   test_plan 2
#   test_case "true succeeds" true
#   test_is "$(echo hi)" hi "echo prints its word"
#   test_done
#
#   test_plan N             the plan line, "1..N"
#   test_skip_all REASON    "1..0 # SKIP REASON" and exit 0: the test cannot
#                           run here (a tool missing, not root)
#   test_case DESC CMD...   run CMD (its output to $TEST_LOG): "ok" if it
#                           succeeds, else "not ok" and the log's last lines
#   test_expect DESC SCRIPT [FILE]
#                           the same for a shell SCRIPT evaluated in the
#                           test's own shell (what it sets stays set; what
#                           it prints goes where it says)
#   test_ok STATUS DESC [FILE]
#                           the same for a status already computed (0: ok)
#   test_is GOT WANT DESC [FILE]
#                           ok if the two strings are equal, else both
#                           shown (and FILE's last lines)
#   test_status GOT WANT DESC
#                           ok if a command's exit status GOT is WANT, else
#                           both, and the log's last lines
#   test_skip DESC REASON   "ok N - DESC # SKIP REASON": one case that
#                           cannot run
#   test_done               exit: 1 if a case failed, else 0
#
# TEST_TMP is a directory of the test's own, removed at exit; TEST_LOG
# ($TEST_TMP/log; a test may name another file) holds what a case's
# command printed, and whatever a test writes there before test_ok or
# test_expect is shown when that case fails (FILE instead, where a case
# names one); TEST_LOG_LINES is how many of its last lines (+1: all).
# S and B are the source and build trees (make check sets top_srcdir,
# top_builddir; without them, the tree this file is in: a test that
# finds this file from $0 runs from anywhere).
# shellcheck shell=bash

S=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck disable=SC2034 # B: for the tests that source this
B=${top_builddir:-$S}
TEST_TMP=$(mktemp -d)
TEST_LOG=$TEST_TMP/log TEST_LOG_LINES=20
: >"$TEST_LOG"
trap 'rm -rf "$TEST_TMP"' EXIT
test_n=0 test_failed=0

test_plan() { echo "1..$1"; }

test_skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# test_report STATUS DESC [DETAIL...]: one result line; on failure the
# DETAIL lines (default: the log's end), each as a TAP comment.
test_report() {
	local status=$1 desc=$2
	shift 2
	test_n=$((test_n + 1))
	if [ "$status" = 0 ]; then
		echo "ok $test_n - $desc"
		return 0
	fi
	test_failed=1
	echo "not ok $test_n - $desc"
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@"
	else
		tail -n "$TEST_LOG_LINES" "$TEST_LOG"
	fi | sed 's/^/#   /'
	return 1
}

test_case() {
	local desc=$1
	shift
	"$@" >"$TEST_LOG" 2>&1
	test_report $? "$desc"
}

# FILE is this case's TEST_LOG, a local one: the SCRIPT sees it too.
test_expect() {
	local TEST_LOG=${3:-$TEST_LOG}
	eval "$2"
	test_report $? "$1"
}

test_ok() {
	local TEST_LOG=${3:-$TEST_LOG}
	test_report "$1" "$2"
}

test_is() {
	local log=
	[ -z "${4:-}" ] || log=$(tail -n "$TEST_LOG_LINES" "$4")
	[ "$1" = "$2" ]
	test_report $? "$3" "got:  $1" "want: $2" ${log:+"$log"}
}

# For a checker, whose status and words both count: the status goes with
# the log, not into the description, which stays the same either way.
test_status() {
	local log
	log=$(tail -n "$TEST_LOG_LINES" "$TEST_LOG")
	[ "$1" = "$2" ]
	test_report $? "$3" "exit status $1, want $2" ${log:+"$log"}
}

test_skip() {
	test_n=$((test_n + 1))
	echo "ok $test_n - $1 # SKIP $2"
}

test_done() { exit "$test_failed"; }
