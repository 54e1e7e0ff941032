## testsuite/local.mk - the guest test harness (testsuite/README.md):
## testsuite/guest-run runs one script in a QEMU guest, run-suite runs every
## testsuite/guest/ARCH/*.stp as a TAP test; testsuite/lib holds their code.
## Guest suites, each an automake test: x86_64 (the host's kernel) and
## arm64 (Debian's arm64 kernel under qemu-system-aarch64, with a real
## PMU) on the bookworm and forky (stap 5.6, Linux 7.x) stacks; the
## version-sensitive tests of both on the trixie stack
## (stap 5.1, Linux 6.12); x86_64's preemption-sensitive tests on the rt
## stack (Debian's PREEMPT_RT kernel): testsuite/lib/stack.sh, and
## testsuite/README.md "Stacks in CI" for the choice.  Each skips, with the reason, where
## this machine lacks what it needs; GUEST_STACKS="bookworm" (a list) runs
## only the stacks named.

guest_lib_files = \
	testsuite/lib/common.sh \
	testsuite/lib/arch.sh \
	testsuite/lib/sysroot.sh \
	testsuite/lib/guest.sh \
	testsuite/lib/guest-gdb.sh \
	testsuite/lib/perf.sh \
	testsuite/lib/stap.sh \
	testsuite/lib/guest-init \
	testsuite/lib/guest-kernel \
	testsuite/lib/stack.sh \
	testsuite/lib/suite/directives.sh \
	testsuite/lib/suite/build.sh \
	testsuite/lib/suite/boot.sh \
	testsuite/lib/suite/judge.sh \
	testsuite/lib/suite/busy.sh \
	testsuite/lib/tables.sh \
	testsuite/stacks.tsv \
	testsuite/lib/chroot-run \
	testsuite/lib/tree-qemu \
	testsuite/lib/tracepoints.sh \
	testsuite/lib/apt-sources.sh \
	testsuite/lib/guest-wait \
	testsuite/lib/debug-kernel.sh \
	testsuite/lib/debug-kernel/guest.config \
	testsuite/lib/debug-kernel/checks.config \
	testsuite/lib/debug-kernel/kasan.config \
	testsuite/lib/debug-kernel/kcsan.config \
	testsuite/lib/known-reports \
	testsuite/lib/busy-signs \
	testsuite/lib/kbuild-try-run.mk
guest_prog_files = \
	testsuite/guest/progs/common.h \
	testsuite/guest/progs/common.c \
	testsuite/guest/progs/touch_pages.c \
	testsuite/guest/progs/touch_stop.c \
	testsuite/guest/kmod/perfctr_test_core.c \
	testsuite/guest/kmod/perfctr_test_pmu.h \
	testsuite/guest/kmod/perfctr_test_socket.c \
	testsuite/guest/kmod/perfctr_test_slow_exit.c \
	testsuite/guest/kmod/perfctr_test_bad.c \
	testsuite/guest/progs/pingpong.c \
	testsuite/guest/progs/spin.c \
	testsuite/guest/progs/insn_loop.c \
	testsuite/guest/progs/percall.c \
	testsuite/guest/progs/migrate.c \
	testsuite/guest/progs/core_ticks.c \
	testsuite/guest/progs/threads.c \
	testsuite/guest/progs/bench_loop.c \
	testsuite/guest/progs/bpf_reads.c \
	testsuite/guest/progs/locker.c \
	testsuite/guest/progs/rounds.c \
	testsuite/guest/progs/hold_event.c \
	testsuite/guest/progs/difftree.c \
	testsuite/guest/progs/perf_gated.sh \
	testsuite/guest/progs/perf_diff.sh

