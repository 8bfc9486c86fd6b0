#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# run-all.sh without the load loop, fatal error and admin timeout tests:
# for a pair whose kernel runs those in another boot of the same check
# (the 6.1 intel-iommu guest, run-core.sh), to keep `make check` short.
export WREN_DRIVER_TESTS="wren-probe.sh wren-ib.sh ../rdma/wren-rdma.sh wren-eth-fabric.sh wren-eth-udp.sh wren-eth.sh"
exec "$(dirname "$0")/run-all.sh"
