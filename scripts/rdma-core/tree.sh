#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# usage: rdma-core/tree.sh SRC TREE
#
# Prepare an rdma-core build tree for libwren: copy the pristine source SRC
# to TREE/src, register providers/wren and our uapi header the way
# rdma-core registers its own (a providers/ subdirectory; the header in
# kernel-headers' lists, published as <rdma/wren-abi.h> and wrapped as
# <kernel-abi/wren-abi.h>), and configure TREE/build.  The provider's files
# themselves are synced in by rdma-core/build.sh before every build.
#
# rdma-core/build.sh keys its tree cache on this file: a change here (flags,
# registration) gets a fresh tree, a change elsewhere does not.
. "$(dirname "$0")/../lib/common.sh"

src=$1 tree=$2

rm -rf "$tree"
mkdir -p "$tree"
cp -a "$src" "$tree/src"
rm -f "$tree/src/.pristine"
s=$tree/src

sed -i 's|^add_subdirectory(providers/vmw_pvrdma)$|&\nadd_subdirectory(providers/wren)|' \
	"$s/CMakeLists.txt"
sed -i 's|^\([[:space:]]*\)rdma/vmw_pvrdma-abi.h$|&\n\1rdma/wren-abi.h|' \
	"$s/kernel-headers/CMakeLists.txt"
if [ "$(grep -c '^add_subdirectory(providers/wren)$' "$s/CMakeLists.txt")" != 1 ] ||
   [ "$(grep -c 'rdma/wren-abi.h$' "$s/kernel-headers/CMakeLists.txt")" != 2 ]; then
	log "rdma-core's CMake lists changed shape; cannot register providers/wren"
	exit 1
fi
# Placeholders so that the first configure succeeds; the real files are
# synced over them before ninja runs.
mkdir -p "$s/providers/wren"
: >"$s/kernel-headers/rdma/wren-abi.h"
echo 'rdma_provider(wren wren.c)' >"$s/providers/wren/CMakeLists.txt"
: >"$s/providers/wren/wren.c"

# -Werror as rdma-core's own CI builds; pyverbs needs the system python3
# with cython3 (another python first on PATH silently drops pyverbs).
mkdir -p "$tree/build"
(cd "$tree/build" && cmake -GNinja -DIN_PLACE=1 -DNO_MAN_PAGES=1 \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=-Werror \
	-DPYTHON_EXECUTABLE=/usr/bin/python3 \
	-DCYTHON_EXECUTABLE=/usr/bin/cython3 \
	../src >"$tree/cmake.log" 2>&1) || {
	tail -40 "$tree/cmake.log" >&2
	log "cmake failed; log in $tree/cmake.log"
	exit 1
}
touch "$tree/.prepared"
