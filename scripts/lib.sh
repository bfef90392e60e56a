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

# The part of an upstream Linux tree the build and the checks need. The
# first entries are required; the rest are copied when the base has them.
base_required="Makefile scripts/kconfig"
base_optional="scripts/include Documentation/kbuild/kconfig.rst
	scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch
	scripts/get_maintainer.pl MAINTAINERS"

# base_parts KIND: "REQUIRED OPTIONAL" of a tree of that kind, each a
# comma-separated list (the files that tell its kind and version with its
# kconfig folder; its checkpatch and MAINTAINERS where it has them)
base_parts() {
	case $1 in
	linux)		echo "${base_required// /,} $(printf '%s' "$base_optional" | tr -s ' \t\n' ,)" ;;
	u-boot)		echo "Makefile,scripts/kconfig scripts/checkpatch.pl,scripts/spelling.txt,scripts/const_structs.checkpatch,scripts/get_maintainer.pl,MAINTAINERS,doc/develop/kconfig.rst" ;;
	buildroot)	echo "Makefile,support/kconfig DEVELOPERS" ;;
	coreboot)	echo "util/kconfig .coreboot-version,util/lint/checkpatch.pl,util/lint/spelling.txt,util/lint/const_structs.checkpatch,MAINTAINERS" ;;
	crosstool-ng)	echo "kconfig .tarball-version" ;;
	esac
}

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

# Other kconfig trees.  A tree is of a KIND, which says where its kconfig
# sources are (kconfig_dir), how it names its version (tree_version) and
# which variable names its old config (config_var):
#   linux         scripts/kconfig    Makefile VERSION.PATCHLEVEL.SUBLEVEL
#   u-boot        scripts/kconfig    the same, as u-boot-2025.01
#   buildroot     support/kconfig    BR2_VERSION, as buildroot-2026.08-rc1
#   coreboot      util/kconfig       .coreboot-version, as coreboot-25.09
#   crosstool-ng  kconfig            .tarball-version (or none), as
#                                    crosstool-ng-1.29.0-rc2
tree_kinds="linux u-boot buildroot coreboot crosstool-ng"

# tree_kind DIR: the kind of the tree at DIR, or nothing
tree_kind() {
	local d=$1
	if [ -f "$d/support/kconfig/conf.c" ] && grep -qs '^export BR2_VERSION' "$d/Makefile"; then
		echo buildroot
	elif [ -f "$d/util/kconfig/conf.c" ]; then
		echo coreboot
	elif [ -f "$d/kconfig/conf.c" ] && [ -f "$d/kconfig/Makefile.am" ]; then
		echo crosstool-ng
	elif [ -f "$d/scripts/kconfig/conf.c" ] && [ -f "$d/Makefile" ]; then
		if grep -qs '^UBOOTVERSION\b' "$d/Makefile"; then echo u-boot; else echo linux; fi
	fi
}

# kconfig_dir KIND: where a tree of that kind has its kconfig sources
kconfig_dir() {
	case $1 in
	buildroot)	echo support/kconfig ;;
	coreboot)	echo util/kconfig ;;
	crosstool-ng)	echo kconfig ;;
	*)		echo scripts/kconfig ;;
	esac
}

# config_var KIND: the variable that names the old config its make gives conf
config_var() {
	case $1 in
	buildroot)	echo BR2_CONFIG ;;
	*)		echo KCONFIG_CONFIG ;;
	esac
}

# tree_title VERSION: "Linux 6.6.57", "U-Boot 2025.01", "Buildroot
# 2026.08-rc1", ... for messages
tree_title() {
	case $1 in
	u-boot-*)	echo "U-Boot ${1#u-boot-}" ;;
	buildroot-*)	echo "Buildroot ${1#buildroot-}" ;;
	coreboot-*)	echo "coreboot ${1#coreboot-}" ;;
	crosstool-ng-*)	echo "crosstool-ng ${1#crosstool-ng-}" ;;
	crosstool-ng)	echo "crosstool-ng (a kconfig/ without a version)" ;;
	*)		echo "Linux $1" ;;
	esac
}

