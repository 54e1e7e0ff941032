## tapset/local.mk - the static tapset (generated parts live per script):
## functions that name their event (cpu_cycles() ...), installed where
## stap-perfctr points stap at it (-I).
tapsetdir = $(pkgdatadir)/tapset
dist_tapset_DATA = tapset/perfctr.stp
EXTRA_DIST += tapset/README.md
