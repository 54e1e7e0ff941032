## translator/local.mk - stap-perfctr, the front-end and translator pass.
bin_PROGRAMS += translator/stap-perfctr
noinst_LIBRARIES += translator/libtranslator.a

translator_libtranslator_a_SOURCES = \
	translator/source.c translator/source.h \
	translator/lexer.c translator/lexer.h \
	translator/diag.c translator/diag.h \
	translator/model.c translator/model.h \
	translator/parser.c translator/parser.h translator/parser_state.h \
	translator/point.c \
	translator/check.c translator/check.h \
	translator/events.c translator/events.h \
	translator/rewrite.c translator/rewrite.h \
	translator/strbuf.c translator/strbuf.h \
	translator/embed.c translator/embed.h \
	translator/emit.c translator/emit.h \
	translator/outdir.c translator/outdir.h \
	translator/options.c translator/options.h \
	translator/spawn.c translator/spawn.h \
	translator/stapsays.c translator/stapsays.h \
	translator/probematch.c translator/probematch.h \
	translator/listing.c translator/listing.h \
	translator/tapsets.c translator/tapsets.h \
	translator/kconf.c translator/kconf.h \
	translator/newkernel.c translator/newkernel.h

translator_stap_perfctr_SOURCES = translator/frontend.c
translator_stap_perfctr_CPPFLAGS = $(AM_CPPFLAGS) \
	-DREAL_STAP='"$(REAL_STAP)"' \
	-DBINDIR='"$(bindir)"' \
	-DPKGDATADIR='"$(pkgdatadir)"' \
	-DABS_BUILDDIR='"$(abs_top_builddir)"' \
	-DABS_SRCDIR='"$(abs_top_srcdir)"' \
	-DNEED_RUNTIME_SHIM=$(NEED_RUNTIME_SHIM_01)
# No libpfm4, libelf or jansson: the front-end is in front of every stap
# run, and perfctr-run answers --dump-counters and -l for it.
translator_stap_perfctr_LDADD = translator/libtranslator.a helper/libperfctr.a

# Our `stap`, for users who put our bindir first in PATH (never over the
# real one: scripts/install-link); stap-perfctr works the same by its own
# name.
install-exec-hook: install-stap-link
install-stap-link:
	@$(SHELL) $(top_srcdir)/scripts/install-link '$(DESTDIR)$(bindir)' \
	  '$(bindir)' '$(REAL_STAP)' stap stap-perfctr
uninstall-local: uninstall-stap-link
uninstall-stap-link:
	@$(SHELL) $(top_srcdir)/scripts/install-link --remove \
	  '$(DESTDIR)$(bindir)' stap stap-perfctr
.PHONY: install-stap-link uninstall-stap-link
EXTRA_DIST += scripts/install-link

# Unit tests (testsuite/unit/translator): TAP programs.
translator_tests = testsuite/unit/translator/test-lexer \
	testsuite/unit/translator/test-parser \
	testsuite/unit/translator/test-check \
	testsuite/unit/translator/test-stapsays \
	testsuite/unit/translator/test-options \
	testsuite/unit/translator/test-probematch \
	testsuite/unit/translator/test-embed
check_PROGRAMS += $(translator_tests)
TESTS += $(translator_tests)
translator_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/translator \
	-I$(top_srcdir)/testsuite/lib
translator_test_ldadd = translator/libtranslator.a helper/libperfctr.a \
	$(PFM_LIBS) $(ELF_LIBS) $(JANSSON_LIBS)
