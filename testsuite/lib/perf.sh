# perf.sh - Debian's own perf in the guest, for the tests that compare
# their counts with it (`#! needs: perf`): the stack's linux-perf binary
# and the closure of its shared libraries, which guest.sh packs into an
# initramfs of their own (initramfs/perf.cpio) that only the boots of
# those tests get.  Sourced by guest.sh (bash; after arch.sh).
#
#   bookworm, rt, debug  x86_64: this machine's linux-perf (dpkg -L) and
#                        its libraries by ldd: the guest's user space is
#                        this machine's
#   trixie, forky, sid   x86_64: the tree's suite's linux-perf, never
#                        installed into the tree: a private apt state
#                        (sysroot.sh) that reads the tree's dpkg status
#                        downloads linux-perf and the packages it depends
#                        on that the tree lacks into $ARCH_DIR/perf/debs,
#                        unpacked into $ARCH_DIR/perf/root; the libraries
#                        are looked up in the tree, then there
#   arm64 (every stack)  the suite's arm64 linux-perf and its whole
#                        closure (the sysroot has no dpkg status), the
#                        same way; the libraries are looked up in the
#                        sysroot (the base image has those), then there
#
# In the guest the binary is /usr/bin/perf, whatever the package calls it.
# shellcheck shell=bash
# shellcheck disable=SC2154 # ARCH, ARCH_DIR, ARCH_SYSROOT, TREE_*: arch.sh, stack.sh

# bump when perf_fetch_locked changes what it makes
PERF_LAYOUT=2

# perf_missing: why this stack's guest cannot have perf (empty: it can).
perf_missing() {
	local t
	if [ "$ARCH" != x86_64 ] || stack_is_tree; then
		for t in apt-get dpkg-deb readelf; do
			command -v "$t" >/dev/null || { echo "no $t"; return; }
		done
		return 0
	fi
	[ -n "$(perf_host_binary)" ] ||
		echo "no linux-perf on this machine (scripts/install-deps)"
}

# perf_pick FILE...: the first FILE that is an ELF file, not a link (the
# versioned binary, not linux-base's wrapper script); empty if none.
perf_pick() {
	local f
	for f in "$@"; do
		[ -f "$f" ] && [ ! -L "$f" ] && readelf -h "$f" >/dev/null 2>&1 &&
			{ echo "$f"; return; }
	done
	return 0
}

# perf_host_binary: this machine's linux-perf binary (empty: none).
perf_host_binary() {
	# shellcheck disable=SC2046 # paths: one word each
	perf_pick $(dpkg -L linux-perf 2>/dev/null |
		grep -E '^/usr/bin/perf(_[0-9.]+)?$' | sort -r)
}

