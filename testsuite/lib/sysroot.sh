# sysroot.sh - packages of another Debian architecture, for a guest's user
# space and for cross-building: fetched with a PRIVATE apt state (its own
# sources, lists, cache and an empty dpkg status; nothing of the host's
# apt.conf.d) and unpacked with dpkg-deb -x.  Nothing is installed on the
# host and the host's apt state is not touched (no dpkg
# --add-architecture).  Sourced by arch.sh (bash; after common.sh).
#
# The archives are this machine's own (apt-sources.sh: the URIs its apt
# sources give the suite, or this machine's release), and so are its apt
# proxies (Acquire::http::Proxy, general and per host).  Environment:
# GUEST_DEBIAN_MIRROR, GUEST_DEBIAN_SECURITY (URIs, "none": no security
# archive) instead; GUEST_DEBIAN_SUITE (this machine's release codename,
# else bookworm); GUEST_DEBIAN_PARTS (the suite's archive parts besides
# itself: "updates security", the default, as a stable release has them;
# testing has no -updates, unstable neither).
# shellcheck shell=bash

# shellcheck disable=SC2154 # top_srcdir: common.sh
# shellcheck source=testsuite/lib/apt-sources.sh
. "$top_srcdir/testsuite/lib/apt-sources.sh"

SYSROOT_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# sysroot_suite: the Debian release to fetch from.
sysroot_suite() {
	local codename=""
	if [ -n "${GUEST_DEBIAN_SUITE:-}" ]; then
		echo "$GUEST_DEBIAN_SUITE"
		return
	fi
	[ -r /etc/os-release ] &&
		codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
	echo "${codename:-bookworm}"
}

# sysroot_apt_init DIR DEBARCH: the private apt state in DIR for DEBARCH.
# Release files are checked against the keyring but not for expiry:
# testing's and unstable's say they expire within a week, and the archive
# this machine reaches may be a snapshot older than that.
sysroot_apt_init() {
	local dir=$1 arch=$2 suite mirror security opt parts
	suite=$(sysroot_suite)
	mirror=${GUEST_DEBIAN_MIRROR:-}
	[ -n "$mirror" ] || apt_archive mirror main "$suite" GUEST_DEBIAN_MIRROR ||
		die "cannot fetch Debian $suite packages for $arch"
	parts=${GUEST_DEBIAN_PARTS-updates security}
	security=${GUEST_DEBIAN_SECURITY:-}
	[[ " $parts " == *" security "* ]] || security=none
	if [ -z "$security" ] &&
	   ! apt_archive security security "$suite" GUEST_DEBIAN_SECURITY 2>/dev/null; then
		log "no security archive for $suite in this machine's apt sources: $suite packages without its security updates (GUEST_DEBIAN_SECURITY=URI adds one)"
		security=none
	fi
	[ -r "$SYSROOT_KEYRING" ] ||
		die "no $SYSROOT_KEYRING (apt-get install debian-archive-keyring)"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/parts"
	opt="[arch=$arch signed-by=$SYSROOT_KEYRING]"
	{
		echo "deb $opt $mirror $suite main"
		[[ " $parts " != *" updates "* ]] || echo "deb $opt $mirror $suite-updates main"
		[ "$security" = none ] || echo "deb $opt $security $suite-security main"
	} >"$dir/sources.list"
	{
		cat <<-EOF
			Dir::Etc::Parts "$dir/parts";
			Dir::Etc::SourceList "$dir/sources.list";
			Dir::Etc::SourceParts "$dir/parts";
			Dir::State::Lists "$dir/lists";
			Dir::State::status "/dev/null";
			Dir::Cache "$dir/cache";
			APT::Architecture "$arch";
			APT::Architectures { "$arch"; };
			APT::Sandbox::User "root";
			Acquire::Languages "none";
			Acquire::Check-Valid-Until "false";
		EOF
		apt_proxy_conf
	} >"$dir/apt.conf"
}

