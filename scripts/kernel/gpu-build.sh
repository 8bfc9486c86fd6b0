#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The GPUDirect test modules for one kernel series (mk/gpu.mk):
#
#   $BUILD/gpu/<KVER>/wren_test_gpu.ko   selftests/rdma/gpu/, the emulated
#                                        GPU's driver with NVIDIA's
#                                        nvidia_p2p_* interface
#   $BUILD/gpu/<KVER>/nvidia-peermem.ko  NVIDIA's nvidia-peermem.c, unmodified,
#                                        on Wren's peer-memory registry
#
# Both need NVIDIA's nvidia-peermem/ sources (scripts/kernel/nvidia-fetch.sh):
# selftests/rdma/gpu's wtgpu.h includes its nv-p2p.h, which is never
# copied into the repo.  nvidia-peermem.ko is built only when the
# registry's Module.symvers (WREN_PEER_SYMVERS, default the one of `make
# modules`, where wren_peer_mem.ko is built) exports
# ib_register_peer_memory_client and ib_unregister_peer_memory_client;
# without them NVIDIA's module would build but refuse to load, so it is
# left out with a note.  Sources are copied into $BUILD/gpu/<KVER>/src
# and built there.
#
# usage: kernel/gpu-build.sh KVER [modules|w1|sparse]
#   w1:     rebuild wren_test_gpu.ko from scratch, any warning (W=1,
#           modpost) fails; nvidia-peermem.ko is NVIDIA's code and is not
#           judged
#   sparse: the same with C=2 CHECK=sparse; exit 77 when kbuild will not
#           run this sparse for the kernel (kernel/build.sh)
. "$(dirname "$0")/../lib/common.sh"

kver=${1:?usage: kernel/gpu-build.sh KVER [modules|w1|sparse]}
mode=${2:-modules}
. "$SCRIPTS/lib/kbuild.sh"
kbuild_root "$kver" "$0" "$@"
out=$BUILD/gpu/$kver
src=$out/src
kbuild_setup "$kver" "$out"
# A series built in a root asks for the NVIDIA source of its own suite.
if [ -n "${WREN_ROOT:-}" ]; then
	NV_SUITE=$("$SCRIPTS/kernel/series.sh" suite "$kver")
	export NV_SUITE
fi
eval "$("$SCRIPTS/kernel/nvidia-fetch.sh")"

# put SRC DEST: copy when the content changed (kbuild goes by mtime).
put() {
	if ! cmp -s "$1" "$2"; then
		cp "$1" "$2.tmp.$$"
		mv "$2.tmp.$$" "$2"
	fi
}

# wren_test_gpu.ko
gdir=$TOP/selftests/rdma/gpu
gsrc=$src/wren_test_gpu
mkdir -p "$gsrc"
# The module's sources: Kbuild, wren_test_gpu.h (the uapi), wtgpu.h and
# wtgpu_*.c.  Copies of sources selftests/rdma/gpu no longer has (the
# single wren_test_gpu.c of old) are removed, so that kbuild never sees
# them.
for f in "$gsrc"/*.c "$gsrc"/*.h; do
	case ${f##*/} in
	*.mod.c | wren_config.h) continue ;;
	esac
	[ -f "$gdir/${f##*/}" ] || rm -f "$f"
done
for f in Kbuild wren_test_gpu.h "$gdir"/wtgpu*.[ch]; do
	f=${f##*/}
	put "$gdir/$f" "$gsrc/$f"
done
"$SCRIPTS/kernel-config.sh" "$KDIR" "$gsrc/wren_config.h"
case "$mode" in
modules) extra= ;;
w1) extra= ;;
sparse) extra="C=2 CHECK=sparse" ;;
*) echo "gpu-build: unknown mode $mode" >&2; exit 1 ;;
esac
# As kernel/build.sh: exit 77 where kbuild would turn sparse off, or
# where there is no sparse (the trixie guests' root, kernel/series).
nochecker='is not available or not up to date'
if [ "$mode" = sparse ] && ! command -v sparse >/dev/null; then
	echo "gpu-build: $KABI: no sparse where this series builds (${WREN_ROOT:+its Debian root, }kernel/series)" >&2
	exit 77
fi
# shellcheck disable=SC2086 # $extra: make words
if [ "$mode" = sparse ] && make -n -C "$KDIR" M="$gsrc" W=1 $extra \
	NV_PEERMEM_DIR="$NV_SRC/nvidia-peermem" modules 2>&1 | grep -q "$nochecker"; then
	echo "gpu-build: $KABI: kbuild does not take $(sparse --version 2>&1 | head -n 1) as its checker: sparse cannot check this kernel" >&2
	exit 77
