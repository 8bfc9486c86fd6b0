#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-provider` (mk/rdma-core.mk): rdma-core with libwren built
# (cached) and the provider's host tests (rdma-core/check.sh), then the
# host test of the parser that turns rdma-core's python suite into TAP,
# TAP in $BUILD/check/unittest-tap-host.tap.
#
# usage: check/provider.sh
. "$(dirname "$0")/../lib/common.sh"
. "$SCRIPTS/lib/check.sh"

"$SCRIPTS/deps/rdma-core.sh"
"$SCRIPTS/rdma-core/check.sh"
check_tap unittest-tap-host "$TOP/selftests/host/unittest-tap-test.py"
