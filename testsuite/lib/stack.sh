# stack.sh - which software stack the guest tests build modules with and
# boot (sourced by arch.sh, bash; after common.sh).  GUEST_STACK (or the
# scripts' --stack) selects it:
#
#   bookworm  the default: this machine's own stap (4.8), kernel headers and
#             kernel image (Linux 6.1), staprun and busybox; caches in
#             build/guest/ARCH.  Nothing here changes it.
#   trixie    Debian trixie (SystemTap 5.1, Linux 6.12), forky (SystemTap
#   forky     5.6, Linux 7.x) or sid: a tree stack.  debootstrap makes a
#   sid       tree of the suite in build/SUITE/root (once, about 1 GB, a
#             few minutes): systemtap, gcc, make, linux-headers-amd64,
#             busybox-static, the -dev packages perfctr-run links and
#             what the Debian package builds with (deb.test).  stap
#             and gcc run inside it (testsuite/lib/chroot-run); the guest
#             boots the suite's kernel (only vmlinuz is unpacked, into
#             build/SUITE/kernel), with the suite's busybox, staprun,
#             stapio and a perfctr-run built inside the tree.  Caches in
#             build/SUITE/ARCH.  x86_64, and arm64 (below).  The suites
#             are rows of testsuite/stacks.tsv: nothing below names one.
#   rt        Debian bookworm's PREEMPT_RT kernel (linux-image-rt-amd64's
#             current release) with this machine's stap 4.8, staprun and
#             busybox: the image, its headers, the -common-rt headers and
#             linux-kbuild fetched with a private apt state (sysroot.sh)
#             into build/rt/root; booted with noirqdebug.  Caches in
#             build/rt/x86_64.  x86_64 only (the "rt" section below).
#   debug     Debian's bookworm kernel source built here with lockdep,
#   kcsan     KASAN (debug) or KCSAN (kcsan) and the other checkers, with
#             this machine's stap, staprun and busybox: debug-kernel.sh.
#
# Knobs: GUEST_TREE_MIRROR (the URI of the archive debootstrap fetches
# the suite from; default: the one this machine's apt sources give,
# apt-sources.sh; debootstrap goes through apt's proxy).  The host needs
# debootstrap (scripts/install-deps) and runs as root (chroot, mounts in a
# private namespace).  docs/versions.md records what differs.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the ARCH_* variables are for the sourcing scripts
# shellcheck disable=SC2154 # GUEST_ROOT, top_builddir...: common.sh

GUEST_STACK=${GUEST_STACK:-bookworm}

# The stacks are the rows of testsuite/stacks.tsv (STACKS_TSV), read once
# here; nothing below names one but the host stack's own code and rt's.
#   STACKS           every stack, in the table's order
#   STACK_KIND[S]    host, tree, rt or debug: which section sets S up
#   STACK_ARCHES[S]  the architectures S boots
#   TREE_SUITES[S]   a tree stack's archive parts beside the suite
#   DEBUG_STACKS[S]  a debug stack's configuration fragment
#   RT_PACKAGE       the package whose dependency names the rt kernel
# A tree stack's suite is its name: debootstrap knows each by its own
# script or, for a release newer than it, by sid's (the same bootstrap
# since bookworm).
# shellcheck source=testsuite/lib/tables.sh
. "$top_srcdir/testsuite/lib/tables.sh"
STACKS_TSV=${STACKS_TSV:-$top_srcdir/testsuite/stacks.tsv}
declare -gA STACK_KIND=() STACK_ARCHES=() TREE_SUITES=() DEBUG_STACKS=()
STACKS="" RT_PACKAGE=""
stacks_load() {
	local rows name kind arches source
	rows=$(table_rows "$STACKS_TSV" stack kind arches source) || exit 2
	while IFS=$'\x1f' read -r name kind arches source; do
		STACKS+="${STACKS:+ }$name"
		STACK_KIND[$name]=$kind
		STACK_ARCHES[$name]=$arches
		case $kind in
		host) ;;
		tree) TREE_SUITES[$name]=$source ;;
		rt) RT_PACKAGE=$source ;;
		debug) DEBUG_STACKS[$name]=$source ;;
		*) die "$STACKS_TSV: stack $name: kind '$kind' (host, tree, rt, debug)" ;;
		esac
	done <<<"$rows"
}
stacks_load
# shellcheck source=testsuite/lib/debug-kernel.sh
. "$top_srcdir/testsuite/lib/debug-kernel.sh"

# stack_is_rt: whether GUEST_STACK is the rt stack.
stack_is_rt() {
	[ "${STACK_KIND[$GUEST_STACK]:-}" = rt ]
}

# stack_is_tree: whether GUEST_STACK is a tree stack.
stack_is_tree() {
	[ -n "${TREE_SUITES[$GUEST_STACK]+set}" ]
}

# bump when tree_fetch_locked changes what it makes: old trees are redone
TREE_LAYOUT=1
# what the tree holds (debootstrap --include), besides its base system
TREE_PACKAGES=(systemtap gcc make linux-headers-amd64 busybox-static kmod
	libpfm4-dev libelf-dev libjansson-dev
	build-essential debhelper autoconf automake pkgconf)

