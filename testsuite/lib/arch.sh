# arch.sh - everything that differs between guest architectures, in one
# place (sourced, bash; needs common.sh and guest_load_config first).
# arch_setup ARCH (x86_64, arm64; aarch64 means arm64) sets, reading no
# network and building nothing:
#   ARCH                 the guest architecture (its tests: guest/$ARCH)
#   ARCH_DIR             $GUEST_ROOT/$ARCH: this architecture's caches
#   ARCH_HEADERS         the kernel's headers build tree (read only)
#   ARCH_RELEASE         its release: the kernel the guest boots (arm64:
#                        empty until arch_fetch knows it)
#   ARCH_VMLINUZ         the kernel image
#   ARCH_QEMU            qemu-system-* binary; ARCH_QEMU_ARGS machine options
#   ARCH_CONSOLE         kernel console device (boot log)
#   ARCH_OUT_TTY         guest device for the job results (a second channel)
#   ARCH_APPEND          extra kernel command line
#   ARCH_TIME_FACTOR     how many host seconds a guest second may take
#                        (the guest's limits for QEMU's time limit)
#   ARCH_CC              compiler for the guest programs (linked static)
#   ARCH_STAP_OPTS       stap options that select the architecture
#   ARCH_SYSROOT         where the guest's staprun, stapio, libraries are
#   ARCH_BUSYBOX ARCH_STAPRUN  the guest's busybox and staprun (host paths)
#   ARCH_HELPER          the perfctr-run the guest gets (when it exists)
#   ARCH_HWCHECK         the perfctr-hwcheck it gets (static; when it exists)
#   ARCH_SYSCALL_PREFIX  prefix of syscall entry symbols (__x64_sys_getppid)
#   ARCH_OBJDUMP         objdump that reads this architecture's modules
# and the functions
#   arch_missing         what this machine lacks to test ARCH (empty: nothing)
#   arch_fetch           make what arch_setup names exist (arm64: download)
#   arch_channels C R    ARCH_CHANNEL_ARGS: QEMU options for the console log
#                        C and the result stream R
#   arch_guest_files     extra "HOST GUEST" files for the initramfs
#   arch_build_helper    the guest's perfctr-run, when it is cross-built
#   arch_boot_kernel     the kernel file to give QEMU (x86_64: the image
#                        decompressed for a PVH boot, made once)
#   arch_libs BINARY...  the shared libraries the binaries need
#
# x86_64 boots the host's own Debian kernel (configure's KERNEL_BUILD) with
# the host's staprun.  arm64 boots Debian's arm64 build of the same kernel
# release under qemu-system-aarch64 -M virt (TCG), with arm64 packages
# fetched by a private apt state (sysroot.sh) into $ARCH_DIR/sysroot:
# nothing arm64 is installed on the host.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the ARCH_* variables are for the sourcing scripts
# shellcheck disable=SC2154 # GUEST_ROOT, KERNEL_BUILD, REAL_STAPRUN...: common.sh

# shellcheck source=testsuite/lib/sysroot.sh
. "$top_srcdir/testsuite/lib/sysroot.sh"
# shellcheck source=testsuite/lib/stack.sh
. "$top_srcdir/testsuite/lib/stack.sh"

arch_setup() {
	local arch=$1 kind=${STACK_KIND[$GUEST_STACK]:-} arches=${STACK_ARCHES[$GUEST_STACK]:-}
	[ "$arch" = aarch64 ] && arch=arm64
	case " $arches " in
	*" $arch "*) ;;
	*) die "the $GUEST_STACK stack boots ${arches// /, }, not '$1' (testsuite/stacks.tsv)" ;;
	esac
	case $kind:$arch in
	host:x86_64 | host:arm64) "arch_setup_$arch" ;;
	tree:x86_64 | tree:arm64) "arch_setup_tree_$arch" ;;
	rt:x86_64) arch_setup_rt_x86_64 ;;
	debug:x86_64) arch_setup_debug_x86_64 ;;
	*) die "no $arch guest for a $kind stack here (testsuite/lib/arch.sh)" ;;
	esac
}

arch_setup_x86_64() {
	ARCH=x86_64
	ARCH_DIR=$GUEST_ROOT/$ARCH
	ARCH_HEADERS=${GUEST_HEADERS:-$KERNEL_BUILD}
	ARCH_RELEASE=$(kernel_release_of "$ARCH_HEADERS")
	[ -n "$ARCH_RELEASE" ] ||
		die "no kernel headers for $ARCH at '$ARCH_HEADERS' (configure --with-kernel, or GUEST_HEADERS)"
	# the headers' kernel: installed here, else fetched from the archive
	# into ARCH_DIR/kernel (x86_64_fetch_kernel_locked): installing a
	# kernel package only to boot it in a guest would build an initramfs
	# and change what this machine boots
	ARCH_VMLINUZ=${GUEST_VMLINUZ:-/boot/vmlinuz-$ARCH_RELEASE}
	[ -n "${GUEST_VMLINUZ:-}" ] || [ -r "$ARCH_VMLINUZ" ] ||
		ARCH_VMLINUZ=$ARCH_DIR/kernel/vmlinuz-$ARCH_RELEASE
	arch_x86_64_machine
	ARCH_SYSROOT=/
	ARCH_BUSYBOX=$BUSYBOX
	ARCH_STAPRUN=$REAL_STAPRUN
	ARCH_HELPER=$top_builddir/helper/perfctr-run
}

