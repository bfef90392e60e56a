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
# the bases BASE= (--debian) names: Debian's linux-source-<base>; 'make
# check' tests them all
debian_bases="$mainline 7.2 6.12 6.1 5.10"
# those Debian 12 installs with apt-get; the others are downloaded
installed_bases="6.12 6.1"
# where scripts/install-deps unpacks packages it downloads
debian_root=$build_root/debian/root
# where the kconfig sources of single releases (--release) are kept, and
# built
releases_root=$build_root/releases
# every suite of Debian's archive with a kernel source release of those
# bases (a *-security suite is in the machine's security archive)
release_suites="bullseye bullseye-security bookworm bookworm-security
	bookworm-backports trixie trixie-security trixie-backports forky
	unstable experimental"

# the name messages begin with: the script's, or that of the script that
# runs it for a person (scripts/oldconfig runs scripts/build)
prog=${KCONFIG_BACK_PROG:-${0##*/}}

die() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "$prog" "$*" >&2
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

# series_for VERSION: the directory under patches/ whose series is for
# that version's line (it may not exist yet), or nothing.  This only
# picks the series to try on kconfig sources patches/known-bases does not
# know (see recognise); 7.2 has the mainline series until patches/7.2
# exists.
series_for() {
	case $1 in
	5.10.*)				echo 5.10 ;;
	6.1.*)				echo 6.1 ;;
	6.1[1-7].*)			echo 6.12 ;;
	7.2.*)				if [ -d "$top/patches/7.2" ]; then echo 7.2; else echo mainline; fi ;;
	6.1[89].*|6.[2-9][0-9].*|[7-9].*) echo mainline ;;
	*)				;;
	esac
}

# series_exists SERIES: whether patches/SERIES has patches
series_exists() {
	[ -n "$(series_patches "$1")" ]
}

