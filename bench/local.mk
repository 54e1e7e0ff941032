## bench/local.mk - benchmarks (docs/performance.md): `make bench` prints
## their tables.  Each boots QEMU guests: minutes, not part of `make check`.
EXTRA_DIST += bench/run-scopes bench/scopes

bench: all
	$(top_srcdir)/bench/run-scopes
.PHONY: bench
