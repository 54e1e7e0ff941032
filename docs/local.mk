## docs/local.mk