EXTRA_DIST += testsuite/README.md testsuite/guest-run \
	testsuite/guest/run-suite testsuite/guest/run-suite-arm64 \
	testsuite/guest/run-suite-trixie testsuite/guest/run-suite-trixie-arm64 \
	testsuite/guest/run-suite-forky testsuite/guest/run-suite-forky-arm64 \
	testsuite/guest/run-suite-rt testsuite/guest/run-suite-debug \
	testsuite/guest/check-debug testsuite/guest/run-suite-labels \
	testsuite/guest/hang-hunt testsuite/guest/run-suite-x2apic \
	testsuite/guest/run-remote testsuite/guest/run-job \
	testsuite/guest/jobs.tsv testsuite/guest/lists \
	testsuite/guest/x86_64 testsuite/guest/arm64 testsuite/guest/remote \
	$(guest_lib_files) $(guest_prog_files)

# make -j runs the tests in TESTS order, as many at once as it may: the
# bookworm suites come first (Makefile.am), before every other test; the
# tree stacks' after all the host tests (fuzzing and the bad-input corpus
# included), when the background downloads (guest-fetch-start, below)
# have made the trees, the longest of them first (guest_suites_later).
guest_suites_first = testsuite/guest/run-suite testsuite/guest/run-suite-arm64
TESTS += testsuite/unit/lib/apt-sources.test testsuite/unit/lib/guest-hang.test \
	testsuite/unit/lib/guest-boot-retry.test \
	testsuite/unit/lib/busy-rerun.test testsuite/unit/lib/kbuild-try-run.test \
	testsuite/unit/lib/guest-kernel-report.test \
	testsuite/unit/lib/report-blocks.test testsuite/unit/lib/stacks.test \
	testsuite/unit/lib/guest-ipi.test
EXTRA_DIST += testsuite/unit/lib/stacks.test testsuite/lib/list-stacks
EXTRA_DIST += testsuite/unit/lib/apt-sources.test testsuite/unit/lib/guest-hang.test \
	testsuite/unit/lib/guest-hang testsuite/unit/lib/guest-boot-retry.test \
	testsuite/unit/lib/guest-boot-retry \
	testsuite/unit/lib/busy-rerun.test testsuite/unit/lib/busy-rerun \
	testsuite/unit/lib/kbuild-try-run.test testsuite/unit/lib/kbuild-try-run \
	testsuite/unit/lib/guest-kernel-report.test \
	testsuite/unit/lib/report-blocks.test testsuite/unit/lib/guest-ipi.test
# the how-to pages' examples are files the suite runs, as they stand
TESTS += testsuite/howto/pages.test
EXTRA_DIST += testsuite/howto/pages.test testsuite/howto/unit-c.md \
	testsuite/howto/shell-test.md testsuite/howto/guest-test.md \
	testsuite/howto/hw-check.md
# scripts/install-deps' sets: the examples' holds none of the tests' tools
TESTS += testsuite/unit/install-deps.test
EXTRA_DIST += testsuite/unit/install-deps.test testsuite/lib/test-lib.sh \
	testsuite/fresh/fresh-run
# the commit messages since the rules came in (scripts/check-commits)
TESTS += testsuite/unit/commits.test
EXTRA_DIST += testsuite/unit/commits.test scripts/check-commits
# examples/flame.stp's folded stacks loaded into speedscope in headless
# chromium, a screenshot kept in build/viewer
TESTS += testsuite/viewer/speedscope.test
EXTRA_DIST += testsuite/viewer/speedscope.test testsuite/viewer/flame.folded
# make check's round, a command: the guest suites jobs.tsv marks round-K
# run when it is K, one round a run, in turn (testsuite/README.md,
# "Rounds"); GUEST_ROUND=all runs them all.
guest_round = GUEST_ROUND='$(GUEST_ROUND)' $(abs_top_srcdir)/testsuite/guest/run-job --round
# the rest after every host test (Makefile.am appends them last), so
# that what ends the run is these suites, not a host test left alone; the
# longest first (the Debian package's, the debug kernel's), so that the
# short ones fill the other slot at the end.  trixie's arm64 suite runs
# by hand (make check-trixie): 6.12's arm_pmu numbers its counters as
# 7.x's does, which forky's arm64 suite covers.
guest_suites_later = testsuite/package/deb.test testsuite/guest/run-suite-debug \
	testsuite/guest/run-suite-forky testsuite/guest/run-suite-forky-arm64 \
	testsuite/guest/run-suite-trixie testsuite/guest/run-suite-rt \
	testsuite/guest/run-suite-labels \
	testsuite/guest/run-suite-x2apic testsuite/guest/run-remote
