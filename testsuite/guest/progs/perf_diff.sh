#!/bin/sh
# perf_diff -x|-c EVENTS RUNNER MODULE ROW... - difftree's tree counted
# by a module and by the guest's Debian perf (perf stat -p, "#! needs:
# perf") in the same run, over the same window, and the two compared.
#
#   -x  difftree starts first and waits at its gate; the module follows
#       it (RUNNER -x PID MODULE)
#   -c  the module starts it (RUNNER -c 'difftree GATE ROW...' MODULE)
#
# Then, once the module says "started" (its script prints that when its
# counters exist in difftree), perf stat -p PID starts with its events
# off (-D -1) and turns them on through its control FIFO (the ack says
# when); a write to the module's procfs file "mark" makes the script
# take its counters' totals there ("marked"), and only then does the
# gate open: both windows begin while difftree waits, and both end when
# the whole tree has ended.  The module's script prints
# "ours SCOPE EVENT N" for each of its counters; perf_diff prints each
# "ok SCOPE EVENT N = perf N", or "FAIL ..." where they differ or one is
# missing, and "FAIL perf: EVENT ran P% ..." for an event perf did not
# count all the time it was enabled (multiplexed: the PMU was full).
# RUNNER is one word list (the test's @RUN@), unquoted here.
# Exits 1 when a step failed, else 0 (the lines say whether they agree).
# shellcheck disable=SC2046 # pidof's list of pids, one word each
# shellcheck disable=SC3045 # busybox's read has -t
dir=$(dirname "$0")
mode=$1 events=$2 runner=$3 module=$4
shift 4
d=$(mktemp -d /tmp/perf_diff.XXXXXX)
mkfifo "$d/gate" "$d/ctl" "$d/ack"
fail() {
	echo "FAIL: $*"
	cat "$d"/tree "$d"/mod "$d"/perf.err 2>/dev/null
	kill $(pidof stapio) $(pidof difftree) $(pidof perf) 2>/dev/null
	wait
	exit 1
}
case $mode in
-x)
	"$dir/difftree" "$d/gate" "$@" >"$d/tree" 2>&1 &
	guest-wait "$d/tree" '^difftree: pid [0-9]+$' 30 || fail "no difftree"
	pid=$(sed -n 's/^difftree: pid \([0-9]*\)$/\1/p' "$d/tree")
	# shellcheck disable=SC2086 # the runner's words
	$runner -x "$pid" "$module" >"$d/mod" 2>&1 &
	;;
-c)
	: >"$d/tree"
	# shellcheck disable=SC2086
	$runner -c "$dir/difftree $d/gate $*" "$module" >"$d/mod" 2>&1 &
	guest-wait "$d/mod" '^difftree: pid [0-9]+$' 60 || fail "no difftree"
	pid=$(sed -n 's/^difftree: pid \([0-9]*\)$/\1/p' "$d/mod")
	;;
*)
	echo "usage: perf_diff -x|-c EVENTS RUNNER MODULE ROW..." >&2
	exit 2
	;;
esac
guest-wait "$d/mod" '^started$' 60 || fail "the module did not start"
perf stat -x, -o "$d/stat" -e "$events" -D -1 \
	--control "fifo:$d/ctl,$d/ack" -p "$pid" 2>"$d/perf.err" &
perf=$!
# read-write opens: neither waits for perf to open its ends
exec 5<>"$d/ctl" 6<>"$d/ack"
echo enable >&5
read -r -t 30 _ <&6 || fail "perf stat -p $pid did not enable its events"
for f in /proc/systemtap/*/mark; do	# one module: ours
	echo mark >"$f"
done
guest-wait "$d/mod" '^marked$' 30 || fail "the module did not mark"
echo go >"$d/gate"
wait "$perf" || fail "perf stat -p $pid failed"
if [ "$mode" = -x ]; then
	while pidof difftree >/dev/null; do sleep 0.1; done
	kill -INT $(pidof stapio)
fi
wait
cat "$d/tree" "$d/mod" "$d/perf.err"
awk -F, '$3 != "" { print "perf", $3, $1 }' "$d/stat" >"$d/perf"
cat "$d/perf"
# perf stat -x, gives each event's share of its enabled time it ran
# (field 5): below 100 perf multiplexed it, and its count is an estimate
awk -F, '$3 != "" && $5 != "100.00" {
	print "FAIL perf:", $3, "ran", $5 "% of its enabled time: the counters did not all fit the PMU"
     }' "$d/stat"
# each of the module's counts beside perf's for the same event
awk 'FNR == NR { perf[$2] = $3; next }
     $1 == "ours" {
	if (!($3 in perf))
		print "FAIL", $2, $3, $4, "= perf (none)"
	else
		print $4 == perf[$3] ? "ok" : "FAIL", $2, $3, $4, "= perf", perf[$3]
     }' "$d/perf" "$d/mod"
rm -rf "$d"
