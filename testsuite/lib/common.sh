# common.sh - shared by every guest-test script (sourced, bash): where the
# source and build trees are, the configured tools, logging, locking and
# shell quoting.  Sets:
#   top_srcdir top_builddir   absolute
#   GUEST_ROOT                $top_builddir/build/guest (all caches live here)
#   REAL_STAP REAL_STAPRUN STAP_RUNTIME_DIR NEED_RUNTIME_SHIM
#   KERNEL_BUILD QEMU_X86_64 BUSYBOX HELPER_LIB_SOURCES HELPER_RUN_SOURCES
#   HELPER_LIBS HWCHECK_SOURCES HWCHECK_LIBS
# The configured values come from $GUEST_ROOT/config.sh, which `make`
# writes (testsuite/local.mk); anything already set in the environment wins,
# and without the file (a tree not yet configured) the defaults below apply.
# shellcheck shell=bash

# set -e also inside $(...): a failing step must stop the caller.
shopt -s inherit_errexit

# The source tree is two levels above this file.
top_srcdir=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

# The build tree: $top_builddir, else the current directory when it was
# configured, else the source tree (an in-tree build).
guest_find_builddir() {
	if [ -n "${top_builddir:-}" ]; then
		(cd "$top_builddir" && pwd)
	elif [ -f config.status ] && [ -f Makefile ]; then
		pwd
	else
		echo "$top_srcdir"
	fi
}
top_builddir=$(guest_find_builddir)
GUEST_ROOT=$top_builddir/build/guest
export top_srcdir top_builddir

GUEST_PROG=${GUEST_PROG:-$(basename "$0")}

log()  { echo "$GUEST_PROG: $*" >&2; }
die()  { log "$*"; exit 2; }
# verbose messages: only with GUEST_VERBOSE=1
vlog() { [ "${GUEST_VERBOSE:-0}" = 1 ] && log "$*"; return 0; }

# now: seconds since the epoch with fractions; elapsed T0: seconds since T0.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# run_timed FILE CMD...: run CMD (its status is ours); FILE gets the CPU
# seconds (user + system) it and its children used.
run_timed() {
	local f=$1 TIMEFORMAT='%U %S' rc=0
	shift
	{ time "$@" 2>&4 || rc=$?; } 4>&2 2>"$f.tmp"
	awk '{ printf "%.1f\n", $1 + $2 }' "$f.tmp" >"$f"
	rm -f "$f.tmp"
	return "$rc"
}

# shquote WORD: WORD quoted for any POSIX shell (busybox sh in the guest).
shquote() {
	local s=${1//\'/\'\\\'\'}
	printf "'%s'" "$s"
}

# shjoin WORD...: the words quoted and joined with spaces.
shjoin() {
	local w out=""
	for w in "$@"; do
		out+="${out:+ }$(shquote "$w")"
	done
	printf '%s' "$out"
}

# split_words STRING: print STRING's words NUL-terminated; quotes ('' "")
# and backslashes group as in the shell, nothing is expanded.
split_words() {
	printf '%s' "$1" | xargs -r printf '%s\0'
}

# with_lock FILE CMD...: run CMD holding an exclusive lock on FILE, so that
# concurrent runs do not prepare the same cache at once.
with_lock() {
	local lock=$1
	shift
	mkdir -p "$(dirname "$lock")"
	(
		flock 9
		"$@"
	) 9>"$lock"
}

# newer_than TARGET FILE...: true if TARGET is missing or older than any FILE.
newer_than() {
	local target=$1 f
	shift
	[ -e "$target" ] || return 0
	for f in "$@"; do
		[ "$f" -nt "$target" ] && return 0
	done
	return 1
}

# guest_load_config: the configured values, then defaults for what is
# still unset (a tree that has not been configured).
guest_load_config() {
	local cfg=$GUEST_ROOT/config.sh
	# The file assigns only what is unset: `: "${VAR:=value}"`.
	# shellcheck source=/dev/null
	[ -f "$cfg" ] && . "$cfg"
	: "${REAL_STAP:=$(command -v stap || echo /usr/bin/stap)}"
	: "${REAL_STAPRUN:=$(command -v staprun || echo /usr/bin/staprun)}"
	: "${STAP_RUNTIME_DIR:=/usr/share/systemtap/runtime}"
	: "${NEED_RUNTIME_SHIM:=no}"
	: "${QEMU_X86_64:=$(command -v qemu-system-x86_64 || true)}"
	: "${BUSYBOX:=$(command -v busybox || true)}"
	: "${KERNEL_BUILD:=/lib/modules/$(guest_newest_kernel)/build}"
	stack_apply	# a tree stack moves GUEST_ROOT (stack.sh)
}

# kernel_release_of BUILD-TREE: the release the tree builds modules for
# (uname -r of its kernel).  Not include/config/kernel.release: Debian
# writes the upstream version there (6.1.192 for 6.1.0-56-amd64).
kernel_release_of() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$1/include/generated/utsrelease.h" 2>/dev/null
}