# a compile server (stap-serverd) on this machine building for the x86_64
# guest, whose module runs there (testsuite/server/use-server.test)
guest_suites_later += testsuite/server/use-server.test
EXTRA_DIST += testsuite/server/use-server.test testsuite/server/pagefaults.stp \
	testsuite/server/README.md
# the Debian package on both stacks: built, checked, installed, run
# (first of guest_suites_later)
EXTRA_DIST += testsuite/package/deb.test testsuite/lib/installed-run

# make check starts the downloads its guest suites need (the trixie tree,
# the arm64 sysroots, the rt kernel: minutes of network; each suite's stack
# and architecture from testsuite/guest/jobs.tsv) in the background
# as it begins, while the host tests run (testsuite/lib/guest-fetch; its
# messages in build/guest-fetch.log; GUEST_FETCH=no: the suites fetch when
# they start, as they do anyway for what is still missing).  Automake asks
# for check_DATA twice: the second finds the first running and leaves.
check_DATA = guest-fetch-start
guest-fetch-start:
	@test '$(GUEST_FETCH)' != no || exit 0; \
	want=`GUEST_ROUND=\`$(guest_round)\` \
	  $(top_srcdir)/testsuite/guest/run-job --fetches $(TESTS)`; \
	test -z "$$want" || { $(top_srcdir)/testsuite/lib/guest-fetch \
	  --log build/guest-fetch.log $$want >/dev/null 2>&1 </dev/null & }
.PHONY: guest-fetch-start
EXTRA_DIST += testsuite/lib/guest-fetch

# The last test of a run: where its time went, on the console (TAP
# comments), from every other test's LOG.time (testsuite/lib/timed-driver)
# and the guest suites' time lines.
TEST_EXTENSIONS += .summary
SUMMARY_LOG_DRIVER = $(LOG_DRIVER)
AM_SUMMARY_LOG_DRIVER_FLAGS = --comments
TESTS += testsuite/timings.summary
timed_logs = $(TEST_LOGS:testsuite/timings.log=)
testsuite/timings.log: $(timed_logs)
CLEANFILES += $(TEST_LOGS:.log=.time)
EXTRA_DIST += testsuite/timings.summary testsuite/lib/timed-driver

# What configure found, for the harness scripts (testsuite/lib/common.sh
# reads it; a variable set in the environment wins).  HELPER_*: what
# helper/local.mk builds libperfctr.a and perfctr-run from and links it
# with; the arm64 guest's perfctr-run is cross-built the same way
# (testsuite/lib/arch.sh).
guest_config = build/guest/config.sh
noinst_DATA += $(guest_config)
CLEANFILES += $(guest_config)

