#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# NVIDIA's nvidia-peermem sources, from Debian's package, for the GPUDirect
# tests (mk/gpu.mk): nvidia-peermem/ (nvidia-peermem.c, peer_mem.h, nv-p2p.h,
# nvidia-peermem.Kbuild) and conftest.sh, nothing else of the driver.
#
# nvidia-open-kernel-dkms when apt knows it, else nvidia-kernel-dkms (both
# carry the same open nvidia-peermem/; bookworm has only the latter, in
# non-free).  The non-free apt entry is derived from the machine's own
# Debian entry, as scripts/lib/apt-sources.sh derives deb-src, into its own
# file /etc/apt/sources.list.d/wren-nonfree.sources, so that no registry
# host is written into the repo.  The extracted sources are cached under
# ${WREN_CACHE:-/var/cache/wren}/nvidia/<package version>/; with a complete
# cache entry nothing is asked of apt or the network (NV_PKG_VERSION=
# picks one, else the newest cached one is used when apt cannot answer).
#
# In a Debian build root (kernel/root.sh, WREN_ROOT set) the root's own
# apt entries carry non-free already, and NV_SUITE (the kernel series'
# suite, trixie-backports for 7.3) is the release asked first: the
# NVIDIA source of the suite that carries the kernel.  The cache entry is
# then looked for only under that version (NV_PKG_VERSION), never the
# newest cached one of another release.
#
# usage: kernel/nvidia-fetch.sh     prints NV_PKG=, NV_PKG_VERSION=, NV_VERSION=
#                            (the driver's own version, 535.261.03) and
#                            NV_SRC= (the directory holding nvidia-peermem/)
# shellcheck disable=SC2034 # read by lib/common.sh
LOG_TAG=nvidia-fetch
. "$(dirname "$0")/../lib/common.sh"

cache=${WREN_CACHE:-/var/cache/wren}/nvidia
src=/etc/apt/sources.list.d/debian.sources
out=/etc/apt/sources.list.d/wren-nonfree.sources

print() {
	cat "$1/nvidia.env"
	echo "NV_SRC=$1"
}

# A complete entry: extracted, and its nvidia.env written last.
is_complete() {
	[ -f "$1/nvidia.env" ] && [ -f "$1/nvidia-peermem/nvidia-peermem.c" ] &&
		[ -f "$1/nvidia-peermem/nv-p2p.h" ]
}

newest_cached() {
	for d in "$cache"/*/; do
		d=${d%/}
		is_complete "$d" && echo "${d##*/}"
	done 2>/dev/null | sort -V | tail -n 1
}

if [ -n "${NV_PKG_VERSION:-}" ] && is_complete "$cache/$NV_PKG_VERSION"; then
	print "$cache/$NV_PKG_VERSION"
	exit 0
fi

nonfree_sources() {
	[ -z "${WREN_ROOT:-}" ] || return 0
	[ -f "$out" ] && return 0
	[ "$(id -u)" = 0 ] || return 1
	uri=$(awk '/^URIs:/ && /debian\/?$/ && !/security/ {print $2; exit}' "$src" 2>/dev/null || true)
	if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
		uri=$(awk '$1=="deb" && $3 ~ /^bookworm$/ {print $2; exit}' /etc/apt/sources.list)
	fi
	[ -n "$uri" ] || return 1
	cat >"$out" <<SRC
Types: deb
URIs: $uri
Suites: bookworm bookworm-updates
Components: non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update -qq >&2 || true
}

# The candidate version of $1 in apt's lists (NV_SUITE's first), or nothing.
candidate() {
	apt-cache ${NV_SUITE:+-o APT::Default-Release="$NV_SUITE"} policy "$1" 2>/dev/null |
		awk '/Candidate:/ && $2 != "(none)" {print $2; exit}'
}

pkg='' ver=''
if nonfree_sources; then
	for p in nvidia-open-kernel-dkms nvidia-kernel-dkms; do
		ver=$(candidate "$p")
		if [ -n "$ver" ]; then
			pkg=$p
			break
		fi
	done
fi
if [ -n "${NV_PKG_VERSION:-}" ]; then
	ver=$NV_PKG_VERSION
	pkg=${pkg:-nvidia-kernel-dkms}
fi
if [ -z "$ver" ]; then
	[ -z "${NV_SUITE:-}" ] || die "apt knows neither nvidia-open-kernel-dkms nor nvidia-kernel-dkms of $NV_SUITE"
	c=$(newest_cached)
	[ -n "$c" ] || die "apt knows neither nvidia-open-kernel-dkms nor nvidia-kernel-dkms (non-free entry: $out) and $cache has no complete copy"
	echo "nvidia-fetch: apt has no candidate, using the cached $c" >&2
	print "$cache/$c"
	exit 0
fi

dir=$cache/$ver
if is_complete "$dir"; then
	print "$dir"
	exit 0
fi

mkdir -p "$cache" || die "cannot create $cache"
tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# apt-get download drops privileges to _apt for the transfer.
chmod 0777 "$tmp"
if ! (cd "$tmp" && apt-get download -q "$pkg=$ver" >&2); then
	[ -z "${NV_SUITE:-}" ] || die "cannot download $pkg=$ver of $NV_SUITE"
	c=$(newest_cached)
	[ -n "$c" ] || die "cannot download $pkg=$ver (is the mirror reachable?) and $cache has no complete copy"
	echo "nvidia-fetch: download failed, using the cached $c" >&2
	print "$cache/$c"
	exit 0
fi
deb=$(ls "$tmp"/*.deb)
mkdir "$tmp/x"
dpkg-deb --fsys-tarfile "$deb" |
	tar -x -C "$tmp/x" --wildcards --no-anchored '*/nvidia-peermem/*' '*/conftest.sh'
peermem=$(find "$tmp/x" -type d -name nvidia-peermem | head -n 1)
if [ -z "$peermem" ] || [ ! -f "$peermem/nvidia-peermem.c" ]; then
	die "$pkg=$ver has no nvidia-peermem/ directory"
fi
top=$(dirname "$peermem")
mkdir "$tmp/out"
mv "$peermem" "$tmp/out/nvidia-peermem"
[ -f "$top/conftest.sh" ] && mv "$top/conftest.sh" "$tmp/out/conftest.sh"
# nvidia-current-535.261.03 (or nvidia-535.261.03): the driver's version.
nv=$(basename "$top" | sed -n 's/^nvidia[a-z-]*-\([0-9][0-9.]*\)$/\1/p')
[ -n "$nv" ] || nv=$(echo "${ver#*:}" | sed 's/-[^-]*$//')
printf 'NV_PKG=%s\nNV_PKG_VERSION=%s\nNV_VERSION=%s\n' "$pkg" "$ver" "$nv" >"$tmp/out/nvidia.env"
rm -rf "$dir"
mv "$tmp/out" "$dir" 2>/dev/null || is_complete "$dir" || die "cannot install $dir"
print "$dir"
