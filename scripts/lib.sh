# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the project's scripts (sourced, not run).
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts sourcing it

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${BUILD_ROOT:-$top/build}
# the mainline base: Debian's linux-source-$mainline, not in Debian 12:
# scripts/install-deps downloads it from the first of these suites of
# Debian's archive that has it (the released 7.3.y is in trixie-backports;
# experimental had the release candidates and moves on to the next one)
mainline=7.3
mainline_suites="trixie-backports experimental"
# the bases BASE= (--debian) names: Debian's linux-source-<base>
debian_bases="$mainline 6.12 6.1"
# where scripts/install-deps unpacks packages it downloads
debian_root=$build_root/debian/root

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# The part of an upstream tree the build and the checks need. The first
# entries are required; the rest are copied when the base has them.
base_required="Makefile scripts/kconfig"
base_optional="scripts/include Documentation/kbuild/kconfig.rst
	scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch
	scripts/get_maintainer.pl MAINTAINERS"

# kernel_version TREE: "6.12.118" from the tree's top Makefile
kernel_version() {
	awk -F' *= *' '
		$1 == "VERSION" { v = $2 }
		$1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 }
		$1 == "EXTRAVERSION" { e = $2; exit }
		END { if (v != "") printf "%s.%s.%s%s\n", v, p, s, e }
	' "$1/Makefile"
}

# series_for VERSION: the directory under patches/ for that base, or nothing
series_for() {
	case $1 in
	6.1.*)				echo 6.1 ;;
	6.1[1-7].*)			echo 6.12 ;;
	6.1[89].*|6.[2-9][0-9].*|[7-9].*) echo mainline ;;
	*)				;;
	esac
}

# known_base SHA256 VERSION: VERSION if the series was verified on that
# version with that pristine conf.c (patches/known-bases), else nothing
known_base() {
	awk -v sum="$1" -v v="$2" '$1 == sum && $2 == v { print $2; exit }' \
		"$top/patches/known-bases"
}

# verified_bases SERIES: the versions patches/SERIES was verified on,
# comma-separated
verified_bases() {
	local sum v list=
	while read -r sum v; do
		case $sum in '#'*|'') continue ;; esac
		[ "$(series_for "$v")" = "$1" ] || continue
		list="${list:+$list, }$v"
	done < "$top/patches/known-bases"
	echo "${list:-none}"
}

# unknown_base VERSION: stop, saying which bases there are
unknown_base() {
	die "$1 is not a base: BASE= is one of ${debian_bases// /, } (Debian's linux-source-<base>; $mainline is the mainline series), or give KERNEL_SRC= a kernel tree"
}

# fetch_hint VERSION: the one command that gets Debian's sources of a base
fetch_hint() {
	if [ "$1" = "$mainline" ]; then
		echo "scripts/install-deps --base $1 (downloads linux-source-$1 from Debian's ${mainline_suites%% *} suite into build/debian, no root needed)"
	else
		echo "scripts/install-deps --base $1 (as root; it runs apt-get install linux-source-$1)"
	fi
}

# The parts of a base's series, in the order they apply (the sort order of
# their names): fixes that are posted alone, the '<' series, the journal
series_parts="0-fixes back journal"

# series_patches SERIES [PART...]: the patches of the base's series, in
# order (by default all parts); the cover letters are not patches
series_patches() {
	local name=$1 part f
	shift
	# shellcheck disable=SC2086 # a list of words
	[ $# -gt 0 ] || set -- $series_parts
	for part in "$@"; do
		for f in "$top/patches/$name/$part"/*.patch; do
			[ -e "$f" ] || continue
			case ${f##*/} in 0000-cover-letter.patch) continue ;; esac
			printf '%s\n' "$f"
		done
	done
}

# debian_tarball VERSION, debian_configs VERSION: installed, or downloaded
debian_tarball() {
	if [ -e "/usr/src/linux-source-$1.tar.xz" ]; then
		echo "/usr/src/linux-source-$1.tar.xz"
	else
		echo "$debian_root/usr/src/linux-source-$1.tar.xz"
	fi
}

debian_configs() {
	if [ -d "/usr/src/linux-config-$1" ]; then
		echo "/usr/src/linux-config-$1"
	else
		echo "$debian_root/usr/src/linux-config-$1"
	fi
}

# back_hint CONF MODE: before CONF runs in MODE (oldconfig, oldaskconfig,
# syncconfig: the modes that ask), at a terminal (stdin and stdout both a
# tty), one line saying that '<' goes back, if CONF has it (the patched
# conf prints "* Back to the previous question" when it goes back; a stock
# conf is not told of it).  Pipes get nothing: conf's bytes only.
back_hint() {
	[ -t 0 ] && [ -t 1 ] || return 0
	case $2 in oldconfig|oldaskconfig|syncconfig) ;; *) return 0 ;; esac
	LC_ALL=C grep -qF 'Back to the previous question' "$1" || return 0
	echo "* Type '<' at a question to go back to the previous one"
}

# abs_path NAME: NAME made absolute against the current directory (empty
# and absolute names are returned as they are)
abs_path() {
	case $1 in
	''|/*)	printf '%s\n' "$1" ;;
	*)	printf '%s\n' "$PWD/$1" ;;
	esac
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' is missing: run scripts/install-deps (or: apt-get install $(pkg_for "$c"))"
	done
}

pkg_for() {
	case $1 in
	python3-pytest|pytest)	echo python3-pytest ;;
	xz)			echo xz-utils ;;
	*)			echo "$1" ;;
	esac
}
