#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The modules of the wren-dkms package, built by dkms on the host for one
# kernel and archived as dkms ships builds between machines (dkms
# mktarball --binaries-only).  A fleet builds once per kernel and loads
# the archive on every server (dkms ldtarball) before installing the
# package, whose postinst then installs instead of compiling; the package
# boot's guests do the same (selftests/rdma/wren-pkg-install.sh), because
# compiling the modules under TCG takes longer than all their other tests.
# Nothing is installed on the host: private source and dkms trees.
#
# usage: deb-dkms-binaries.sh DEB KVER   -> prints the archive's path,
#        $BUILD/deb/<name>-<ver>-<KABI>-binaries.tar.gz (built only when
#        DEB or the kernel's headers changed: cached under
#        $WREN_CACHE/dkms-binaries)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/.." && pwd)}
BUILD=${BUILD:-$top/build}
deb=${1:?usage: deb-dkms-binaries.sh DEB KVER}
kver=${2:?usage: deb-dkms-binaries.sh DEB KVER}
eval "$("$here/kernel-env.sh" "$kver")"

name=$(dpkg-deb -f "$deb" Package | sed 's/-dkms$//')
ver=$(dpkg-deb -f "$deb" Version | sed 's/-[^-]*$//')
out=$BUILD/deb/$name-$ver-$KABI-binaries.tar.gz
# Cached outside the clone by the package's bytes (make deb is
# reproducible), the headers' and dkms's package versions.  A build
# that is not cached also checks what the package's prerm relies on:
# dkms remove --all leaves nothing, and the packaged source stays
# pristine.  make check-deb's dkms check is this build.
hver=$(dpkg-query -W -f '${Version}' "linux-headers-$KABI" 2>/dev/null || readlink -f "$KDIR")
dver=$(dpkg-query -W -f '${Version}' dkms 2>/dev/null)
key=$(printf '%s %s %s %s\n' "$(sha256sum <"$deb" | cut -d' ' -f1)" "$KABI" "$hver" "$dver" |
	sha256sum | cut -c1-16)
cache=${WREN_CACHE:-/var/cache/wren}/dkms-binaries
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=$BUILD/cache/dkms-binaries
	mkdir -p "$cache"
fi
if [ -s "$cache/$key.tar.gz" ]; then
	cp "$cache/$key.tar.gz" "$out"
	echo "$out"
	exit 0
fi

work=$BUILD/deb/binaries-$KABI
rm -rf "$work" "$out"
mkdir -p "$work/tree"
dpkg-deb -x "$deb" "$work/root"
src=$work/root/usr/src
# (set -e does not reach into a list that is tested: each step is
# chained.)  remove --all is what the package's prerm runs: it must
# leave nothing, and the build must have run in dkms's copy of the
# source.
{
	dkms add -m "$name" -v "$ver" --sourcetree "$src" --dkmstree "$work/tree" &&
	dkms build -m "$name" -v "$ver" -k "$KABI" --sourcetree "$src" --dkmstree "$work/tree" &&
	dkms mktarball -m "$name" -v "$ver" -k "$KABI" --binaries-only \
		--archive "$out" --sourcetree "$src" --dkmstree "$work/tree" &&
	dkms remove -m "$name" -v "$ver" --all --sourcetree "$src" --dkmstree "$work/tree" &&
	{ [ ! -e "$work/tree/$name/$ver" ] ||
		{ echo "dkms remove --all left $work/tree/$name/$ver"; false; }; } &&
	{ [ ! -e "$src/$name-$ver/wren_config.h" ] ||
		{ echo "the build wrote into the packaged source"; false; }; }
} >"$work/dkms.log" 2>&1 || { cat "$work/dkms.log" >&2; rm -f "$out"; exit 1; }
tar -tzf "$out" >"$work/archive.list"
sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' \
	"$src/$name-$ver/dkms.conf" | while read -r m; do
	grep -q "/$KABI/.*/$m\.ko" "$work/archive.list" ||
		{ echo "deb-dkms-binaries: no $m.ko for $KABI in $out" >&2; exit 1; }
done || { rm -f "$out"; exit 1; }
cp "$out" "$cache/$key.tar.gz.tmp" && mv "$cache/$key.tar.gz.tmp" "$cache/$key.tar.gz"
# A few kernels and package versions at once (other checkouts may use
# theirs); the rest go.  The names are ours: hex keys.
# shellcheck disable=SC2012
ls -t "$cache"/*.tar.gz | tail -n +7 | while read -r old; do rm -f "$old"; done
rm -rf "$work"
echo "$out"
