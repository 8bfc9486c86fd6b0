#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The driver tests that need no peer (probe, load loop, fatal error, admin
# timeout): for the configurations that boot a single guest.
export WREN_DRIVER_TESTS="wren-probe.sh wren-load-loop.sh wren-fatal.sh wren-aq-timeout.sh"
exec "$(dirname "$0")/run-all.sh"
