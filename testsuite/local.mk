## testsuite/local.mk
