## testsuite/hw/local.mk - perfctr-hwcheck, the probes scripts/hw-check
## runs on a real machine (trial opens of every event, exact user-space
## counts through the library's encodings).  Linked static, so that it
## runs on a machine that has none of the libraries (a lent device).
noinst_PROGRAMS += testsuite/hw/perfctr-hwcheck
hwcheck_sources = \
	testsuite/hw/hwcheck.h testsuite/hw/main.c testsuite/hw/trial.c \
	testsuite/hw/count.c testsuite/hw/judge.c testsuite/hw/loop.c \
	testsuite/hw/priv.c testsuite/hw/util.c
testsuite_hw_perfctr_hwcheck_SOURCES = $(hwcheck_sources)
testsuite_hw_perfctr_hwcheck_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/testsuite/hw \
	-I$(top_srcdir)/runtime
testsuite_hw_perfctr_hwcheck_LDFLAGS = -static
testsuite_hw_perfctr_hwcheck_LDADD = helper/libperfctr.a $(PFM_LIBS) $(JANSSON_LIBS)

EXTRA_DIST += testsuite/hw/README.md scripts/hw-check testsuite/hw/direct.stp \
	testsuite/hw/direct_width.stp

# Unit tests: the judge's arithmetic; scripts/hw-check on this machine.
hw_tests = testsuite/unit/hw/test-judge
check_PROGRAMS += $(hw_tests)
TESTS += $(hw_tests) testsuite/unit/hw/hw-check.test
EXTRA_DIST += testsuite/unit/hw/hw-check.test
testsuite_unit_hw_test_judge_SOURCES = testsuite/unit/hw/test-judge.c \
	testsuite/hw/judge.c
testsuite_unit_hw_test_judge_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/testsuite/lib -I$(top_srcdir)/testsuite/hw
