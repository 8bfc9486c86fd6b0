#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Build rdma-core 56.1 (Debian's source) with the Wren provider added in
# tree, in place (-DIN_PLACE=1), with pyverbs.  Providers must be built
# inside rdma-core against the same libibverbs (private ABI
# IBVERBS_PRIVATE_34), so this is the only way the bench gets libwren.
#
# The build lives in a cache outside the clone:
#   tree-<K>/src    a copy of the pristine source (rdma-core/fetch.sh) with
#                   providers/wren, our uapi header and the contract headers
#                   synced in and registered in rdma-core's CMake lists;
#   tree-<K>/build  the ninja build directory; K = the source,
#                   rdma-core/tree.sh (registration and cmake flags) and the
#                   toolchain and -dev package versions.
# A warm run re-syncs our files (only changed ones, so mtimes stay) and lets
# ninja rebuild what changed: nothing, or libwren when providers/wren did.
#
# Published for the bench: $BUILD/rdma-core, a symlink to the build
# directory (bin/, lib/, etc/libibverbs.d, python/), and $BUILD/rdma-core.env
# naming it.  IN_PLACE bakes the build directory's absolute path into
# libibverbs (provider dir, config dir); guests see the host's / at the same
# paths, so the cache path works there unchanged.
. "$(dirname "$0")/../lib/common.sh"

JOBS=${JOBS:-2}

abi=$TOP/include/uapi/rdma/wren-abi.h
if [ ! -f "$abi" ]; then
	log "missing $abi (the kernel <-> provider ABI); cannot build libwren"
	exit 1
fi

src=$("$TOP/scripts/rdma-core/fetch.sh")
root=$(dirname "$src")

toolchain=$(dpkg-query -W -f '${Package}=${Version}\n' gcc-12 libc6-dev \
	linux-libc-dev cmake ninja-build libnl-3-dev libnl-route-3-dev \
	libudev-dev python3-dev cython3 libdrm-dev 2>/dev/null || true)
key=$( (basename "$src"; cat "$TOP/scripts/rdma-core/tree.sh"; echo "$toolchain") |
      sha256sum | cut -c1-16)
tree=$root/tree-$key

# Copy only files whose content changed, so ninja sees unchanged mtimes, and
# drop files that are no longer ours.
sync_tree() {
	from=$1 to=$2
	mkdir -p "$to"
	(cd "$from" && find . -type f ! -name '*.o' ! -path './tests/build/*') |
	while read -r f; do
		if ! cmp -s "$from/$f" "$to/$f"; then
			mkdir -p "$(dirname "$to/$f")"
			cp "$from/$f" "$to/$f"
		fi
	done
	(cd "$to" && find . -type f ! -path './contract/*') | while read -r f; do
		[ -e "$from/$f" ] || rm -f "$to/$f"
	done
}

sync_file() {
	mkdir -p "$(dirname "$2")"
	cmp -s "$1" "$2" || cp "$1" "$2"
}

prune() {
	# shellcheck disable=SC2012 # names are ours: tree-<hex>
	ls -1dt "$1/$2"* 2>/dev/null | tail -n +"$(($3 + 1))" | while read -r d; do
		log "pruning old cache entry $d"
		rm -rf "$d"
	done
}

exec 9>"$root/build.lock"
flock 9

if [ ! -f "$tree/.prepared" ]; then
	log "preparing $tree (cold: several minutes with pyverbs)"
	"$TOP/scripts/rdma-core/tree.sh" "$src" "$tree"
fi

sync_tree "$TOP/providers/wren" "$tree/src/providers/wren"
sync_file "$abi" "$tree/src/kernel-headers/rdma/wren-abi.h"
# The hardware contract (WQE/CQE formats, doorbells), as the provider's
# private copy; the kernel-only core<->ib interface stays out.
mkdir -p "$tree/src/providers/wren/contract/linux/wren"
for h in wren_regs.h wren_queues.h wren_admin.h wren_hw.h; do
	if [ -f "$TOP/include/linux/wren/$h" ]; then
		sync_file "$TOP/include/linux/wren/$h" "$tree/src/providers/wren/contract/linux/wren/$h"
	fi
done

b=$tree/build
log "building in $b"
ninja -C "$b" -j"$JOBS" >"$tree/ninja.log" 2>&1 || {
	grep -E -B2 -A8 'error|FAILED' "$tree/ninja.log" | head -80 >&2
	log "ninja failed; full log in $tree/ninja.log"
	exit 1
}
if [ ! -f "$b/lib/libwren-rdmav34.so" ] || [ ! -f "$b/etc/libibverbs.d/wren.driver" ]; then
	log "the build has no libwren-rdmav34.so or wren.driver"
	exit 1
fi
if ! ls "$b"/python/pyverbs/device.*.so >/dev/null 2>&1; then
	log "warning: pyverbs was not built (see $tree/cmake.log)"
fi

touch "$tree"
prune "$root" tree- 2

mkdir -p "$BUILD"
ln -sfn "$b" "$BUILD/rdma-core.tmp"
mv -T "$BUILD/rdma-core.tmp" "$BUILD/rdma-core"
cat >"$BUILD/rdma-core.env" <<ENV
# Written by scripts/rdma-core/build.sh: the rdma-core build with libwren.
WREN_RDMA_CORE=$b
ENV
log "rdma-core with libwren: $BUILD/rdma-core -> $b"