# arch_x86_64_machine: what every x86_64 guest shares (the tree stacks'
# too): QEMU, its channels, the compiler for the programs.
arch_x86_64_machine() {
	ARCH_QEMU=${QEMU_X86_64:-qemu-system-x86_64}
	# TCG (the development hosts have no KVM); GUEST_ACCEL=kvm: KVM with
	# the host's CPU and so its PMU (scripts/hw-check).  GUEST_TCG_OPTS:
	# more -accel tcg options (thread=single: the vCPUs on one host
	# thread, which the jump-label fault of docs/reliability.md needs not)
	case ${GUEST_ACCEL:-tcg} in
	tcg) ARCH_QEMU_ARGS=(-machine pc -accel "tcg${GUEST_TCG_OPTS:+,$GUEST_TCG_OPTS}" -cpu max) ;;
	kvm) ARCH_QEMU_ARGS=(-machine 'pc,accel=kvm' -cpu host) ;;
	*) die "GUEST_ACCEL=$GUEST_ACCEL: tcg or kvm" ;;
	esac
	ARCH_HWCHECK=$top_builddir/testsuite/hw/perfctr-hwcheck
	ARCH_CONSOLE=ttyS0
	ARCH_OUT_TTY=ttyS1
	# no_timer_check: the kernel's IO-APIC timer check times the 8254
	# against a busy loop; on a loaded host TCG misses it and the boot
	# panics ("IO-APIC + timer doesn't work!")
	ARCH_APPEND="nokaslr no_timer_check $FAST_BOOT_APPEND${GUEST_APPEND:+ $GUEST_APPEND}"
	# guest-init holds the kernel's jump labels enabled from boot (no
	# test patches them) where multi-threaded TCG can run a stale int3 of
	# their patching (docs/reliability.md); with thread=single that fault
	# cannot strike, and the tests patch them as on a real machine.
	# GUEST_LABELS=held or free decides otherwise.
	case ${GUEST_LABELS:-$([[ ,${GUEST_TCG_OPTS:-}, == *,thread=single,* ]] && echo free)} in
	free) ARCH_APPEND+=" guest_labels=free" ;;
	held | "") ;;
	*) die "GUEST_LABELS=$GUEST_LABELS: held or free" ;;
	esac
	# GUEST_X2APIC=1 (a tree stack): the APICs in x2APIC mode, as on every
	# server and KVM guest.  QEMU's own APIC (TCG's) has that mode from
	# QEMU 9.0, so the tree's QEMU runs (lib/tree-qemu), and Linux turns
	# it on only with interrupt remapping: q35 and an intel-iommu with
	# eim=on.  guest_apic=x2apic tells the tests what was asked.
	if [ "${GUEST_X2APIC:-0}" = 1 ]; then
		stack_is_tree || die "GUEST_X2APIC=1 runs a tree stack's QEMU: --stack trixie or forky"
		ARCH_QEMU=$top_srcdir/testsuite/lib/tree-qemu
		export TREE_QEMU_ROOT=$TREE_ROOT
		ARCH_QEMU_ARGS=(-machine q35 -accel "tcg${GUEST_TCG_OPTS:+,$GUEST_TCG_OPTS}"
			-cpu max -device intel-iommu,intremap=on,eim=on)
		ARCH_APPEND+=" guest_apic=x2apic"
	fi
	ARCH_TIME_FACTOR=1	# TCG without -icount: the host's time
	ARCH_CC=${GUEST_CC:-gcc}
	ARCH_STAP_OPTS=()
	ARCH_SYSCALL_PREFIX=__x64_sys_
	ARCH_OBJDUMP=objdump
}

# Both guests skip the crypto self-tests at boot (seconds of emulated
# work for algorithms no test uses).
FAST_BOOT_APPEND=cryptomgr.notests

