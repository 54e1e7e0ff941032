# The Makefile of the guests' kernel build trees (testsuite/lib/
# guest-kernel puts it in kbuild/, the headers' own as Makefile.kbuild).
# kbuild probes the compiler with try-run, 30-odd compiler runs that are
# nearly all the work of a make whose module is up to date, and every
# module stap builds asks the same ones again.  So make runs itself again
# with a try-run on its command line (every sub-make inherits it) that
# keeps each answer in .try-run/ under the probe's own text: the probes,
# their commands and their answers stay kbuild's, asked once a suite run
# (guest-kernel empties .try-run as a suite starts), and the modules are
# what the headers' own Makefile builds.
ifeq ($(origin try-run),command line)
include Makefile.kbuild
else
# try-run CMD,IF-OK,OTHERWISE: kbuild's contract (scripts/
# Makefile.compiler): IF-OK when CMD (whose "$$TMP" names a scratch file)
# succeeds, else OTHERWISE.  The answer is kept (written whole, then
# renamed) after it is known: a cache that cannot be written, or that
# guest-kernel empties meanwhile, only costs the probe again.
perfctr-try-run = $(shell d='$(PERFCTR_TRY_RUN_DIR)'; \
	k=$$(printf '%s\n' '$(subst ','\'',$(1))' '$(subst ','\'',$(2))' '$(subst ','\'',$(3))' | md5sum); \
	k=$${k%% *}; \
	if IFS= read -r r 2>/dev/null <"$$d/$$k"; then printf '%s\n' "$$r"; exit 0; fi; \
	t=$$(mktemp -d); TMP=$$t/tmp; \
	r=$$(if ($(1)) >/dev/null 2>&1; then echo "$(2)"; else echo "$(3)"; fi); \
	rm -rf "$$t"; \
	{ mkdir -p "$$d" && printf '%s\n' "$$r" >"$$d/$$k.$$$$" && mv -f "$$d/$$k.$$$$" "$$d/$$k"; } 2>/dev/null; \
	printf '%s\n' "$$r")
__perfctr_all $(MAKECMDGOALS): __perfctr_again
	@:
__perfctr_again:
	@$(MAKE) -f Makefile $(MAKECMDGOALS) PERFCTR_TRY_RUN_DIR='$(CURDIR)/.try-run' \
		'try-run=$(subst ','\'',$(value perfctr-try-run))'
.PHONY: __perfctr_all __perfctr_again $(MAKECMDGOALS)
endif
