# guest.sh - the guest machinery (sourced, bash; after common.sh and
# arch.sh): test programs, the initramfs, jobs, booting QEMU and reading the
# results back.  A run goes:
#
#   guest_build_progs                     static programs, same path in guest
#   guest_build_kmods                     test kernel modules, in progs/kmod
#   work=$(guest_work_new NAME)           a private work dir (caller removes)
#   guest_job_add "$work" JOB SECS CMD... one per command, run in order
#   guest_module_add "$work" X.ko         modules land in the guest's /stap
#   guest_need_add "$work" perf           a need's own initramfs in this boot
#   guest_boot "$work"                    initrd = cached base [+ needs] + the jobs
#   guest_job_output "$work" JOB          what the job printed
#   guest_job_status "$work" JOB          "status=N timeout=0|1 seconds=S"
#
# Caches, all under $ARCH_DIR: progs/, initramfs/base.cpio (and NEED.cpio
# for each need of GUEST_NEEDS), stapdir/ (the stap cache, SYSTEMTAP_DIR),
# tmp/ (work dirs and stap's TMPDIR).
# shellcheck shell=bash
# shellcheck disable=SC2154 # top_srcdir, top_builddir, ARCH_*: common.sh, arch.sh

GUEST_LIB=$top_srcdir/testsuite/lib
GUEST_MEM=${GUEST_MEM:-1536}
GUEST_SMP=${GUEST_SMP:-2}
GUEST_BOOT_SECS=${GUEST_BOOT_SECS:-120}	# boot + power off, beyond the jobs
GUEST_STALL_SECS=${GUEST_STALL_SECS:-60}	# a job's time beyond its limit
GUEST_POLL_SECS=${GUEST_POLL_SECS:-5}	# how often a boot's progress is looked at
# more QEMU options for a boot (devices a test adds: run-remote's port)
GUEST_QEMU_EXTRA=()
# what must not appear in the guest kernel's log: a BUG or WARNING (a
# lockdep splat, KASAN's and KCSAN's reports, the atomic-sleep check, a
# list or debug-objects corruption all print one of the two), an oops,
# the lockup, hung-task and RCU stall detectors, UBSAN, lockdep's warning
# on a lock it cannot track
GUEST_KERNEL_BAD_RE='(BUG|WARNING)[: ]|sleeping function called|Oops|general protection|soft lockup|hard LOCKUP|blocked for more than|Kernel panic|detected stalls|self-detected stall|UBSAN:|non-static key'

# shellcheck source=testsuite/lib/guest-gdb.sh
. "$GUEST_LIB/guest-gdb.sh"
# shellcheck source=testsuite/lib/guest-ipi.sh
. "$GUEST_LIB/guest-ipi.sh"
# shellcheck source=testsuite/lib/perf.sh
. "$GUEST_LIB/perf.sh"

# guest_stap_env: the stap cache and temporary files inside the build tree.
guest_stap_env() {
	export SYSTEMTAP_DIR=$ARCH_DIR/stapdir
	export TMPDIR=$ARCH_DIR/tmp
	mkdir -p "$SYSTEMTAP_DIR" "$TMPDIR"
}

# --------------------------------------------------------- test programs

GUEST_PROGS_SRC=$top_srcdir/testsuite/guest/progs

# guest_progs_dir: where the programs live, on the host and in the guest.
guest_progs_dir() {
	echo "$ARCH_DIR/progs"
}