# arch_boot_kernel: the kernel QEMU boots.  x86_64: Debian's bzImage
# decompresses itself (xz on 6.1) in the emulated CPU, about 6 of a boot's
# 15 CPU-seconds under TCG; its vmlinux has the PVH entry note, which QEMU
# boots directly, so the payload is decompressed here once, into
# $ARCH_DIR/pvh/vmlinux (made again when the image is newer).  Where that
# cannot be done (no PVH note, an unknown compressor) or GUEST_PVH=no, the
# image itself.  arm64: the image (QEMU unpacks its gzip on the host).
# Call under the arch lock.
arch_boot_kernel() {
	local out=$ARCH_DIR/pvh/vmlinux
	if [ "$ARCH" != x86_64 ] || [ "${GUEST_PVH:-yes}" = no ]; then
		echo "$ARCH_VMLINUZ"
		return
	fi
	if newer_than "$out" "$ARCH_VMLINUZ" && newer_than "$out.none" "$ARCH_VMLINUZ"; then
		mkdir -p "${out%/*}"
		rm -f "$out" "$out.none"
		if x86_64_pvh_extract "$ARCH_VMLINUZ" "$out.tmp"; then
			mv "$out.tmp" "$out"
		else
			: >"$out.none"	# the image it is, until a newer one
		fi
		rm -f "$out.tmp"
	fi
	if [ -s "$out" ]; then echo "$out"; else echo "$ARCH_VMLINUZ"; fi
}

# x86_64_pvh_extract BZIMAGE OUT: the payload of BZIMAGE (boot protocol
# 2.08+: setup_sects at 0x1f1, payload_offset and payload_length at
# 0x248), decompressed into OUT; false unless it is an ELF with the PVH
# entry note (XEN_ELFNOTE_PHYS32_ENTRY, 18).
x86_64_pvh_extract() {
	local img=$1 out=$2 sects off len magic unpack
	sects=$(od -An -tu1 -j $((0x1f1)) -N1 "$img" | tr -d ' ')
	[ "$sects" != 0 ] || sects=4
	off=$(od -An -tu4 -j $((0x248)) -N4 "$img" | tr -d ' ')
	len=$(od -An -tu4 -j $((0x24c)) -N4 "$img" | tr -d ' ')
	[ -n "$off" ] && [ -n "$len" ] && [ "$len" -gt 0 ] || return 1
	off=$(((sects + 1) * 512 + off))
	magic=$(od -An -tx1 -j "$off" -N6 "$img" | tr -d ' ')
	case $magic in
	fd377a585a00) unpack="xz -dc --single-stream" ;;
	28b52ffd*) unpack="zstd -dcq" ;;
	1f8b*) unpack="gzip -dc" ;;
	*) return 1 ;;
	esac
	command -v "${unpack%% *}" >/dev/null || return 1
	tail -c +$((off + 1)) "$img" | head -c "$len" | $unpack >"$out" 2>/dev/null || true
	readelf -n "$out" 2>/dev/null | grep -q '(0x00000012)'
}

# ------------------------------------------------------------------ arm64
#
# Knobs (environment): GUEST_ARM64_RELEASE (default: the arm64 build of
# the configured amd64 kernel's ABI, 6.1.0-56-amd64 -> 6.1.0-56-arm64; if
# the archive no longer has it, the newest; "newest" asks for that),
# GUEST_ICOUNT_SHIFT (1: one instruction = 2 ns of virtual time, so
# CPU_CYCLES = 2 x INST_RETIRED), QEMU_AARCH64, GUEST_ARM64_CROSS
# (aarch64-linux-gnu-), and the mirror knobs of sysroot.sh.

# bump when arm64_fetch_locked changes what it makes: old sysroots are redone
ARM64_SYSROOT_LAYOUT=1

# The guest's user space: busybox, staprun and stapio and the libraries
# they need (arch_libs checks that the list is complete when it packs them).
ARM64_BASE_PACKAGES=(busybox-static systemtap-runtime libc6 libgcc-s1
	libstdc++6 libelf1 zlib1g libnss3 libnspr4 libsqlite3-0)
# For each library perfctr-run links (-lNAME in HELPER_LIBS, from
# helper/local.mk): the arm64 packages with its run-time library and its
# headers.  A library missing here stops the fetch with its name.
declare -gA ARM64_LIB_PACKAGES=(
	[pfm]="libpfm4 libpfm4-dev"
	[elf]="libelf1 libelf-dev zlib1g"
	[jansson]="libjansson4 libjansson-dev"
)

# Debian's arm64 kernel has the virtio console (the result channel) and
# the virtio-mmio transport as modules: the guest loads these (guest-init,
# /etc/guest-modules) before it opens the result port.
ARM64_MODULES=(kernel/drivers/virtio/virtio_mmio.ko
	kernel/drivers/char/virtio_console.ko)