# stack_apply: after guest_load_config: the chosen stack's paths.
stack_apply() {
	STACK_RUNTIME=""	# a runtime of the stack's own (debug-kernel.sh)
	[ -n "${STACK_KIND[$GUEST_STACK]+set}" ] ||
		die "GUEST_STACK=$GUEST_STACK: not a stack (${STACKS// /, })"
	case ${STACK_KIND[$GUEST_STACK]} in
	host) ;;
	rt) rt_apply ;;
	debug) debug_apply ;;
	tree)
		TREE_SUITE=$GUEST_STACK
		TREE_DIR=$top_builddir/build/$TREE_SUITE
		TREE_ROOT=$TREE_DIR/root
		TREE_STAP=$TREE_DIR/stap
		# the guest caches: build/SUITE/ARCH
		GUEST_ROOT=$TREE_DIR
		# our front-end runs the tree's stap, and its kernel probes
		# (translator/kconf.c) with the tree's make and compiler
		export STAP_PERFCTR_STAP=$TREE_STAP
		export STAP_PERFCTR_MAKE="$top_srcdir/testsuite/lib/chroot-run $TREE_ROOT make"
		;;
	esac
	export GUEST_STACK
}

# stack_option ARG: the value of a --stack or --stack=VALUE argument; sets
# GUEST_STACK.  (The scripts' option parsers call it.)
stack_option() {
	[[ " $STACKS " == *" $1 "* ]] || die "--stack $1: not a stack (${STACKS// /, })"
	GUEST_STACK=$1
	export GUEST_STACK
}

# stack_host_path PATH: where PATH, as the stack's stap sees it, is on this
# machine (a tree stack: stap runs in the tree, where /usr/src is the
# tree's).
stack_host_path() {
	if stack_is_tree && [ -e "$TREE_ROOT$1" ]; then
		echo "$TREE_ROOT$1"
	else
		echo "$1"
	fi
}

# ------------------------------------------------------------ the tree

# tree_apt_init DIR DEBARCH [MIRROR]: a private apt state (sysroot.sh) for
# the tree's suite and its archive parts.
tree_apt_init() {
	GUEST_DEBIAN_SUITE=$TREE_SUITE GUEST_DEBIAN_PARTS=${TREE_SUITES[$TREE_SUITE]} \
		GUEST_DEBIAN_MIRROR=${3:-${GUEST_DEBIAN_MIRROR:-}} sysroot_apt_init "$1" "$2"
}

# tree_debootstrap_script: the script argument debootstrap needs for a
# suite it has no script of (none when it has one).
tree_debootstrap_script() {
	local dir=/usr/share/debootstrap/scripts
	[ -e "$dir/$TREE_SUITE" ] || echo "$dir/sid"
}

# tree_stamp RELEASE: what a tree made now for RELEASE records.
tree_stamp() {
	echo "layout=$TREE_LAYOUT release=$1 packages=${TREE_PACKAGES[*]}"
}