# series_files SERIES: the upstream files the series changes, sorted: the
# files its patches change ("--- a/PATH"), without those a patch of the
# series creates (they are not upstream's)
series_files() {
	local p
	p=$(series_patches "$1")
	[ -n "$p" ] || return 0
	# shellcheck disable=SC2086 # a list of file names without blanks
	awk '
		/^diff --git / { hdr = 1; from = ""; next }
		hdr && /^--- / { from = $2; next }
		hdr && /^\+\+\+ / {
			to = $2
			if (from == "/dev/null") created[substr(to, 3)] = 1
			else if (from ~ /^a\//) changed[substr(from, 3)] = 1
			hdr = 0
			next
		}
		/^@@/ { hdr = 0 }
		END { for (f in changed) if (!(f in created)) print f }
	' $p | LC_ALL=C sort
}

# conf_sources DIR: the sources conf is built from (kconfig/conf.mk), by
# their paths in DIR, sorted
conf_sources() {
	(cd "$1" && for f in scripts/kconfig/conf.c scripts/kconfig/confdata.c \
			scripts/kconfig/expr.c scripts/kconfig/menu.c \
			scripts/kconfig/preprocess.c scripts/kconfig/symbol.c \
			scripts/kconfig/util.c scripts/kconfig/lexer.l \
			scripts/kconfig/parser.y scripts/kconfig/*.h scripts/include/*.h; do
		[ -f "$f" ] && echo "$f"
	done) | LC_ALL=C sort
}

# conf_sources_sum DIR: one sha256 of those sources (their names and
# contents): releases with the same sum build the same conf
conf_sources_sum() {
	(cd "$1" && conf_sources . | xargs -r sha256sum) | sha256sum | cut -c1-64
}

# The pseudo file name in patches/known-bases of that sum
conf_sources_name="(conf-sources)"

# known_bases_lines: patches/known-bases without its comments, as
# "RELEASE SERIES SHA256 FILE"
known_bases_lines() {
	[ -f "$top/patches/known-bases" ] || return 0
	awk '$1 !~ /^#/ && NF == 4' "$top/patches/known-bases"
}

# recognise DIR [VERSION]: what patches/known-bases says of the kconfig
# sources in DIR, as "SERIES RELEASE VERIFIED": the series of the verified
# RELEASE that has the same sums of every upstream file that series
# changes; VERIFIED is "yes" if the sources conf is built from are that
# release's too (the release is verified there), "no" if only the files
# the series changes are.  Of several such releases, VERSION (the name the
# sources give themselves) if it is one, else the newest.  Nothing when no
# release matches.
recognise() {
	local dir=$1 hint=${2:-} rel s sum file cur=
	local -A sums=() bad=() ser=() conf=()
	while read -r rel s sum file; do
		ser[$rel]=$s
		if [ "$file" = "$conf_sources_name" ]; then
			conf[$rel]=$sum
			continue
		fi
		[ -z "${bad[$rel]:-}" ] || continue
		if [ -z "${sums[$file]+x}" ]; then
			if [ -f "$dir/$file" ]; then
				sums[$file]=$(sha256sum < "$dir/$file" | cut -c1-64)
			else
				sums[$file]=none
			fi
		fi
		[ "${sums[$file]}" = "$sum" ] || bad[$rel]=1
	done < <(known_bases_lines)
	# a release whose conf sources match too comes first
	for rel in $(printf '%s\n' "${!ser[@]}" | sort -rV | awk -v v="$hint" '$0 == v { print; next } { l = l " " $0 } END { print l }'); do
		[ -z "${bad[$rel]:-}" ] || continue
		if [ -n "${conf[$rel]:-}" ] && [ -z "$cur" ]; then
			cur=$(conf_sources_sum "$dir")
		fi
		if [ -n "${conf[$rel]:-}" ] && [ "${conf[$rel]}" = "$cur" ]; then
			echo "${ser[$rel]} $rel yes"
			return
		fi
	done
	for rel in $(printf '%s\n' "${!ser[@]}" | sort -rV | awk -v v="$hint" '$0 == v { print; next } { l = l " " $0 } END { print l }'); do
		[ -z "${bad[$rel]:-}" ] || continue
		echo "${ser[$rel]} $rel no"
		return
	done
}

# verified_bases SERIES: the releases patches/SERIES is verified on,
# comma-separated, in version order
verified_bases() {
	local list
	list=$(known_bases_lines | awk -v s="$1" '$2 == s { print $1 }' | sort -uV |
		paste -sd, - | sed 's/,/, /g')
	echo "${list:-none}"
}

# unknown_base VERSION: stop, saying which bases there are
unknown_base() {
	die "$1 is not a base: BASE= is one of ${debian_bases// /, } (Debian's linux-source-<base>; $mainline and 7.2 take the mainline series), or give KERNEL_SRC= a kernel tree"
}

is_base() {
	case " $debian_bases " in *" $1 "*) true ;; *) false ;; esac
}

is_installed_base() {
	case " $installed_bases " in *" $1 "*) true ;; *) false ;; esac
}

# base_suites BASE: the suites of Debian's archive a downloaded base is
# taken from, the one that keeps the line longest first: a stable or
# testing suite (and its backports) before unstable and experimental,
# which move on
base_suites() {
	case $1 in
	"$mainline")	echo "$mainline_suites" ;;
	7.2)		echo "forky trixie-backports unstable" ;;
	5.10)		echo "bullseye bullseye-security" ;;
	esac
}

# base_packages BASE: what is downloaded with a base: its sources, and
# Debian's configs where the tests use them as old configs (7.2's tests
# take Debian 12's linux-config-6.12)
base_packages() {
	case $1 in
	7.2)	echo "linux-source-$1" ;;
	*)	echo "linux-source-$1 linux-config-$1" ;;
	esac
}

# fetch_hint VERSION: the one command that gets Debian's sources of a base
fetch_hint() {
	if is_installed_base "$1"; then
		echo "scripts/install-deps --base $1 (as root; it runs apt-get install linux-source-$1)"
	else
		echo "scripts/install-deps --base $1 (downloads linux-source-$1 from Debian's $(base_suites "$1" | sed 's/ .*//') suite into build/debian, no root needed)"
	fi
}

# release_name NAME: the kernel's name of a release ("7.3.0-rc7", as the
# tree's Makefile gives it) from that or Debian's ("7.3~rc7", "7.3-rc7");
# nothing if NAME is no release
release_name() {
	local r=$1
	if [[ $r =~ ^([0-9]+\.[0-9]+)[~-]rc([0-9]+)$ ]]; then
		r=${BASH_REMATCH[1]}.0-rc${BASH_REMATCH[2]}
	elif [[ $r =~ ^[0-9]+\.[0-9]+$ ]]; then
		r=$r.0		# Debian's "7.3-1" is 7.3.0
	fi
	if [[ $r =~ ^[0-9]+\.[0-9]+\.[0-9]+(-rc[0-9]+)?$ ]]; then
		echo "$r"
	fi
}

# release_line RELEASE: "6.12" of "6.12.115"
release_line() {
	echo "$1" | cut -d. -f1-2
}

# release_upstream RELEASE: Debian's upstream version of a release
# ("7.3~rc7" for 7.3.0-rc7, "7.3" for 7.3.0)
release_upstream() {
	case $1 in
	*.0-rc*)	echo "${1%%.0-rc*}~rc${1##*-rc}" ;;
	*.*.0)		echo "${1%.0}" ;;
	*)		echo "$1" ;;
	esac
}

