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
#        $BUILD/deb/<name>-<ver>-<KABI>-binaries.tar.gz (rebuilt only
#        when DEB or the kernel's headers changed)
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
key="$(sha256sum <"$deb" | cut -d' ' -f1) $(readlink -f "$KDIR")"
if [ -s "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
	echo "$out"
	exit 0
fi

work=$BUILD/deb/binaries-$KABI
rm -rf "$work" "$out" "$out.key"
mkdir -p "$work/tree"
dpkg-deb -x "$deb" "$work/root"
src=$work/root/usr/src
{
	dkms add -m "$name" -v "$ver" --sourcetree "$src" --dkmstree "$work/tree"
	dkms build -m "$name" -v "$ver" -k "$KABI" --sourcetree "$src" --dkmstree "$work/tree"
	dkms mktarball -m "$name" -v "$ver" -k "$KABI" --binaries-only \
		--archive "$out" --sourcetree "$src" --dkmstree "$work/tree"
} >"$work/dkms.log" 2>&1 || { cat "$work/dkms.log" >&2; exit 1; }
echo "$key" >"$out.key"
rm -rf "$work"
echo "$out"