fi
if [ "$mode" != modules ]; then
	make -C "$KDIR" M="$gsrc" NV_PEERMEM_DIR=. clean >/dev/null 2>&1 || true
fi
log=$out/wren_test_gpu-$mode.log
# shellcheck disable=SC2086,SC2154 # $extra: make words; jobs: kbuild_setup
if ! make -j"$jobs" -C "$KDIR" M="$gsrc" W=1 $extra \
	NV_PEERMEM_DIR="$NV_SRC/nvidia-peermem" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "gpu-build: wren_test_gpu.ko for $KABI failed" >&2
	exit 1
fi
if [ "$mode" != modules ] && grep -iE "warning|error:|$nochecker" "$log" >&2; then
	echo "gpu-build: wren_test_gpu.ko for $KABI is not warning-free (log: $log)" >&2
	exit 1
fi
put "$gsrc/wren_test_gpu.ko" "$out/wren_test_gpu.ko"
echo "gpu-build: $KABI ok: $out/wren_test_gpu.ko (nv-p2p.h of $NV_PKG $NV_PKG_VERSION)"

# nvidia-peermem.ko
symvers=${WREN_PEER_SYMVERS:-$BUILD/modules/$kver/src/Module.symvers}
# NVIDIA's conftest.sh, check_for_ib_peer_memory_symbols
tab=$(printf '\t')
has_peer_symbols() {
	[ -f "$1" ] &&
		grep -e "${tab}ib_register_peer_memory_client${tab}.*${tab}EXPORT_SYMBOL.*\$" "$1" >/dev/null 2>&1 &&
		grep -e "${tab}ib_unregister_peer_memory_client${tab}.*${tab}EXPORT_SYMBOL.*\$" "$1" >/dev/null 2>&1
}
if ! has_peer_symbols "$symvers"; then
	rm -f "$out/nvidia-peermem.ko"
	echo "gpu-build: nvidia-peermem.ko not built: $symvers does not export ib_register_peer_memory_client and ib_unregister_peer_memory_client (build wren_peer_mem.ko first, or set WREN_PEER_SYMVERS)"
	exit 0
fi
psrc=$src/nvidia-peermem
mkdir -p "$psrc"
for f in "$NV_SRC"/nvidia-peermem/*; do
	put "$f" "$psrc/${f##*/}"
done
put "$gdir/nvidia-peermem.Kbuild" "$psrc/Kbuild"
printf '%s\n' "/* Generated by scripts/kernel/gpu-build.sh from $symvers. */" \
	"#define NV_MLNX_IB_PEER_MEM_SYMBOLS_PRESENT" >"$psrc/conftest.h.new"
put "$psrc/conftest.h.new" "$psrc/conftest.h"
rm -f "$psrc/conftest.h.new"
# Copies, so that the KBUILD_EXTRA_SYMBOLS paths carry no odd characters.
put "$symvers" "$psrc/peer.symvers"
put "$gsrc/Module.symvers" "$psrc/gpu.symvers"
# kbuild does not notice new CRCs in KBUILD_EXTRA_SYMBOLS (a rebuilt
# registry): the module would keep the old ones and fail to load with
# "disagrees about version of symbol".  Rebuild when they change.
stamp=$(cat "$psrc/peer.symvers" "$psrc/gpu.symvers" | sha256sum | cut -c1-16)
if [ "$(cat "$psrc/.symvers.stamp" 2>/dev/null)" != "$stamp" ]; then
	make -C "$KDIR" M="$psrc" NV_VERSION=x clean >/dev/null 2>&1 || true
	echo "$stamp" >"$psrc/.symvers.stamp"
fi
log=$out/nvidia-peermem.log
if ! make -j"$jobs" -C "$KDIR" M="$psrc" NV_VERSION="$NV_VERSION" \
	KBUILD_EXTRA_SYMBOLS="$psrc/peer.symvers $psrc/gpu.symvers" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "gpu-build: nvidia-peermem.ko for $KABI failed" >&2
	exit 1
fi
put "$psrc/nvidia-peermem.ko" "$out/nvidia-peermem.ko"
echo "gpu-build: $KABI ok: $out/nvidia-peermem.ko ($NV_PKG $NV_PKG_VERSION, registry $symvers)"