arch_setup_arm64() {
	local stamp rel
	ARCH=arm64
	ARCH_DIR=$GUEST_ROOT/$ARCH
	ARCH_SYSROOT=$ARCH_DIR/sysroot
	ARM64_WANT=$(arm64_wanted_release)
	ARM64_PACKAGES=$(arm64_packages)
	# the release the cached sysroot holds, if it was made for this want
	# and these packages
	stamp=$(cat "$ARCH_SYSROOT/.guest-sysroot" 2>/dev/null || true)
	rel=${stamp#"want=$ARM64_WANT release="}
	rel=${rel%%" "*}
	ARCH_RELEASE=""
	[ "$stamp" = "$(arm64_stamp "$rel")" ] && ARCH_RELEASE=$rel
	ARCH_HEADERS=$ARCH_SYSROOT/usr/src/linux-headers-$ARCH_RELEASE
	ARCH_VMLINUZ=$ARCH_SYSROOT/boot/vmlinuz-$ARCH_RELEASE
	arch_arm64_machine
}

# arch_arm64_machine: what every arm64 guest shares (the tree stacks'
# too): QEMU, its channels, the cross tools, the guest's programs in
# ARCH_SYSROOT and ARCH_DIR.
arch_arm64_machine() {
	ARCH_QEMU=${QEMU_AARCH64:-qemu-system-aarch64}
	# -icount: INST_RETIRED exists only with it, and counts are exact;
	# sleep=off: idle time does not follow the host's clock.  Pointer
	# authentication (Debian's kernel signs its return addresses) is slow to
	# emulate with the architected algorithm: QEMU's own is much faster
	# and counts the same instructions.
	ARCH_QEMU_ARGS=(-machine virt -cpu 'max,pauth-impdef=on'
		-icount "shift=${GUEST_ICOUNT_SHIFT:-1},sleep=off")
	ARCH_CONSOLE=ttyAMA0
	ARCH_OUT_TTY=hvc0
	ARCH_APPEND="nokaslr $FAST_BOOT_APPEND"
	# -icount time: a guest second is 500 million instructions, which a
	# loaded 2-CPU host took up to 7 seconds to run
	ARCH_TIME_FACTOR=${GUEST_TIME_FACTOR:-10}
	ARM64_CROSS=${GUEST_ARM64_CROSS:-aarch64-linux-gnu-}
	ARCH_CC=${ARM64_CROSS}gcc
	ARCH_STAP_OPTS=(-a arm64 -B "CROSS_COMPILE=$ARM64_CROSS")
	ARCH_BUSYBOX=$ARCH_SYSROOT/bin/busybox
	ARCH_STAPRUN=$ARCH_SYSROOT/usr/bin/staprun
	ARCH_HELPER=$ARCH_DIR/helper/perfctr-run
	ARCH_HWCHECK=$ARCH_DIR/helper/perfctr-hwcheck
	ARCH_SYSCALL_PREFIX=__arm64_sys_
	ARCH_OBJDUMP=${ARM64_CROSS}objdump
}

# arm64_stamp RELEASE: what a sysroot made now for RELEASE records.
arm64_stamp() {
	echo "want=$ARM64_WANT release=$1 layout=$ARM64_SYSROOT_LAYOUT packages=$ARM64_PACKAGES"
}

# arm64_packages: the packages to fetch besides the kernel, comma-separated.
arm64_packages() {
	local l pkgs=("${ARM64_BASE_PACKAGES[@]}")
	for l in ${HELPER_LIBS:--lpfm -lelf}; do
		l=${l#-l}
		[ -n "${ARM64_LIB_PACKAGES[$l]:-}" ] ||
			die "perfctr-run links -l$l: add its arm64 packages to ARM64_LIB_PACKAGES (testsuite/lib/arch.sh)"
		# shellcheck disable=SC2206 # words: package names
		pkgs+=(${ARM64_LIB_PACKAGES[$l]})
	done
	printf '%s\n' "${pkgs[@]}" | sort -u | paste -sd, -
}

# arm64_wanted_release: GUEST_ARM64_RELEASE, else the arm64 flavour of the
# configured kernel's ABI (6.1.0-56), else "newest".
arm64_wanted_release() {
	local host
	if [ -n "${GUEST_ARM64_RELEASE:-}" ]; then
		echo "$GUEST_ARM64_RELEASE"
		return
	fi
	host=$(kernel_release_of "$KERNEL_BUILD")
	if [[ $host =~ ^([0-9]+\.[0-9]+\.[0-9]+-[0-9]+)- ]]; then
		echo "${BASH_REMATCH[1]}-arm64"
	else
		echo newest
	fi
}

arch_missing() {
	local t
	case $ARCH in
	x86_64)
		command -v "$ARCH_QEMU" >/dev/null || { echo "no $ARCH_QEMU"; return; }
		[ "${GUEST_ACCEL:-tcg}" = tcg ] || [ -w /dev/kvm ] || { echo "no /dev/kvm (GUEST_ACCEL=kvm)"; return; }
		if stack_is_tree; then tree_missing; fi
		if stack_is_rt; then rt_missing; fi
		if stack_is_debug; then debug_missing; fi
		;;
	arm64)
		for t in "$ARCH_QEMU" "$ARCH_CC" "${ARM64_CROSS}objdump" \
			apt-get dpkg-deb readelf; do
			command -v "$t" >/dev/null || { echo "no $t"; return; }
		done
		[ "$("$ARCH_CC" -print-file-name=libc.a)" != libc.a ] ||
			{ echo "no static C library for $ARCH_CC (libc6-dev-arm64-cross)"; return; }
		if stack_is_tree; then tree_missing; fi
		;;
	esac
}

