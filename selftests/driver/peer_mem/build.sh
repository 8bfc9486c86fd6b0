#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Build selftests/driver/peer_mem's wren_peer_test.ko for one kernel
# series against the wren_peer_mem.ko of `make modules KVER=...` (its
# Module.symvers and wren_config.h), into
# $BUILD/peer_mem_test/<KVER>/wren_peer_test.ko.  W=1; any warning fails
# the build.
#
# usage: selftests/driver/peer_mem/build.sh KVER
set -eu

kver=${1:?usage: build.sh KVER}
here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/../../.." && pwd)}
BUILD=${BUILD:-$top/build}
export TOP="$top" BUILD

eval "$("$top/scripts/kernel/env.sh" "$kver")"
mods=$BUILD/modules/$kver/src
if [ ! -f "$mods/Module.symvers" ] || [ ! -f "$mods/wren_config.h" ]; then
	echo "peer-test: no module build for $kver (make modules KVER=$kver)" >&2
	exit 1
fi
out=$BUILD/peer_mem_test/$kver
src=$out/src
mkdir -p "$src"
for f in Kbuild wren_peer_test.c; do
	cmp -s "$here/$f" "$src/$f" || cp "$here/$f" "$src/$f"
done
cmp -s "$mods/wren_config.h" "$src/wren_config.h" || cp "$mods/wren_config.h" "$src/wren_config.h"
cp "$mods/Module.symvers" "$src/peer.symvers"
log=$out/build.log
if ! make -C "$KDIR" M="$src" W=1 WREN_TOP="$top" \
	KBUILD_EXTRA_SYMBOLS="$src/peer.symvers" modules >"$log" 2>&1 ||
	grep -iE 'warning|error:' "$log" >&2; then
	cat "$log" >&2
	echo "peer-test: wren_peer_test.ko for $KABI failed (log: $log)" >&2
	exit 1
fi
cp "$src/wren_peer_test.ko" "$out/wren_peer_test.ko"
echo "peer-test: $KABI ok: $out/wren_peer_test.ko"