# kbuild_common BUILD-TREE: the common half of a Debian headers tree (the
# tree its Makefile includes, as the stack's stap sees it; in a copy of
# guest-kernel's, its Makefile.kbuild); empty if none.
kbuild_common() {
	local mk=$1/Makefile
	[ ! -f "$1/Makefile.kbuild" ] || mk=$1/Makefile.kbuild
	sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$mk" 2>/dev/null
}

# guest_newest_kernel: the newest release under /lib/modules with headers.
guest_newest_kernel() {
	local d
	for d in $(printf '%s\n' /lib/modules/*/build/Makefile | sort -V -r); do
		[ -f "$d" ] || continue
		d=${d%/build/Makefile}
		echo "${d##*/}"
		return
	done
}

# guest_stap_cmd: the translator to build with: $STAP, else our front-end.
guest_stap_cmd() {
	local fe=$top_builddir/translator/stap-perfctr
	if stack_is_tree; then
		# the tree's stap, through chroot-run: the front-end runs it
		# (stack_apply exported STAP_PERFCTR_STAP: this runs in $(...))
		[ -x "$TREE_STAP" ] || die "no $TREE_STAP (the $TREE_SUITE tree is not made)"
		[ "${STAP:-}" = stap ] && { echo "$TREE_STAP"; return; }
	fi
	if [ -n "${STAP:-}" ]; then
		command -v "$STAP" >/dev/null || die "STAP=$STAP: no such program"
		echo "$STAP"
	elif [ -x "$fe" ]; then
		echo "$fe"
	else
		die "no front-end at $fe (run make, or set STAP=stap to use the real stap)"
	fi
}

# guest_runtime_opts: set GUEST_RUNTIME_OPTS to the -R option for the
# compat runtime when this stap needs it (configure: NEED_RUNTIME_SHIM);
# none with GUEST_STAP_OWN_RUNTIME=1 (STAP is an installed stap-perfctr).
guest_runtime_opts() {
	local rt=$top_builddir/build/stap-runtime
	# shellcheck disable=SC2034 # used by st_build (stap.sh)
	GUEST_RUNTIME_OPTS=()
	# an installed stap-perfctr (STAP) picks its own
	[ "${GUEST_STAP_OWN_RUNTIME:-0}" = 1 ] && return 0
	if stack_is_tree; then
		tree_runtime_opts
		return 0
	fi
	# a stack whose kernel gets a runtime of its own (debug-kernel.sh)
	if [ -n "${STACK_RUNTIME:-}" ]; then
		# shellcheck disable=SC2034
		GUEST_RUNTIME_OPTS=(-R "$STACK_RUNTIME")
		return 0
	fi
	[ "$NEED_RUNTIME_SHIM" = yes ] || return 0
	[ -f "$rt/stp_task_work.c" ] ||
		die "no patched runtime at $rt (run make; compat/local.mk builds it)"
	# shellcheck disable=SC2034
	GUEST_RUNTIME_OPTS=(-R "$rt")
}
