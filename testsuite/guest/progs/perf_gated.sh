#!/bin/sh
# perf_gated [-e EVENTS] PROG ARGS... - PROG, a gated program (difftree),
# counted by the guest's Debian perf ("#! needs: perf") with perf stat -p
# from before it does anything.  PROG runs with a FIFO as its first
# argument, its gate; once it has printed "NAME: pid PID", perf stat -p
# PID starts with its events disabled (-D -1), is enabled through its
# control FIFO and says so on its ack FIFO, and only then does the gate
# open.  perf stat ends when PROG does.  Prints PROG's output, then
# "perf_gated: EVENT COUNT" for each event (COUNT as perf stat -x, prints
# it); exits 1 when perf failed, else with PROG's status.
events=task-clock
if [ "$1" = -e ]; then
	events=$2
	shift 2
fi
prog=$1
shift
dir=$(mktemp -d /tmp/perf_gated.XXXXXX)
mkfifo "$dir/gate" "$dir/ctl" "$dir/ack"
"$prog" "$dir/gate" "$@" >"$dir/out" 2>&1 &
child=$!
guest-wait "$dir/out" '^[^ ]+: pid [0-9]+$' 30 || { cat "$dir/out"; exit 1; }
pid=$(sed -n 's/^[^ ]*: pid \([0-9]*\)$/\1/p' "$dir/out" | head -n 1)
perf stat -x, -o "$dir/stat" -e "$events" -D -1 \
	--control "fifo:$dir/ctl,$dir/ack" -p "$pid" 2>"$dir/perf.err" &
perf=$!
# read-write opens: neither waits for perf to open its ends
exec 5<>"$dir/ctl" 6<>"$dir/ack"
echo enable >&5
# shellcheck disable=SC3045 # busybox sh's read has -t
if ! read -r -t 30 _ <&6; then
	echo "FAIL: perf stat -p $pid did not enable its events"
	cat "$dir/perf.err"
	kill "$perf" "$child"
	exit 1
fi
echo go >"$dir/gate"
wait "$child"
status=$?
wait "$perf" || { echo "FAIL: perf stat -p $pid failed"; status=1; }
cat "$dir/out" "$dir/perf.err"
awk -F, '$3 != "" { print "perf_gated:", $3, $1 }' "$dir/stat"
exit "$status"
