#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# check-modules: the modules (wren, wren_peer_mem, wren_ib) build
# warning-free with W=1 against every kernel series of kernel/series
# (6.1, 6.12 and 7.3; 7.3 in its trixie build root, kernel/root.sh), and
# dkms.conf builds them for 6.12 (for 6.1, check-deb's dkms build of the
# packaged source does); the GPUDirect test modules (wren_test_gpu.ko
# W=1 and sparse clean, NVIDIA's nvidia-peermem.ko linked against
# wren_peer_mem.ko) build for every series.  Where kbuild will not run
# sparse, wren_test_gpu.ko is judged W=1 only, and the line says so.  TAP goes to stdout and to TAPFILE.
#
# usage: check/modules.sh [TAPFILE]   (default $BUILD/check/modules.tap)
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one
# shellcheck source=scripts/lib/check.sh
. "$SCRIPTS/lib/check.sh"

tap=${1:-$BUILD/check/modules.tap}
logdir=$BUILD/check/modules
mkdir -p "$logdir" "$(dirname "$tap")"
series=$("$SCRIPTS/kernel/series.sh" list) || exit 1

{
	# A W=1 and a GPU line a series, and the dkms line.
	echo "1..$(($(echo "$series" | wc -l) * 2 + 1))"
	if ! "$SCRIPTS/deps/kernel.sh" >"$logdir/deps.log" 2>&1; then
		echo "# deps/kernel.sh failed, see $logdir/deps.log"
	fi
	for kver in $series; do
		"$SCRIPTS/kernel/build.sh" "$kver" w1 >"$logdir/w1-$kver.log" 2>&1
		check_result $? "wren.ko, wren_peer_mem.ko and wren_ib.ko build warning-free with W=1 for $kver" \
			"$logdir/w1-$kver.log"
	done
	# 6.1's dkms build is make check-deb's, of the same dkms.conf as
	# packaged (deb/dkms-binaries.sh): one dkms build per kernel.
	"$SCRIPTS/kernel/dkms.sh" --build 6.12 >"$logdir/dkms-6.12.log" 2>&1
	check_result $? "dkms.conf builds wren, wren_peer_mem and wren_ib for 6.12 (6.1: check-deb)" \
		"$logdir/dkms-6.12.log"
	for kver in $series; do
		# sparse mode is the W=1 build from clean with sparse beside the
		# compiler: both checks in one build.
		log=$logdir/gpu-$kver.log
		what="W=1 and sparse clean"
		"$SCRIPTS/kernel/gpu-build.sh" "$kver" sparse >"$log" 2>&1
		rc=$?
		if [ "$rc" -eq 77 ]; then
			what="W=1 clean (kbuild does not run the packaged sparse for $kver)"
			"$SCRIPTS/kernel/gpu-build.sh" "$kver" w1 >>"$log" 2>&1
			rc=$?
		fi
		[ "$rc" -ne 0 ] || test -e "$BUILD/gpu/$kver/nvidia-peermem.ko" >>"$log" 2>&1 || rc=1
		check_result "$rc" "wren_test_gpu.ko $what, nvidia-peermem.ko built on wren_peer_mem for $kver" \
			"$log"
	done
	[ "$check_failed" -eq 0 ]
} | tee "$tap.tmp"
mv "$tap.tmp" "$tap"
! grep -q '^not ok' "$tap"
