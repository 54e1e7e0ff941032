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
#                        are looked up there, then in the tree
#   arm64                none yet: perf_missing says so, the tests skip
#
# In the guest the binary is /usr/bin/perf, whatever the package calls it.
# shellcheck shell=bash
# shellcheck disable=SC2154 # ARCH, ARCH_DIR, TREE_*: arch.sh, stack.sh

# bump when perf_tree_fetch_locked changes what it makes
PERF_LAYOUT=2

# perf_missing: why this stack's guest cannot have perf (empty: it can).
perf_missing() {
	local t
	[ "$ARCH" = x86_64 ] || { echo "no perf for the $ARCH guest yet"; return; }
	if stack_is_tree; then
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
# needs, the dynamic loader included.  Call under the arch lock (a tree
# stack's first call downloads).
perf_files() {
	local bin root=$ARCH_DIR/perf/root f
	if ! stack_is_tree; then
		bin=$(perf_host_binary)
		[ -n "$bin" ] || die "no linux-perf on this machine (scripts/install-deps)"
		perf_version "this machine's $(dpkg-query -W -f='${Version}' linux-perf)"
		echo "$bin /usr/bin/perf"
		for f in $(arch_libs "$bin"); do
			echo "$f $f"
		done
		return
	fi
	perf_tree_fetch_locked
	bin=$root$(cat "$root/.perf-binary")
	perf_version "$(cat "$root/.perf-version")"
	echo "$bin /usr/bin/perf"
	for f in $(sysroot_elf_libs "$root:$TREE_ROOT" x86_64-linux-gnu "$bin"); do
		case $f in
		"$root"/*) echo "$f ${f#"$root"}" ;;
		*) echo "$f ${f#"$TREE_ROOT"}" ;;
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

# perf_tree_stamp: what $ARCH_DIR/perf made now for this tree records.
perf_tree_stamp() {
	echo "layout=$PERF_LAYOUT $(cat "$TREE_DIR/.stamp" 2>/dev/null)"
}

# perf_tree_fetch_locked: $ARCH_DIR/perf/root, once per tree (again when
# the tree is made again): linux-perf and what it needs beyond the tree.
perf_tree_fetch_locked() {
	local dir=$ARCH_DIR/perf apt=$ARCH_DIR/perf/apt new=$ARCH_DIR/perf/root.new
	local bin t0
	if [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$(perf_tree_stamp)" ] &&
		! newer_than "$dir/.stamp" "$TREE_DIR/.stamp"; then
		return 0
	fi
	t0=$(now)
	log "fetching $TREE_SUITE's linux-perf into $dir (once)"
	rm -rf "$apt" "$new" "$dir/debs" "$dir/.stamp"
	mkdir -p "$apt" "$new" "$dir/debs/partial"
	tree_apt_init "$apt" amd64
	# the tree's installed packages: apt downloads only what it lacks
	echo "Dir::State::status \"$TREE_ROOT/var/lib/dpkg/status\";" >>"$apt/apt.conf"
	sysroot_apt_update "$apt"
	sysroot_apt "$apt" install -y --download-only --no-install-recommends \
		-o Debug::NoLocking=1 -o Dir::Cache::Archives="$dir/debs" \
		linux-perf >"$dir/closure.log" 2>&1 || {
		cat "$dir/closure.log" >&2
		die "cannot download $TREE_SUITE's linux-perf"
	}
	sysroot_unpack_all "$dir/debs" "$new" '*.none'
	bin=$(perf_pick "$new/usr/bin/perf" "$new"/usr/bin/perf_*)
	[ -n "$bin" ] || die "$TREE_SUITE's linux-perf has no perf binary in /usr/bin"
	echo "${bin#"$new"}" >"$new/.perf-binary"
	echo "$(dpkg-deb -f "$(sysroot_deb "$dir/debs" linux-perf)" Version) ($TREE_SUITE amd64)" \
		>"$new/.perf-version"
	rm -rf "$dir/root" "$apt" "$dir/debs/partial"
	mv "$new" "$dir/root"
	perf_tree_stamp >"$dir/.stamp"
	log "$TREE_SUITE's linux-perf ready in $(elapsed "$t0")s"
}
