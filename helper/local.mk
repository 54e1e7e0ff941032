## helper/local.mk
