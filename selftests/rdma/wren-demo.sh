#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, both guests of a GPU=1 pair at once: `make demo`'s guest
# script (scripts/demo-guest.sh) as it runs there, so that the demo
# cannot rot: one result for each of its three guest parts (the server
# as an operator sees it; GPUDirect RDMA GPU to GPU through dma-buf and
# peer memory; lossless RoCE with ECN/DCQCN and with PFC under
# congestion), each part's output as diagnostics, and on guest 1 that
# the congestion episode left the samples the demo plots.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-demo.sh KVER=7.3 GPU=1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"

res=$WREN_RESULTS
me=${WREN_GUEST_INDEX:-0}
titles=("" "the server as an operator sees it" "GPUDirect RDMA, GPU to GPU"
	"lossless RoCE: ECN/DCQCN and PFC under congestion")
plan $((me == 1 ? 4 : 3))
dmesg -C
bash "$WREN_TOP/scripts/demo-guest.sh" >"$res/demo-guest.out" 2>&1
rc=$?
for p in 1 2 3; do
	if grep -qx "$p ok" "$res/demo-status" 2>/dev/null; then
		ok "demo part $p: ${titles[$p]}"
	else
		not_ok "demo part $p: ${titles[$p]} (script exit $rc)"
	fi
	[ -e "$res/demo-part$p.txt" ] && diag "$(cat "$res/demo-part$p.txt")"
done
if [ "$me" = 1 ]; then
	check "the episode's samples for the plot: wren_cc_rate events and queue depths" \
		test -s "$res/demo-cc.trace" -a -s "$res/demo-queue.txt" -a -s "$res/demo-episode.txt"
fi
[ -s "$res/demo-guest.out" ] && diag "$(cat "$res/demo-guest.out")"
tap_done
