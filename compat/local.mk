## compat/local.mk - a patched copy of SystemTap's runtime, for a stap whose
## runtime does not build against the configured kernel as is (configure's
## NEED_RUNTIME_SHIM; see compat/make-stap-runtime).  Built into
## build/stap-runtime (give it to stap with -R), installed as
## $(pkgdatadir)/stap-runtime.  Without the need, nothing is built.

EXTRA_DIST += compat/make-stap-runtime compat/patch-stap51-runtime

compat_runtime_dir = build/stap-runtime
compat_runtime_stamp = $(compat_runtime_dir)/.stamp

if NEED_RUNTIME_SHIM
noinst_DATA += $(compat_runtime_stamp)
endif

# Made again when a shim or stap's own copy of a patched file changes.
$(compat_runtime_stamp): $(srcdir)/compat/make-stap-runtime \
		$(srcdir)/compat/patch-stap51-runtime \
		$(STAP_RUNTIME_DIR)/stp_task_work.c \
		$(STAP_RUNTIME_DIR)/transport/transport.c
	$(AM_V_GEN)$(srcdir)/compat/make-stap-runtime \
		'$(STAP_RUNTIME_DIR)' $(compat_runtime_dir) '$(KERNEL_BUILD)' && \
	touch $@

# Hooked in as prerequisites, so other fragments can hook in too.
install-data-local: install-compat-runtime
uninstall-local: uninstall-compat-runtime
clean-local: clean-compat-runtime

install-compat-runtime:
	@test '$(NEED_RUNTIME_SHIM)' = yes || exit 0; \
	echo " INSTALL  $(pkgdatadir)/stap-runtime"; \
	$(MKDIR_P) '$(DESTDIR)$(pkgdatadir)/stap-runtime' && \
	cp -R $(compat_runtime_dir)/. '$(DESTDIR)$(pkgdatadir)/stap-runtime/' && \
	rm -f '$(DESTDIR)$(pkgdatadir)/stap-runtime/.stamp'

uninstall-compat-runtime:
	rm -rf '$(DESTDIR)$(pkgdatadir)/stap-runtime'

clean-compat-runtime:
	rm -rf $(compat_runtime_dir)

.PHONY: install-compat-runtime uninstall-compat-runtime clean-compat-runtime
