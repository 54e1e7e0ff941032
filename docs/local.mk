## docs/local.mk - man pages: installed, and checked to render cleanly.
dist_man_MANS += docs/man/stap-perfctr.1 docs/man/perfctr-run.8 \
	docs/man/stapprobes.perfctr.3stap

TESTS += docs/man/render.test
EXTRA_DIST += docs/man/render.test
EXTRA_DIST += docs/README.md docs/design.md docs/arm64.md docs/performance.md