# tree_version KIND DIR: the version of a tree, in the project's own way,
# prefixed with the project's name but for Linux ("6.6.57",
# "u-boot-2025.01", "buildroot-2026.08-rc1", "coreboot-25.09",
# "crosstool-ng-1.29.0-rc2"; "crosstool-ng" for its kconfig/ alone)
tree_version() {
	local v
	case $1 in
	linux)	kernel_version "$2" ;;
	u-boot)	v=$(awk -F' *= *' '
			$1 == "VERSION" { v = $2 }
			$1 == "PATCHLEVEL" { p = $2 }
			$1 == "SUBLEVEL" { s = $2 }
			$1 == "EXTRAVERSION" { e = $2; exit }
			END { if (v != "") printf "%s.%s%s%s\n", v, p, (s == "" ? "" : "." s), e }
		' "$2/Makefile")
		[ -z "$v" ] || echo "u-boot-$v" ;;
	buildroot)
		v=$(sed -n 's/^export BR2_VERSION *:\?= *\([^ ]*\).*/\1/p' "$2/Makefile" | head -n 1)
		[ -z "$v" ] || echo "buildroot-$v" ;;
	coreboot)
		# "25.09-07df08836e-c78a02fd56", "4.15-cc66b56c..." (its git
		# commits), "24.12-123-gabcdef0" (git describe): 25.09, 4.15, 24.12
		v=$(head -n 1 "$2/.coreboot-version" 2>/dev/null |
			sed -E 's/-([0-9]+-g)?[0-9a-f]{7,}.*//' || :)
		[ -z "$v" ] || echo "coreboot-$v" ;;
	crosstool-ng)
		v=$(head -n 1 "$2/.tarball-version" 2>/dev/null || :)
		echo "crosstool-ng${v:+-$v}" ;;
	esac
}

# The releases of trees that no Debian linux-source package has, by name
# (a tree_version): where the tree comes from, either a FILE of the
# fixtures folder (../shared/fixtures from the project's top, or
# $KCONFIG_BACK_FIXTURES), or the upstream tarball (.orig.tar.*) of
# Debian's source package PACKAGE=UPSTREAM-VERSION in the first of SUITES
# that has it (scripts/project-tree gets both)
#   RELEASE                 fixture FILE | debian PACKAGE=UPSTREAM SUITE,...
project_releases="
	6.6.57			fixture linux-6.6.57-kconfig.tar.xz
	5.15.85			fixture linux-5.15.85-kconfig.tar.xz
	buildroot-2026.08-rc1	fixture buildroot-2026.08-rc1-kconfig.tar.xz
	crosstool-ng-1.29.0-rc2	fixture crosstool-ng-kconfig.tar.xz
	u-boot-2023.01		debian u-boot=2023.01+dfsg bookworm
	u-boot-2025.01		debian u-boot=2025.01 trixie,unstable
	coreboot-25.09		debian coreboot=25.09+dfsg unstable
	coreboot-4.15		debian coreboot=4.15~dfsg bookworm"
fixtures_dir=${KCONFIG_BACK_FIXTURES:-$top/../shared/fixtures}

# project_release RELEASE: "fixture FILE" or "debian PACKAGE=VERSION
# SUITES" of a release of project_releases, or nothing
project_release() {
	printf '%s\n' "$project_releases" | awk -v r="$1" '$1 == r { $1 = ""; sub(/^ /, ""); print; exit }'
}

# The bases of the other trees, by the name BASE= gives them: the release
# that is built and tested (make check) for each
project_bases="6.6:6.6.57 5.15:5.15.85 u-boot:u-boot-2025.01
	buildroot:buildroot-2026.08-rc1 coreboot:coreboot-25.09
	crosstool-ng:crosstool-ng-1.29.0-rc2"

# project_base NAME: the release of a base of project_bases, or nothing
project_base() {
	local b
	for b in $project_bases; do
		[ "${b%%:*}" != "$1" ] || { echo "${b#*:}"; return; }
	done
}

# series_for VERSION: the directory under patches/ whose series is for
# that version's line (it may not exist yet), or nothing.  This only
# picks the series to try on kconfig sources patches/known-bases does not
# know (see recognise); 7.2 has the mainline series until patches/7.2
# exists.
series_for() {
	case $1 in
	5.10.*)				echo 5.10 ;;
	5.15.*)				echo 5.15 ;;
	6.1.*)				echo 6.1 ;;
	6.6.*)				echo 6.6 ;;
	6.1[1-7].*)			echo 6.12 ;;
	7.2.*)				if [ -d "$top/patches/7.2" ]; then echo 7.2; else echo mainline; fi ;;
	6.1[89].*|6.[2-9][0-9].*|[7-9].*) echo mainline ;;
	u-boot-*)			echo u-boot ;;
	buildroot-*)			echo buildroot ;;
	coreboot-*)			echo coreboot ;;
	crosstool-ng|crosstool-ng-*)	echo crosstool-ng ;;
	*)				;;
	esac
}