$(guest_config): Makefile
	$(AM_V_GEN)$(MKDIR_P) build/guest && { \
	  echo '# generated by make (testsuite/local.mk) from configure results'; \
	  echo ': "$${REAL_STAP:=$(REAL_STAP)}"'; \
	  echo ': "$${REAL_STAPRUN:=$(REAL_STAPRUN)}"'; \
	  echo ': "$${STAP_VERSION:=$(STAP_VERSION)}"'; \
	  echo ': "$${PERFCTR_VERSION:=$(PACKAGE_VERSION)}"'; \
	  echo ': "$${STAP_RUNTIME_DIR:=$(STAP_RUNTIME_DIR)}"'; \
	  echo ': "$${NEED_RUNTIME_SHIM:=$(NEED_RUNTIME_SHIM)}"'; \
	  echo ': "$${KERNEL_BUILD:=$(KERNEL_BUILD)}"'; \
	  echo ': "$${QEMU_X86_64:=$(QEMU_X86_64)}"'; \
	  echo ': "$${BUSYBOX:=$(BUSYBOX)}"'; \
	  echo ': "$${HELPER_LIB_SOURCES:=$(helper_libperfctr_a_SOURCES)}"'; \
	  echo ': "$${HELPER_RUN_SOURCES:=$(helper_perfctr_run_SOURCES)}"'; \
	  echo ': "$${HELPER_LIBS:=$(filter -l%,$(helper_perfctr_run_LDADD))}"'; \
	  echo ': "$${HWCHECK_SOURCES:=$(testsuite_hw_perfctr_hwcheck_SOURCES)}"'; \
	  echo ': "$${HWCHECK_LIBS:=$(filter -l%,$(testsuite_hw_perfctr_hwcheck_LDADD))}"'; \
	} >$@.tmp && mv $@.tmp $@

# The guest caches (kernel build tree, symbols, initramfs, stap's module
# cache) survive `make clean`: they cost a boot and minutes to make again.
clean-guest:
	rm -rf build/guest
.PHONY: clean-guest

# make check-quick: the host tests (all but fuzzing, the guest harness's
# hang test and the compile server's; a third of the documentation's
# examples) and one boot of each architecture with the tests most likely
# to break (guest/run-suite-quick), on all CPUs.
quick_guest_tests = testsuite/guest/run-suite-quick \
	testsuite/guest/run-suite-quick-arm64
EXTRA_DIST += $(quick_guest_tests)
# automake writes a .log rule only for what TESTS names: these, as it does
quick_log = $(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs $(am__common_driver_flags) \
	$(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) "$$tst" \
	$(AM_TESTS_FD_REDIRECT)
testsuite/guest/run-suite-quick.log: testsuite/guest/run-suite-quick
	@p=testsuite/guest/run-suite-quick; b=$$p; $(quick_log)
testsuite/guest/run-suite-quick-arm64.log: testsuite/guest/run-suite-quick-arm64
	@p=testsuite/guest/run-suite-quick-arm64; b=$$p; $(quick_log)
check-quick: all
	@tests=`for t in $(TESTS); do case $$t in \
	  testsuite/guest/run-suite*|fuzz/*|*/guest-hang.test|testsuite/server/*) ;; \
	  *) echo $$t ;; esac; done`; \
	tests=`echo $$tests`; \
	case '$(MAKEFLAGS)' in *-j*|*jobserver*) jobs= ;; \
	  *) jobs=-j`nproc 2>/dev/null || echo 1` ;; esac; \
	DOC_EXAMPLES_EVERY=3 $(MAKE) $(AM_MAKEFLAGS) $$jobs check \
	  TESTS="$(quick_guest_tests) $$tests"
.PHONY: check-quick

# A tree stack's two suites alone and whole (make check runs the parts
# their scripts list; TAP in testsuite/guest/run-suite-STACK*.log).
check-trixie check-forky: check-%: all
	GUEST_WHOLE_SUITE=1 $(MAKE) $(AM_MAKEFLAGS) check GUEST_ROUND=all \
	  TESTS="testsuite/guest/run-suite-$* \
	  testsuite/guest/run-suite-$*-arm64"

# The debug stacks in full (make check runs a part of the debug stack's):
# the whole x86_64 suite on the debug kernel, its race tests again and
# again, and the whole suite on the kcsan kernel (testsuite/guest/
# check-debug; each suite's TAP in build/debug/check-debug-*.log).
check-debug: all
	$(top_srcdir)/testsuite/guest/check-debug
.PHONY: check-debug

# A tree and its guest caches (kept by clean and clean-guest).
clean-trixie clean-forky: clean-%:
	rm -rf build/$*
.PHONY: check-trixie clean-trixie check-forky clean-forky
