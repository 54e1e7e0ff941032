# debug-kernel.sh - the debug stacks: x86_64 guest kernels built on this
# machine with the kernel's own checkers (sourced by stack.sh, bash).
#
#   debug   lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP,
#           DEBUG_PREEMPT, KASAN (generic, vmalloc too), the lockup,
#           hung-task and workqueue detectors, debug objects, list checks
#   kcsan   the same checkers with KCSAN instead of KASAN (it excludes it)
#
# The source is Debian's: linux-source-6.1 (scripts/install-deps installs
# it), bookworm's kernel with Debian's patches, the release the bookworm
# stack boots, so what the other suites prove carries over.  The
# configuration is allnoconfig plus testsuite/lib/debug-kernel/
# guest.config (what the guest needs), checks.config (the checkers) and
# the stack's own fragment (kasan.config, kcsan.config), each explained
# there; every value they ask for is checked after `make olddefconfig`,
# so an option that a dependency dropped stops the build with its name.
# Release: 6.1.N-perfctr-debug or -perfctr-kcsan.
#
# Built once per machine, in place, into
# $GUEST_KERNEL_CACHE/STACK-KEY (default /var/cache/systemtap-perfctr/
# kernels), KEY a hash of the fragments, DEBUG_KERNEL_LAYOUT, the source
# package's version and the compiler's: a fresh clone finds the kernel
# there, and a new Debian point release, compiler or fragment builds a new
# one (about 4 minutes on 2 CPUs; the old one is removed).  There:
#   src/      the source tree
#   obj/      the object tree without its objects: what `make M=` needs
#             (its Makefile includes src/, as a Debian headers tree
#             includes its common half)
#   boot/     bzImage, vmlinux, System.map
#   build.log the build's output; .done once it is complete
#
# In the guest: this machine's stap 4.8, staprun, busybox and
# perfctr-run, as on bookworm; only the kernel differs, and stap builds
# with a copy of its runtime made for it (build/STACK/stap-runtime:
# compat/make-stap-runtime undoes two preemption mistakes of stap 4.8's
# that the kernel's checks report).  The guest boots
# with kasan_multi_shot (every KASAN report, not only the first).  Caches
# in build/STACK/x86_64.  x86_64 only.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the ARCH_* variables are for the sourcing scripts
# shellcheck disable=SC2154 # top_srcdir, GUEST_ROOT...: common.sh

# the stacks, and each one's own fragment: DEBUG_STACKS, from
# testsuite/stacks.tsv (stack.sh)
# bump when debug_build changes what it makes: old kernels are rebuilt
DEBUG_KERNEL_LAYOUT=1
DEBUG_SOURCE_PACKAGE=linux-source-6.1
DEBUG_SOURCE_TARBALL=/usr/src/$DEBUG_SOURCE_PACKAGE.tar.xz
DEBUG_CONFIG_DIR=$top_srcdir/testsuite/lib/debug-kernel

# stack_is_debug: whether GUEST_STACK is a debug stack.
stack_is_debug() {
	[ -n "${DEBUG_STACKS[$GUEST_STACK]+set}" ]
}

debug_apply() {
	# the guest caches: build/STACK/ARCH
	GUEST_ROOT=$top_builddir/build/$GUEST_STACK
	DEBUG_CACHE=${GUEST_KERNEL_CACHE:-/var/cache/systemtap-perfctr/kernels}
}

# debug_fragments: the configuration fragments of this stack, in order.
debug_fragments() {
	printf '%s\n' "$DEBUG_CONFIG_DIR/guest.config" \
		"$DEBUG_CONFIG_DIR/checks.config" \
		"$DEBUG_CONFIG_DIR/${DEBUG_STACKS[$GUEST_STACK]}"
}

# debug_source_version: the installed source package's version (empty:
# not installed).
debug_source_version() {
	dpkg-query -W -f='${Version}' "$DEBUG_SOURCE_PACKAGE" 2>/dev/null || true
}

# debug_key: what the kernel is built from, hashed.
debug_key() {
	local f
	{
		echo "layout=$DEBUG_KERNEL_LAYOUT source=$(debug_source_version)"
		gcc --version | head -n 1
		while IFS= read -r f; do cat "$f"; done < <(debug_fragments)
	} | sha256sum | cut -c1-16
}

# debug_dir: where this stack's kernel is (or will be) built.
debug_dir() {
	echo "$DEBUG_CACHE/$GUEST_STACK-$(debug_key)"
}

debug_missing() {
	local t
	for t in bison flex bc xz; do
		command -v "$t" >/dev/null || { echo "no $t (scripts/install-deps)"; return; }
	done
	[ -r "$DEBUG_SOURCE_TARBALL" ] ||
		echo "no $DEBUG_SOURCE_TARBALL (apt-get install $DEBUG_SOURCE_PACKAGE)"
}

