## tapset/local.mk