# (dies on failure: call it where set -e is in force, not under || or if)
arch_fetch() {
	if stack_is_rt; then
		rt_fetch
		arch_setup "$ARCH"
		[ -n "$ARCH_RELEASE" ] || die "no PREEMPT_RT kernel in $RT_ROOT"
		return 0
	fi
	if stack_is_debug; then
		debug_fetch
		arch_setup "$ARCH"
		[ -n "$ARCH_RELEASE" ] || die "no $GUEST_STACK kernel in $DEBUG_DIR"
		return 0
	fi
	if stack_is_tree; then
		case $ARCH in
		arm64) tree_arm64_fetch ;;
		*)
			tree_fetch
			[ "${GUEST_X2APIC:-0}" != 1 ] || tree_add_packages qemu qemu-system-x86
			;;
		esac
		arch_setup "$ARCH"
		[ -n "$ARCH_RELEASE" ] || die "no $TREE_SUITE tree in $TREE_ROOT (or no $ARCH sysroot)"
		return 0
	fi
	case $ARCH in
	x86_64)
		[ -r "$ARCH_VMLINUZ" ] ||
			with_lock "$ARCH_DIR/lock" x86_64_fetch_kernel_locked
		;;
	arm64)
		[ -n "$ARCH_RELEASE" ] && return 0
		with_lock "$ARCH_DIR/lock" arm64_fetch_locked
		arch_setup_arm64
		[ -n "$ARCH_RELEASE" ] || die "no arm64 sysroot in $ARCH_SYSROOT"
		;;
	esac
	return 0
}

# x86_64_fetch_kernel_locked: the kernel image of the headers' release,
# not installed here, from the archive (a private apt state) into
# ARCH_VMLINUZ (about 70 MB to download, once).
x86_64_fetch_kernel_locked() {
	local apt=$ARCH_DIR/apt rel=$ARCH_RELEASE deb t0
	[ -r "$ARCH_VMLINUZ" ] && return 0	# another run fetched it meanwhile
	t0=$(now)
	log "fetching Debian's linux-image-$rel into $(dirname "$ARCH_VMLINUZ") (once: it is not installed here)"
	sysroot_apt_init "$apt" amd64
	sysroot_apt_update "$apt"
	rm -rf "$apt/debs"
	mkdir -p "$apt/debs" "$(dirname "$ARCH_VMLINUZ")"
	sysroot_download "$apt" "$apt/debs" "linux-image-$rel"
	deb=$(sysroot_deb "$apt/debs" "linux-image-$rel")
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/vmlinuz-$rel" >"$ARCH_VMLINUZ.tmp" ||
		die "cannot unpack the kernel image from $deb"
	mv "$ARCH_VMLINUZ.tmp" "$ARCH_VMLINUZ"
	rm -rf "$apt/debs"
	log "linux-image-$rel ready in $(elapsed "$t0")s"
}

# arm64_fetch_locked: download and unpack the kernel and the packages into
# a fresh $ARCH_SYSROOT (about 70 MB to download, once).
arm64_fetch_locked() {
	local apt=$ARCH_DIR/apt new=$ARCH_SYSROOT.new release t0
	arch_setup_arm64
	[ -n "$ARCH_RELEASE" ] && return 0	# another run made it meanwhile
	t0=$(now)
	log "fetching Debian arm64 packages into $ARCH_SYSROOT (once)"
	sysroot_apt_init "$apt" arm64
	sysroot_apt_update "$apt"
	release=$(arm64_resolve_release "$apt")
	rm -rf "$new" "$apt/debs"
	mkdir -p "$new" "$apt/debs"
	# shellcheck disable=SC2046 # package names: one word each
	sysroot_download "$apt" "$apt/debs" "linux-image-$release" \
		"linux-headers-$release" $(tr , ' ' <<<"$ARM64_PACKAGES")
	arm64_unpack_kernel "$apt" "$release" "$new"
	sysroot_unpack_all "$apt/debs" "$new" 'linux-*'
	arm64_stamp "$release" >"$new/.guest-sysroot"
	rm -rf "$ARCH_SYSROOT" "$apt"	# the lists and debs: 120 MB, not needed again
	mv "$new" "$ARCH_SYSROOT"
	log "arm64 sysroot for $release ready in $(elapsed "$t0")s"
}