# The members of Debian's source tarball the build needs
tarball_members="linux-source-*/Makefile linux-source-*/scripts/*
	linux-source-*/MAINTAINERS linux-source-*/Documentation/kbuild/kconfig.rst"

# debian_uri [security]: the URI of Debian's archive (or of its security
# archive) in the machine's own apt sources, or nothing
debian_uri() {
	local label=Debian
	[ "${1:-}" != security ] || label=Debian-Security
	apt-cache policy 2>/dev/null | awk -v label="$label" '
		/^ *[0-9-]+ [a-z]+:\/\/[^ ]+ [^ ]+ [^ ]+ Packages$/ { uri = $2; next }
		/^ *release / && uri != "" {
			if (index($0, ",o=Debian,") && index($0, ",l=" label ",")) { print uri; exit }
			uri = ""
		}'
}

# apt_private SUITE...: point the array apt_opts at a private apt
# configuration under build/debian for those suites of the machine's
# Debian archive (a *-security suite from its security archive), its
# lists refreshed when older than an hour.  The machine's apt sources and
# state are left alone.  apt's output goes to $apt_log.  Fails (status 1,
# saying why on one line) when the archive gave no list at all.
apt_private() {
	local etc=$build_root/debian/apt lists=$build_root/debian/lists uri sec suite key list
	need_cmd apt-get apt-cache dpkg-deb
	uri=$(debian_uri)
	sec=$(debian_uri security)
	[ -n "$uri" ] || die "no Debian archive in the machine's apt sources (apt-cache policy names none)"
	mkdir -p "$etc" "$lists/partial"
	apt_log=$build_root/debian/apt.log
	# one sources list for each set of suites (runs with others at the
	# same time use theirs), and the lists of all, kept
	key=$(for suite in "$@"; do
		case $suite in
		*-security)	[ -z "$sec" ] || printf 'deb [trusted=yes] %s %s main\n' "${sec%/}" "$suite" ;;
		*)		printf 'deb [trusted=yes] %s %s main\n' "${uri%/}" "$suite" ;;
		esac
	done | tee "$etc/sources.list.$$" | sha256sum | cut -c1-16)
	list=$etc/sources.$key.list
	mv "$etc/sources.list.$$" "$list"
	apt_opts=(-o Dir::Etc::SourceList="$list"
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$lists"
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
		-o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root)
	# refreshed at most once an hour
	[ -z "$(find "$list.updated" -mmin -60 2>/dev/null)" ] || return 0
	# a suite that is gone makes update fail; the others may still do
	apt-get -q "${apt_opts[@]}" update >"$apt_log" 2>&1 || :
	if ! grep -q '^\(Get\|Hit\):' "$apt_log"; then
		note "Debian's archive ${uri%/} cannot be reached (apt-get update of its suites $*: see $apt_log)"
		return 1
	fi
	touch "$list.updated"
}

# apt_madison PACKAGE: "DEBIAN-VERSION SUITE" of every version of the
# package in the private configuration's suites, newest first
apt_madison() {
	apt-cache "${apt_opts[@]}" madison "$1" 2>/dev/null |
		awk -F' *[|] *' '{ split($3, w, " "); split(w[2], s, "/"); print $2, s[1] }'
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

# demo_srctree DIR: the demo's srctree for the parser of build DIR: 5.10's
# takes 'option modules', not 'modules' (then a copy in DIR/demo, which
# the tests take too)
demo_srctree() {
	if grep -q 'T_OPTION T_MODULES' "$1/pristine/scripts/kconfig/parser.y"
	then
		mkdir -p "$1/demo"
		sed 's/^\tmodules$/\toption modules/' "$top/kconfig/demo/Kconfig" \
			> "$1/demo/Kconfig"
		echo "$1/demo"
	else
		echo "$top/kconfig/demo"
	fi
}

# abs_path NAME: NAME made absolute against the current directory (empty
# and absolute names are returned as they are)
abs_path() {
	case $1 in
	''|/*)	printf '%s\n' "$1" ;;
	*)	printf '%s\n' "$PWD/$1" ;;
	esac
}

# read_env FILE: the VAR=VALUE lines of a build's base.env as variables
# (a value may have any character: not sourced)
read_env() {
	local k v
	while IFS='=' read -r k v; do
		printf -v "$k" '%s' "$v"
	done < "$1"
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
