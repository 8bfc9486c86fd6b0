#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Build wren.ko, wren_peer_mem.ko and wren_ib.ko out of tree for one kernel
# series.
#
# The sources are mirrored into $BUILD/modules/<KVER>/src (Linux 6.1 has no
# way to put an external module's objects elsewhere), the feature probes
# write wren_config.h there, kbuild runs there, and the modules are copied
# to $BUILD/modules/<KVER>/.
#
# usage: kernel/build.sh KVER [MODE]
#   modules  build (default; W=1 as in the other modes, warnings not fatal)
#   w1       W=1 build; any compiler or modpost warning fails it
#   sparse   C=2 with sparse (through kernel/sparse-cached.sh); any sparse or
#            compiler warning fails it; exit 77 when kbuild will not run
#            this sparse for the kernel
. "$(dirname "$0")/../lib/common.sh"

kver=${1:?usage: kernel/build.sh KVER [modules|w1|sparse]}
mode=${2:-modules}
. "$SCRIPTS/lib/kbuild.sh"
[ "$mode" != sparse ] || kbuild_sparse_host
kbuild_root "$kver" "$0" "$@"
out=$BUILD/modules/$kver
src=$out/src
kbuild_setup "$kver" "$out"

"$SCRIPTS/kernel/sync.sh" "$src"
"$SCRIPTS/kernel-config.sh" "$KDIR" "$src/wren_config.h"

# Every mode compiles with W=1: kbuild rebuilds all objects when their
# command line changes, so the same flags everywhere let `make check`'s
# sparse pass and the guest tests' build reuse the W=1 build's objects.
case "$mode" in
modules) extra="W=1" ;;
w1) extra="W=1" ;;
sparse)
	# sparse's findings, cached by each file's source and headers
	# (kernel/sparse-cached.sh); a cache that cannot be made is no cache.
	extra="W=1 C=2 CHECK=$SCRIPTS/kernel/sparse-cached.sh"
	WREN_SPARSE_ROOT=$src
	WREN_SPARSE_CACHE=${WREN_CACHE:-/var/cache/wren}/sparse
	if ! mkdir -p "$WREN_SPARSE_CACHE" 2>/dev/null || [ ! -w "$WREN_SPARSE_CACHE" ]; then
		WREN_SPARSE_CACHE=$BUILD/cache/sparse
		mkdir -p "$WREN_SPARSE_CACHE" || WREN_SPARSE_CACHE=
	fi
	# Entries unused for a month go (a hit touches its entry).
	[ -z "$WREN_SPARSE_CACHE" ] ||
		find "$WREN_SPARSE_CACHE" -type f -mtime +30 -delete 2>/dev/null || true
	WREN_SPARSE_HEADERS=$(dpkg-query -W -f '${Package} ${Version}' "linux-headers-$KABI" 2>/dev/null ||
		readlink -f "$KDIR")
	export WREN_SPARSE_ROOT WREN_SPARSE_CACHE WREN_SPARSE_HEADERS
	;;
*) echo "kernel-build: unknown mode $mode" >&2; exit 1 ;;
esac

log=$out/build-$mode.log
# kbuild turns C= off with only a note where it does not take this
# sparse (lib/kbuild.sh, kbuild_checker): exit 77 says "cannot check this
# kernel" (check/lint.sh reports a skip).
if [ "$mode" = sparse ]; then
	# shellcheck disable=SC2086 # $extra: make words
	kbuild_checker kernel-build "$src" $extra || exit $?
	extra="$extra $KBUILD_CHECK_WORDS"
fi
if [ "$mode" = w1 ]; then
	# kbuild only recompiles what changed, and a warning printed by an
	# earlier run would not be printed again: judge a full rebuild.
	make -C "$KDIR" M="$src" clean >/dev/null 2>&1 || true
fi
# shellcheck disable=SC2086,SC2154 # $extra: make words; jobs: kbuild_setup
if ! make -j"$jobs" -C "$KDIR" M="$src" $extra modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "kernel-build: $KABI ($mode) failed" >&2
	exit 1
fi

for ko in drivers/net/ethernet/wren/wren.ko \
	drivers/infiniband/peer_mem/wren_peer_mem.ko \
	drivers/infiniband/hw/wren/wren_ib.ko; do
	cp "$src/$ko" "$out/$(basename "$ko").tmp.$$"
	mv "$out/$(basename "$ko").tmp.$$" "$out/$(basename "$ko")"
done

if [ "$mode" != modules ]; then
	# Compiler, sparse and modpost all say "warning"; kbuild's own
	# "WARNING: modpost" lines count too.
	if ! kbuild_judge "$log"; then
		echo "kernel-build: $KABI ($mode) is not warning-free (log: $log)" >&2
		exit 1
	fi
fi
echo "kernel-build: $KABI ($mode) ok: $out/wren.ko $out/wren_peer_mem.ko $out/wren_ib.ko"
