#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The tests that need no peer, for the intel-iommu configuration: probe on
# both guests, then side by side guest 0's load loop, fatal error and
# admin timeout tests and guest 1's run of rdma-core's python suite
# (a single guest runs guest 0's share only).
export WREN_DRIVER_TESTS="wren-probe.sh g0:wren-load-loop.sh g0:wren-fatal.sh g0:wren-aq-timeout.sh g0:wren-aq-late.sh g1:../rdma/wren-pyverbs.sh"
exec "$(dirname "$0")/run-all.sh"
