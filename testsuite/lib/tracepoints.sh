# tracepoints.sh - the kernel source view stap searches for tracepoints
# (sourced by guest-kernel, bash; after common.sh and arch.sh).
#
# To resolve a kernel.trace("NAME") probe, stap compiles one query module
# per tracepoint header it finds under the build tree and its "source"
# link: 172 headers for Linux 6.1, about 140 CPU-seconds on this machine,
# on the first tracepoint probe of each stack (cached per header in
# SYSTEMTAP_DIR afterwards).  The guest's build tree copy (kbuild/) has its
# "source" link point at $ARCH_DIR/ksrc instead of the kernel's common
# headers: a view of that tree in which every file is a link to the real
# one, except the tracepoint headers that define none of the tracepoints
# our scripts name.  Which those are is read, not listed: every
# kernel.trace("...") in the scripts given, the tests and examples of this
# source tree, our tapset and the stack's stap tapsets (their aliases use
# tracepoints too).  A header that mentions NAME as an event's name (the
# first or second argument of a TRACE_EVENT/DEFINE_EVENT-style macro) is
# kept; globs match as stap matches them.  Headers once kept stay kept
# ($ARCH_DIR/ksrc.list), so a module cached by an earlier run resolves
# the same.  A probe point that is not a literal (kernel.trace(@1)), or
# GUEST_TRACE_HEADERS=all, gives stap the whole tree.  The view's paths and
# the headers' contents are the kernel's, so stap's caches do not care
# which one it searched.
# shellcheck shell=bash
# shellcheck disable=SC2154 # ARCH_DIR, top_srcdir: common.sh, arch.sh

# Where stap (tapsets.cxx, tracepoint_builder::init_dw) looks for
# tracepoint headers, relative to the source tree.
TRACE_HEADER_GLOBS=(
	'include/trace/events/*.h' 'include/trace/*.h' 'include/ras/*_event.h'
	'arch/x86/entry/vsyscall/*trace.h' 'arch/x86/kernel/*trace.h'
	'arch/*/include/asm/*trace*.h' 'arch/*/include/asm/trace/*.h'
	'arch/*/kvm/*trace.h' 'fs/xfs/linux-*/xfs_tr*.h' 'fs/*/*trace*.h'
	'net/*/*trace*.h' 'sound/core/*_trace.h' 'sound/hda/*trace*.h'
	'sound/pci/hda/*_trace.h' 'drivers/base/regmap/*trace*.h'
	'drivers/gpu/drm/*_trace.h' 'drivers/gpu/drm/*/*_trace.h'
	'drivers/net/wireless/*/*/*trace*.h' 'drivers/usb/host/*trace*.h'
	'virt/kvm/*/*trace*.h'
)
# headers that match a glob but that stap never queries (it skips them)
TRACE_HEADER_SKIP_RE='/(define_trace|ftrace|trace_events|perf)\.h$|_event_types\.h$'

# trace_scripts [FILE...]: every script whose tracepoints must resolve:
# the FILEs, and what this tree and the stack's stap bring.
trace_scripts() {
	local tapsets=/usr/share/systemtap/tapset
	stack_is_tree && tapsets=$TREE_ROOT$tapsets
	printf '%s\n' "$@"
	find "$tapsets" "$top_srcdir/tapset" "$top_srcdir/examples" \
		"$top_srcdir/testsuite/guest" -name '*.stp*' -type f 2>/dev/null
	find "$top_srcdir/bench" -type f 2>/dev/null	# scripts in shell
}

