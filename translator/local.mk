## translator/local.mk
