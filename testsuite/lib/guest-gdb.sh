# guest-gdb.sh - a hung guest seen from inside, through QEMU's gdbstub
# (sourced by guest.sh; bash).  Each boot listens on WORK/gdb.sock
# (guest_gdb_args; GUEST_GDB=0: none), and a boot declared hung
# (guest_wait_qemu) leaves, beside WORK/cpus:
#
#   WORK/stacks  each vCPU's registers, and the words on its stack that
#                are kernel text addresses (a return address, or the
#                frame an NMI or interrupt came in on) or a CPU's run
#                queue (its lock is the run queue's first field), named
#                by the kernel's symbol map
#   WORK/irqs    each CPU's NMIs and local timer interrupts (x86_64's
#                irq_stat), read twice GUEST_GDB_GAP seconds apart: a
#                CPU taking NMIs back to back, or no timer interrupt
#   WORK/csq, WORK/ipis  each CPU's queued cross-CPU calls, and why they
#                wait (x86_64: guest-ipi.sh)
#
# No debug information is needed: the names come from the map and the
# few data symbols (irq_stat, __per_cpu_offset, runqueues) that
# guest-kernel keeps from the guest's /proc/kallsyms.  A scan of stack
# words is not an unwinder: stale addresses appear too, as in the
# kernel's own "?" lines.
# shellcheck shell=bash

GUEST_GDB_GAP=${GUEST_GDB_GAP:-0.5}
# the 4 KiB pages from the one under the stack pointer up, to the end of
# its 16 KiB block (x86_64's task stacks are 16 KiB and so aligned, its
# NMI and exception stacks 4 KiB between unmapped guard pages)
GUEST_GDB_STACK_PAGES=()
for p in 0 1 2 3; do
	GUEST_GDB_STACK_PAGES+=("thread apply all -c x/512gx ((unsigned long)\$sp & ~0xfffUL) + $p * 0x1000")
done