# arm64_resolve_release APT: the release to fetch (ARM64_WANT, or the
# newest when that is not, or no longer, in the archive).
arm64_resolve_release() {
	local apt=$1 newest
	if [ "$ARM64_WANT" != newest ] &&
		sysroot_has_package "$apt" "linux-image-$ARM64_WANT"; then
		echo "$ARM64_WANT"
		return
	fi
	[ -z "${GUEST_ARM64_RELEASE:-}" ] || [ "$GUEST_ARM64_RELEASE" = newest ] ||
		die "GUEST_ARM64_RELEASE=$GUEST_ARM64_RELEASE: no linux-image-$GUEST_ARM64_RELEASE in the archive"
	newest=$(sysroot_apt_cache "$apt" depends linux-image-arm64 |
		sed -n 's/^ *Depends: linux-image-\([^ ]*-arm64\)$/\1/p' | head -n 1)
	[ -n "$newest" ] || die "no arm64 kernel in the archive (linux-image-arm64)"
	[ "$ARM64_WANT" = newest ] ||
		log "linux-image-$ARM64_WANT is not in the archive: using $newest"
	echo "$newest"
}

# arm64_kernel_member PATH... -- DEB...: "PATH DEB" for the first PATH
# (./...) the first DEB that has one holds.  1: none.
arm64_kernel_member() {
	local paths=() d p list
	while [ "$1" != -- ]; do paths+=("$1"); shift; done
	shift
	for d in "$@"; do
		list=$(dpkg-deb -c "$d" | awk '{ print $NF }')
		for p in "${paths[@]}"; do
			grep -qxF -- "$p" <<<"$list" && { echo "$p $d"; return 0; }
		done
	done
	return 1
}

