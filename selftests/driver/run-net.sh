#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The 6.1 pair of `make check`: the Ethernet and RDMA tests whose code
# paths differ between kernels, plus rdma-core's pingpongs and perftest's
# sweep.  The load loop, fatal error and admin timeout tests run in the
# 6.1 intel-iommu guest (run-core.sh); the fabric counter, VLAN capture
# and UDP tests, which exercise the NIC model and the fabric more than
# the kernel, run on the 6.12 pair (run-all.sh) only, to keep the check
# short.
export WREN_NVME_SRQ=${WREN_NVME_SRQ:-0}
export WREN_DRIVER_TESTS="wren-probe.sh wren-ib.sh ../rdma/wren-rdma.sh ../rdma/wren-pingpong.sh ../rdma/wren-perftest.sh ../rdma/wren-cm.sh ../rdma/wren-nvmeof.sh wren-eth.sh"
exec "$(dirname "$0")/run-all.sh"
