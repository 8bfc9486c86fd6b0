#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# rdma-core 56.1 Debian packages with libwren, from Debian's source
# package (trixie's 56.1-1, the pristine tree rdma-core/fetch.sh unpacks),
# for one Debian release (SUITE):
#
#   bookworm  (the default) versioned 56.1-1+wren1 so that they replace
#             bookworm's 44.0-2, built on this machine, in
#             $BUILD/deb/rdma-core/
#   trixie    versioned 56.1-1+wren1+deb13u1, above trixie's own 56.1-1
#             (and its stable updates 56.1-1+deb13uN, and the bookworm
#             build, for a server upgraded from bookworm), built in a
#             trixie build root with trixie's toolchain
#             (kernel/root.sh trixie-deb), in $BUILD/deb/trixie/rdma-core/
#
# libibverbs1, ibverbs-providers (with libwren-rdmav34.so and
# wren.driver), librdmacm1 (trixie: librdmacm1t64), ibverbs-utils,
# rdmacm-utils, rdma-core, python3-pyverbs and the rest of the source's
# binary packages.
#
#   deb/rdma-core.sh [SUITE]          prepare the source tree only; print its path
#   deb/rdma-core.sh --build [SUITE]  dpkg-buildpackage -b it (cold: 10+
#                                     minutes on two cores) and copy the
#                                     .debs to the suite's folder above
#
# The tree and the packages are cached outside the clone, next to the
# pristine source ($WREN_CACHE/rdma-core/deb-<K>, trixie's deb-trixie-<K>),
# K covering the source, this script, providers/wren, the uapi and
# contract headers, and the versions of the build dependencies: a warm
# --build only copies.  A new K (libwren or a header changed) compiles
# through ccache where it is installed (deps/deb.sh installs it; the
# trixie root has it), its cache beside the trees
# ($WREN_CACHE/rdma-core/ccache, keyed by ccache itself, the compiler
# included): paths are made relative to the tree (CCACHE_BASEDIR, and
# dpkg's fixfilepath maps them out of the objects), so the objects of the
# unchanged rest of rdma-core come from the cache whatever deb-<K> they
# were built in.
#
# What changes from Debian's debian/, for both suites:
#   libwren registered as rdma-core/tree.sh does for the bench and named in
#     ibverbs-providers' description and in debian/copyright; its files are
#     covered by ibverbs-providers.install's globs
#     (usr/lib/*/libibverbs/lib*-rdmav*.so, etc/libibverbs.d/) and it has no
#     public symbols (rdma_provider, not rdma_shared_provider), so no
#     .symbols change;
#   a changelog entry of the version above for the suite.
# For bookworm only (it has no 64-bit time_t transition and dpkg 1.21,
# trixie's packaging assumes both):
#   librdmacm1t64 -> librdmacm1, libibnetdisc5t64 -> libibnetdisc5 (their
#     t64 Provides/Replaces/Breaks dropped), dpkg-dev (>= 1.17) as in 44.0-2;
#   systemd units and udev rules under /lib, as 44.0-2 has them.
# The quilt patches were applied by rdma-core/fetch.sh, so the series is
# emptied; the tree is for binary builds (-b) only.
. "$(dirname "$0")/../lib/common.sh"

JOBS=${JOBS:-2}
do_build=0
if [ "${1:-}" = --build ]; then
	do_build=1
	shift
fi
suite=${1:-bookworm}
case $suite in
bookworm)
	debver=${WREN_RDMA_CORE_DEBVERSION:-56.1-1+wren1}
	prefix=deb-
	out=$BUILD/deb/rdma-core
	in_root=
	;;
trixie)
	debver=56.1-1+wren1+deb13u1
	prefix=deb-trixie-
	out=$BUILD/deb/trixie/rdma-core
	# run CMD...: in the suite's build root, where the packages build
	in_root="$SCRIPTS/kernel/root.sh run trixie-deb"
	;;
*) die "usage: deb/rdma-core.sh [--build] [bookworm|trixie]" ;;
esac

src=$("$TOP/scripts/rdma-core/fetch.sh")
root=$(dirname "$src")
srcver=$(sed -n '1s/^rdma-core (\([^)]*\)).*/\1/p' "$src/debian/changelog")
upver=${srcver%-*}

contract="wren_regs.h wren_queues.h wren_admin.h wren_hw.h"
# shellcheck disable=SC2086,SC2016 # in_root is a command and its words
builddeps=$($in_root dpkg-query -W -f '${Package}=${Version}\n' gcc-12 gcc-14 libc6-dev \
	linux-libc-dev cmake ninja-build libnl-3-dev libnl-route-3-dev \
	libudev-dev libsystemd-dev python3-dev cython3 python3-docutils pandoc \
	debhelper dh-python dpkg-dev valgrind 2>/dev/null || true)
