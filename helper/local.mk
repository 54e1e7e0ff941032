## helper/local.mk - libperfctr (event names, module tables, trial opens)
## and perfctr-run, which stands in for staprun.
noinst_LIBRARIES += helper/libperfctr.a
helper_libperfctr_a_SOURCES = \
	helper/libperfctr.h helper/internal.h \
	runtime/perfctr_iface.h runtime/perfctr_flags.h runtime/perfctr_attr.h \
	runtime/perfctr_topdown.h \
	runtime/perfctr_priv_rule.h \
	helper/err.c helper/name.c helper/generic.c helper/raw.c \
	helper/sysfs.c helper/pmu.c helper/pfm.c helper/suggest.c \
	helper/resolve.c helper/known.c helper/kv.c helper/request.c helper/hash.c \
	helper/modtab.c helper/assign.c helper/trial.c helper/cpus.c \
	helper/priv.c helper/topdown.c helper/topology.c helper/units.c \
	helper/watchdog.c helper/dump_print.c helper/sample.c helper/flags.c \
	helper/dump.h helper/dump.c helper/dump_sysfs.c helper/dump_pfm.c \
	helper/dump_hw.c helper/dump_generic.c helper/dump_holders.c \
	helper/dump_names.c helper/dump_text.c helper/dump_json.c

bin_PROGRAMS += helper/perfctr-run
helper_perfctr_run_SOURCES = helper/perfctr-run.c helper/run.h \
	helper/run_plan.c helper/run_explain.c helper/run_records.c \
	helper/run_remote.c helper/run_report.c
helper_perfctr_run_CPPFLAGS = $(AM_CPPFLAGS) -DREAL_STAPRUN=\"$(REAL_STAPRUN)\"
helper_perfctr_run_LDADD = helper/libperfctr.a $(PFM_LIBS) $(ELF_LIBS) $(JANSSON_LIBS)

# The remote end of stap --remote: stapsh's protocol, perfctr-run in
# place of staprun (standalone: the guest harness builds it static).
bin_PROGRAMS += helper/perfctr-stapsh
helper_perfctr_stapsh_SOURCES = helper/stapsh.c
helper_perfctr_stapsh_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPERFCTR_RUN=\"$(bindir)/perfctr-run\" \
	-DSTAP_VERSION=\"$(STAP_VERSION)\"

# `stap --remote ssh://HOST` runs the first `stapsh` in the remote PATH:
# ours, where our bindir comes first (ssh's default PATH has /usr/local/bin
# before /usr/bin); scripts/install-link's rules, as for `stap`.
install-exec-hook: install-stapsh-link
install-stapsh-link:
	@$(SHELL) $(top_srcdir)/scripts/install-link '$(DESTDIR)$(bindir)' \
	  '$(bindir)' '$(REAL_STAP)' stapsh perfctr-stapsh
uninstall-local: uninstall-stapsh-link
uninstall-stapsh-link:
	@$(SHELL) $(top_srcdir)/scripts/install-link --remove \
	  '$(DESTDIR)$(bindir)' stapsh perfctr-stapsh
.PHONY: install-stapsh-link uninstall-stapsh-link

EXTRA_DIST += helper/README.md

# Unit tests (testsuite/unit/helper): TAP programs.
helper_tests = \
	testsuite/unit/helper/test-name \
	testsuite/unit/helper/test-generic \
	testsuite/unit/helper/test-sysfs \
	testsuite/unit/helper/test-pfm \
	testsuite/unit/helper/test-suggest \
	testsuite/unit/helper/test-request \
	testsuite/unit/helper/test-modtab \
	testsuite/unit/helper/test-trial \
	testsuite/unit/helper/test-trial-fake \
	testsuite/unit/helper/test-perfctr-run \
	testsuite/unit/helper/test-dump \
	testsuite/unit/helper/test-dump-hw \
	testsuite/unit/helper/test-dump-pfm \
	testsuite/unit/helper/test-sample \
	testsuite/unit/helper/test-priv \
	testsuite/unit/helper/test-perf-modifiers \
	testsuite/unit/helper/test-topology \
	testsuite/unit/helper/test-units
