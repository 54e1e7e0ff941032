## bench/local.mk - benchmarks (docs/performance.md): `make bench` prints
## one table per section, the method beside each figure.  It boots the
## arm64 guest three times (1, 2 and 4 CPUs) and times the host: minutes,
## not part of `make check`.
EXTRA_DIST += bench/run bench/lib.sh bench/sections bench/scopes \
	bench/reads bench/sums bench/chain bench/memory.stp

bench: all
	$(top_srcdir)/bench/run
.PHONY: bench