# tree_release: the kernel release the tree was made for (empty: no tree,
# or one made by another layout or package list).
tree_release() {
	local stamp rel
	stamp=$(cat "$TREE_DIR/.stamp" 2>/dev/null || true)
	rel=${stamp#*release=}
	rel=${rel%%" "*}
	[ -n "$rel" ] && [ "$stamp" = "$(tree_stamp "$rel")" ] &&
		[ -x "$TREE_ROOT/usr/bin/stap" ] && echo "$rel"
	return 0
}

# tree_missing: what this machine lacks for a tree stack.
tree_missing() {
	local t
	[ "$(id -u)" = 0 ] || { echo "not root (chroot, mounts)"; return; }
	for t in debootstrap unshare chroot dpkg-deb apt-get readelf; do
		command -v "$t" >/dev/null || { echo "no $t (scripts/install-deps)"; return; }
	done
}

# tree_fetch: make the tree, the kernel image and the stap wrapper
# (dies on failure).
tree_fetch() {
	[ -n "$(tree_release)" ] || with_lock "$TREE_DIR/lock" tree_fetch_locked
	# the runtime copy again when the shims that make it changed
	if newer_than "$TREE_DIR/stap-runtime/.made" "$top_srcdir"/compat/make-stap-runtime \
		"$top_srcdir"/compat/patch-stap51-runtime; then
		with_lock "$TREE_DIR/lock" tree_make_runtime
	fi
	return 0
}

tree_fetch_locked() {
	local new=$TREE_ROOT.new mirror inc t0
	[ -n "$(tree_release)" ] && return 0	# another run made it meanwhile
	t0=$(now)
	mirror=${GUEST_TREE_MIRROR:-}
	[ -n "$mirror" ] || apt_archive mirror main "$TREE_SUITE" GUEST_TREE_MIRROR ||
		die "cannot make the $TREE_SUITE tree"
	log "making a Debian $TREE_SUITE tree in $TREE_ROOT from $mirror (debootstrap, once; minutes)"
	mkdir -p "$TREE_DIR/debs"
	rm -rf "$new"
	inc=$(IFS=,; echo "${TREE_PACKAGES[*]}")
	# shellcheck disable=SC2046 # NAME=VALUE words
	env $(apt_proxy_env) debootstrap --variant=minbase --arch=amd64 --include="$inc" \
		--cache-dir="$TREE_DIR/debs" "$TREE_SUITE" "$new" "$mirror" \
		$(tree_debootstrap_script) \
		>"$TREE_DIR/debootstrap.log" 2>&1 || {
		tail -n 30 "$TREE_DIR/debootstrap.log" >&2
		die "debootstrap failed (log: $TREE_DIR/debootstrap.log)"
	}
	tree_finish "$new" "$mirror"
	log "$TREE_SUITE tree for $(tree_release) ($(tree_version)) ready in $(elapsed "$t0")s"
}

# tree_finish NEW MIRROR: the rest, once debootstrap has made NEW: the
# kernel image, the runtime, the stap wrapper, the stamp; NEW becomes the
# tree.
tree_finish() {
	local new=$1 mirror=$2 rel apt=$TREE_DIR/apt deb
	rel=$(cd "$new/usr/src" && printf '%s\n' linux-headers-*-amd64 |
		sed -n 's/^linux-headers-\(.*[^*]\)$/\1/p' | sort -V | tail -n 1)
	[ -n "$rel" ] || die "the $TREE_SUITE tree has no linux-headers-*-amd64"
	rm -rf "$new/var/cache/apt/archives"/*.deb "$new/var/lib/apt/lists"/*_Packages
	# the kernel image: only vmlinuz (tree_unpack_vmlinuz; a private
	# apt state: the tree's own apt would need its network set up)
	tree_apt_init "$apt" amd64 "$mirror"
	sysroot_apt_update "$apt"
	rm -rf "$apt/debs"
	mkdir -p "$apt/debs" "$TREE_DIR/kernel"
	tree_unpack_vmlinuz "$apt" "$rel" >"$TREE_DIR/kernel/vmlinuz-$rel.tmp"
	mv "$TREE_DIR/kernel/vmlinuz-$rel.tmp" "$TREE_DIR/kernel/vmlinuz-$rel"
	rm -rf "$apt"
	rm -rf "$TREE_ROOT"
	mv "$new" "$TREE_ROOT"
	tree_make_runtime
	tree_make_wrapper
	tree_stamp "$rel" >"$TREE_DIR/.stamp"
}

# tree_unpack_vmlinuz APT RELEASE: the kernel image on stdout, from the
# package that holds it: linux-image-RELEASE's /boot/vmlinuz-RELEASE up to
# Linux 6.x; from 7.x linux-image-RELEASE is a metapackage and the image
# is linux-binary-RELEASE's /usr/lib/modules/RELEASE/vmlinuz.
tree_unpack_vmlinuz() {
	local apt=$1 rel=$2 p deb m
	for p in "linux-image-$rel" "linux-binary-$rel"; do
		sysroot_has_package "$apt" "$p" || continue
		sysroot_download "$apt" "$apt/debs" "$p"
		deb=$(sysroot_deb "$apt/debs" "$p")
		# (awk reads the whole list: dpkg-deb must not see a closed pipe)
		m=$(dpkg-deb -c "$deb" | awk -v rel="$rel" '
			!m && ($NF == "./boot/vmlinuz-" rel ||
			       $NF == "./usr/lib/modules/" rel "/vmlinuz") { m = $NF }
			END { print m }')
		[ -n "$m" ] || continue
		dpkg-deb --fsys-tarfile "$deb" | tar -x -O "$m" ||
			die "cannot unpack the kernel from $deb"
		return 0
	done
	die "no kernel image for $rel in linux-image-$rel or linux-binary-$rel"
}

# tree_make_wrapper: $TREE_STAP, the tree's stap as a host command
# (the front-end runs it: STAP_PERFCTR_STAP).
tree_make_wrapper() {
	cat >"$TREE_STAP.tmp" <<-EOF
		#!/bin/sh
		# the $TREE_SUITE tree's stap (testsuite/lib/stack.sh made this)
		exec '$top_srcdir/testsuite/lib/chroot-run' '$TREE_ROOT' stap "\$@"
	EOF
	chmod +x "$TREE_STAP.tmp"
	mv "$TREE_STAP.tmp" "$TREE_STAP"
}

# tree_version: the tree's stap version (5.1).
tree_version() {
	"$top_srcdir/testsuite/lib/chroot-run" "$TREE_ROOT" stap -V 2>&1 |
		sed -n 's/.*(version \([0-9.]*\).*/stap \1/p' | head -n 1
}

# tree_make_runtime: stap's runtime as the tree has it, patched for the
# tree's kernel where it needs it, in $TREE_DIR/stap-runtime: what
# configure and make do for an installed stap (compat/make-stap-runtime,
# which decides from the runtime's and the kernel's declarations, no
# version table: stap 5.1 on Linux 6.12 gets compat/patch-stap51-runtime;
# Debian's 5.1-5 already knows task_work_cancel_func; stap 5.6 on Linux 7.x
# loses its NAME_tp tracepoint type check).  Made again when those scripts
# change (tree_fetch).  docs/versions.md
# says why.
tree_make_runtime() {
	local rt=$TREE_ROOT/usr/share/systemtap/runtime out=$TREE_DIR/stap-runtime
	local kh
	kh=$(printf '%s\n' "$TREE_ROOT"/usr/src/linux-headers-*-common | sort -V | tail -n 1)
	"$top_srcdir/compat/make-stap-runtime" "$rt" "$out" "$kh" ||
		die "cannot make the $TREE_SUITE stap's runtime for its kernel"
	touch "$out/.made"
}

# tree_runtime_opts: GUEST_RUNTIME_OPTS for the tree's stap: always an
# explicit -R, so that the front-end does not add the host's compat runtime
# (made for stap 4.8), a path inside the tree (chroot-run) otherwise.
tree_runtime_opts() {
	if [ -d "$TREE_DIR/stap-runtime" ]; then
		GUEST_RUNTIME_OPTS=(-R "$TREE_DIR/stap-runtime")
	else
		GUEST_RUNTIME_OPTS=(-R /usr/share/systemtap/runtime)
	fi
}

# stack_install_map MAP: where the stack's stap reads the guest kernel's
# symbols.  stap 4.8 reads the -r tree's System.map (guest-kernel puts
# MAP there); stap 5.1 reads only /boot/System.map-RELEASE and
# /usr/lib/debug/boot/System.map-RELEASE, so a tree stack gets a copy
# in its /boot (stap runs inside it).
stack_install_map() {
	local dest
	stack_is_tree || return 0
	dest=$TREE_ROOT/boot/System.map-$ARCH_RELEASE
	newer_than "$dest" "$1" || return 0
	cp "$1" "$dest.tmp"
	mv "$dest.tmp" "$dest"
}

# stack_kbuild_fixups KBUILD: what the stack's stap needs in the guest
# kernel's build tree copy (guest-kernel calls it after each copy).
#
# stap 5.1's tracepoint query (the C it compiles to find each tracepoint,
# generated by the stap binary itself) defines __COUNT_ARGS/COUNT_ARGS
# counting to 12 after including <linux/tracepoint.h>; Linux 6.12's
# <linux/args.h> (reached through <linux/string.h>) defines them counting
# to 15, so every query fails on "COUNT_ARGS redefined" (-Werror) and no
# kernel.trace("...") probe resolves.  The fix is in stap (5.2); here the
# copy gets a linux/args.h in arch/ARCH/include/generated (searched before
# the common tree's include/) that is the kernel's own with the two lines
# as stap writes them: identical definitions are no redefinition.  Kernel
# code that counts more than 12 arguments would fail to build (none that a
# stap module includes here).  Made only when stap's text differs from the
# kernel's (configure-style: read from both, no version table).
stack_kbuild_fixups() {
	local kb=$1 src real shadow stapdef
	stack_is_tree || return 0
	src=$(kbuild_common "$kb")
	real=$TREE_ROOT$src/include/linux/args.h
	shadow=$kb/arch/$(tree_srcarch)/include/generated/linux/args.h
	[ -n "$src" ] && [ -f "$real" ] || return 0
	stapdef=$(strings "$TREE_ROOT/usr/bin/stap" |
		grep -E '^#define (__)?COUNT_ARGS\(' | head -n 2 || true)
	if [ "$(grep -c . <<<"$stapdef")" != 2 ] ||
		grep -qxF "$(head -n 1 <<<"$stapdef")" "$real"; then
		rm -f "$shadow"
		return 0
	fi
	mkdir -p "$(dirname "$shadow")"
	{
		echo "/* testsuite/lib/stack.sh: the kernel's linux/args.h with"
		echo " * COUNT_ARGS as stap 5.1's tracepoint query defines it */"
		STAPDEF=$stapdef awk '
			BEGIN { n = split(ENVIRON["STAPDEF"], d, "\n") }
			/^#define __COUNT_ARGS\(/ { print d[1]; next }
			/^#define COUNT_ARGS\(/ { print d[2]; next }
			{ print }
		' "$real"
	} >"$shadow.tmp"
	if ! cmp -s "$shadow.tmp" "$shadow"; then
		mv "$shadow.tmp" "$shadow"
		# stap caches the failed queries (empty .o) and its stapconf
		# header by hashes that do not cover this file
		rm -f "$ARCH_DIR"/stapdir/cache/*/tracequery_* \
			"$ARCH_DIR"/stapdir/cache/*/stapconf_*
	fi
	rm -f "$shadow.tmp"
}

tree_srcarch() {
	case $ARCH in
	x86_64) echo x86 ;;
	*) echo "$ARCH" ;;
	esac
}