key=$( {
	basename "$src"
	echo "$debver"
	cat "$0"
	# Paths relative to the tree: the key must not depend on where the
	# clone is (CI's clean clone, a second checkout).
	cd "$TOP" || exit 1
	find providers/wren -type f | LC_ALL=C sort | xargs sha256sum
	sha256sum include/uapi/rdma/wren-abi.h
	for h in $contract; do
		[ ! -f "include/linux/wren/$h" ] || sha256sum "include/linux/wren/$h"
	done
	echo "$builddeps"
} | sha256sum | cut -c1-16)
tree=$root/$prefix$key
s=$tree/rdma-core-$upver

# The bookworm build's changes to debian/ (the header says why).
adapt_bookworm() {
	d=$1
	# bookworm: no t64 renames (amd64's time_t is 64-bit already), dpkg 1.21
	for old in librdmacm1 libibnetdisc5; do
		sed -i -e "/^Package: ${old}t64$/,/^$/{/^Provides: \${t64:Provides}$/d;/^Replaces: $old$/d;/^Breaks: $old (<< \${source:Version})$/d}" \
			-e "s/\b${old}t64\b/$old/g" "$d/control"
		for f in "$d/${old}t64".*; do
			[ -e "$f" ] || continue
			ext=${f##*/"${old}"t64.}
			[ -e "$d/$old.$ext" ] || sed "s/\b${old}t64\b/$old/g" "$f" >"$d/$old.$ext"
			rm -f "$f"
		done
	done
	sed -i 's/dpkg-dev (>= 1\.22\.5)/dpkg-dev (>= 1.17)/' "$d/control"
	# bookworm: systemd units and udev rules under /lib, as 44.0-2 has
	# them (bookworm's dh_installsystemd looks for units there only)
	sed -i -e 's|=/usr/lib/systemd/system"|=/lib/systemd/system"|' \
		-e 's|=/usr/lib/udev/rules.d"|=/lib/udev/rules.d"|' "$d/rules"
	for f in "$d"/*.install "$d"/*.links; do
		sed -i -e 's|usr/lib/systemd/|lib/systemd/|g' \
			-e 's|usr/lib/udev/|lib/udev/|g' "$f"
	done
	if grep -n 'usr/lib/\(systemd\|udev\)' "$d/rules" "$d"/*.install "$d"/*.links; then
		log "debian/ still puts units or udev rules under /usr/lib"
		return 1
	fi
	if grep -n 't64' "$d/control"; then
		log "debian/control still names t64 packages; its shape changed"
		return 1
	fi
}

exec 9>"$root/deb.lock"
flock 9

if [ ! -f "$tree/.prepared" ]; then
	rm -rf "$tree"
	mkdir -p "$tree"
	cp -a "$src" "$s"
	rm -f "$s/.pristine"
	# The orig tarball carries upstream's own debian/; the pristine tree has
	# Debian's unpacked over it, leaving files Debian dropped (a compat 10
	# that contradicts debhelper-compat 13).  dpkg-source -x replaces the
	# directory; so do we.
	rm -rf "$s/debian"
	tar -xJf "$root/dl/rdma-core_$srcver.debian.tar.xz" -C "$s"
	: >"$s/debian/patches/series"

	# libwren in rdma-core's build, as rdma-core/tree.sh registers it
	sed -i 's|^add_subdirectory(providers/vmw_pvrdma)$|&\nadd_subdirectory(providers/wren)|' \
		"$s/CMakeLists.txt"
	sed -i 's|^\([[:space:]]*\)rdma/vmw_pvrdma-abi.h$|&\n\1rdma/wren-abi.h|' \
		"$s/kernel-headers/CMakeLists.txt"
	# Debian builds the static libibverbs too, whose provider table
	# (all_providers.c) needs every provider's ops declared in verbs.h.
	sed -i 's|^extern const struct verbs_device_ops verbs_provider_vmw_pvrdma;$|&\nextern const struct verbs_device_ops verbs_provider_wren;|' \
		"$s/libibverbs/verbs.h"
	if [ "$(grep -c '^add_subdirectory(providers/wren)$' "$s/CMakeLists.txt")" != 1 ] ||
	   [ "$(grep -c 'rdma/wren-abi.h$' "$s/kernel-headers/CMakeLists.txt")" != 2 ] ||
	   [ "$(grep -c '^extern const struct verbs_device_ops verbs_provider_wren;$' "$s/libibverbs/verbs.h")" != 1 ]; then
		log "rdma-core's CMake lists changed shape; cannot register providers/wren"
		exit 1
	fi
	cp -r "$TOP/providers/wren" "$s/providers/wren"
	cp "$TOP/include/uapi/rdma/wren-abi.h" "$s/kernel-headers/rdma/wren-abi.h"
	mkdir -p "$s/providers/wren/contract/linux/wren"
	for h in $contract; do
		[ ! -f "$TOP/include/linux/wren/$h" ] ||
			cp "$TOP/include/linux/wren/$h" "$s/providers/wren/contract/linux/wren/$h"
	done

	d=$s/debian
	[ "$suite" != bookworm ] || adapt_bookworm "$d" || exit 1
	sed -i 's|^  - vmw_pvrdma: VMware paravirtual RDMA device$|&\n  - wren: Wren RoCEv2 NIC|' "$d/control"
	grep -q '^  - wren: ' "$d/control" || { log "cannot name wren in ibverbs-providers"; exit 1; }
	cat >>"$d/copyright" <<'COPY'

Files: providers/wren/*
       kernel-headers/rdma/wren-abi.h
Copyright: 2026 Wren maintainers
License: BSD-MIT or GPL-2
COPY
	{
		printf 'rdma-core (%s) %s; urgency=medium\n\n' "$debver" "$suite"
		printf '  * Add libwren, the provider of the Wren RoCEv2 NIC.\n'
		[ "$suite" != bookworm ] ||
			printf '  * Build for bookworm: no t64 package names, dpkg-dev 1.21.\n'
		printf '\n'
		printf ' -- Wren maintainers <maintainers@users.noreply.a-seed-21b1937f.example>  %s\n\n' \
			"$(date -u -R -d "@$(stat -c %Y "$src/debian/changelog")")"
		cat "$src/debian/changelog"
	} >"$d/changelog"
	touch "$tree/.prepared"
	log "prepared $s"
fi
touch "$tree"
# Keep the suite's two newest trees (a package build is ~1 GB); names
# are ours, the key's sixteen characters after the suite's prefix.
# shellcheck disable=SC2012 # deb-<hex> names, newest first
ls -1dt "$root/$prefix"???????????????? 2>/dev/null | tail -n +3 | while read -r d; do
	log "pruning old cache entry $d"
	rm -rf "$d"
done

if [ "$do_build" = 0 ]; then
	echo "$s"
	exit 0
fi

if [ ! -f "$tree/.built" ]; then
	# shellcheck disable=SC2086,SC2016 # in_root: a command; $1: the inner shell's
	$in_root sh -c 'cd "$1" && dpkg-checkbuilddeps' sh "$s" || {
		log "build dependencies missing (scripts/deps/deb.sh --rdma-core)"
		exit 1
	}
	log "dpkg-buildpackage -b for $suite in $s (cold: 10+ minutes); log in $tree/build.log"
	cc_path=/usr/sbin:/usr/bin:/sbin:/bin
	[ -n "$in_root" ] || cc_path=$PATH
	# shellcheck disable=SC2086 # in_root is a command and its words
	if $in_root sh -c '[ -d /usr/lib/ccache ] && command -v ccache' >/dev/null; then
		cc_path=/usr/lib/ccache:$cc_path
		export CCACHE_DIR="$root/ccache" CCACHE_BASEDIR="$s" \
			CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=2G
		mkdir -p "$CCACHE_DIR"
		$in_root ccache -z >/dev/null 2>&1 || true
	fi
	# CC and CXX by name: CMake takes /usr/bin/cc otherwise, and trixie's
	# ccache has no cc link in /usr/lib/ccache.
	# shellcheck disable=SC2086,SC2016 # in_root: a command; $1: the inner shell's
	$in_root env PATH="$cc_path" CC=gcc CXX=g++ DEB_BUILD_OPTIONS="nocheck parallel=$JOBS" \
		sh -c 'cd "$1" && dpkg-buildpackage -b -uc -us' sh "$s" >"$tree/build.log" 2>&1 || {
		tail -40 "$tree/build.log" >&2
		log "dpkg-buildpackage failed; log in $tree/build.log"
		exit 1
	}
	touch "$tree/.built"
	if [ -n "${CCACHE_DIR:-}" ]; then
		# shellcheck disable=SC2086 # in_root is a command and its words
		log "ccache: $($in_root ccache -s 2>/dev/null | awk '/^ *(Hits|Misses):/ {printf "%s %s ", $1, $2}')"
	fi
fi
rm -rf "$out"
mkdir -p "$out"
cp "$tree"/*_"$debver"_*.deb "$out/"
ls "$out"/*.deb
