#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-dcb` (mk/dcb.mk): dcb/tests/wren-qos-host.sh, wren-qos
# against fakes of dcb, ethtool and devlink (no guest), TAP in
# $BUILD/check/dcb.tap.
#
# usage: check/dcb.sh
. "$(dirname "$0")/../lib/common.sh"
. "$SCRIPTS/lib/check.sh"

check_tap dcb "$TOP/dcb/tests/wren-qos-host.sh"
