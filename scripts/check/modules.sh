#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# check-modules: the modules (wren, wren_peer_mem, wren_ib) build warning-free with W=1 against Linux 6.1
# and 6.12, and dkms.conf builds them for 6.12 (for 6.1, check-deb's
# dkms build of the packaged source does); the GPUDirect test modules
# (wren_test_gpu.ko W=1 and sparse clean, NVIDIA's nvidia-peermem.ko
# linked against wren_peer_mem.ko) build for both.  TAP goes to stdout and
# to TAPFILE.
#
# usage: check/modules.sh [TAPFILE]   (default $BUILD/check/modules.tap)
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one
# shellcheck source=scripts/lib/check.sh
. "$SCRIPTS/lib/check.sh"

tap=${1:-$BUILD/check/modules.tap}
logdir=$BUILD/check/modules
mkdir -p "$logdir" "$(dirname "$tap")"


{
	echo "1..5"
	if ! "$SCRIPTS/deps/kernel.sh" >"$logdir/deps.log" 2>&1; then
		echo "# deps/kernel.sh failed, see $logdir/deps.log"
	fi
	for kver in 6.1 6.12; do
		"$SCRIPTS/kernel/build.sh" "$kver" w1 >"$logdir/w1-$kver.log" 2>&1
		check_result $? "wren.ko, wren_peer_mem.ko and wren_ib.ko build warning-free with W=1 for $kver" \
			"$logdir/w1-$kver.log"
	done
	# 6.1's dkms build is make check-deb's, of the same dkms.conf as
	# packaged (deb/dkms-binaries.sh): one dkms build per kernel.
	"$SCRIPTS/kernel/dkms.sh" --build 6.12 >"$logdir/dkms-6.12.log" 2>&1
	check_result $? "dkms.conf builds wren, wren_peer_mem and wren_ib for 6.12 (6.1: check-deb)" \
		"$logdir/dkms-6.12.log"
	for kver in 6.1 6.12; do
		# sparse mode is the W=1 build from clean with sparse beside the
		# compiler: both checks in one build.
		{ "$SCRIPTS/kernel/gpu-build.sh" "$kver" sparse &&
			test -e "$BUILD/gpu/$kver/nvidia-peermem.ko"; } >"$logdir/gpu-$kver.log" 2>&1
		check_result $? "wren_test_gpu.ko W=1 and sparse clean, nvidia-peermem.ko built on wren_peer_mem for $kver" \
			"$logdir/gpu-$kver.log"
	done
	[ "$check_failed" -eq 0 ]
} | tee "$tap.tmp"
mv "$tap.tmp" "$tap"
! grep -q '^not ok' "$tap"
