#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-gpu-modules` (mk/gpu.mk): wren_test_gpu.ko W=1 and sparse
# warning-free for every kernel series of kernel/series (kernel/gpu-build.sh;
# sparse where the series builds with one); no TAP of its own
# (make check-modules runs the same builds into modules.tap).
#
# usage: check/gpu-modules.sh
. "$(dirname "$0")/../lib/common.sh"

for mode in w1 sparse; do
	for kver in $("$SCRIPTS/kernel/series.sh" list); do
		rc=0
		"$SCRIPTS/kernel/gpu-build.sh" "$kver" "$mode" || rc=$?
		# 77: kbuild will not run sparse for this kernel.
		[ "$rc" -eq 0 ] || { [ "$mode" = sparse ] && [ "$rc" -eq 77 ]; } || exit "$rc"
	done
done
