#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-gpu-modules` (mk/gpu.mk): wren_test_gpu.ko W=1 and sparse
# warning-free for 6.1 and 6.12 (kernel/gpu-build.sh); no TAP of its own
# (make check-modules runs the same builds into modules.tap).
#
# usage: check/gpu-modules.sh
. "$(dirname "$0")/../lib/common.sh"

for mode in w1 sparse; do
	for kver in 6.1 6.12; do
		"$SCRIPTS/kernel/gpu-build.sh" "$kver" "$mode"
	done
done
