#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# wren-rdma.sh against rdma_rxe on the virtio NICs instead of Wren: checks
# the test itself on a known verbs device (rxe is CPU-bound under TCG, so
# shorter runs and a CPU limit it is expected to exceed for READ).
#
#   flock /tmp/wren-guest.lock make vmrun SCRIPT=selftests/rdma/wren-rdma-rxe.sh
export WREN_RDMA_DEV=rxe
export WREN_RDMA_CPU_SECS=${WREN_RDMA_CPU_SECS:-5}
export WREN_RDMA_LOSS_MIB=${WREN_RDMA_LOSS_MIB:-8}
exec "$(dirname "$0")/wren-rdma.sh"
