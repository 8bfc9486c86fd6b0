#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# For the boot with two vCPUs per guest behind intel-iommu: the single-guest
# driver tests (leaks and resets with bus addresses != physical) and RSS
# over two channels (wren-eth-rss.sh needs SMP=2 and a peer).
export WREN_DRIVER_TESTS="wren-probe.sh wren-load-loop.sh wren-fatal.sh wren-aq-timeout.sh wren-eth-rss.sh"
exec "$(dirname "$0")/run-all.sh"
