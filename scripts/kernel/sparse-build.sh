#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The sparse of the C=2 checks: Debian's sparse source (bookworm's
# 0.6.4, with Debian's own patches) with the tree's patches in
# kernel/sparse-patches/ on top, built here; prints the binary's path.
#
# Why not Debian's binary: from 6.14 on, the kernel's headers hand sparse
# __typeof_unqual__, which 0.6.4 (bookworm's and trixie's) cannot parse,
# and kbuild then turns C= off (scripts/checker-valid.sh).  The patch
# teaches sparse C23's typeof_unqual; every series is checked with the
# same binary.  Its version names its build ("0.6.4+wren.KEY"), which
# keys kernel/sparse-cached.sh's findings apart from another build's.
#
# Cached as ${WREN_CACHE:-/var/cache/wren}/sparse-bin/KEY/sparse, KEY a
# hash of this script, the patches and the source package's version;
# where the cache cannot be written, $BUILD/cache/sparse-bin.  A cold
# build: the source download and about 20 s of compiles.
#
# usage: kernel/sparse-build.sh
. "$(dirname "$0")/../lib/common.sh"

patches=$SCRIPTS/kernel/sparse-patches
"$TOP/scripts/lib/apt-sources.sh" >&2
# The oldest 0.6.4 apt knows, bookworm's: the one this machine's deb-src
# entry surely carries.
ver=$(apt-cache showsrc sparse 2>/dev/null |
	awk '/^Version:/ { print $2 }' | grep '^0\.6\.4-' | sort -V | head -n 1)
[ -n "$ver" ] || die "no source package sparse 0.6.4 known to apt (deb-src bookworm)"
key=$({ cat "$0" "$patches"/*.patch; echo "$ver"; } | sha256sum | cut -c1-12)

cache=$WREN_CACHE/sparse-bin
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=$BUILD/cache/sparse-bin
	mkdir -p "$cache"
fi
dir=$cache/$key
exec 9>"$cache/.lock"
flock 9
if [ ! -x "$dir/sparse" ]; then
	tmp=$(mktemp -d "$cache/.build.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	chmod 755 "$tmp" # apt downloads as _apt when it can
	log "building sparse $ver with the patches of $patches (once)"
	(cd "$tmp" && apt-get source -q --download-only "sparse=$ver" >/dev/null 2>&1) ||
		die "apt-get source sparse=$ver failed"
	dpkg-source -x "$tmp"/sparse_"$ver".dsc "$tmp/src" >"$tmp/build.log" 2>&1 ||
		die "unpacking sparse $ver failed"
	for p in "$patches"/*.patch; do
		patch -d "$tmp/src" -p1 -s <"$p" || die "$(basename "$p") does not apply to sparse $ver"
	done
	make -C "$tmp/src" -j"${JOBS:-2}" VERSION="0.6.4+wren.$key" sparse >>"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log" >&2; die "building sparse failed"; }
	mkdir -p "$tmp/out"
	cp "$tmp/src/sparse" "$tmp/out/sparse"
	rm -rf "$dir"
	mv "$tmp/out" "$dir"
	# Older builds go: their key named a script or patch no longer here.
	for old in "$cache"/*; do
		[ "$old" = "$dir" ] || rm -rf "$old"
	done
fi
echo "$dir/sparse"
