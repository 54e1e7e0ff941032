# arch.sh - everything that differs between guest architectures, in one
# place (sourced, bash; needs common.sh and guest_load_config first).
# arch_setup ARCH sets:
#   ARCH                 the guest architecture (uname -m)
#   ARCH_DIR             $GUEST_ROOT/$ARCH: this architecture's caches
#   ARCH_HEADERS         the kernel's headers build tree (read only):
#                        GUEST_HEADERS, else configure's KERNEL_BUILD
#   ARCH_RELEASE         its release: the kernel the guest boots
#   ARCH_VMLINUZ         the kernel image (GUEST_VMLINUZ, else /boot's)
#   ARCH_QEMU            qemu-system-* binary; ARCH_QEMU_ARGS machine options
#   ARCH_CONSOLE         kernel console device (boot log)
#   ARCH_OUT_TTY         guest device for the job results (a second port)
#   ARCH_APPEND          extra kernel command line
#   ARCH_CC              compiler for the guest programs (linked static)
#   ARCH_STAP_OPTS       stap options that select the architecture
#   ARCH_SYSROOT         where the guest's staprun, stapio, libraries are
#   ARCH_SYSCALL_PREFIX  prefix of syscall entry symbols (__x64_sys_getppid)
#   ARCH_OBJDUMP         objdump that reads this architecture's modules
# Only x86_64 is built today; arm64 (qemu-system-aarch64 -M virt, a
# cross-built module, an arm64 sysroot, see shared/reference/e2e/
# run-e2e-arm64.sh) gets its own case here and in arch_libs.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the ARCH_* variables are for the sourcing scripts

arch_setup() {
	ARCH=$1
	ARCH_DIR=$GUEST_ROOT/$ARCH
	case $ARCH in
	x86_64)
		ARCH_HEADERS=${GUEST_HEADERS:-$KERNEL_BUILD}
		ARCH_RELEASE=$(kernel_release_of "$ARCH_HEADERS")
		ARCH_VMLINUZ=${GUEST_VMLINUZ:-/boot/vmlinuz-$ARCH_RELEASE}
		ARCH_QEMU=${QEMU_X86_64:-qemu-system-x86_64}
		# TCG only (KVM is not available on the development hosts)
		ARCH_QEMU_ARGS=(-machine 'pc,accel=tcg' -cpu max)
		ARCH_CONSOLE=ttyS0
		ARCH_OUT_TTY=ttyS1
		ARCH_APPEND="nokaslr"
		ARCH_CC=${GUEST_CC:-gcc}
		ARCH_STAP_OPTS=()
		ARCH_SYSROOT=/
		ARCH_SYSCALL_PREFIX=__x64_sys_
		ARCH_OBJDUMP=objdump
		;;
	*)
		die "architecture '$ARCH' is not supported (yet): x86_64"
		;;
	esac
	[ -n "$ARCH_RELEASE" ] ||
		die "no kernel headers for $ARCH at '$ARCH_HEADERS' (configure --with-kernel, or GUEST_HEADERS)"
}

# arch_libs BINARY...: the shared libraries (and the dynamic loader) the
# binaries need, one absolute path per line, from ARCH_SYSROOT.
arch_libs() {
	case $ARCH in
	x86_64)
		{ ldd "$@" 2>/dev/null || true; } |
			{ grep -oE '/[^ ]+\.so[^ ]*' || true; } | sort -u
		;;
	esac
}
