#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make demo`: install what is needed, build the NIC (QEMU with the Wren
# device), the fabric and the drivers, boot two emulated servers on one
# fabric and show what they do with their Wren NICs: Ethernet (ping) and
# RDMA (perftest's ib_write_bw and ib_send_lat over wren_0).
. "$(dirname "$0")/lib/common.sh"
kver=${KVER:-6.1}
make -C "$TOP" --no-print-directory deps
make -C "$TOP" --no-print-directory qemu fabric modules rdma-core KVER="$kver"
run=${BUILD:-$TOP/build}/bench/vmrun-$kver-demo-guest.sh
rc=0
make -C "$TOP" --no-print-directory vmrun KVER="$kver" \
	SCRIPT="$TOP/scripts/demo-guest.sh" || rc=$?
for out in "$run"/guest*.out; do
	echo
	cat "$out"
done
if [ "$rc" != 0 ]; then
	echo
	grep -h 'FAILED' "$run"/guest*.out 2>/dev/null | sed 's/^/demo: /' >&2 || true
	echo "demo: FAILED (exit $rc); consoles in $run/guest*.log" >&2
fi
exit $rc
