# stap.sh - split a stap command line into what builds the module on the
# host and what runs it in the guest, and build it (sourced, bash; after
# common.sh, arch.sh and guest.sh).
#
# The option table is stap 4.8's (cmdline.h STAP_SHORT_OPTIONS and the
# long options that take an argument), which is also right for stap 5.1:
# 5.1 adds only --build-as[=USER] and --language-server, neither of which
# takes the next word (docs/versions.md); like stap, options may follow the
# script (GNU permutation) and `--` ends them.  Run-time options:
#   -c CMD     both: stap resolves the target at build time, staprun runs it
#   -x PID     run only (the PID is the guest's)
#   -s N       both; staprun gets -b N (buffer size)
#   -w         both
#   -G N=V     run only: a module argument after the .ko
#   -o FILE    refused: the output must come back to the host
#   -p N       dropped: the build is always -p4
# Everything else goes to the build.  Names are in the st_ namespace.
# shellcheck shell=bash
# shellcheck disable=SC2154 # ARCH_STAP_OPTS: arch.sh

ST_SHORT="hVvtp:I:e:E:o:R:r:a:m:kgPc:x:D:bs:uqiwl:d:L:FS:B:J:jWG:T:"
ST_LONG_WITH_ARG=" vp compatible use-http-server remote tmpdir privilege
	modinfo rlimit-as rlimit-cpu rlimit-nproc rlimit-stack rlimit-fsize
	sysroot sysenv runtime benchmark-sdt-loops benchmark-sdt-threads
	target-namespaces "

# st_short_has_arg C: does short option C take an argument?
st_short_has_arg() {
	[[ $ST_SHORT == *"$1:"* ]]
}

# st_long_has_arg NAME: does --NAME (maybe abbreviated) take an argument?
st_long_has_arg() {
	local o
	for o in $ST_LONG_WITH_ARG; do
		[[ $o == "$1"* ]] && return 0
	done
	return 1
}

# st_option C VALUE: file one short option (VALUE empty when it has none).
st_option() {
	local c=$1 v=$2
	case $c in
	c) ST_BUILD+=(-c "$v"); ST_RUN+=(-c "$v") ;;
	x) ST_RUN+=(-x "$v") ;;
	s) ST_BUILD+=(-s "$v"); ST_RUN+=(-b "$v") ;;
	w) ST_BUILD+=(-w); ST_RUN+=(-w) ;;
	G) ST_GLOBALS+=("$v") ;;
	o) die "-o is not supported: the output must come back to the host" ;;
	p) ;;
	e) ST_HAVE_E=1; ST_BUILD+=(-e "$v") ;;
	*) if st_short_has_arg "$c"; then ST_BUILD+=("-$c" "$v"); else ST_BUILD+=("-$c"); fi ;;
	esac
}

# st_cluster ARG [NEXT]: file one "-abc" word; sets ST_USED to the number
# of words it took (2 when the last option's value is the next word).
st_cluster() {
	local w=${1#-} c
	ST_USED=1
	while [ -n "$w" ]; do
		c=${w:0:1}
		w=${w:1}
		[[ $c != : && $ST_SHORT == *"$c"* ]] ||
			die "stap: invalid option -- '$c'"
		if st_short_has_arg "$c"; then
			if [ -z "$w" ]; then
				[ $# -ge 2 ] || die "stap: option requires an argument -- '$c'"
				w=$2
				ST_USED=2
			fi
			st_option "$c" "$w"
			return
		fi
		st_option "$c" ""
	done
}

# st_parse ARGS...: fills ST_BUILD (options for the build), ST_RUN (for
# staprun), ST_GLOBALS (module arguments), ST_SCRIPT (the script file,
# empty with -e) and ST_ARGS (the script's arguments).
st_parse() {
	local a name
	ST_BUILD=() ST_RUN=() ST_GLOBALS=() ST_ARGS=() ST_HAVE_E=0
	local pos=()
	while [ $# -gt 0 ]; do
		a=$1
		case $a in
		--)
			shift
			pos+=("$@")
			break
			;;
		--*)
			name=${a#--}
			if [[ $name != *=* ]] && st_long_has_arg "$name"; then
				[ $# -ge 2 ] || die "stap: option '$a' requires an argument"
				ST_BUILD+=("$a" "$2")
				shift 2
			else
				ST_BUILD+=("$a")
				shift
			fi
			;;
		-?*)
			st_cluster "$@"
			shift "$ST_USED"
			;;
		*)
			pos+=("$a")
			shift
			;;
		esac
	done
	ST_SCRIPT=""
	if [ "$ST_HAVE_E" = 0 ]; then
		[ ${#pos[@]} -gt 0 ] || die "no script given (a file, or -e SCRIPT)"
		ST_SCRIPT=${pos[0]}
		pos=("${pos[@]:1}")
	fi
	ST_ARGS=("${pos[@]}")
}

# st_kallsyms: the command prefix that shows stap the guest kernel's
# symbols as /proc/kallsyms.  For a kernel without debuginfo stap takes
# the kernel's symbol table (-d kernel; symname(), backtraces) from this
# machine's /proc/kallsyms whatever -r says, so a module built here would
# name the guest's addresses by the host kernel's functions.  The guest's
# own (guest-kernel: RELEASE.map, its text symbols from a nokaslr boot, as
# every boot is) is bind-mounted over it in a mount namespace of the
# build's own, with a module's line after the kernel's symbols, as the
# real file has: stap ends the kernel's table at its last symbol before
# one, and without one takes its end as 0 (a size that wraps: no address
# is found).  Nothing (a build as before) where the map is missing or
# unshare cannot make the namespace (not root).
st_kallsyms() {
	local map=$ARCH_DIR/kallsyms/$ARCH_RELEASE.map view
	view=$map.kallsyms
	[ -s "$map" ] && unshare -m true 2>/dev/null || return 0
	if [ ! -s "$view" ] || [ "$map" -nt "$view" ]; then
		{ cat "$map" && printf 'ffffffffffffffff t guest_end\t[guest]\n'; } \
			>"$view.tmp" && mv "$view.tmp" "$view" || return 0
	fi
	printf '%s\0' unshare -m sh -c \
		'mount --bind "$0" /proc/kallsyms && exec "$@"' "$view"
}

# st_build KBUILD: build the module that ST_* describe (st_parse) and
# print its path.  stap's stderr passes through.  No -m here: -m turns
# stap's module cache off; the module keeps stap's name (stap_HASH_N),
# which is also the name it loads under.
st_build() {
	local kbuild=$1 stap ko cmd pos=()
	stap=$(guest_stap_cmd) || return
	guest_runtime_opts
	[ -n "$ST_SCRIPT" ] && pos+=("$ST_SCRIPT")
	pos+=("${ST_ARGS[@]}")
	mapfile -d '' cmd < <(st_kallsyms)
	cmd+=("$stap" -p4 -r "$kbuild" "${GUEST_RUNTIME_OPTS[@]}"
		"${ARCH_STAP_OPTS[@]}" "${ST_BUILD[@]}")
	# `--` only where a positional word could pass for an option
	[[ " ${pos[*]} " == *" -"* ]] && cmd+=(--)
	vlog "build: $(shjoin "${cmd[@]}" "${pos[@]}")"
	ko=$("${cmd[@]}" "${pos[@]}" | tail -n 1) || return
	if [ -z "$ko" ] || [ ! -f "$ko" ]; then
		log "stap printed no module path (got '$ko')"
		return 1
	fi
	readlink -f "$ko"
}