# guest_build_progs: build every progs/NAME.c (with the shared common.c)
# that is out of date.  Static, so the guest needs no libraries for them.
# A progs/NAME.sh is copied as NAME.
guest_build_progs() {
	local dir src name out
	dir=$(guest_progs_dir)
	mkdir -p "$dir"
	for src in "$GUEST_PROGS_SRC"/*.c; do
		name=$(basename "$src" .c)
		[ "$name" = common ] && continue
		out=$dir/$name
		newer_than "$out" "$src" "$GUEST_PROGS_SRC/common.c" \
			"$GUEST_PROGS_SRC/common.h" || continue
		vlog "building $out"
		"$ARCH_CC" -static -O2 -g -Wall -Wextra -o "$out.tmp" \
			"$src" "$GUEST_PROGS_SRC/common.c" ||
			die "cannot build the guest program $name"
		mv "$out.tmp" "$out"
	done
	for src in "$GUEST_PROGS_SRC"/*.sh; do	# scripts, as they are
		[ -e "$src" ] || continue
		out=$dir/$(basename "$src" .sh)
		newer_than "$out" "$src" || continue
		install -m 755 "$src" "$out"
	done
}

# guest_build_kmods: build every guest/kmod/NAME.c (a test's own kernel
# module, e.g. a PMU that QEMU lacks; the headers there are shared) that
# is out of date, for the
# guest's kernel as stap builds its modules (kbuild against kbuild/, the
# stack's compiler: trixie's inside its tree), into progs/kmod/NAME.ko,
# the same path in the guest.  A module that does not build is left out
# (the tests that insmod it fail), said in the log.
GUEST_KMOD_SRC=$top_srcdir/testsuite/guest/kmod
guest_build_kmods() {
	local dir kb=$ARCH_DIR/kbuild src name work run=() args=()
	dir=$(guest_progs_dir)/kmod
	[ -d "$kb" ] || return 0
	mkdir -p "$dir"
	[ "$ARCH" = arm64 ] && args=(ARCH=arm64 "CROSS_COMPILE=$ARM64_CROSS")
	stack_is_tree &&
		run=("$top_srcdir/testsuite/lib/chroot-run" "$TREE_ROOT")
	for src in "$GUEST_KMOD_SRC"/*.c; do
		[ -e "$src" ] || continue
		name=$(basename "$src" .c)
		newer_than "$dir/$name.ko" "$src" "$GUEST_KMOD_SRC"/*.h ||
			continue
		vlog "building $dir/$name.ko"
		work=$dir/$name.build
		rm -rf "$work"
		mkdir -p "$work"
		cp "$src" "$GUEST_KMOD_SRC"/*.h "$work/"
		echo "obj-m := $name.o" >"$work/Kbuild"
		if "${run[@]}" make -s -C "$kb" "M=$work" "${args[@]}" modules \
			>"$work/log" 2>&1; then
			mv "$work/$name.ko" "$dir/$name.ko"
			rm -rf "$work"
		else
			echo "guest.sh: cannot build the guest module $name:" \
				"$work/log" >&2
			rm -f "$dir/$name.ko"
		fi
	done
}

# -------------------------------------------------------------- initramfs

# guest_runner: the program that loads modules in the guest: our helper
# when it has been built (ARCH_HELPER), else staprun (the helper execs
# staprun anyway for modules without counters).
guest_runner() {
	if [ -x "$ARCH_HELPER" ]; then
		echo /usr/bin/perfctr-run
	else
		echo /usr/bin/staprun
	fi
}

# guest_stapio: staprun execs stapio from its libexec directory.
guest_stapio() {
	local d
	for d in "$(dirname "$ARCH_STAPRUN")/../lib/systemtap" \
		"$(dirname "$ARCH_STAPRUN")/../libexec/systemtap"; do
		[ -x "$d/stapio" ] && { readlink -f "$d/stapio"; return; }
	done
	die "no stapio next to $ARCH_STAPRUN"
}

# guest_base_files: "HOST-PATH GUEST-PATH" for each file of the base image.
guest_base_files() {
	local f bin stapio progs libs
	stapio=$(guest_stapio)
	echo "$GUEST_LIB/guest-init /init"
	echo "$GUEST_LIB/guest-wait /usr/bin/guest-wait"
	echo "$(guest_progs_dir)/hold_event /usr/bin/hold_event"
	echo "$ARCH_BUSYBOX /bin/busybox"
	echo "$ARCH_STAPRUN /usr/bin/staprun"
	echo "$stapio ${stapio#"${ARCH_SYSROOT%/}"}"
	bin=("$ARCH_STAPRUN" "$stapio")
	if [ -x "$ARCH_HELPER" ]; then
		echo "$ARCH_HELPER /usr/bin/perfctr-run"
		bin+=("$ARCH_HELPER")
	fi
	# static: no libraries
	[ -x "${ARCH_HWCHECK:-}" ] && echo "$ARCH_HWCHECK /usr/bin/perfctr-hwcheck"
	libs=$(arch_libs "${bin[@]}")
	for f in $libs; do
		echo "$f ${f#"${ARCH_SYSROOT%/}"}"
	done
	arch_guest_files
	progs=$(guest_progs_dir)
	for f in "$progs"/*; do
		[ -f "$f" ] && [ -x "$f" ] && echo "$f $f"
	done
	for f in "$progs"/kmod/*.ko; do
		[ -f "$f" ] && echo "$f $f"
	done
}

# guest_cpio DIR OUT: pack DIR as an uncompressed newc archive (the kernel
# unpacks that fastest; the files stay on this machine).
guest_cpio() {
	(cd "$1" && find . -print | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$2.tmp"
	mv "$2.tmp" "$2"
}

# guest_make_base: (re)build $ARCH_DIR/initramfs/base.cpio when any of its
# files changed.  Call under the arch lock.
guest_make_base() {
	guest_pack "$ARCH_DIR/initramfs/base.cpio" "$(guest_base_files)" \
		/proc /sys /dev /tmp /root /stap /jobs /etc
}

# guest_pack CPIO LIST [DIR...]: (re)build CPIO from LIST ("HOST-PATH
# GUEST-PATH" lines) and the empty DIRs when the list or any of its files
# changed; CPIO.list records the list.
guest_pack() {
	local cpio=$1 list=$2 stage host dest d
	shift 2
	mkdir -p "$(dirname "$cpio")"
	# shellcheck disable=SC2046 # one word per path: build paths have no spaces
	if [ -f "$cpio.list" ] && [ "$list" = "$(cat "$cpio.list")" ] &&
		! newer_than "$cpio" $(cut -d' ' -f1 <<<"$list"); then
		return 0
	fi
	vlog "building $cpio"
	stage=${cpio%.cpio}.d
	rm -rf "$stage"
	mkdir -p "$stage"
	for d in "$@"; do
		mkdir -p "$stage$d"
	done
	while read -r host dest; do
		[ -n "$dest" ] || continue
		mkdir -p "$stage$(dirname "$dest")"
		cp -L "$host" "$stage$dest"
	done <<<"$list"
	# the kernel runs /init whatever mode the checkout gave guest-init
	[ ! -f "$stage/init" ] || chmod 755 "$stage/init"
	guest_cpio "$stage" "$cpio"
	echo "$list" >"$cpio.list"
	rm -rf "$stage"
}

# Needs: what only some boots get, each an initramfs of its own
# ($ARCH_DIR/initramfs/NEED.cpio) that guest_boot appends for a work dir
# that asks for it (guest_need_add): perf (perf.sh), for the tests that
# compare their counts with Debian's perf.
GUEST_NEEDS_KNOWN="perf"

# guest_need_missing NEED: why this guest cannot have NEED (empty: it can).
guest_need_missing() {
	case $1 in
	perf) perf_missing ;;
	*) echo "'$1' is not a need ($GUEST_NEEDS_KNOWN)" ;;
	esac
}

# guest_make_need NEED: (re)build NEED.cpio: NEED's files but those the
# base image has at the same path.  Call under the arch lock, after
# guest_make_base.
guest_make_need() {
	local files
	case $1 in
	perf) files=$(perf_files) ;;
	*) die "'$1' is not a need ($GUEST_NEEDS_KNOWN)" ;;
	esac
	guest_pack "$ARCH_DIR/initramfs/$1.cpio" "$(awk 'NR == FNR { base[$2] = 1; next }
		!($2 in base)' "$ARCH_DIR/initramfs/base.cpio.list" - <<<"$files")"
}

# guest_need_add WORK NEED: the boot of WORK gets NEED (made by
# guest_prepare: GUEST_NEEDS names it).
guest_need_add() {
	[ -f "$ARCH_DIR/initramfs/$2.cpio" ] ||
		die "no $ARCH_DIR/initramfs/$2.cpio (GUEST_NEEDS=$2 before guest_prepare)"
	echo "$2" >>"$1/needs"
}

# guest_prepare: everything a boot needs that is shared between runs.
guest_prepare() {
	[ -x "$ARCH_BUSYBOX" ] || die "no busybox (apt-get install busybox-static)"
	command -v "$ARCH_QEMU" >/dev/null || die "no $ARCH_QEMU"
	[ -r "$ARCH_VMLINUZ" ] || die "no kernel image $ARCH_VMLINUZ"
	with_lock "$ARCH_DIR/lock" guest_prepare_locked
}

# (GUEST_NEEDS: the needs some boot will get, words)
guest_prepare_locked() {
	local n
	guest_build_progs
	guest_build_kmods
	arch_build_helper
	guest_make_base
	for n in ${GUEST_NEEDS:-}; do
		guest_make_need "$n"
	done
	arch_boot_kernel >/dev/null
}

# ----------------------------------------------------------------- jobs

# guest_work_new NAME: a fresh work dir for one boot, under $ARCH_DIR/tmp
# (the caller removes it).  Prints its path.
guest_work_new() {
	local w
	mkdir -p "$ARCH_DIR/tmp"
	w=$(mktemp -d "$ARCH_DIR/tmp/$1.XXXXXX")
	mkdir -p "$w/root/jobs" "$w/root/stap"
	: >"$w/root/jobs/list"
	echo "$w"
}

# guest_job_add WORK JOB SECS CMD...: run CMD (words, quoted for the guest
# shell) as job JOB with a limit of SECS seconds.
guest_job_add() {
	local w=$1 job=$2 secs=$3
	shift 3
	[[ $job =~ ^[A-Za-z0-9_.-]+$ ]] || die "bad job name '$job'"
	[ "$job" != dmesg ] || die "job name 'dmesg' is reserved"
	printf 'exec %s\n' "$(shjoin "$@")" >"$w/root/jobs/$job.sh"
	echo "$job $secs" >>"$w/root/jobs/list"
}

# guest_module_add WORK KO: copy a module into the guest's /stap.
guest_module_add() {
	cp "$2" "$1/root/stap/"
}

# guest_jobs_secs WORK: the sum of the job limits (for the QEMU timeout).
guest_jobs_secs() {
	awk '{ s += $2 } END { print s + 0 }' "$1/root/jobs/list"
}

# ----------------------------------------------------------------- boot

# guest_boot WORK: boot the guest with WORK's jobs; the boot log goes to
# WORK/console.log, the result port to WORK/results.log, then the results
# are split per job.  Returns non-zero if the guest did not finish (hang,
# panic, QEMU timeout); the jobs it did finish are still split.
guest_boot() {
	local w=$1 limit rc=0 t0 gdb
	# the jobs' limits are in the guest's time; ARCH_TIME_FACTOR: how much
	# longer it may take here (arm64: -icount time runs at a rate of its own)
	limit=$(($(guest_jobs_secs "$w") * ARCH_TIME_FACTOR + GUEST_BOOT_SECS))
	arch_channels "$w/console.log" "$w/results.log"
	guest_cpio "$w/root" "$w/jobs.cpio"
	# shellcheck disable=SC2046 # need names: one word each
	cat "$ARCH_DIR/initramfs/base.cpio" $(guest_need_cpios "$w") \
		"$w/jobs.cpio" >"$w/initrd.cpio"
	rm -f "$w/jobs.cpio"
	rm -f "$w/monitor.in" "$w/monitor.out" "$w/hung" "$w/gdb.sock"
	mkfifo "$w/monitor.in" "$w/monitor.out"
	mapfile -t gdb < <(guest_gdb_args "$w")
	t0=$(now)
	"$ARCH_QEMU" "${ARCH_QEMU_ARGS[@]}" \
		-m "$GUEST_MEM" -smp "$GUEST_SMP" \
		-nodefaults -display none -no-reboot "${ARCH_CHANNEL_ARGS[@]}" \
		"${GUEST_QEMU_EXTRA[@]}" "${gdb[@]}" \
		-monitor "pipe:$w/monitor" \
		-kernel "$(arch_boot_kernel)" -initrd "$w/initrd.cpio" \
		-append "console=$ARCH_CONSOLE quiet panic=-1 $ARCH_APPEND guest_out=$ARCH_OUT_TTY" \
		</dev/null >"$w/qemu.log" 2>&1 &
	guest_wait_qemu "$w" $! "$limit" || rc=$?
	rm -f "$w/initrd.cpio" "$w/monitor.in" "$w/monitor.out" "$w/gdb.sock"
	touch "$w/console.log" "$w/results.log"	# QEMU may not have started
	GUEST_BOOT_WALL=$(elapsed "$t0")
	vlog "guest ran ${GUEST_BOOT_WALL}s (limit ${limit}s)"
	guest_split_results "$w"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		log "the guest did not finish within ${limit}s"
		return 1
	elif ! grep -q '^### guest-done' "$w/results.log"; then
		log "the guest stopped before its last job"
		[ -s "$w/qemu.log" ] && sed 's/^/  qemu: /' "$w/qemu.log" >&2
		return 1
	fi
	return 0
}

# guest_need_cpios WORK: the needs' archives WORK's boot gets.
guest_need_cpios() {
	local n
	[ -f "$1/needs" ] || return 0
	# shellcheck disable=SC2013 # one word a line
	for n in $(sort -u "$1/needs"); do
		echo "$ARCH_DIR/initramfs/$n.cpio"
	done
}

# guest_wait_qemu WORK PID LIMIT: wait for QEMU (PID) to end.  A guest
# that has stalled (guest_stalled), or is still running after LIMIT
# seconds, is hung: note where each vCPU is (guest_dump_cpus) and stop
# it: returns 124 then, else QEMU's status.
guest_wait_qemu() {
	local w=$1 pid=$2 limit=$3 timer first rc t0 now _
	t0=$(date +%s)
	GUEST_MARK="" GUEST_MARK_SINCE=$t0
	while :; do
		# the timer holds none of the caller's descriptors (a test
		# driver reads this script's output to its end)
		sleep "$GUEST_POLL_SECS" >/dev/null 2>&1 &
		timer=$! first="" rc=0
		wait -n -p first "$pid" "$timer" || rc=$?
		if [ "$first" != "$timer" ]; then
			kill "$timer" 2>/dev/null
			wait "$timer" 2>/dev/null
			return "$rc"
		fi
		now=$(date +%s)
		[ $((now - t0)) -lt "$limit" ] || break
		guest_stalled "$w" "$now" && break
	done
	: >"$w/hung"
	guest_dump_cpus "$w"
	kill -TERM "$pid" 2>/dev/null
	for _ in 1 2 3 4 5; do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 124
}

# guest_stalled WORK NOW: has the guest gone silent for longer than it
# may?  Its results port says where it is (GUEST_MARK: the last "###"
# line, seen first at GUEST_MARK_SINCE, host seconds): inside a job it
# has that job's limit (the guest's own watchdog ends the job then) and
# GUEST_STALL_SECS more (leftover modules unloaded, the host loaded);
# anywhere else (booting, between jobs, the final log) GUEST_BOOT_SECS.
# So a hung kernel costs one job's limit, not the whole boot's.
guest_stalled() {
	local w=$1 now=$2 mark job secs
	mark=$(grep -a '^### guest-' "$w/results.log" 2>/dev/null | tail -n 1)
	if [ "$mark" != "$GUEST_MARK" ]; then
		GUEST_MARK=$mark GUEST_MARK_SINCE=$now
		return 1
	fi
	secs=$GUEST_BOOT_SECS
	case $mark in
	"### guest-job-begin "*)
		job=${mark#"### guest-job-begin "}
		job=${job%$'\r'}
		secs=$(awk -v j="$job" '$1 == j { print $2; exit }' "$w/root/jobs/list")
		secs=$(( ${secs:-$GUEST_BOOT_SECS} * ARCH_TIME_FACTOR + GUEST_STALL_SECS ))
		;;
	esac
	[ $((now - GUEST_MARK_SINCE)) -gt "$secs" ]
}

# guest_dump_cpus WORK: where a guest that did not finish is: each vCPU's
# program counter, named with the kernel's symbol map, into WORK/cpus (a
# hang that prints nothing: every CPU spinning with interrupts off, or a
# guest idle while its job waits forever).  QEMU's monitor is a pipe pair
# (-monitor pipe:WORK/monitor); a monitor that does not answer means
# QEMU itself is stuck.
guest_dump_cpus() {
	local w=$1 map reader cpu pc
	map=$ARCH_DIR/kallsyms/$ARCH_RELEASE.map
	timeout 8 cat "$w/monitor.out" >"$w/monitor.log" 2>/dev/null &
	reader=$!
	# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
	timeout 5 sh -c 'printf "%s\n" "$2" >"$1"' sh "$w/monitor.in" \
		"$(echo "info registers -a"; guest_ipi_monitor_cmds)"
	wait "$reader" 2>/dev/null
	guest_ipi_lapic "$w/monitor.log" >"$w/lapic"
	tr -d '\r' <"$w/monitor.log" | awk '
		/^CPU#[0-9]+/ { cpu = $1; sub(/:$/, "", cpu) }
		match($0, /RIP=[0-9a-f]+/) { print cpu, substr($0, RSTART + 4, RLENGTH - 4); next }
		match($0, /(^| )PC=[0-9a-f]+/) { s = substr($0, RSTART, RLENGTH); sub(/.*=/, "", s); print cpu, s }' |
		while read -r cpu pc; do
			echo "$cpu at $(guest_symbol "$map" "$pc")"
		done >"$w/cpus"
	[ -s "$w/cpus" ] || echo "QEMU's monitor did not answer: QEMU itself is stuck" >"$w/cpus"
	guest_gdb_dump "$w"
}

# guest_symbol MAP ADDR: ADDR (hex) as FUNCTION+0xOFF by the symbol map
# (nm format), or the address alone (no map, or past the map's last
# function by more than GUEST_SYMBOL_REACH: a module loaded after it was
# read).
GUEST_SYMBOL_REACH=$((0x100000))
guest_symbol() {
	local a best name
	a=$(printf '%016x' "$((16#${2#0x}))")
	read -r best name < <(awk -v a="$a" '$2 ~ /^[Tt]$/ && $1 <= a && $1 > best { best = $1; name = $3 }
		END { if (name != "") print best, name }' "$1" 2>/dev/null)
	if [ -n "${name:-}" ] && [ $((16#$a - 16#$best)) -lt "$GUEST_SYMBOL_REACH" ]; then
		printf '%s+0x%x\n' "$name" "$((16#$a - 16#$best))"
	else
		echo "0x$a"
	fi
}

# guest_split_results WORK: WORK/results.log -> WORK/out/JOB (output) and
# WORK/out/JOB.status (the end marker's fields; absent if the job never
# ended: the guest died or hung while it ran).
guest_split_results() {
	local w=$1
	rm -rf "$w/out"
	mkdir -p "$w/out"
	tr -d '\r' <"$w/results.log" | awk -v dir="$w/out" '
		function close_job() { if (file != "") close(file); file = "" }
		/^### guest-job-begin / { close_job(); file = dir "/" $3; printf "" >file; next }
		{
			i = index($0, "### guest-job-end ")
			if (i == 0) { if (file != "") print >file; next }
			if (i > 1 && file != "") printf "%s", substr($0, 1, i - 1) >file
			split(substr($0, i), f, " ")
			st = dir "/" f[3] ".status"
			print f[4], f[5], f[6] >st
			close(st)
			close_job()
		}
	'
}

# guest_kernel_log WORK: the guest kernel's log, else (a guest that died
# before it sent it) its console.
guest_kernel_log() {
	local log=$1/out/dmesg
	[ -f "$log" ] || log=$1/console.log
	tr -d '\r' <"$log"
}

# guest_kernel_reports WORK [JOB...]: the kernel's complaints during the
# boot (and a few lines after each), but for those in the JOBs (tests that
# make the kernel complain on purpose) and the known ones of others' code
# (guest_known_reports).
guest_kernel_reports() {
	local w=$1
	shift
	guest_kernel_log "$w" | guest_kmsg_jobs out "$@" | guest_report_blocks ours
}

# guest_job_kernel_reports WORK JOB: the kernel's complaints between JOB's
# begin and end (guest-init marks them in the kernel log); to the end of
# the log when the job never ended.  Known ones of others' code left out.
guest_job_kernel_reports() {
	guest_kernel_log "$1" | guest_kmsg_jobs in "$2" | guest_report_blocks ours
}

# guest_known_reports WORK: the complaints of the boot that are known, in
# code not ours (they fail nothing: run-suite lists them apart).
guest_known_reports() {
	guest_kernel_log "$1" | guest_report_blocks known
}

# GUEST_KNOWN_REPORTS: each line "ERE<tab>whose code, and why", an ERE
# that matches a line of a report (its first line and the 6 after) in
# code that is not ours, explained.
GUEST_KNOWN_REPORTS=$top_srcdir/testsuite/lib/known-reports

# guest_report_blocks ours|known: each report of a kernel log (a line that
# matches GUEST_KERNEL_BAD_RE and the 6 after it), "--" between them: the
# ones no known ERE matches, or those it does.  A KCSAN data race whose
# title names no function of a module of ours ([stap_...], [perfctr_...])
# is the kernel's own: known.  The panic an Oops ends in ("Kernel panic -
# not syncing: Fatal exception") is that Oops' own: known when it is.
guest_report_blocks() {
	local known
	known=$({ grep -v '^#' "$GUEST_KNOWN_REPORTS" || true; } | cut -f1 | paste -sd '|' -)
	awk -v want="$1" -v bad="$GUEST_KERNEL_BAD_RE" -v known="$known" '
		function is_known() {
			if (block ~ /BUG: KCSAN: /)
				return title !~ /\[(stap|perfctr)_/
			if (title ~ /Kernel panic - not syncing: Fatal exception/ && oopsed)
				return oops_known
			return known != "" && block ~ known
		}
		function flush(   k) {
			if (block == "")
				return
			k = is_known()
			if (title ~ /Oops/) {
				oopsed = 1
				oops_known = k
			}
			if (k == (want == "known"))
				printf "%s%s", n++ ? "--\n" : "", block
			block = ""
			left = 0
		}
		$0 ~ bad { flush(); block = $0 "\n"; title = $0; left = 6; next }
		left > 0 { block = block $0 "\n"; left--; next }
		{ flush() }
		END { flush() }'
}

# guest_kmsg_jobs in|out JOB...: filter a kernel log to the lines inside
# the JOBs (in) or outside all of them (out).
guest_kmsg_jobs() {
	local want=$1
	shift
	awk -v want="$want" -v jobs=" $* " '
		match($0, /guest-init: job [^ ]+ (begins|ended)$/) {
			split(substr($0, RSTART), f, " ")
			inside = f[4] == "begins" && index(jobs, " " f[3] " ")
			next
		}
		(want == "in") == (inside + 0 == 1)'
}

# guest_job_began WORK JOB: whether the guest started JOB (its begin
# marker came back).
guest_job_began() {
	tr -d '\r' <"$1/results.log" 2>/dev/null | grep -qx "### guest-job-begin $2"
}

guest_job_output() {
	cat "$1/out/$2" 2>/dev/null || true
}

guest_job_status() {
	cat "$1/out/$2.status" 2>/dev/null || true
}

# guest_job_field WORK JOB FIELD: one value of the end marker (status,
# timeout, seconds); empty when the job never ended.
guest_job_field() {
	guest_job_status "$1" "$2" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

# guest_ready_field WORK KEY: a value of the guest's ready line (kernel,
# cpus, uptime, events, labels).
guest_ready_field() {
	{ tr -d '\r' 2>/dev/null <"$1/results.log" || true; } |
		sed -n "s/^### guest-ready .*\<$2=\([^ ]*\).*/\1/p" | head -n 1
}

# guest_pmu_summary WORK: one line on the guest's hardware counters: its
# PMU event source and the kernel's "hw perfevents" line, or "none".
guest_pmu_summary() {
	local events pmu line
	events=$(guest_ready_field "$1" events)
	pmu=$(tr , '\n' <<<"$events" | grep -E '^(armv8_pmuv3|armv8_.*|cpu|cpu_core|cpu_atom)$' |
		paste -sd, - || true)
	line=$(tr -d '\r' 2>/dev/null <"$1/out/dmesg" |
		sed -n 's/^.*hw perfevents: //p' | head -n 1 || true)
	printf '%s' "${pmu:-none}"
	[ -n "$line" ] && printf ' (%s)' "$line"
	echo
}