# ------------------------------------------------------------ x86_64

# ------------------------------------------------------------ arm64
#
# As the bookworm arm64 guest (arch.sh), with trixie's arm64 packages in
# build/trixie/arm64/sysroot: linux-image and linux-headers of the tree's
# release (-arm64), busybox-static, systemtap-runtime and the -dev
# packages perfctr-run links, with all their dependencies (apt resolves
# them: trixie's staprun needs libdebuginfod and what it needs).  The
# headers' kbuild and common half are the tree's; stap cross-builds in the
# tree with its gcc-aarch64-linux-gnu (installed into the tree once,
# build/trixie/.stamp-cross).  The programs and perfctr-run are built with
# this machine's cross compiler (perfctr-run with --sysroot: trixie's libc
# and libraries).  Linux 6.12 has virtio_console built in: only
# virtio_mmio is loaded (modules are xz-compressed: unpacked plain).

TREE_ARM64_LAYOUT=1
TREE_ARM64_PACKAGES=(busybox-static systemtap-runtime)
declare -gA TREE_ARM64_LIB_PACKAGES=([pfm]=libpfm4-dev [elf]=libelf-dev
	[jansson]=libjansson-dev)
TREE_CROSS_PACKAGES=(gcc-aarch64-linux-gnu)

arch_setup_tree_arm64() {
	local stamp
	ARCH=arm64
	ARCH_DIR=$GUEST_ROOT/$ARCH
	ARCH_SYSROOT=$ARCH_DIR/sysroot
	ARM64_MODULES=(kernel/drivers/virtio/virtio_mmio.ko)
	ARCH_RELEASE=""
	stamp=$(cat "$ARCH_SYSROOT/.guest-sysroot" 2>/dev/null || true)
	if [ -n "$(tree_release)" ] && [ -f "$TREE_DIR/.stamp-cross" ] &&
		[ "$stamp" = "$(tree_arm64_stamp)" ]; then
		ARCH_RELEASE=$(tree_arm64_release)
	fi
	ARCH_HEADERS=$ARCH_SYSROOT/usr/src/linux-headers-$ARCH_RELEASE
	ARCH_VMLINUZ=$ARCH_SYSROOT/boot/vmlinuz-$ARCH_RELEASE
	arch_arm64_machine
	ARM64_HELPER_SYSROOT=$ARCH_SYSROOT
}

