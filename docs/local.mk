## docs/local.mk - man pages: installed, and checked to render cleanly.
dist_man_MANS += docs/man/stap-perfctr.1 docs/man/perfctr-run.8 \
	docs/man/perfctr-stapsh.8 \
	docs/man/stapprobes.perfctr.3stap

TESTS += docs/man/render.test
EXTRA_DIST += docs/man/render.test
EXTRA_DIST += docs/README.md docs/design.md docs/arm64.md docs/performance.md

# docs/from-perf.md: every command on the page runs, its scripts at -p2.
TESTS += docs/from-perf.test
EXTRA_DIST += docs/from-perf.md docs/from-perf.test

# The tapset's function pages, installed as function::NAME(3stap) as stap's
# own are (the colons stay out of make's file lists).  Every page is a
# whole page, so that man -l renders it from the source tree too.
fn_man_pages = docs/man/fn/cpu_cycles.3stap docs/man/fn/instructions.3stap \
	docs/man/fn/cache_references.3stap docs/man/fn/cache_misses.3stap \
	docs/man/fn/branch_instructions.3stap docs/man/fn/branch_misses.3stap \
	docs/man/fn/perfctr_read_event.3stap \
	docs/man/fn/thread_cpu_cycles.3stap docs/man/fn/thread_instructions.3stap \
	docs/man/fn/thread_cache_references.3stap \
	docs/man/fn/thread_cache_misses.3stap \
	docs/man/fn/thread_branch_instructions.3stap \
	docs/man/fn/thread_branch_misses.3stap \
	docs/man/fn/perfctr_read_thread_event.3stap \
	docs/man/fn/perfctr_ratio.3stap docs/man/fn/perfctr_percent.3stap \
	docs/man/fn/perfctr_fold_kstack.3stap docs/man/fn/perfctr_fold_ustack.3stap \
	docs/man/fn/perfctr_ratio_digits.3stap \
	docs/man/fn/perfctr_sample_addr.3stap \
	docs/man/fn/perfctr_sample_phys_addr.3stap \
	docs/man/fn/perfctr_sample_weight.3stap \
	docs/man/fn/perfctr_sample_ins_lat.3stap \
	docs/man/fn/perfctr_sample_data_src.3stap \
	docs/man/fn/perfctr_sample_period.3stap \
	docs/man/fn/perfctr_sample_count.3stap \
	docs/man/fn/perfctr_sample_branches.3stap \
	docs/man/fn/perfctr_sample_branch_from.3stap \
	docs/man/fn/perfctr_sample_branch_to.3stap \
	docs/man/fn/perfctr_sample_branch_flags.3stap \
	docs/man/fn/perfctr_sample_callchain.3stap \
	docs/man/fn/perfctr_sample_kernel_frames.3stap \
	docs/man/fn/perfctr_sample_ip.3stap \
	docs/man/fn/perfctr_mem_level.3stap \
	docs/man/fn/perfctr_mem_tlb.3stap \
	docs/man/fn/perfctr_mem_snoop.3stap \
	docs/man/fn/perfctr_mem_lock.3stap \
	docs/man/fn/perfctr_mem_op.3stap \
	docs/man/fn/perfctr_branch_type.3stap \
	docs/man/fn/perfctr_branch_mispred.3stap \
	docs/man/fn/perfctr_branch_cycles.3stap \
	docs/man/fn/perfctr_age.3stap docs/man/fn/perfctr_unit.3stap \
	docs/man/fn/perfctr_scaled.3stap \
	docs/man/fn/perfctr_read_socket.3stap
EXTRA_DIST += $(fn_man_pages)

install-data-local: install-fn-man
install-fn-man:
	$(MKDIR_P) "$(DESTDIR)$(man3dir)"
	for p in $(fn_man_pages); do \
	  $(INSTALL_DATA) "$(srcdir)/$$p" \
	    "$(DESTDIR)$(man3dir)/function::$$(basename $$p)" || exit 1; \
	done
uninstall-local: uninstall-fn-man
uninstall-fn-man:
	for p in $(fn_man_pages); do \
	  rm -f "$(DESTDIR)$(man3dir)/function::$$(basename $$p)"; \
	done
.PHONY: install-fn-man uninstall-fn-man
