## testsuite/unit/iface/local.mk - the interface (runtime/perfctr_iface.h)
## with its test-only request field: the translator and helper libraries
## built again with -DPERFCTR_TEST_FIELD, the field carried from the
## translator's table through the helper's reader and writer, and the
## emitted initializer compiled with the module's struct and parser.
check_LIBRARIES = testsuite/unit/iface/libtranslator-tf.a \
	testsuite/unit/iface/libperfctr-tf.a
iface_tf_cppflags = $(AM_CPPFLAGS) -DPERFCTR_TEST_FIELD
testsuite_unit_iface_libtranslator_tf_a_SOURCES = \
	$(translator_libtranslator_a_SOURCES)
testsuite_unit_iface_libtranslator_tf_a_CPPFLAGS = $(iface_tf_cppflags)
testsuite_unit_iface_libperfctr_tf_a_SOURCES = $(helper_libperfctr_a_SOURCES)
testsuite_unit_iface_libperfctr_tf_a_CPPFLAGS = $(iface_tf_cppflags)

check_PROGRAMS += testsuite/unit/iface/test-iface-field \
	testsuite/unit/iface/test-iface-module
TESTS += testsuite/unit/iface/test-iface-field \
	testsuite/unit/iface/test-iface-module
testsuite_unit_iface_test_iface_field_SOURCES = \
	testsuite/unit/iface/test-iface-field.c
testsuite_unit_iface_test_iface_field_CPPFLAGS = $(iface_tf_cppflags) \
	-I$(top_srcdir)/translator -I$(top_srcdir)/testsuite/lib \
	-I$(top_srcdir)/fuzz
testsuite_unit_iface_test_iface_field_LDADD = \
	testsuite/unit/iface/libtranslator-tf.a \
	testsuite/unit/iface/libperfctr-tf.a \
	$(PFM_LIBS) $(ELF_LIBS) $(JANSSON_LIBS)

# The module's side compiles what the translator's side emitted.
testsuite_unit_iface_test_iface_module_SOURCES = \
	testsuite/unit/iface/test-iface-module.c
nodist_testsuite_unit_iface_test_iface_module_SOURCES = \
	testsuite/unit/iface/iface-table.h
testsuite_unit_iface_test_iface_module_CPPFLAGS = $(iface_tf_cppflags) \
	-I$(top_builddir)/testsuite/unit/iface \
	-I$(top_srcdir)/testsuite/unit/runtime -I$(top_srcdir)/testsuite/lib
testsuite/unit/iface/test_iface_module-test-iface-module.$(OBJEXT): \
	testsuite/unit/iface/iface-table.h
testsuite/unit/iface/iface-table.h: testsuite/unit/iface/test-iface-field$(EXEEXT)
	$(AM_V_GEN)testsuite/unit/iface/test-iface-field$(EXEEXT) --table $@ \
	  > $@.log || { cat $@.log; rm -f $@; exit 1; }
CLEANFILES += testsuite/unit/iface/iface-table.h \
	testsuite/unit/iface/iface-table.h.log