# arm64_unpack_kernel APT RELEASE DEST: the kernel image, the guest's
# modules and the headers build tree, made usable from this machine: the
# tree's scripts are the host's linux-kbuild (amd64 tools build arm64
# modules too), its common half the host's when it has the same one.
arm64_unpack_kernel() {
	local apt=$1 rel=$2 dest=$3 deb hdr kbuild common m f c members=()
	local root=${ARM64_KBUILD_ROOT:-} debs=() from=() p
	# up to Linux 6.x linux-image-RELEASE holds the image and the modules;
	# from 7.x it is a metapackage over linux-binary-RELEASE (the image, in
	# /usr/lib/modules/RELEASE/vmlinuz) and linux-modules-RELEASE
	for p in "linux-binary-$rel" "linux-modules-$rel"; do
		sysroot_has_package "$apt" "$p" || continue
		sysroot_download "$apt" "$apt/debs" "$p"
		debs+=("$(sysroot_deb "$apt/debs" "$p")")
	done
	debs+=("$(sysroot_deb "$apt/debs" "linux-image-$rel")")
	f=$(arm64_kernel_member "./boot/vmlinuz-$rel" "./usr/lib/modules/$rel/vmlinuz" \
		-- "${debs[@]}") || die "no kernel image for $rel in ${debs[*]##*/}"
	members=("${f% *}") from=("${f#* }")
	# modules: in /lib or (from trixie) /usr/lib, maybe xz-compressed
	for m in "${ARM64_MODULES[@]}"; do
		f=$(arm64_kernel_member "./lib/modules/$rel/$m" "./usr/lib/modules/$rel/$m" \
			"./lib/modules/$rel/$m.xz" "./usr/lib/modules/$rel/$m.xz" \
			-- "${debs[@]}") || die "no $m in ${debs[*]##*/}"
		members+=("${f% *}") from+=("${f#* }")
	done
	for deb in "${debs[@]}"; do
		c=()
		for m in "${!members[@]}"; do
			[ "${from[m]}" = "$deb" ] && c+=("${members[m]}")
		done
		[ ${#c[@]} -eq 0 ] && continue
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dest" "${c[@]}" ||
			die "cannot unpack the kernel from $deb"
	done
	f=${members[0]}
	if [ "$f" != "./boot/vmlinuz-$rel" ]; then
		mkdir -p "$dest/boot"
		mv "$dest/${f#./}" "$dest/boot/vmlinuz-$rel"
	fi
	for f in "${members[@]:1}"; do
		m=${f#./}
		m=${m#usr/}
		mkdir -p "$(dirname "$dest/${m%.xz}")"
		if [[ $f == *.xz ]]; then
			xz -dc "$dest/${f#./}" >"$dest/${m%.xz}" || die "cannot decompress $f"
			[ "$dest/${f#./}" = "$dest/$m" ] || rm -f "$dest/${f#./}"
			rm -f "$dest/$m"
		elif [ "$f" != "./$m" ]; then
			mv "$dest/${f#./}" "$dest/$m"
		fi
	done
	sysroot_unpack "$(sysroot_deb "$apt/debs" "linux-headers-$rel")" "$dest"
	hdr=$dest/usr/src/linux-headers-$rel
	# scripts -> ../../lib/linux-kbuild-6.1/scripts
	kbuild=$(readlink "$hdr/scripts")
	kbuild=${kbuild#../../lib/}
	kbuild=${kbuild%/scripts}
	# (ARM64_KBUILD_ROOT: the tree whose kbuild and common headers to use,
	# a tree stack's; empty: this machine's)
	[ -d "$root/usr/lib/$kbuild" ] ||
		die "no $root/usr/lib/$kbuild (apt-get install $kbuild)"
	mkdir -p "$dest/usr/lib"
	ln -sfn "$root/usr/lib/$kbuild" "$dest/usr/lib/$kbuild"
	common=$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$hdr/Makefile")
	if [ ! -f "$root$common/Makefile" ]; then
		sysroot_download "$apt" "$apt/debs" "${common##*/}"
		sysroot_unpack "$(sysroot_deb "$apt/debs" "${common##*/}")" "$dest"
		# the path it will have once $dest is renamed
		sed -i "s|^include $common/Makefile\$|include $ARCH_SYSROOT$common/Makefile|" \
			"$hdr/Makefile"
	fi
}

# ---------------------------------------------------------- boot and files

arch_channels() {
	local console=$1 results=$2
	case $ARCH in
	x86_64)
		ARCH_CHANNEL_ARGS=(-serial "file:$console" -serial "file:$results")
		;;
	arm64)
		# the virt board has one UART: the results go to a virtio
		# console (max_ports=1: a single port, made while the driver
		# probes, no multiport control messages), /dev/hvc0 in the guest
		ARCH_CHANNEL_ARGS=(-serial "file:$console"
			-chardev "file,id=results,path=$results"
			-device 'virtio-serial-device,max_ports=1'
			-device 'virtconsole,chardev=results')
		;;
	esac
}

arch_guest_files() {
	local list m
	case $ARCH in
	arm64)
		list=$ARCH_DIR/initramfs/guest-modules
		mkdir -p "$(dirname "$list")"
		for m in "${ARM64_MODULES[@]}"; do
			echo "/lib/modules/$ARCH_RELEASE/$m"
		done >"$list.tmp"
		cmp -s "$list.tmp" "$list" || mv "$list.tmp" "$list"
		rm -f "$list.tmp"
		echo "$list /etc/guest-modules"
		for m in "${ARM64_MODULES[@]}"; do
			echo "$ARCH_SYSROOT/lib/modules/$ARCH_RELEASE/$m /lib/modules/$ARCH_RELEASE/$m"
		done
		;;
	esac
	return 0
}

arch_build_helper() {
	if stack_is_tree && [ "$ARCH" = x86_64 ]; then tree_build_helper; return 0; fi
	case $ARCH in
	arm64) arm64_build_helper && arm64_build_hwcheck ;;
	esac
	return 0
}

# arm64_build_helper: cross-build perfctr-run as helper/local.mk builds it
# (HELPER_LIB_SOURCES into libperfctr.a, HELPER_RUN_SOURCES linked with it
# and HELPER_LIBS; from config.sh), against the sysroot's libraries, into
# $ARCH_DIR/helper/.  Only what is out of date is compiled again.  Only
# when this tree has built its own perfctr-run: else the guest uses
# staprun, as on x86_64.  The staprun it execs is the guest's.
arm64_build_helper() {
	local dir=$ARCH_DIR/helper s o objs=() run=() hdrs
	if [ ! -x "$top_builddir/helper/perfctr-run" ]; then
		rm -f "$ARCH_HELPER"
		return 0
	fi
	mkdir -p "$dir"
	hdrs=("$top_srcdir"/helper/*.h "$top_srcdir"/runtime/perfctr_*.h
		"$top_builddir/config.h"
		"$ARCH_SYSROOT/.guest-sysroot")
	for s in ${HELPER_LIB_SOURCES:-} ${HELPER_RUN_SOURCES:-}; do
		[[ $s == *.c ]] || continue
		o=$dir/$(basename "$s" .c).o
		if newer_than "$o" "$top_srcdir/$s" "${hdrs[@]}"; then
			vlog "cross-compiling $s"
			arm64_helper_cc -c -o "$o" "$top_srcdir/$s"
		fi
		if [[ " ${HELPER_RUN_SOURCES:-} " == *" $s "* ]]; then
			run+=("$o")
		else
			objs+=("$o")
		fi
	done
	[ ${#run[@]} -gt 0 ] || die "no HELPER_RUN_SOURCES in $GUEST_ROOT/config.sh (run make)"
	# a source that left the list must leave the archive too
	if [ "${objs[*]}" != "$(cat "$dir/libperfctr.list" 2>/dev/null)" ] ||
		newer_than "$dir/libperfctr.a" "${objs[@]}"; then
		rm -f "$dir/libperfctr.a"
		"${ARM64_CROSS}ar" rcs "$dir/libperfctr.a" "${objs[@]}" ||
			die "cannot make $dir/libperfctr.a"
		echo "${objs[*]}" >"$dir/libperfctr.list"
	fi
	newer_than "$ARCH_HELPER" "${run[@]}" "$dir/libperfctr.a" || return 0
	vlog "linking $ARCH_HELPER"
	# shellcheck disable=SC2086 # HELPER_LIBS: words
	arm64_helper_cc -o "$ARCH_HELPER.tmp" "${run[@]}" "$dir/libperfctr.a" \
		-L"$ARCH_SYSROOT/usr/lib/aarch64-linux-gnu" \
		-Wl,-rpath-link,"$ARCH_SYSROOT/usr/lib/aarch64-linux-gnu:$ARCH_SYSROOT/lib/aarch64-linux-gnu" \
		${HELPER_LIBS:--lpfm -lelf}
	mv "$ARCH_HELPER.tmp" "$ARCH_HELPER"
}

# arm64_build_hwcheck: testsuite/hw/perfctr-hwcheck (HWCHECK_SOURCES
# from config.sh) cross-built static against the sysroot's libraries and
# the libperfctr.a arm64_build_helper made, as testsuite/hw/local.mk
# builds it.  A failure leaves the guest without it (the tests that run
# it say so), never without perfctr-run.
arm64_build_hwcheck() {
	local dir=$ARCH_DIR/helper s objs=()
	[ -f "$dir/libperfctr.a" ] && [ -n "${HWCHECK_SOURCES:-}" ] || return 0
	for s in $HWCHECK_SOURCES; do
		[[ $s == *.c ]] || continue
		objs+=("$top_srcdir/$s")
	done
	newer_than "$ARCH_HWCHECK" "${objs[@]}" "$top_srcdir"/testsuite/hw/*.h \
		"$dir/libperfctr.a" || return 0
	vlog "cross-building $ARCH_HWCHECK"
	# (a subshell: arm64_helper_cc dies on failure)
	# shellcheck disable=SC2086 # HWCHECK_LIBS: words
	if ( arm64_helper_cc -static -I"$top_srcdir/testsuite/hw" -o "$ARCH_HWCHECK.tmp" \
		"${objs[@]}" "$dir/libperfctr.a" -L"$ARCH_SYSROOT/usr/lib/aarch64-linux-gnu" \
		${HWCHECK_LIBS:--lpfm -ljansson} ); then
		mv "$ARCH_HWCHECK.tmp" "$ARCH_HWCHECK"
	else
		rm -f "$ARCH_HWCHECK" "$ARCH_HWCHECK.tmp"
		log "no perfctr-hwcheck for arm64 (cross-build failed)"
	fi
	return 0
}

# arm64_helper_cc ARGS...: the cross compiler with the helper's flags
# (Makefile.am's AM_CFLAGS and AM_CPPFLAGS); its messages go to
# $ARCH_DIR/helper/cc.log, and to stderr when it fails.
arm64_helper_cc() {
	local log=$ARCH_DIR/helper/cc.log
	"$ARCH_CC" -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
		-Werror=implicit-function-declaration -D_GNU_SOURCE \
		-I"$top_srcdir/helper" -I"$top_srcdir/runtime" -I"$top_builddir" \
		-I"$ARCH_SYSROOT/usr/include" \
		-DPERFCTR_VERSION="\"${PERFCTR_VERSION:?no PERFCTR_VERSION in config.sh (run make)}\"" \
		-DREAL_STAPRUN='"/usr/bin/staprun"' ${ARM64_HELPER_SYSROOT:+--sysroot="$ARM64_HELPER_SYSROOT"} \
		"$@" >"$log" 2>&1 || {
		cat "$log" >&2
		die "cannot cross-build perfctr-run for arm64"
	}
}

# arch_libs BINARY...: the shared libraries (and the dynamic loader) the
# binaries need, one absolute path per line, from ARCH_SYSROOT.
arch_libs() {
	if stack_is_tree && [ "$ARCH" = x86_64 ]; then
		sysroot_elf_libs "$ARCH_SYSROOT" x86_64-linux-gnu "$@"
		return
	fi
	case $GUEST_STACK:$ARCH in
	*:x86_64)
		{ ldd "$@" 2>/dev/null || true; } |
			{ grep -oE '/[^ ]+\.so[^ ]*' || true; } | sort -u
		;;
	*:arm64)
		sysroot_elf_libs "$ARCH_SYSROOT" aarch64-linux-gnu "$@"
		;;
	esac
}
