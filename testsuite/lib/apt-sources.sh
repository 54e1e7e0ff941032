# apt-sources.sh - the Debian archives this machine's apt uses, for the
# private apt states (sysroot.sh) and debootstrap (stack.sh): the suites
# fetch from the sources and through the proxies the machine is set up
# with, never from a host written into the code.  Sourced by sysroot.sh
# (bash; after common.sh).
#
# Sources are read as apt reads them: Dir::Etc::sourcelist and every
# *.list (one-line format) and *.sources (deb822) in Dir::Etc::sourceparts
# (apt-config, so APT_CONFIG and apt.conf.d are honoured).  The archive of
# a suite is the URI of an enabled "deb" source whose suites include it
# (SUITE or SUITE-updates), else of one that includes this machine's own
# release: one Debian archive serves every release.  The security archive
# is found the same way, by SUITE-security.
# shellcheck shell=bash

# apt_source_files: the files apt reads its sources from, one per line.
apt_source_files() {
	local list="" parts="" f
	eval "$(apt-config shell list Dir::Etc::sourcelist/f parts Dir::Etc::sourceparts/d 2>/dev/null)"
	[ -n "$list" ] && [ -r "$list" ] && echo "$list"
	for f in "$parts"*.list "$parts"*.sources; do
		[ -r "$f" ] && echo "$f"
	done
	return 0
}

# apt_source_entries: "URI SUITE" for each suite of each enabled "deb"
# source (deb-src and disabled stanzas left out).
apt_source_entries() {
	local f
	while read -r f; do
		case $f in
		*.sources) apt_parse_deb822 <"$f" ;;
		*) apt_parse_oneline <"$f" ;;
		esac
	done < <(apt_source_files)
}

# apt_parse_oneline: sources.list lines: deb [OPTIONS] URI SUITE COMPONENT...
apt_parse_oneline() {
	awk '{ sub(/#.*/, "") }
	     $1 == "deb" { sub(/^[ \t]*deb[ \t]+(\[[^]]*\][ \t]+)?/, ""); split($0, w)
			   if (w[1] != "" && w[2] != "") print w[1], w[2] }'
}

# apt_parse_deb822: stanzas of Types, URIs, Suites (and Enabled), blank
# lines between them; continuation lines (a Signed-By key block) skipped.
apt_parse_deb822() {
	awk 'function flush(   i, j, nu, ns, u, s) {
		if (types ~ /(^| )deb( |$)/ && tolower(enabled) != "no") {
			nu = split(uris, u); ns = split(suites, s)
			for (i = 1; i <= nu; i++)
				for (j = 1; j <= ns; j++)
					print u[i], s[j]
		}
		types = uris = suites = enabled = ""
	     }
	     /^#/ { next }
	     /^[ \t]*$/ { flush(); next }
	     /^[ \t]/ { next }
	     { field = tolower($0); sub(/:.*/, "", field); value = $0
	       sub(/^[^:]*:[ \t]*/, "", value) }
	     field == "types" { types = value }
	     field == "uris" { uris = value }
	     field == "suites" { suites = value }
	     field == "enabled" { enabled = value }
	     END { flush() }'
}

# apt_host_suite: this machine's release codename (empty if unknown).
apt_host_suite() {
	[ -r /etc/os-release ] && sed -n 's/^VERSION_CODENAME=//p' /etc/os-release
	return 0
}

# apt_archive VAR main|security SUITE KNOB: sets VAR to the URI of SUITE's
# archive (main) or security archive among this machine's sources;
# returns 1, saying what it looked for, where, and that KNOB (an
# environment variable) overrides, when there is none.
apt_archive() {
	local var=$1 _kind=$2 _suite=$3 _knob=$4 _host _try _re _uri _what _sought
	_host=$(apt_host_suite)
	for _try in "$_suite" ${_host:+"$_host"}; do
		_re="^$_try(-updates)?\$" _what="archive" _sought="$_suite or $_suite-updates"
		[ "$_kind" = security ] &&
			_re="^$_try(-security|/updates)\$" _what="security archive" _sought="$_suite-security"
		_uri=$(apt_source_entries | awk -v re="$_re" '$2 ~ re { print $1; exit }')
		if [ -n "$_uri" ]; then
			printf -v "$var" '%s' "${_uri%/}"
			return 0
		fi
	done
	{
		echo "no Debian $_what for $_suite in this machine's apt sources: looked for an"
		echo "enabled \"deb\" source of suite $_sought${_host:+ (or of $_host, the release here)} in:"
		apt_source_files | sed 's/^/  /' | grep . || echo "  (no sources file)"
		echo "set $_knob=URI (the archive's URI, as in a sources.list line) to fetch from another"
	} >&2
	return 1
}

# apt_proxy_conf: this machine's apt proxy settings (general and per
# host), as apt.conf lines for a private apt state.
apt_proxy_conf() {
	apt-config dump 2>/dev/null | grep -E '^Acquire::(https?|ftp)::Proxy(::[^ ]+)? ' || true
}

# apt_proxy_env: http_proxy= and https_proxy= for debootstrap (which reads
# the environment), from apt's general proxies where the environment
# sets none.
apt_proxy_env() {
	local http="" https=""
	eval "$(apt-config shell http Acquire::http::Proxy https Acquire::https::Proxy 2>/dev/null)"
	[ -n "${http_proxy:-}" ] || [ -z "$http" ] || [ "$http" = DIRECT ] || echo "http_proxy=$http"
	[ -n "${https_proxy:-}" ] || [ -z "$https" ] || [ "$https" = DIRECT ] || echo "https_proxy=$https"
	return 0
}