# sysroot_apt DIR ARGS...: apt-get with the private state in DIR.
sysroot_apt() {
	local dir=$1
	shift
	APT_CONFIG=$dir/apt.conf apt-get -q "$@"
}

# sysroot_apt_cache DIR ARGS...: apt-cache with the private state in DIR.
sysroot_apt_cache() {
	local dir=$1
	shift
	APT_CONFIG=$dir/apt.conf apt-cache "$@"
}

sysroot_apt_update() {
	sysroot_apt "$1" update >"$1/update.log" 2>&1 || {
		cat "$1/update.log" >&2
		die "apt-get update (private state in $1) failed"
	}
}

# sysroot_has_package DIR PKG: does the archive have PKG?
sysroot_has_package() {
	sysroot_apt_cache "$1" show "$2" >/dev/null 2>&1
}

# sysroot_download DIR DEST PKG...: the packages' .debs into DEST.
sysroot_download() {
	local dir=$1 dest=$2
	shift 2
	(cd "$dest" && sysroot_apt "$dir" download "$@") >"$dir/download.log" 2>&1 || {
		cat "$dir/download.log" >&2
		die "cannot download $*"
	}
}

# sysroot_deb DEBDIR PKG: the path of PKG's .deb in DEBDIR.
sysroot_deb() {
	local f
	for f in "$1/$2"_*.deb; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
	die "no $2 in $1"
}

# sysroot_unpack DEB DEST
sysroot_unpack() {
	dpkg-deb -x "$1" "$2" || die "cannot unpack $1"
}

# sysroot_unpack_all DEBDIR DEST SKIP: every .deb in DEBDIR whose name does
# not match the glob SKIP; without documentation and gconv modules.
sysroot_unpack_all() {
	local deb
	for deb in "$1"/*.deb; do
		# shellcheck disable=SC2053 # SKIP is a glob
		[[ $(basename "$deb") == $3 ]] && continue
		sysroot_unpack "$deb" "$2"
	done
	rm -rf "$2/usr/share/doc" "$2/usr/share/man" "$2/usr/share/locale" \
		"$2"/usr/lib/*/gconv
}

# sysroot_elf_libs SYSROOT TRIPLET BINARY...: every shared library the
# binaries need (their DT_NEEDED, recursively) and their dynamic loader, as
# paths in SYSROOT, one per line; dies naming a library it cannot find.
# SYSROOT may be a list, ROOT:ROOT...: each is searched in turn.
sysroot_elf_libs() {
	local roots=$1 triplet=$2 f lib dir found interp r
	shift 2
	local dirs=()
	for r in ${roots//:/ }; do
		dirs+=("$r/lib/$triplet" "$r/usr/lib/$triplet" "$r/lib" "$r/usr/lib")
	done
	local -A seen=()
	local queue=("$@")
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]}
		queue=("${queue[@]:1}")
		interp=$(readelf -lW "$f" 2>/dev/null |
			sed -n 's/.*\[Requesting program interpreter: \(.*\)\]$/\1/p')
		if [ -n "$interp" ] && [ -z "${seen[$interp]:-}" ]; then
			seen[$interp]=1
			found=""
			for r in ${roots//:/ }; do
				[ -e "$r$interp" ] && { found=$r$interp; break; }
			done
			[ -n "$found" ] || die "$roots lacks $interp (for $f)"
			echo "$found"
		fi
		for lib in $(readelf -dW "$f" 2>/dev/null |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			[ -z "${seen[$lib]:-}" ] || continue
			seen[$lib]=1
			found=""
			for dir in "${dirs[@]}"; do
				[ -e "$dir/$lib" ] && { found=$dir/$lib; break; }
			done
			[ -n "$found" ] || die "$roots lacks $lib (needed by $f)"
			echo "$found"
			queue+=("$found")
		done
	done | sort -u
}
