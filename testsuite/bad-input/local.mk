## testsuite/bad-input/local.mk - the bad-input corpus: one small script
## per mistake a user can make with perfctr clauses and reads, each with
## the error it must get (testsuite/bad-input/README.md); run.test runs
## them through stap-perfctr in front of the fake stap, and under valgrind;
## helper.test: what only perfctr-run sees (unknown events, periods).
TESTS += testsuite/bad-input/run.test testsuite/bad-input/helper.test
EXTRA_DIST += testsuite/bad-input