check_PROGRAMS += $(helper_tests)
TESTS += $(helper_tests) testsuite/unit/helper/stapsh.test
EXTRA_DIST += testsuite/unit/helper/stapsh.test
helper_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/testsuite/lib \
	-I$(top_srcdir)/testsuite/unit/helper -DTEST_CC=\"$(CC)\" \
	-DPERFCTR_RUN=\"$(abs_top_builddir)/helper/perfctr-run\" \
	-DFIXTURES=\"$(abs_top_srcdir)/testsuite/unit/helper/fixtures\"
helper_test_ldadd = helper/libperfctr.a $(PFM_LIBS) $(ELF_LIBS) $(JANSSON_LIBS)
EXTRA_DIST += testsuite/unit/helper/util.h testsuite/unit/helper/fixtures

testsuite_unit_helper_test_units_SOURCES = testsuite/unit/helper/test-units.c
testsuite_unit_helper_test_units_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_units_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_topology_SOURCES = testsuite/unit/helper/test-topology.c
testsuite_unit_helper_test_topology_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_topology_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_name_SOURCES = testsuite/unit/helper/test-name.c
testsuite_unit_helper_test_name_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_name_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_generic_SOURCES = testsuite/unit/helper/test-generic.c
testsuite_unit_helper_test_generic_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_generic_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_sysfs_SOURCES = testsuite/unit/helper/test-sysfs.c
testsuite_unit_helper_test_sysfs_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_sysfs_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_pfm_SOURCES = testsuite/unit/helper/test-pfm.c
testsuite_unit_helper_test_pfm_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_pfm_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_suggest_SOURCES = testsuite/unit/helper/test-suggest.c
testsuite_unit_helper_test_suggest_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_suggest_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_request_SOURCES = testsuite/unit/helper/test-request.c
testsuite_unit_helper_test_request_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_request_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_modtab_SOURCES = testsuite/unit/helper/test-modtab.c
testsuite_unit_helper_test_modtab_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_modtab_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_trial_SOURCES = testsuite/unit/helper/test-trial.c
testsuite_unit_helper_test_trial_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_trial_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_perfctr_run_SOURCES = testsuite/unit/helper/test-perfctr-run.c
testsuite_unit_helper_test_perfctr_run_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_perfctr_run_LDADD = $(helper_test_ldadd)
# test-perfctr-run runs helper/perfctr-run: `make check` builds all first.
testsuite_unit_helper_test_dump_SOURCES = testsuite/unit/helper/test-dump.c
testsuite_unit_helper_test_dump_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_dump_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_dump_hw_SOURCES = testsuite/unit/helper/test-dump-hw.c
testsuite_unit_helper_test_dump_hw_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_dump_hw_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_dump_pfm_SOURCES = testsuite/unit/helper/test-dump-pfm.c
testsuite_unit_helper_test_dump_pfm_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_dump_pfm_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_sample_SOURCES = testsuite/unit/helper/test-sample.c
testsuite_unit_helper_test_sample_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_sample_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_priv_SOURCES = testsuite/unit/helper/test-priv.c
testsuite_unit_helper_test_priv_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_priv_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_perf_modifiers_SOURCES = testsuite/unit/helper/test-perf-modifiers.c
testsuite_unit_helper_test_perf_modifiers_CPPFLAGS = $(helper_test_cppflags)
testsuite_unit_helper_test_perf_modifiers_LDADD = $(helper_test_ldadd)
testsuite_unit_helper_test_trial_fake_SOURCES = testsuite/unit/helper/test-trial-fake.c \
	testsuite/unit/helper/module-attr.c testsuite/unit/helper/module-attr.h
testsuite_unit_helper_test_trial_fake_CPPFLAGS = $(helper_test_cppflags) \
	-I$(top_srcdir)/testsuite/unit/runtime
testsuite_unit_helper_test_trial_fake_LDADD = $(helper_test_ldadd)