arch_setup_debug_x86_64() {
	ARCH=x86_64
	ARCH_DIR=$GUEST_ROOT/$ARCH
	DEBUG_DIR=$(debug_dir)
	ARCH_HEADERS=$DEBUG_DIR/obj
	ARCH_RELEASE=""
	[ -e "$DEBUG_DIR/.done" ] && ARCH_RELEASE=$(kernel_release_of "$ARCH_HEADERS")
	ARCH_VMLINUZ=$DEBUG_DIR/boot/bzImage
	arch_x86_64_machine
	ARCH_APPEND+=" kasan_multi_shot"
	# the guest's user space is this machine's, as on bookworm
	ARCH_SYSROOT=/
	ARCH_BUSYBOX=$BUSYBOX
	ARCH_STAPRUN=$REAL_STAPRUN
	ARCH_HELPER=$top_builddir/helper/perfctr-run
	# stap builds with a copy of its runtime patched for this kernel
	# (guest_runtime_opts): its checks report stap 4.8's preemption
	# mistakes, which the copy undoes (compat/make-stap-runtime)
	STACK_RUNTIME=$GUEST_ROOT/stap-runtime
}

# debug_fetch: build the kernel unless it is there, and stap's runtime
# for it (dies on failure).
debug_fetch() {
	[ -e "$DEBUG_DIR/.done" ] || with_lock "$DEBUG_CACHE/$GUEST_STACK.lock" debug_build
	newer_than "$STACK_RUNTIME/.made" "$DEBUG_DIR/.done" \
		"$top_srcdir/compat/make-stap-runtime" || return 0
	log "stap's runtime for the $GUEST_STACK kernel: $STACK_RUNTIME"
	"$top_srcdir/compat/make-stap-runtime" "$STAP_RUNTIME_DIR" "$STACK_RUNTIME" \
		"$DEBUG_DIR/obj" || die "cannot make stap's runtime for the $GUEST_STACK kernel"
	touch "$STACK_RUNTIME/.made"
}

# debug_config_check CONFIG: every value the fragments ask for is CONFIG's
# ("is not set" lines ask for n).
debug_config_check() {
	local lost
	# shellcheck disable=SC2016 # awk's own $0
	lost=$(debug_fragments | xargs awk '
		function split_kv() { k = $0; sub(/=.*/, "", k); v = $0; sub(/^[^=]*=/, "", v) }
		FNR == NR { if (/^CONFIG_/) { split_kv(); have[k] = v }; next }
		/^CONFIG_/ { split_kv() }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { k = $2; v = "n" }
		/^CONFIG_/ || /^# CONFIG_[A-Za-z0-9_]+ is not set$/ {
			got = k in have ? have[k] : "n"
			if (got != v) print "  " k "=" v " (got " got ")"
		}' "$1")
	[ -z "$lost" ] ||
		die "the $GUEST_STACK kernel's configuration lost what the fragments ask for:"$'\n'"$lost"
}

# debug_build: configure, build and trim the kernel in $DEBUG_DIR.
debug_build() {
	local d=$DEBUG_DIR t0 old
	[ -e "$d/.done" ] && return 0	# another run built it meanwhile
	t0=$(now)
	log "building the $GUEST_STACK kernel from $DEBUG_SOURCE_PACKAGE $(debug_source_version) into $d (once per machine: minutes)"
	for old in "$DEBUG_CACHE/$GUEST_STACK"-*; do
		[ -d "$old" ] && [ "$old" != "$d" ] && rm -rf "$old"
	done
	rm -rf "$d"
	mkdir -p "$d/src" "$d/obj" "$d/boot"
	xz -dc -T0 "$DEBUG_SOURCE_TARBALL" | tar -x -C "$d/src" --strip-components=1 ||
		die "cannot unpack $DEBUG_SOURCE_TARBALL"
	debug_fragments | xargs cat >"$d/fragments.config"
	if ! make -C "$d/src" O="$d/obj" KCONFIG_ALLCONFIG="$d/fragments.config" \
		allnoconfig >"$d/build.log" 2>&1; then
		tail -n 20 "$d/build.log" >&2
		die "cannot configure the $GUEST_STACK kernel ($d/build.log)"
	fi
	debug_config_check "$d/obj/.config"
	if ! make -C "$d/src" O="$d/obj" -j"$(nproc)" >>"$d/build.log" 2>&1; then
		grep -E 'error|Error' "$d/build.log" | head -n 20 >&2
		die "cannot build the $GUEST_STACK kernel ($d/build.log)"
	fi
	cp "$d/obj/arch/x86/boot/bzImage" "$d/obj/System.map" "$d/boot/"
	mv "$d/obj/vmlinux" "$d/boot/"
	# what `make M=` does not read: the objects (but the build tools'),
	# the link's leftovers; "source" goes so that guest-kernel gives
	# stap its view of the tracepoint headers
	find "$d/obj" \( -path "$d/obj/scripts" -o -path "$d/obj/tools" \) -prune -o \
		\( -name '*.o' -o -name '*.a' -o -name '.tmp_vmlinux*' \) -type f -print0 |
		xargs -0 rm -f
	rm -f "$d/obj/source"
	touch "$d/.done"
	log "$GUEST_STACK kernel $(kernel_release_of "$d/obj") built in $(elapsed "$t0")s ($d)"
}
