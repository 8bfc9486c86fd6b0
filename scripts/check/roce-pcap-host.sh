#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-roce-pcap-host` (mk/interop.mk): the RoCE capture
# checker's own host test (selftests/host/roce-pcap-check-test.py), TAP in
# $BUILD/check/roce-pcap-host.tap.
#
# usage: check/roce-pcap-host.sh
. "$(dirname "$0")/../lib/common.sh"
. "$SCRIPTS/lib/check.sh"

"$SCRIPTS/deps/tshark.sh"
check_tap roce-pcap-host "$TOP/selftests/host/roce-pcap-check-test.py"
