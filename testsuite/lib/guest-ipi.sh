# guest-ipi.sh - a hung x86_64 guest's cross-CPU calls: the requests
# each CPU's queue holds (through the gdbstub) against the call-function
# IPIs its local APIC has pending or in service (QEMU's monitor), so that
# a hang of CPUs that wait for each other's answer says why the answer
# never came (sourced by guest.sh; bash).  A boot declared hung leaves:
#
#   WORK/lapic   each CPU's APIC: the vectors in its IRR (requested) and
#                ISR (in service), from "info lapic N"
#   WORK/csq     each CPU's call_single_queue (kernel/smp.c), its first
#                request read twice, GUEST_IPI_GAP seconds apart
#   WORK/ipis    the verdict, a line per CPU (guest_ipi_verdict)
#
# A request stays queued until its CPU takes the call-function IPI, and
# the sender raises that IPI only when it queues the first request: one
# IPI lost, and the queue waits for good, its senders with it.
# shellcheck shell=bash

# the call-function vectors (arch/x86/include/asm/irq_vectors.h, Linux
# 6.1 to 7.x): CALL_FUNCTION_SINGLE_VECTOR and CALL_FUNCTION_VECTOR
GUEST_IPI_VECTORS="251 252"
GUEST_IPI_GAP=${GUEST_IPI_GAP:-2}

# guest_ipi_monitor_cmds: the monitor commands that show each CPU's APIC
# (x86_64 only; nothing elsewhere).
guest_ipi_monitor_cmds() {
	local k
	[ "$ARCH" = x86_64 ] || return 0
	for ((k = 0; k < GUEST_SMP; k++)); do
		echo "info lapic $k"
	done
}

# guest_ipi_lapic MONITOR_LOG: "CPU#N IRR V,V ISR V" lines (vectors in
# decimal, "none" for none) from the monitor's "info lapic" answers.
guest_ipi_lapic() {
	tr -d '\r' <"$1" | awk '
		function vecs(   i, s, v) {
			s = ""
			for (i = 2; i <= NF; i++) {
				v = $i; sub(/[^0-9].*/, "", v)
				if (v != "") s = s (s == "" ? "" : ",") v
			}
			return s == "" ? "none" : s
		}
		/^dumping local APIC state for CPU [0-9]+/ { cpu = $7; isr[cpu] = irr[cpu] = "none"; seen[++n] = cpu; next }
		cpu != "" && $1 == "ISR" { isr[cpu] = vecs() }
		cpu != "" && $1 == "IRR" { irr[cpu] = vecs() }
		END { for (i = 1; i <= n; i++) printf "CPU#%s IRR %s ISR %s\n", seen[i], irr[seen[i]], isr[seen[i]] }'
}

# guest_gdb_csq WORK DATA OFFSETS: "CPU#N FIRST FIRST" lines: each CPU's
# call_single_queue's first request (0 when empty), read twice,
# GUEST_IPI_GAP seconds apart (a storm's calls on a loaded host may wait
# half a second; a lost IPI's wait for ever).
guest_gdb_csq() {
	local w=$1 q cmds=() off first second
	q=$(guest_data_symbol "$2" call_single_queue)
	[ -n "$q" ] || return 0
	for off in $3; do
		cmds+=("x/1gx 0x$(printf '%x' $((16#$off + 16#$q)))")
	done
	first=$(guest_gdb "$w" "${cmds[@]}" | guest_gdb_words)
	sleep "$GUEST_IPI_GAP"
	second=$(guest_gdb "$w" "${cmds[@]}" | guest_gdb_words)
	paste -d ' ' <(echo "$first") <(echo "$second") |
		awk 'NF == 2 { printf "CPU#%d %s %s\n", NR - 1, $1, $2 }'
}

# guest_ipi_verdict LAPIC CSQ CPUS: a line per CPU whose queue held the
# same request at both reads: whether its call-function IPI is pending in
# its APIC (then the CPU does not take interrupts: IF clear, or in an
# interrupt that does not end) or nowhere (lost: queued requests no IPI
# will ever fetch).  With none such while a vCPU waits for an answer
# (CPUS, guest_dump_cpus' "CPU#N at FUNCTION+0xOFF" lines), one line
# that says the answers come: a storm of cross-CPU calls on a busy host.
guest_ipi_verdict() {
	[ -e "${3:-}" ] || set -- "$1" "$2" /dev/null
	awk -v vectors="$GUEST_IPI_VECTORS" '
		function has(list,   i, n, v) {
			n = split(list, v, ",")
			for (i = 1; i <= n; i++) if ((" " vectors " ") ~ (" " v[i] " ")) return 1
			return 0
		}
		FILENAME == ARGV[1] { irr[$1] = $3; isr[$1] = $5; next }
		FILENAME == ARGV[3] { if ($3 ~ /^smp_call_function_(many_cond|single)\+/) { waiting = waiting (waiting == "" ? "" : " and ") $1; nwait++ }; next }
		($2 "") != ($3 "") || $2 ~ /^(0x)?0+$/ { next }
		{ stuck++ }
		!($1 in irr) { printf "%s: a cross-CPU call waits in its queue (%s); its APIC was not read\n", $1, $2; next }
		has(irr[$1]) || has(isr[$1]) {
			printf "%s: a cross-CPU call waits in its queue (%s), its IPI pending in its APIC (IRR %s, ISR %s): the CPU takes no interrupt\n", $1, $2, irr[$1], isr[$1]
			next
		}
		{ printf "%s: a cross-CPU call waits in its queue (%s) and no call-function IPI is pending in its APIC (IRR %s, ISR %s): the IPI was lost\n", $1, $2, irr[$1], isr[$1] }
		END {
			if (!stuck && waiting != "")
				printf "%s %s for cross-CPU calls, but no call stayed queued through both reads: they are answered, slowly (a storm of them, the host too busy to run both vCPUs at once), not lost\n", waiting, (nwait > 1 ? "wait" : "waits")
		}
	' "$1" "$2" "$3"
}
