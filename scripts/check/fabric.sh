#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-fabric` (mk/fabric.mk, which builds the fabric and its
# tests first): tools/fabric/tests/run-tests.sh, unit and integration
# tests, also under ASan and UBSan, TAP in $BUILD/check/fabric.tap.  The
# integration test's QEMU cases use WREN_QEMU (our QEMU, when built).
#
# usage: check/fabric.sh
. "$(dirname "$0")/../lib/common.sh"
. "$SCRIPTS/lib/check.sh"

exec "$TOP/tools/fabric/tests/run-tests.sh" "$BUILD/fabric" "$CHECK/fabric.tap"
