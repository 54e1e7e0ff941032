## runtime/local.mk
