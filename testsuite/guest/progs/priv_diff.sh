#!/bin/sh
# priv_diff SCRIPT MODULE ASSIGN - the privilege tests' comparison with
# perf itself.  Each clause of SCRIPT (a test's .stp) marked "// row SPEC"
# is a row: SPEC is the same request for perf_matrix.  At each
# kernel.perf_event_paranoid level, -1 to 3, as root and as user 1000, the
# module (loaded by staprun with perfctr_assign=ASSIGN, as that user)
# refuses some rows, each on its own line of the script; perf_event_open(2)
# called by the same user answers each row (perf_matrix).  One line a row:
#
#   ID perf AAAAA/AAARR module AAAAA/AAARR [looser|stricter|unanswered]
#
# A for allowed, R refused, E an error that is not perf's privilege
# answer, one a level (-1 .. 3), root's then the user's; then
#
#   rows N agree A stricter S looser L unanswered U
#
# (stricter: the module refuses what perf allows; looser, the other way:
# a bug), and where they disagree what the module said to the user at
# level 2.  Restores the sysctl.
progs=$(dirname "$0")
script=$1 module=$2 assign=$3
S=/proc/sys/kernel/perf_event_paranoid
old=$(cat $S)
rows=/tmp/priv_diff.rows
grep -n '// row ' "$script" |
	sed 's/^\([0-9]*\):.*\/\/ row \([^ ]*\).*/\1 \2/' >$rows
specs=$(cut -d' ' -f2 $rows)

# as USER CMD...: CMD as root (0) or as the user
as() {
	u=$1
	shift
	if [ "$u" = 0 ]; then "$@"; else "$progs/runas" "$u" "$@"; fi
}

for p in -1 0 1 2 3; do
	echo "$p" >$S
	for u in 0 1000; do
		# shellcheck disable=SC2086 # one word a row
		as "$u" "$progs/perf_matrix" $specs >"/tmp/priv_diff.perf.$p.$u"
		as "$u" timeout 30 staprun "$module" "$assign" 2>&1 |
			tee "/tmp/priv_diff.raw.$p.$u" | sed -n 's/.*\.stp:\([0-9]*\):[0-9]*: counter .*: refused: kernel\.perf_event_paranoid.*/\1/p' \
				>"/tmp/priv_diff.mod.$p.$u"
	done
done
echo "$old" >$S

agree=0 stricter=0 looser=0 unanswered=0 n=0
while read -r line spec; do
	id=${spec%%:*}
	perf='' mod=''
	for u in 0 1000; do
		[ "$u" = 1000 ] && perf=$perf/ mod=$mod/
		for p in -1 0 1 2 3; do
			case $(sed -n "s/^$id //p" /tmp/priv_diff.perf.$p.$u) in
			allowed) perf=${perf}A ;;
			refused) perf=${perf}R ;;
			*) perf=${perf}E ;;
			esac
			if grep -qx "$line" /tmp/priv_diff.mod.$p.$u; then
				mod=${mod}R
			else
				mod=${mod}A
			fi
		done
	done
	n=$((n + 1))
	# position by position: looser (perf R, module A) over stricter
	# (perf A, module R) over unanswered (perf E)
	lo='' st='' un='' i=1
	while [ $i -le ${#perf} ]; do
		a=$(echo "$perf" | cut -c$i) b=$(echo "$mod" | cut -c$i)
		[ "$a$b" = RA ] && lo=1
		[ "$a$b" = AR ] && st=1
		[ "$a" = E ] && un=1
		i=$((i + 1))
	done
	if [ -n "$lo" ]; then
		verdict=looser looser=$((looser + 1))
	elif [ -n "$st" ]; then
		verdict=stricter stricter=$((stricter + 1))
	elif [ -n "$un" ]; then
		verdict=unanswered unanswered=$((unanswered + 1))
	else
		verdict='' agree=$((agree + 1))
	fi
	echo "$id perf $perf module $mod${verdict:+ $verdict}"
done <$rows
echo "rows $n agree $agree stricter $stricter looser $looser unanswered $unanswered"
if [ $((looser + stricter)) != 0 ]; then
	echo "what the module said to user 1000 at level 2:"
	sed 's/^/  | /' /tmp/priv_diff.raw.2.1000
fi
