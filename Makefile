# SPDX-License-Identifier: GPL-2.0
#
# kconfig-back: '<' goes back to the previous question in make oldconfig.
# See README.md (and docs/).  Variables:
#   KERNEL_SRC=/path/to/linux   take the kconfig sources from a kconfig tree
#                               (Linux, U-Boot, Buildroot, coreboot, crosstool-ng)
#   BASE=7.3 | 7.2 | 6.12 | 6.1 | 5.10
#                               else from Debian's linux-source-$(BASE)
#   BASE=6.6 | 5.15 | u-boot | buildroot | coreboot | crosstool-ng
#                               or the tree of scripts/project-tree
#   SEEDS=N                     seeded sessions per scenario in the tests

PYTHON3		?= /usr/bin/python3
BASE		?= 6.12
SRC_ARGS	:= $(if $(KERNEL_SRC),--kernel-src $(KERNEL_SRC),--debian $(BASE))
# what building needs: the tools, and Debian's sources of BASE
DEPS_ARGS	:= $(if $(KERNEL_SRC),,--base $(BASE))
# the bases 'make check' tests: the given tree, or Debian's 7.3 and 7.2 (the
# mainline series), 6.12, 6.1 and 5.10, and the trees of scripts/project-tree
# (a project without a series would be built with its stock conf alone; a
# tree whose fixture is missing is left out, and its tests skip); the depth
# of each:
# tests/conftest.py (DEPTH)
PROJECT_BASES	:= 6.6.57 5.15.85 u-boot-2025.01 buildroot-2026.08-rc1 coreboot-25.09 \
		   crosstool-ng-1.29.0-rc2
CHECK_BASES	:= $(if $(KERNEL_SRC),--kernel-src:$(KERNEL_SRC),--debian:7.3 --debian:7.2 \
		   --debian:6.12 --debian:6.1 --debian:5.10 $(addprefix --project:,$(PROJECT_BASES)))
PYTEST		:= $(PYTHON3) -m pytest -p no:cacheprovider

.PHONY: all build demo check check-long check-series check-releases bench dist \
	lint worktree regen-series deps test-deps clean help

all: build

help:
	@echo 'make [KERNEL_SRC=dir | BASE=7.3|7.2|6.12|6.1|5.10|6.6|5.15|u-boot|buildroot|coreboot|crosstool-ng] TARGET'
	@echo '  build         build the stock and the patched conf (default)'
	@echo '  demo          run the patched conf on the demo Kconfig (builds BASE first)'
	@echo '  check         run all tests on 7.3, 7.2, 6.12, 6.1, 5.10, 6.6, 5.15, U-Boot, Buildroot,'
	@echo '                coreboot and crosstool-ng: full depth on 7.3 and 6.12, shallow on the others'
	@echo '                (installs and downloads what is missing; build/ takes about 8.7 GB)'
	@echo '  check-long    every base at full depth, with many more seeds'
	@echo '  check-series  check the series as a maintainer would'
	@echo '  check-releases  every kernel source release in Debian'"'"'s archive: fetch, apply, build, check; a table'
	@echo '  bench         instructions, memory and the CPU time of going back, stock vs patched'
	@echo '  dist          drop-in files and the series as tarballs of every built base, in build/dist'
	@echo '  lint          shellcheck the scripts'
	@echo '  worktree      git work tree for editing the series'
	@echo '  regen-series  write patches/ back from the work tree'
	@echo '  clean         remove build/'
	@echo 'On a kernel tree: scripts/oldconfig /path/to/linux [ARCH=...] runs the patched'
	@echo '  conf as that tree'"'"'s make oldconfig does (scripts/oldconfig --help).'
	@echo "At a question, a line that is just '<' goes back to the previous one."
	@echo 'KCONFIG_JOURNAL=FILE (for demo and scripts/oldconfig) keeps the answers in FILE;'
	@echo '  run again with the same FILE, conf takes them and asks from where they end.'

deps:
	@scripts/install-deps $(DEPS_ARGS)

test-deps:
	@scripts/install-deps --test

build: deps
	@scripts/build $(SRC_ARGS) >/dev/null

demo: deps
	@scripts/demo $(SRC_ARGS)

# the real trees the tests run conf on: Debian's sources of each base
REAL_TREES	:= --debian 6.12 $(if $(KERNEL_SRC),,--debian 6.1 --debian 7.3 --debian 7.2 --debian 5.10)

# build_bases: each base of CHECK_BASES (status 4: its tree is missing)
define build_bases
	@for b in $(CHECK_BASES); do \
		case $$b in --project:*) o=--or-stock ;; *) o= ;; esac; \
		scripts/build $${b%%:*} $${b#*:} $$o >/dev/null || [ $$? = 4 ] || exit 1; \
	done
endef

check: test-deps
	$(build_bases)
	@for v in $(filter-out --debian,$(REAL_TREES)); do scripts/kernel-tree --debian $$v >/dev/null || exit 1; done
	$(PYTEST) tests

check-long: test-deps
	$(build_bases)
	@for v in $(filter-out --debian,$(REAL_TREES)); do scripts/kernel-tree --debian $$v >/dev/null || exit 1; done
	KCONFIG_BACK_LONG=1 $(PYTEST) tests

lint:
	shellcheck -x $(filter-out %.sh,$(wildcard scripts/*)) scripts/lib.sh .ci/run

check-series: deps
	@scripts/check-series $(SRC_ARGS)

# every release of Debian's archive (not in check: about a minute each)
check-releases: test-deps
	@scripts/check-releases

worktree:
	@scripts/worktree $(SRC_ARGS)

regen-series:
	@scripts/regen-series $(SRC_ARGS)

clean:
	rm -rf build

bench:
	@scripts/install-deps --bench
	@for v in 6.12 6.1; do scripts/build --debian $$v >/dev/null && \
		scripts/kernel-tree --debian $$v >/dev/null || exit 1; done
	$(PYTHON3) tests/bench.py

# the drop-in files and tarballs of every built base, and of BASE (or
# KERNEL_SRC) which is built first
dist: deps
	@scripts/build --quiet $(SRC_ARGS) >/dev/null
	@scripts/dist >/dev/null
