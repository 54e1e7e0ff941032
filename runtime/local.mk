## runtime/local.mk - kernel C, compiled by stap/kbuild into each module;
## installed as source.  perfctr_assign.c is also built for userspace tests;
## perfctr_iface.h is the translator's and the helper's too (the
## interface), and perfctr_flags.h, perfctr_attr.h and perfctr_priv_rule.h
## the helper's (the assignment, its trial opens, the privilege rule).
runtimedir = $(pkgdatadir)/runtime
dist_runtime_DATA = runtime/perfctr.h runtime/perfctr_iface.h runtime/perfctr.c \
	runtime/perfctr_assign.c \
	runtime/perfctr_flags.h runtime/perfctr_attr.h runtime/perfctr_topdown.h runtime/perfctr_direct.h \
	runtime/perfctr_width.h \
	runtime/perfctr_payload.h runtime/perfctr_priv_rule.h \
	runtime/perfctr_cpus.c runtime/perfctr_group.c runtime/perfctr_thread.c \
	runtime/perfctr_cgroup.c runtime/perfctr_thrpool.c \
	runtime/perfctr_taskmap.c runtime/perfctr_task.c runtime/perfctr_inherit.c \
	runtime/perfctr_latent.c runtime/perfctr_sample.c \
	runtime/perfctr_priv.c runtime/perfctr_rearm.c runtime/perfctr_sum.c \
	runtime/perfctr_snap.h runtime/perfctr_socket.c runtime/perfctr_selftest.c \
	runtime/perfctr_readerr.h runtime/perfctr_report.c \
	runtime/perfctr_json.h runtime/perfctr_chain.c runtime/perfctr_chain.h

check_PROGRAMS += testsuite/unit/runtime/test-assign \
	testsuite/unit/runtime/test-assign-roundtrip \
	testsuite/unit/runtime/test-topdown testsuite/unit/runtime/test-payload \
	testsuite/unit/runtime/test-readerr testsuite/unit/runtime/test-json \
	testsuite/unit/runtime/test-chain testsuite/unit/runtime/test-x86width
TESTS += testsuite/unit/runtime/test-assign testsuite/unit/runtime/test-topdown \
	testsuite/unit/runtime/test-assign-roundtrip \
	testsuite/unit/runtime/test-payload testsuite/unit/runtime/test-readerr \
	testsuite/unit/runtime/test-json testsuite/unit/runtime/test-chain \
	testsuite/unit/runtime/test-x86width
testsuite_unit_runtime_test_assign_SOURCES = \
	testsuite/unit/runtime/test-assign.c testsuite/unit/runtime/kcompat.h
testsuite_unit_runtime_test_assign_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/unit/runtime \
	-I$(top_srcdir)/testsuite/lib
# the helper's record writers (helper/libperfctr.a) and the module's
# parser, each in a file of its own: their headers cannot meet
testsuite_unit_runtime_test_assign_roundtrip_SOURCES = \
	testsuite/unit/runtime/test-assign-roundtrip.c \
	testsuite/unit/runtime/roundtrip-write.c \
	testsuite/unit/runtime/roundtrip.h testsuite/unit/runtime/assign-table.h \
	testsuite/unit/runtime/kcompat.h
testsuite_unit_runtime_test_assign_roundtrip_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/helper \
	-I$(top_srcdir)/testsuite/unit/runtime -I$(top_srcdir)/testsuite/lib
testsuite_unit_runtime_test_assign_roundtrip_LDADD = helper/libperfctr.a
testsuite_unit_runtime_test_topdown_SOURCES = \
	testsuite/unit/runtime/test-topdown.c
testsuite_unit_runtime_test_topdown_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/lib
testsuite_unit_runtime_test_payload_SOURCES = \
	testsuite/unit/runtime/test-payload.c
testsuite_unit_runtime_test_payload_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/lib
testsuite_unit_runtime_test_readerr_SOURCES = \
	testsuite/unit/runtime/test-readerr.c
testsuite_unit_runtime_test_readerr_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/lib
testsuite_unit_runtime_test_json_SOURCES = \
	testsuite/unit/runtime/test-json.c
testsuite_unit_runtime_test_json_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/lib
testsuite_unit_runtime_test_chain_SOURCES = \
	testsuite/unit/runtime/test-chain.c
testsuite_unit_runtime_test_chain_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/lib
testsuite_unit_runtime_test_x86width_SOURCES = \
	testsuite/unit/runtime/test-x86width.c
testsuite_unit_runtime_test_x86width_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/lib

# The static module checks (testsuite/lib/check-read-path, check-percpu,
# check-ibt; docs/reliability.md "Static checks"), tested on small objects
TESTS += testsuite/unit/runtime/read-path.test testsuite/unit/runtime/ibt.test
EXTRA_DIST += testsuite/unit/runtime/read-path.test testsuite/lib/check-read-path \
	testsuite/unit/runtime/ibt.test testsuite/lib/check-ibt testsuite/lib/check-percpu