# trace_names FILE...: the tracepoint names the scripts probe, one per
# line ("SYSTEM:" dropped), or "*" when one is not a literal.
trace_names() {
	[ $# -gt 0 ] || return 0
	if grep -qsE 'kernel\.trace\([[:space:]]*[^"[:space:]]' "$@"; then
		echo '*'
	fi
	{ grep -ohsE 'kernel\.trace\([[:space:]]*"[^"]*"' "$@" || true; } |
		sed 's/^[^"]*"//; s/"$//; s/^.*://' | sort -u
}

# trace_name_re NAMES: one ERE alternative per glob (stap's wildcards).
trace_name_re() {
	# shellcheck disable=SC2016 # $ is a character to quote here
	sed 's/[.+^$(){}|\\]/\\&/g; s/\*/[[:alnum:]_]*/g; s/?/[[:alnum:]_]/g' <<<"$1" |
		paste -sd '|' -
}

# trace_candidates TREE: the tracepoint headers stap would query in TREE
# (paths relative to it).
trace_candidates() {
	local g f
	(
		cd "$1" || exit 0
		shopt -s nullglob
		for g in "${TRACE_HEADER_GLOBS[@]}"; do
			for f in $g; do echo "$f"; done
		done
	) | grep -vE "$TRACE_HEADER_SKIP_RE" | sort -u
}

# trace_defining TREE NAMES: the candidate headers that define one of NAMES.
trace_defining() {
	local tree=$1 re
	re=$(trace_name_re "$2")
	[ -n "$re" ] || return 0
	(
		cd "$tree" || exit 0
		trace_candidates "$tree" | tr '\n' '\0' |
			xargs -0 -r grep -lzE \
			"[A-Z][A-Z0-9_]*\([[:space:]]*([[:alnum:]_]+[[:space:]]*,[[:space:]]*)?($re)[[:space:]]*[,)]" ||
			true
	)
}

# trace_view_make TREE TARGET VIEW DROP: in VIEW, a link to TARGET/PATH
# for every PATH of TREE (TARGET: the same tree as stap sees it) but the
# ones listed in file DROP; directories are links where nothing below them
# is dropped.
trace_view_make() {
	local tree=$1 target=$2 view=$3 drop=$4 d x keep
	local -A dropped=() inner=([.]=1)
	while IFS= read -r x; do
		dropped[$x]=1
		while [[ $x == */* ]]; do
			x=${x%/*}
			inner[$x]=1
		done
	done <"$drop"
	for d in "${!inner[@]}"; do
		mkdir -p "$view/$d"
		keep=()
		for x in "$tree/$d"/* "$tree/$d"/.[!.]*; do
			[ -e "$x" ] || [ -L "$x" ] || continue
			x=${x#"$tree/"}
			x=${x#./}
			if [ -n "${dropped[$x]:-}" ] || [ -n "${inner[$x]:-}" ]; then
				continue
			fi
			keep+=("$target/$x")
		done
		[ ${#keep[@]} = 0 ] || ln -s "${keep[@]}" "$view/$d/"
	done
}

# trace_view_update KBUILD TARGET [SCRIPT...]: make $ARCH_DIR/ksrc the view
# of the common headers (TARGET, as stap sees them) for these scripts and
# every one before; a new view only when the kept headers change.
trace_view_update() {
	local target=$2 tree names list=$ARCH_DIR/ksrc.list new n files=()
	shift 2
	tree=$(stack_host_path "$target")
	[ -d "$tree" ] || die "no kernel headers at $tree"
	mapfile -t files < <(trace_scripts "$@")
	names=$(trace_names "${files[@]}")
	if [ "${GUEST_TRACE_HEADERS:-}" = all ] || grep -qxF '*' <<<"$names"; then
		[ "$(readlink "$ARCH_DIR/ksrc")" = "$target" ] && return 0
		ln -sfn "$target" "$ARCH_DIR/ksrc.new"
		mv -T "$ARCH_DIR/ksrc.new" "$ARCH_DIR/ksrc"
		return 0
	fi
	new=$({ trace_defining "$tree" "$names"; cat "$list" 2>/dev/null || true; } |
		sort -u)
	if [ -f "$list" ] && [ "$new" = "$(cat "$list")" ] &&
		[ -d "$ARCH_DIR/ksrc/" ] && [ "$(readlink "$ARCH_DIR/ksrc")" != "$target" ]; then
		return 0
	fi
	vlog "tracepoint headers for stap: $(tr '\n' ' ' <<<"$new")"
	n=$(date +%s%N)
	mkdir -p "$ARCH_DIR/ksrc.d"
	trace_candidates "$tree" | grep -vxF -f <(printf '%s\n' "$new") \
		>"$ARCH_DIR/ksrc.d/$n.drop" || true
	trace_view_make "$tree" "$target" "$ARCH_DIR/ksrc.d/$n" "$ARCH_DIR/ksrc.d/$n.drop"
	ln -sfn "ksrc.d/$n" "$ARCH_DIR/ksrc.new"
	mv -T "$ARCH_DIR/ksrc.new" "$ARCH_DIR/ksrc"
	printf '%s\n' "$new" >"$list.tmp"
	mv "$list.tmp" "$list"
	# the view before this one may still be in use by a build: keep it
	find "$ARCH_DIR/ksrc.d" -mindepth 1 -maxdepth 1 ! -name "$n" ! -name "$n.drop" |
		sort | head -n -2 | xargs -r rm -rf
}
