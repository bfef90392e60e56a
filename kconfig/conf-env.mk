# SPDX-License-Identifier: GPL-2.0
#
# scripts/oldconfig passes this file in MAKEFILES to a kernel tree's own
# make, to save the exact environment that "make oldconfig" gives
# scripts/kconfig/conf.  The goal ends in "config", so the top-level
# Makefile prepares a configuration build as for "make oldconfig"; the
# pattern rule below wins over its "%config" rule (a shorter stem), and
# enters the scripts/kconfig sub-make the same way, where the environment
# of the recipe is the one conf runs with.

kconfig-back-%config:
	$(Q)$(MAKE) $(build)=scripts/kconfig kconfig-back-env

kconfig-back-env:
	@env -0 > "$$KCONFIG_BACK_ENV"
