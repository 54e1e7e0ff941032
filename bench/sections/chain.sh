# chain.sh - what a sample's call chain costs (bench/run section): the
# instructions perfctr_sample_callchain()'s first call takes in a sampling
# body (the chain built: frame pointers for the user's frames, frame
# records for the kernel's), over two back-to-back clock reads in the
# same body (the PMU stands still there; the guest clock counts
# instructions: bench/chain/chain.stp), the least over the
# samples with the same frame counts.  The program: callchain (main ->
# chain_a -> chain_b -> chain_leaf, each with a frame record, then
# system calls), sampled every 100,003 instructions.
# shellcheck shell=bash

chain_queue() {
	bench_add chain -c "@PROGS@/callchain 2000000 20000" "@BENCH@/chain/chain.stp"
}

# chain_row KERNEL USER: "| frames | cost | samples |" for the chains of
# that many kernel and user frames, or nothing when there were none
chain_row() {
	bench_output chain | awk -v k="$1" -v u="$2" '$1 == "chain:" && $2 == k && $3 == u {
		printf "| %d kernel + %d user | %d | %d | %d |\n", k, u, $5 - $6, $4, $6 }'
}

chain_table() {
	local rows
	rows=$(bench_output chain | awk '$1 == "chain:" && $4 >= 3 { print $2, $3 }' |
		sort -n -k1,1 -k2,2 | while read -r k u; do chain_row "$k" "$u"; done)
	if [ -z "$rows" ]; then
		log "chain: no figure; its output:"
		bench_output chain | head -20 | sed 's/^/  /' >&2
		BENCH_FAILED=1
		rows="| nan | nan | nan | nan |"
	fi
	echo "### A sample's call chain: guest instructions to build it (arm64 guest, -icount shift=0, 1 CPU)"
	echo
	echo "| frames | instructions | samples | control (one clock read) |"
	echo "|---|---|---|---|"
	echo "$rows"
	echo
}
