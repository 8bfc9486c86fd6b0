#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Print the path of a pristine rdma-core source tree (Debian's orig tarball
# with Debian's patches applied), fetching and unpacking it on first use:
#   $root/dl/      the orig and debian tarballs from `apt-get source`
#   $root/src-<K>/ the unpacked, patched tree; K = version and this script
# $root is $WREN_CACHE/rdma-core, or $BUILD/rdma-core-cache when WREN_CACHE
# is unset or unwritable.  Callers copy the tree; nobody writes into it.
#
# trixie's rdma-core 56.1 is the source: bookworm's 44.0 tarball is not
# served, and the .dsc of 56.1 is not either, so success is judged by the
# tarballs being there, not by apt-get's exit code.
. "$(dirname "$0")/../lib/common.sh"

ver=${WREN_RDMA_CORE_VERSION:-56.1-1}
upver=${ver%-*}

cache_root() {
	if [ -n "${WREN_CACHE:-}" ] && mkdir -p "$WREN_CACHE/rdma-core" 2>/dev/null &&
	   [ -w "$WREN_CACHE/rdma-core" ]; then
		echo "$WREN_CACHE/rdma-core"
		return
	fi
	mkdir -p "$BUILD/rdma-core-cache"
	echo "$BUILD/rdma-core-cache"
}

root=$(cache_root)
dl=$root/dl
orig=$dl/rdma-core_$upver.orig.tar.gz
deb=$dl/rdma-core_$ver.debian.tar.xz
key=$( (echo "$ver"; cat "$0") | sha256sum | cut -c1-16)
src=$root/src-$key

if [ -f "$src/.pristine" ]; then
	echo "$src"
	exit 0
fi

exec 9>"$root/fetch.lock"
flock 9
if [ -f "$src/.pristine" ]; then
	echo "$src"
	exit 0
fi

if [ ! -f "$orig" ] || [ ! -f "$deb" ]; then
	"$TOP/scripts/lib/apt-sources.sh"
	mkdir -p "$dl"
	log "downloading rdma-core $ver source"
	# The .dsc 404s; the tarballs decide.
	(cd "$dl" && apt-get source --download-only "rdma-core=$ver" >"$dl/apt.log" 2>&1) || true
	if [ ! -f "$orig" ] || [ ! -f "$deb" ]; then
		cat "$dl/apt.log" >&2
		log "no $orig or $deb (is the trixie deb-src entry there? scripts/lib/apt-sources.sh)"
		exit 1
	fi
fi

tmp=$root/.src-$key.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
tar -xzf "$orig" -C "$tmp" --strip-components=1
tar -xJf "$deb" -C "$tmp"
# What dpkg-source -x would do without the .dsc: apply debian/patches.
if [ -f "$tmp/debian/patches/series" ]; then
	grep -v '^[[:space:]]*\(#\|$\)' "$tmp/debian/patches/series" | while read -r p _; do
		patch -d "$tmp" -p1 -s -N <"$tmp/debian/patches/$p"
	done
fi
touch "$tmp/.pristine"
rm -rf "$src"
mv "$tmp" "$src"
log "unpacked $src"
echo "$src"