# guest_gdb_args WORK: QEMU's options for the gdbstub: none with
# GUEST_GDB=0, without gdb, or where the socket's path would be too long
# for a socket (108 bytes).  A stub no debugger attaches to costs a TCG
# guest nothing.
guest_gdb_args() {
	local sock=$1/gdb.sock
	[ "${GUEST_GDB:-1}" = 1 ] && command -v gdb >/dev/null && [ ${#sock} -lt 100 ] || return 0
	printf '%s\n' -gdb "unix:$sock,server=on,wait=off"
}

# guest_gdb WORK COMMAND...: one gdb session on the stopped guest (gdb
# stops every vCPU while attached and lets them run when it detaches).
guest_gdb() {
	local w=$1 a=()
	shift
	for c in "$@"; do a+=(-ex "$c"); done
	timeout 30 gdb -q -batch -nx -ex 'set pagination off' \
		-ex "target remote $w/gdb.sock" "${a[@]}" 2>&1
}

# guest_gdb_dump WORK: WORK/stacks and WORK/irqs of a hung guest.
guest_gdb_dump() {
	local w=$1 map=$ARCH_DIR/kallsyms/$ARCH_RELEASE.map data offs rq off k=0 rqs=""
	[ -S "$w/gdb.sock" ] || return 0
	data=${map%.map}.data
	offs=$(guest_gdb_cpu_offsets "$w" "$data")
	rq=$(guest_data_symbol "$data" runqueues)
	if [ -n "$rq" ]; then
		for off in $offs; do
			rqs+=$(printf '%016x %d' $((16#$off + 16#$rq)) "$k")$'\n'
			k=$((k + 1))
		done
	fi
	# a stack's pages one command each: a page that cannot be read (past
	# the stack's end) ends that page's dump, not the others'
	guest_gdb "$w" 'info threads' 'thread apply all info registers' \
		"${GUEST_GDB_STACK_PAGES[@]}" |
		guest_gdb_annotate "$map" "$rqs" >"$w/stacks"
	[ -z "$offs" ] || [ "$ARCH" != x86_64 ] || {
		guest_gdb_irqs "$w" "$data" "$offs" >"$w/irqs"
		guest_gdb_csq "$w" "$data" "$offs" >"$w/csq"
		guest_ipi_verdict "$w/lapic" "$w/csq" "$w/cpus" >"$w/ipis"
	}
	return 0
}

# guest_data_symbol DATA NAME: NAME's address in the data symbols (hex,
# no 0x), or nothing.
guest_data_symbol() {
	awk -v n="$2" '!/^#/ && $3 == n { print $1; exit }' "$1" 2>/dev/null
}

# guest_gdb_cpu_offsets WORK DATA: each CPU's per-CPU offset (hex, one
# per line, CPU 0 first), from __per_cpu_offset.
guest_gdb_cpu_offsets() {
	local a
	a=$(guest_data_symbol "$2" __per_cpu_offset)
	[ -n "$a" ] || return 0
	guest_gdb "$1" "x/${GUEST_SMP}gx 0x$a" | guest_gdb_words | tr ' ' '\n' | sed 's/^0x//'
}

# guest_gdb_irqs WORK DATA OFFSETS: each CPU's NMI and local timer
# interrupt counts, twice.  irq_cpustat_t (arch/x86/include/asm/hardirq.h)
# starts with a u16 and a u8, then __nmi_count at 4 and apic_timer_irqs
# at 8 (Linux 6.1 to 7.x).
guest_gdb_irqs() {
	local w=$1 stat cmds=() off t0 t1 first second
	stat=$(guest_data_symbol "$2" irq_stat)
	[ -n "$stat" ] || return 0
	for off in $3; do
		cmds+=("x/2wd 0x$(printf '%x' $((16#$off + 16#$stat + 4)))")
	done
	t0=$(date +%s%N)
	first=$(guest_gdb "$w" "${cmds[@]}" | guest_gdb_words)
	sleep "$GUEST_GDB_GAP"
	t1=$(date +%s%N)
	second=$(guest_gdb "$w" "${cmds[@]}" | guest_gdb_words)
	paste -d ' ' <(echo "$first") <(echo "$second") | awk -v ms=$(((t1 - t0) / 1000000)) '
		NF == 4 {
			printf "CPU#%d NMIs %d -> %d (+%d), local timer interrupts %d -> %d (+%d) in %d ms\n",
				NR - 1, $1, $3, $3 - $1, $2, $4, $4 - $2, ms
		}'
}

# guest_gdb_words: the values of gdb's x lines, a line each.
guest_gdb_words() {
	awk '/^0x[0-9a-f]+( <[^>]*>)?:/ { s = ""
		for (i = 2; i <= NF; i++) if ($i ~ /^-?(0x)?[0-9a-f]+$/) s = s (s == "" ? "" : " ") $i
		print s }'
}

# guest_gdb_annotate MAP RQS: gdb's registers pass through with kernel
# text addresses named; then each thread's stack, from its stack pointer
# up, one line per word that is a text address or a CPU's run queue
# (RQS: "ADDRESS CPU" lines), as sp+OFFSET.
guest_gdb_annotate() {
	awk -v map="$1" -v rqs="$2" '
		function hex16(s) { s = tolower(s); sub(/^0x/, "", s); while (length(s) < 16) s = "0" s; return s }
		function num(s,   i, v) {	# the low 12 hex digits: exact in a double
			v = 0; s = substr(hex16(s), 5)
			for (i = 1; i <= 12; i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		function name(a,   lo, hi, mid) {
			if (a in rqcpu) return "run queue of CPU " rqcpu[a]
			if (n == 0 || a < addr[1] || a > etext) return ""
			lo = 1; hi = n
			while (lo < hi) { mid = int((lo + hi + 1) / 2); if (addr[mid] <= a) lo = mid; else hi = mid - 1 }
			return sym[lo] "+0x" sprintf("%x", num(a) - num(addr[lo]))
		}
		BEGIN {
			cmd = "sort " map
			while ((cmd | getline line) > 0) {
				split(line, f, " ")
				if (f[2] !~ /^[tT]$/) continue
				addr[++n] = hex16(f[1]); sym[n] = f[3]
				if (f[3] == "_etext") etext = addr[n]
			}
			if (etext == "") etext = addr[n]
			k = split(rqs, r, "\n")
			for (i = 1; i <= k; i++) if (split(r[i], f, " ") == 2) rqcpu[f[1]] = f[2]
		}
		/^Thread [0-9]+ / { t = $0; if (!(t in seen)) { seen[t] = 1; order[++nt] = t }; next }
		/^(rsp|sp) +0x/ { sp[t] = num($2) }
		/^0x[0-9a-f]+( <[^>]*>)?:/ {
			at = num($1)
			for (i = 2; i <= NF; i++) {
				if ($i !~ /^0x/) continue
				s = name(hex16($i))
				if (s != "" && t in sp && at >= sp[t] && at < sp[t] - sp[t] % 16384 + 16384)
					stk[t] = stk[t] sprintf("  sp+0x%04x %s %s\n", at - sp[t], $i, s)
				at += 8
			}
			next
		}
		/^Cannot access memory/ { next }
		t != "" && $1 !~ /^(r[a-z0-9]+|eflags|cs|ss|[fg]s_base|cr[0-4]|x[0-9]+|sp|pc|cpsr)$/ { next }
		t != "" {
			s = ""
			if (NF >= 2 && $2 ~ /^0x/) s = name(hex16($2))
			regs[t] = regs[t] $0 (s != "" ? "  " s : "") "\n"
			next
		}
		{ print }
		END {
			for (i = 1; i <= nt; i++) {
				print order[i]
				printf "%s", regs[order[i]]
				print "  stack, from the stack pointer up (text addresses and run queues):"
				printf "%s", stk[order[i]]
			}
		}'
}