# perf_files: "HOST-PATH GUEST-PATH" for the binary and every library it
# needs, the dynamic loader included.  Call under the arch lock (the first
# call of a stack that fetches its perf downloads).
perf_files() {
	local bin root=$ARCH_DIR/perf/root f triplet=x86_64-linux-gnu
	if [ "$ARCH" = x86_64 ] && ! stack_is_tree; then
		bin=$(perf_host_binary)
		[ -n "$bin" ] || die "no linux-perf on this machine (scripts/install-deps)"
		perf_version "this machine's $(dpkg-query -W -f='${Version}' linux-perf)"
		echo "$bin /usr/bin/perf"
		for f in $(arch_libs "$bin"); do
			echo "$f $f"
		done
		return
	fi
	[ "$ARCH" = x86_64 ] || triplet=aarch64-linux-gnu
	perf_fetch_locked
	bin=$root$(cat "$root/.perf-binary")
	perf_version "$(cat "$root/.perf-version")"
	echo "$bin /usr/bin/perf"
	# the guest's own libraries first: the base image has them
	for f in $(sysroot_elf_libs "$ARCH_SYSROOT:$root" "$triplet" "$bin"); do
		case $f in
		"$root"/*) echo "$f ${f#"$root"}" ;;
		*) echo "$f ${f#"$ARCH_SYSROOT"}" ;;
		esac
	done
}

# perf_version TEXT: "HOST-PATH GUEST-PATH" of a file that says which
# linux-perf the guest gets, /etc/guest-perf there; written when TEXT
# changes, so that a new perf is packed anew even where its files keep
# the package's older times.
perf_version() {
	local f=$ARCH_DIR/perf/version
	mkdir -p "${f%/*}"
	[ "$(cat "$f" 2>/dev/null)" = "linux-perf $1" ] || echo "linux-perf $1" >"$f"
	echo "$f /etc/guest-perf"
}

# perf_suite: the Debian release whose perf the guest gets.
perf_suite() {
	if stack_is_tree; then echo "$TREE_SUITE"; else sysroot_suite; fi
}

# perf_made_from: the file that says what the guest's user space is (the
# tree's stamp, the arm64 sysroot's): perf is fetched again when it
# changes.
perf_made_from() {
	if [ "$ARCH" = x86_64 ]; then
		echo "$TREE_DIR/.stamp"
	else
		echo "$ARCH_SYSROOT/.guest-sysroot"
	fi
}

# perf_stamp: what $ARCH_DIR/perf made now records.
perf_stamp() {
	echo "layout=$PERF_LAYOUT suite=$(perf_suite) $(cat "$(perf_made_from)" 2>/dev/null)"
}

# perf_fetch_locked: $ARCH_DIR/perf/root, the suite's linux-perf and the
# packages it needs, once (again when the tree or sysroot is made again).
# An x86_64 tree: what the tree lacks (apt reads its dpkg status); arm64:
# the whole closure (a sysroot is unpacked packages, with no dpkg status).
perf_fetch_locked() {
	local dir=$ARCH_DIR/perf apt=$ARCH_DIR/perf/apt new=$ARCH_DIR/perf/root.new
	local bin t0 suite debarch=amd64
	if [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$(perf_stamp)" ] &&
		! newer_than "$dir/.stamp" "$(perf_made_from)"; then
		return 0
	fi
	t0=$(now)
	suite=$(perf_suite)
	[ "$ARCH" = x86_64 ] || debarch=arm64
	log "fetching $suite's $debarch linux-perf into $dir (once)"
	rm -rf "$apt" "$new" "$dir/debs" "$dir/.stamp"
	mkdir -p "$apt" "$new" "$dir/debs/partial"
	if stack_is_tree; then
		tree_apt_init "$apt" "$debarch"
	else
		sysroot_apt_init "$apt" "$debarch"
	fi
	[ "$ARCH" != x86_64 ] ||
		echo "Dir::State::status \"$TREE_ROOT/var/lib/dpkg/status\";" >>"$apt/apt.conf"
	sysroot_apt_update "$apt"
	sysroot_apt "$apt" install -y --download-only --no-install-recommends \
		-o Debug::NoLocking=1 -o Dir::Cache::Archives="$dir/debs" \
		linux-perf >"$dir/closure.log" 2>&1 || {
		cat "$dir/closure.log" >&2
		die "cannot download $suite's linux-perf"
	}
	sysroot_unpack_all "$dir/debs" "$new" '*.none'
	bin=$(perf_pick "$new/usr/bin/perf" "$new"/usr/bin/perf_*)
	[ -n "$bin" ] || die "$suite's linux-perf has no perf binary in /usr/bin"
	echo "${bin#"$new"}" >"$new/.perf-binary"
	echo "$(dpkg-deb -f "$(sysroot_deb "$dir/debs" linux-perf)" Version) ($suite $debarch)" \
		>"$new/.perf-version"
	rm -rf "$dir/root" "$apt" "$dir/debs/partial"
	mv "$new" "$dir/root"
	perf_stamp >"$dir/.stamp"
	log "$suite's $debarch linux-perf ready in $(elapsed "$t0")s"
}