# The Linux lines that have a series, each as "SERIES FIRST LAST": the
# releases X.Y (FIRST to LAST) that series_for maps to it
linux_series_lines="5.10 5.10 5.10
5.15 5.15 5.15
6.1 6.1 6.1
6.6 6.6 6.6
6.12 6.11 6.17
mainline 6.18 99.99"

# nearest_series VERSION: for a Linux version of no line (series_for says
# nothing), the series of the nearest line, counting releases (5.19 is
# followed by 6.0, 6.19 by 7.0): of two as near, the newer.  The lines
# with patches first; any line if none has.
nearest_series() {
	local have=() s
	while read -r s _; do
		! series_exists "$s" || have+=("$s")
	done <<<"$linux_series_lines"
	printf '%s\n' "$linux_series_lines" | awk -v v="$1" -v have=" ${have[*]} " '
		# the release number of X.Y: 4.0 to 4.20, 5.0 to 5.19, 6.0 to
		# 6.19, then 7.0 onwards
		function ord(x,   a) {
			split(x, a, ".")
			if (a[1] < 4) return a[2] - 20
			if (a[1] == 4) return a[2]
			if (a[1] == 5) return 21 + a[2]
			if (a[1] == 6) return 41 + a[2]
			return 61 + a[2] + (a[1] - 7) * 20
		}
		BEGIN { o = ord(v); best = "" }
		index(have, " " $1 " ") || have == "  " {
			lo = ord($2); hi = ($3 == "99.99") ? 1e9 : ord($3)
			d = (o < lo) ? lo - o : (o > hi ? o - hi : 0)
			if (best == "" || d <= bestd) { best = $1; bestd = d }
		}
		END { print best }'
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
# their paths in DIR, sorted (in the kconfig folder of DIR's kind; the
# older zconf.* ones and the shipped parsers of the trees that build them),
# not the header bison writes there (a tree's own make oldconfig does)
conf_sources() {
	local k
	k=$(kconfig_dir "$(tree_kind "$1")")
	(cd "$1" && for f in "$k"/conf.c "$k"/confdata.c "$k"/expr.c "$k"/menu.c \
			"$k"/preprocess.c "$k"/symbol.c "$k"/util.c "$k"/lexer.l \
			"$k"/parser.y "$k"/zconf.l "$k"/zconf.y "$k"/kconf_id.c \
			"$k"/*_shipped "$k"/*.h scripts/include/*.h; do
		[ -f "$f" ] && [ "$f" != "$k/parser.tab.h" ] && echo "$f"
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
	die "$1 is not a base: BASE= is one of ${debian_bases// /, } (Debian's linux-source-<base>; $mainline and 7.2 take the mainline series) or of $(for b in $project_bases; do printf '%s, ' "${b%%:*}"; done | sed 's/, $//') (scripts/project-tree), or give KERNEL_SRC= a kconfig tree"
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
# lists refreshed when older than an hour.  With apt_type=deb-src, the
# suites' source packages instead (under build/upstream: the upstream
# tarballs of projects Debian packages, see upstream_source).  The
# machine's apt sources and state are left alone.  apt's output goes to
# $apt_log.  Fails (status 1, saying why on one line) when the archive gave
# no list at all.
apt_private() {
	local type=${apt_type:-deb} d=$build_root/debian uri sec suite key list
	[ "$type" = deb ] || d=$build_root/upstream
	local etc=$d/apt lists=$d/lists
	need_cmd apt-get apt-cache dpkg-deb
	uri=$(debian_uri)
	sec=$(debian_uri security)
	[ -n "$uri" ] || die "no Debian archive in the machine's apt sources (apt-cache policy names none)"
	mkdir -p "$etc" "$lists/partial"
	apt_log=$d/apt.log
	# one sources list for each set of suites (runs with others at the
	# same time use theirs), and the lists of all, kept
	key=$(for suite in "$@"; do
		case $suite in
		*-security)	[ -z "$sec" ] || printf '%s [trusted=yes] %s %s main\n' "$type" "${sec%/}" "$suite" ;;
		*)		printf '%s [trusted=yes] %s %s main\n' "$type" "${uri%/}" "$suite" ;;
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
# and older ones (zconf.y: U-Boot's, Buildroot's) take 'option modules',
# not 'modules' (then a copy in DIR/demo, which the tests take too)
demo_srctree() {
	local k
	k=$1/pristine/$(kconfig_dir "$(tree_kind "$1/pristine")")
	if [ -f "$k/zconf.y" ] || grep -qs 'T_OPTION T_MODULES' "$k/parser.y"
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
