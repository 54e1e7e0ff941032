## tapset/local.mk - the static tapset (generated parts live per script).
