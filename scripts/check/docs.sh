#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-docs` (mk/docs.mk): Documentation/check-docs.sh, TAP in
# $BUILD/check/docs.tap.
#
# usage: check/docs.sh
. "$(dirname "$0")/../lib/common.sh"
. "$SCRIPTS/lib/check.sh"

check_tap docs "$TOP/Documentation/check-docs.sh"