testsuite_unit_translator_test_lexer_SOURCES = testsuite/unit/translator/test-lexer.c
testsuite_unit_translator_test_lexer_CPPFLAGS = $(translator_test_cppflags)
testsuite_unit_translator_test_lexer_LDADD = $(translator_test_ldadd)
testsuite_unit_translator_test_parser_SOURCES = testsuite/unit/translator/test-parser.c
testsuite_unit_translator_test_parser_CPPFLAGS = $(translator_test_cppflags)
testsuite_unit_translator_test_parser_LDADD = $(translator_test_ldadd)
testsuite_unit_translator_test_check_SOURCES = testsuite/unit/translator/test-check.c
testsuite_unit_translator_test_check_CPPFLAGS = $(translator_test_cppflags)
testsuite_unit_translator_test_check_LDADD = $(translator_test_ldadd)
testsuite_unit_translator_test_stapsays_SOURCES = testsuite/unit/translator/test-stapsays.c
testsuite_unit_translator_test_stapsays_CPPFLAGS = $(translator_test_cppflags)
testsuite_unit_translator_test_stapsays_LDADD = $(translator_test_ldadd)
testsuite_unit_translator_test_options_SOURCES = testsuite/unit/translator/test-options.c
testsuite_unit_translator_test_options_CPPFLAGS = $(translator_test_cppflags)
testsuite_unit_translator_test_options_LDADD = $(translator_test_ldadd)
testsuite_unit_translator_test_probematch_SOURCES = testsuite/unit/translator/test-probematch.c
testsuite_unit_translator_test_probematch_CPPFLAGS = $(translator_test_cppflags)
testsuite_unit_translator_test_probematch_LDADD = $(translator_test_ldadd)
testsuite_unit_translator_test_embed_SOURCES = testsuite/unit/translator/test-embed.c
testsuite_unit_translator_test_embed_CPPFLAGS = $(translator_test_cppflags)
testsuite_unit_translator_test_embed_LDADD = $(translator_test_ldadd)

# What the emitter writes, whole, against the files kept in
# testsuite/unit/translator/golden (GOLDEN_UPDATE=1 rewrites them).
check_PROGRAMS += testsuite/unit/translator/golden-emit
testsuite_unit_translator_golden_emit_SOURCES = testsuite/unit/translator/golden-emit.c
testsuite_unit_translator_golden_emit_CPPFLAGS = $(translator_test_cppflags)
testsuite_unit_translator_golden_emit_LDADD = $(translator_test_ldadd)
TESTS += testsuite/unit/translator/golden.test
EXTRA_DIST += testsuite/unit/translator/golden.test \
	testsuite/unit/translator/golden

# The front-end against a fake stap that records argv, environment, stdin.
check_PROGRAMS += testsuite/unit/translator/fake-stap
testsuite_unit_translator_fake_stap_SOURCES = testsuite/unit/translator/fake-stap.c
TESTS += testsuite/unit/translator/frontend.test
EXTRA_DIST += testsuite/unit/translator/frontend.test

# The kernel feature probes, with a fake make.
TESTS += testsuite/unit/translator/kconf.test testsuite/unit/translator/newkernel.test
EXTRA_DIST += testsuite/unit/translator/kconf.test testsuite/unit/translator/newkernel.test \
	testsuite/unit/translator/fake-make

# stap's option table as the configured stap holds it is covered by the
# front-end's (translator/options.c); run-suite checks each other stack's.
TESTS += testsuite/unit/translator/stap-options.test
EXTRA_DIST += testsuite/unit/translator/stap-options.test \
	testsuite/unit/translator/getopt-dump.c

# Refused scripts: the real stap's own errors come first.
TESTS += testsuite/unit/translator/stap-first.test
EXTRA_DIST += testsuite/unit/translator/stap-first.test

# --dump-counters and -l/-L 'perfctr...': answered without stap.
TESTS += testsuite/unit/translator/listing.test
EXTRA_DIST += testsuite/unit/translator/listing.test

# Never break stap: Debian's example scripts through us and through stap.
TESTS += testsuite/passthrough/doc-examples.test
EXTRA_DIST += testsuite/passthrough/doc-examples.test

# make install never puts our link over the real stap.
TESTS += testsuite/unit/install.test
EXTRA_DIST += testsuite/unit/install.test