# tree_arm64_release: the tree's kernel, arm64 flavour.
tree_arm64_release() {
	local rel
	rel=$(tree_release)
	echo "${rel%-amd64}-arm64"
}

tree_arm64_packages() {
	local l pkgs=("${TREE_ARM64_PACKAGES[@]}")
	for l in ${HELPER_LIBS:--lpfm -lelf}; do
		l=${l#-l}
		[ -n "${TREE_ARM64_LIB_PACKAGES[$l]:-}" ] ||
			die "perfctr-run links -l$l: add its package to TREE_ARM64_LIB_PACKAGES (testsuite/lib/stack.sh)"
		pkgs+=("${TREE_ARM64_LIB_PACKAGES[$l]}")
	done
	printf '%s\n' "${pkgs[@]}" | sort -u | paste -sd, -
}

tree_arm64_stamp() {
	echo "$TREE_SUITE release=$(tree_arm64_release) layout=$TREE_ARM64_LAYOUT packages=$(tree_arm64_packages)"
}

# tree_arm64_fetch: the tree (tree_fetch), its cross compiler, the
# arm64 sysroot (dies on failure).
tree_arm64_fetch() {
	tree_fetch
	tree_add_packages cross "${TREE_CROSS_PACKAGES[@]}"
	arch_setup_tree_arm64
	[ -n "$ARCH_RELEASE" ] && return 0
	with_lock "$ARCH_DIR/lock" tree_arm64_fetch_locked
}

# tree_add_packages NAME PKG...: install PKG... into the tree once (after
# tree_fetch; the tree keeps them, TREE_DIR/.stamp-NAME says so): what only
# some runs need (the arm64 cross compiler, the package test's lintian).
tree_add_packages() {
	local name=$1
	shift
	[ "$(cat "$TREE_DIR/.stamp-$name" 2>/dev/null)" = "$*" ] && return 0
	with_lock "$TREE_DIR/lock" tree_add_packages_locked "$name" "$@"
}

tree_add_packages_locked() {
	local name=$1 log=$TREE_DIR/$1.log
	shift
	[ "$(cat "$TREE_DIR/.stamp-$name" 2>/dev/null)" = "$*" ] && return 0
	log "installing $* into the $TREE_SUITE tree (once)"
	{
		"$top_srcdir/testsuite/lib/chroot-run" "$TREE_ROOT" apt-get -q \
			-o Acquire::Check-Valid-Until=false update &&
		"$top_srcdir/testsuite/lib/chroot-run" "$TREE_ROOT" env \
			DEBIAN_FRONTEND=noninteractive apt-get -q install -y \
			--no-install-recommends "$@" &&
		"$top_srcdir/testsuite/lib/chroot-run" "$TREE_ROOT" apt-get clean
	} >"$log" 2>&1 || {
		tail -n 20 "$log" >&2
		die "cannot install $* into the $TREE_SUITE tree"
	}
	echo "$*" >"$TREE_DIR/.stamp-$name"
}

tree_arm64_fetch_locked() {
	local apt=$ARCH_DIR/apt new=$ARCH_SYSROOT.new rel t0 d
	arch_setup_tree_arm64
	[ -n "$ARCH_RELEASE" ] && return 0	# another run made it meanwhile
	t0=$(now)
	rel=$(tree_arm64_release)
	log "fetching Debian $TREE_SUITE arm64 packages into $ARCH_SYSROOT (once)"
	tree_apt_init "$apt" arm64
	sysroot_apt_update "$apt"
	rm -rf "$new" "$apt/debs"
	mkdir -p "$apt/debs"
	# merged /usr, as trixie's base-files makes it
	mkdir -p "$new/usr/bin" "$new/usr/sbin" "$new/usr/lib"
	for d in bin sbin lib; do
		ln -s "usr/$d" "$new/$d"
	done
	sysroot_download "$apt" "$apt/debs" "linux-image-$rel" "linux-headers-$rel"
	# shellcheck disable=SC2046 # package names: one word each
	sysroot_apt "$apt" install -y --download-only --no-install-recommends \
		-o Debug::NoLocking=1 -o Dir::Cache::Archives="$apt/debs" \
		$(tree_arm64_packages | tr , ' ') >"$apt/closure.log" 2>&1 || {
		cat "$apt/closure.log" >&2
		die "cannot download the $TREE_SUITE arm64 packages"
	}
	ARM64_KBUILD_ROOT=$TREE_ROOT arm64_unpack_kernel "$apt" "$rel" "$new"
	sysroot_unpack_all "$apt/debs" "$new" 'linux-*'
	tree_arm64_stamp >"$new/.guest-sysroot"
	rm -rf "$ARCH_SYSROOT" "$apt"
	mv "$new" "$ARCH_SYSROOT"
	log "$TREE_SUITE arm64 sysroot for $rel ready in $(elapsed "$t0")s"
}

arch_setup_tree_x86_64() {
	ARCH=x86_64
	ARCH_DIR=$GUEST_ROOT/$ARCH
	ARCH_RELEASE=$(tree_release)
	ARCH_SYSROOT=$TREE_ROOT
	ARCH_HEADERS=$TREE_ROOT/usr/src/linux-headers-$ARCH_RELEASE
	ARCH_VMLINUZ=$TREE_DIR/kernel/vmlinuz-$ARCH_RELEASE
	arch_x86_64_machine
	ARCH_BUSYBOX=$TREE_ROOT/usr/bin/busybox
	ARCH_STAPRUN=$TREE_ROOT/usr/bin/staprun
	ARCH_HELPER=$ARCH_DIR/helper/perfctr-run
}

# tree_build_helper: perfctr-run built inside the tree, as helper/local.mk
# builds it (HELPER_LIB_SOURCES, HELPER_RUN_SOURCES, HELPER_LIBS from
# config.sh), against trixie's libraries, into $ARCH_DIR/helper/; again
# when a source or header is newer.  Only when this tree has built its own
# perfctr-run (else the guest uses staprun, as on bookworm).
tree_build_helper() {
	local s srcs=() hdrs log=$ARCH_DIR/helper/cc.log
	if [ ! -x "$top_builddir/helper/perfctr-run" ]; then
		rm -f "$ARCH_HELPER"
		return 0
	fi
	mkdir -p "$ARCH_DIR/helper"
	for s in ${HELPER_LIB_SOURCES:-} ${HELPER_RUN_SOURCES:-}; do
		[[ $s == *.c ]] && srcs+=("$top_srcdir/$s")
	done
	[ ${#srcs[@]} -gt 0 ] || die "no HELPER_RUN_SOURCES in config.sh (run make)"
	hdrs=("$top_srcdir"/helper/*.h "$top_srcdir"/runtime/perfctr_*.h
		"$top_builddir/config.h" "$TREE_DIR/.stamp")
	newer_than "$ARCH_HELPER" "${srcs[@]}" "${hdrs[@]}" || return 0
	vlog "building $ARCH_HELPER in the $TREE_SUITE tree"
	# shellcheck disable=SC2086 # HELPER_LIBS: words
	"$top_srcdir/testsuite/lib/chroot-run" "$TREE_ROOT" \
		gcc -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
		-Werror=implicit-function-declaration -D_GNU_SOURCE \
		-I"$top_srcdir/helper" -I"$top_srcdir/runtime" -I"$top_builddir" \
		-DPERFCTR_VERSION="\"${PERFCTR_VERSION:?no PERFCTR_VERSION in config.sh (run make)}\"" \
		-DREAL_STAPRUN='"/usr/bin/staprun"' -o "$ARCH_HELPER.tmp" \
		"${srcs[@]}" ${HELPER_LIBS:--lpfm -lelf} >"$log" 2>&1 || {
		cat "$log" >&2
		die "cannot build perfctr-run in the $TREE_SUITE tree"
	}
	mv "$ARCH_HELPER.tmp" "$ARCH_HELPER"
}

# ------------------------------------------------------------ rt
#
# Debian bookworm's PREEMPT_RT kernel in the x86_64 guest, built for by this
# machine's own stap 4.8 (and front-end), with this machine's staprun,
# busybox and perfctr-run in the guest: only the kernel differs from
# bookworm.  rt_fetch resolves the current release of linux-image-rt-amd64
# (6.1.0-57-rt-amd64) with a private apt state (sysroot.sh, bookworm), and
# downloads linux-image-RELEASE, linux-headers-RELEASE and what the headers
# depend on (linux-headers-ABI-common-rt, linux-kbuild-6.1) into
# build/rt/debs; build/rt/root gets the image's vmlinuz and config and the
# three headers packages whole.  Nothing is installed on the host: the
# headers' Makefile names the -common-rt tree by its absolute path
# (`include /usr/src/linux-headers-ABI-common-rt/Makefile`); the unpacked
# copy names it where it lies in build/rt/root, so the kbuild copy
# (guest-kernel) and its `source` link, which are made from that line,
# resolve without a /usr/src link.  The guest boots with noirqdebug: under
# TCG the RT kernel's threaded 8250 handler is slow enough that the
# spurious-interrupt detector disables the result port's IRQ ("irq 3:
# nobody cared").  Remade when build/rt/.stamp (layout, release, packages)
# does not match, files are missing, or GUEST_RT_RELEASE names another
# release.  Knobs: GUEST_RT_RELEASE (a release, e.g. 6.1.0-57-rt-amd64;
# default: what linux-image-rt-amd64 depends on now), and sysroot.sh's
# mirror knobs.

# bump when rt_fetch_locked changes what it makes: old trees are redone
RT_LAYOUT=1

rt_apply() {
	RT_DIR=$top_builddir/build/rt
	RT_ROOT=$RT_DIR/root
	# the guest caches: build/rt/ARCH
	GUEST_ROOT=$RT_DIR
}

# rt_release: the release build/rt/root holds (empty: none, or made by
# another layout, or not the one GUEST_RT_RELEASE asks for).
rt_release() {
	local stamp rel re="^layout=$RT_LAYOUT release=([^ ]+) packages=[^ ]+\$"
	stamp=$(cat "$RT_DIR/.stamp" 2>/dev/null || true)
	[[ $stamp =~ $re ]] || return 0
	rel=${BASH_REMATCH[1]}
	[ -z "${GUEST_RT_RELEASE:-}" ] || [ "$GUEST_RT_RELEASE" = "$rel" ] || return 0
	[ -f "$RT_ROOT/usr/src/linux-headers-$rel/Makefile" ] &&
		[ -f "$RT_ROOT/boot/vmlinuz-$rel" ] && echo "$rel"
	return 0
}

# rt_missing: what this machine lacks for the rt stack (the x86_64 guest's
# own needs are checked by arch_missing).
rt_missing() {
	local t
	for t in apt-get apt-cache dpkg-deb; do
		command -v "$t" >/dev/null || { echo "no $t"; return; }
	done
	[ -n "$(rt_release)" ] || [ -r "$SYSROOT_KEYRING" ] ||
		echo "no $SYSROOT_KEYRING (apt-get install debian-archive-keyring)"
}

arch_setup_rt_x86_64() {
	ARCH=x86_64
	ARCH_DIR=$GUEST_ROOT/$ARCH
	ARCH_RELEASE=$(rt_release)
	ARCH_HEADERS=$RT_ROOT/usr/src/linux-headers-$ARCH_RELEASE
	ARCH_VMLINUZ=$RT_ROOT/boot/vmlinuz-$ARCH_RELEASE
	arch_x86_64_machine
	[[ " $ARCH_APPEND " == *" noirqdebug "* ]] || ARCH_APPEND+=" noirqdebug"
	# the guest's user space is this machine's, as on bookworm
	ARCH_SYSROOT=/
	ARCH_BUSYBOX=$BUSYBOX
	ARCH_STAPRUN=$REAL_STAPRUN
	ARCH_HELPER=$top_builddir/helper/perfctr-run
	stack_runtime_shim
}

# stack_runtime_shim: NEED_RUNTIME_SHIM for a kernel of its own that this
# machine's stap builds for (rt, debug), decided by compat/make-stap-runtime
# --needs from ARCH_HEADERS's own declarations (no version table): the
# compat runtime where the kernel renamed task_work_cancel() to
# task_work_cancel_func(), or has 6.12's uprobes API
# (uprobe_unregister_nosync), and stap's runtime does not know it.
# guest_runtime_opts (common.sh) then gives stap -R build/stap-runtime.
# (The shim picks the function at compile time, so where the stack's kernel
# does not need it but the configured one does, the front-end adding it
# anyway is harmless.)
stack_runtime_shim() {
	[ -n "$ARCH_RELEASE" ] || return 0
	if [ -n "$("$top_srcdir/compat/make-stap-runtime" --needs \
		"$STAP_RUNTIME_DIR" "$ARCH_HEADERS")" ]; then
		NEED_RUNTIME_SHIM=yes
	else
		NEED_RUNTIME_SHIM=no
	fi
}

# rt_fetch: make build/rt/root (dies on failure), and the compat runtime
# when the rt kernel needs it and this build tree has none (a tree
# configured for a kernel without the rename).
rt_fetch() {
	[ -n "$(rt_release)" ] || with_lock "$RT_DIR/lock" rt_fetch_locked
	ARCH_RELEASE=$(rt_release)
	ARCH_HEADERS=$RT_ROOT/usr/src/linux-headers-$ARCH_RELEASE
	stack_make_shim "$RT_DIR/lock"
}

# stack_make_shim LOCK: after stack_runtime_shim, make the compat runtime
# when the kernel needs it and this build tree has none (a tree configured
# for a kernel without the rename).
stack_make_shim() {
	stack_runtime_shim
	if [ "$NEED_RUNTIME_SHIM" = yes ] &&
		[ ! -f "$top_builddir/build/stap-runtime/stp_task_work.c" ]; then
		with_lock "$1" stack_make_shim_locked
	fi
	return 0
}

stack_make_shim_locked() {
	[ -f "$top_builddir/build/stap-runtime/stp_task_work.c" ] && return 0
	log "the $GUEST_STACK kernel needs the compat runtime: making build/stap-runtime"
	"$top_srcdir/compat/make-stap-runtime" "$STAP_RUNTIME_DIR" \
		"$top_builddir/build/stap-runtime" "$ARCH_HEADERS" ||
		die "cannot make the compat runtime for the $GUEST_STACK kernel"
}

# rt_resolve APT: the release to fetch: GUEST_RT_RELEASE, else the one
# RT_PACKAGE (linux-image-rt-amd64) depends on.
rt_resolve() {
	local apt=$1 rel
	if [ -n "${GUEST_RT_RELEASE:-}" ]; then
		sysroot_has_package "$apt" "linux-image-$GUEST_RT_RELEASE" ||
			die "GUEST_RT_RELEASE=$GUEST_RT_RELEASE: no linux-image-$GUEST_RT_RELEASE in the archive"
		echo "$GUEST_RT_RELEASE"
		return
	fi
	rel=$(sysroot_apt_cache "$apt" depends "$RT_PACKAGE" |
		sed -n 's/^ *Depends: linux-image-\([^ ]*-rt-amd64\)$/\1/p' |
		sort -V | tail -n 1)
	[ -n "$rel" ] || die "no PREEMPT_RT kernel in the archive ($RT_PACKAGE)"
	echo "$rel"
}

# rt_header_deps APT RELEASE: the packages linux-headers-RELEASE needs to
# build modules: its -common-rt half and linux-kbuild.
rt_header_deps() {
	local deps
	deps=$(sysroot_apt_cache "$1" depends "linux-headers-$2" |
		sed -n 's/^ *|\{0,1\}Depends: \(linux-headers-[^ ]*-common-rt\|linux-kbuild-[^ ]*\)$/\1/p' |
		sort -u)
	if ! grep -q -- '-common-rt$' <<<"$deps" || ! grep -q '^linux-kbuild-' <<<"$deps"; then
		die "linux-headers-$2: no -common-rt or linux-kbuild dependency (got: $deps)"
	fi
	echo "$deps"
}

rt_fetch_locked() {
	local apt=$RT_DIR/apt new=$RT_ROOT.new rel pkgs p deb file t0 common hdr
	[ -n "$(rt_release)" ] && return 0	# another run made it meanwhile
	t0=$(now)
	log "fetching Debian bookworm's PREEMPT_RT kernel into $RT_ROOT (once)"
	GUEST_DEBIAN_SUITE=bookworm sysroot_apt_init "$apt" amd64
	sysroot_apt_update "$apt"
	rel=$(rt_resolve "$apt")
	# shellcheck disable=SC2207 # package names: one word each
	pkgs=("linux-image-$rel" "linux-headers-$rel" $(rt_header_deps "$apt" "$rel"))
	mkdir -p "$RT_DIR/debs"
	# the .debs stay in build/rt/debs: only the versions not there yet
	# are downloaded (the old ones go)
	for p in "${pkgs[@]}"; do
		file=$(sysroot_apt_cache "$apt" show --no-all-versions "$p" |
			sed -n 's|^Filename: .*/||p' | head -n 1)
		[ -n "$file" ] || die "no $p in the archive"
		[ -f "$RT_DIR/debs/$file" ] && continue
		rm -f "$RT_DIR/debs/${p}"_*.deb
		sysroot_download "$apt" "$RT_DIR/debs" "$p"
	done
	rm -rf "$new"
	mkdir -p "$new"
	deb=$(sysroot_deb "$RT_DIR/debs" "linux-image-$rel")
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$new" "./boot/vmlinuz-$rel" "./boot/config-$rel" ||
		die "cannot unpack the kernel from $deb"
	for p in "${pkgs[@]:1}"; do
		sysroot_unpack "$(sysroot_deb "$RT_DIR/debs" "$p")" "$new"
	done
	hdr=$new/usr/src/linux-headers-$rel
	common=$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$hdr/Makefile")
	if [ -z "$common" ] || [ ! -f "$new$common/Makefile" ]; then
		die "linux-headers-$rel: its Makefile includes '$common', not in the packages"
	fi
	# the -common-rt tree where it will lie once $new is renamed
	sed -i "s|^include $common/Makefile\$|include $RT_ROOT$common/Makefile|" \
		"$hdr/Makefile"
	[ -f "$new/usr/src/linux-headers-$rel/scripts/Makefile.build" ] ||
		die "linux-headers-$rel: scripts/ does not resolve (linux-kbuild)"
	rm -f "$RT_DIR/.stamp"
	rm -rf "$RT_ROOT" "$apt"
	mv "$new" "$RT_ROOT"
	echo "layout=$RT_LAYOUT release=$rel packages=$(IFS=,; echo "${pkgs[*]}")" >"$RT_DIR/.stamp"
	log "PREEMPT_RT kernel $rel ready in $RT_ROOT in $(elapsed "$t0")s"
}
