#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-qemu` (mk/qemu.mk, which builds QEMU first): the device
# checks of hw/qemu/tests/qemu-check.py, which writes its TAP to
# $BUILD/check/qemu.tap itself.
#
# usage: check/qemu.sh
. "$(dirname "$0")/../lib/common.sh"

exec python3 "$TOP/hw/qemu/tests/qemu-check.py"
