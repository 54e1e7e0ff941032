## docs/local.mk - man pages.
