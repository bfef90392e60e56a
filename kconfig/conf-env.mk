# SPDX-License-Identifier: GPL-2.0
#
# scripts/oldconfig passes this file in MAKEFILES to a kernel tree's own
# make, to save the exact environment that "make oldconfig" gives
# scripts/kconfig/conf.  The goal ends in "config", so the top-level
# Makefile prepares a configuration build as for "make oldconfig" (with
# O=DIR or KBUILD_OUTPUT, in DIR); the pattern rule below wins over its
# "%config" rule (a shorter stem), and enters the scripts/kconfig sub-make
# the same way, where the environment of the recipe is the one conf runs
# with.  Like "%config", it first makes outputmakefile: with O=DIR, that
# refuses a source tree that is not clean and writes DIR/Makefile, as
# "make O=DIR oldconfig" does (in the source tree it does nothing).  The
# last record, KCONFIG_BACK_DIR, is the directory conf runs in: the
# tree, or DIR.

kconfig-back-%config: outputmakefile
	$(Q)$(MAKE) $(build)=scripts/kconfig kconfig-back-env

kconfig-back-env:
	@{ env -0; printf 'KCONFIG_BACK_DIR=%s\0' "$$(pwd)"; } > "$$KCONFIG_BACK_ENV"
