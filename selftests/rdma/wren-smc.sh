#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): SMC-R, the kernel's own
# RoCE consumer for ordinary TCP programs (net/smc, AF_SMC sockets), over
# Wren.  Both guests name a user EID (so SMC-Rv2: Wren has RoCE v2 GIDs
# only) and no pnet table: net/smc must pair eth1 with wren_0 from the
# ib device's netdev.  Guest 0 accepts one AF_SMC connection, guest 1
# sends WREN_SMC_BYTES (4 MiB) of wren-pattern's stream, guest 0 checks it
# (wren_smc.py, one Python process a side).  Then: sock_diag says SMC-R
# on wren_0 port 1 on both sides, not a TCP fallback; net/smc's link
# group runs on wren_0; the sender's RoCE byte counter grew by at least
# the transfer; the modules unload with no kernel warning.
#
#   make vmtest T=rdma/wren-smc.sh
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

bytes=${WREN_SMC_BYTES:-4194304}
port=9751
pair_init smc "SMC-R"
plan 7
dmesg -C

rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
if modprobe smc && modprobe smc_diag; then
	ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, net/smc loaded"
else
	bail "$RDMA_WREN_DEV on $RDMA_WREN_IF, net/smc loaded"
fi

before=$(rdma_hw_counter "$RDMA_WREN_DEV" tx_roce_bytes)
barrier ready
py=$WREN_TOP/selftests/rdma/wren_smc.py
if [ "$me" = 0 ]; then
	out=$(timeout 120 python3 "$py" serve "$WREN_IP" "$port" "$bytes" WREN-BENCH 2>&1)
	rc=$?
else
	out=$(timeout 120 python3 "$py" send "$WREN_PEER_IP" "$port" "$bytes" WREN-BENCH 2>&1)
	rc=$?
fi
diag "$out"
if [ "$rc" = 0 ]; then
	ok "$bytes bytes over AF_SMC, the pattern checked on guest 0"
else
	not_ok "$bytes bytes over AF_SMC, the pattern checked on guest 0 (exit $rc)"
fi
# sock_diag's mode of the connection, read before it closed.
if [[ $out == *"mode smcr ibdev $RDMA_WREN_DEV port 1"* ]]; then
	ok "the socket ran SMC-R on $RDMA_WREN_DEV port 1, no TCP fallback"
else
	not_ok "the socket ran SMC-R on $RDMA_WREN_DEV port 1, no TCP fallback"
fi
if [[ $out == *"link ibdev $RDMA_WREN_DEV port 1"* ]]; then
	ok "net/smc's link group runs on $RDMA_WREN_DEV, paired with $RDMA_WREN_IF without a pnet table"
else
	not_ok "net/smc's link group runs on $RDMA_WREN_DEV, paired with $RDMA_WREN_IF without a pnet table"
fi
sent=$(($(rdma_hw_counter "$RDMA_WREN_DEV" tx_roce_bytes) - before))
if [ "$me" = 0 ] || [ "$sent" -ge "$bytes" ]; then
	ok "the data crossed $RDMA_WREN_DEV as RoCE ($sent bytes sent)"
else
	not_ok "the data crossed $RDMA_WREN_DEV as RoCE ($sent bytes sent, fewer than $bytes)"
fi
barrier finished 300

# net/smc keeps a link group for a while after its last connection; its
# removal ends them, and wren_ib then unloads.
rmmod smc_diag smc 2>/dev/null
check_dmesg "no kernel warnings"
check "rmmod wren_ib and wren" wren_unload
tap_done
