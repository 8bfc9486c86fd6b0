#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Stage the dkms source tree and, with --build KVER, run `dkms add` and
# `dkms build` on it, in private source and dkms trees under $BUILD/dkms so
# that the check never touches /usr/src or /var/lib/dkms/<module>.
#
# usage: kernel/dkms.sh [--build KVER]
. "$(dirname "$0")/../lib/common.sh"

name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
srctree=$BUILD/dkms/source
"$SCRIPTS/kernel/sync.sh" "$srctree/$name-$ver" --dkms
echo "kernel-dkms: staged $srctree/$name-$ver"

[ "${1:-}" = --build ] || exit 0
kver=${2:?usage: kernel/dkms.sh --build KVER}
. "$SCRIPTS/lib/kbuild.sh"
kbuild_setup "$kver"

dkmstree=$BUILD/dkms/tree-$kver
rm -rf "$dkmstree"
mkdir -p "$dkmstree"
dkms add -m "$name" -v "$ver" --sourcetree "$srctree" --dkmstree "$dkmstree"
dkms build -m "$name" -v "$ver" -k "$KABI" --sourcetree "$srctree" --dkmstree "$dkmstree"
for m in wren wren_peer_mem wren_ib; do
	found=$(find "$dkmstree/$name/$ver/$KABI" -name "$m.ko*" | head -n 1)
	[ -n "$found" ] || { echo "kernel-dkms: dkms did not produce $m.ko for $KABI" >&2; exit 1; }
	echo "kernel-dkms: $found"
done
