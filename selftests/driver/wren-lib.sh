# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
# Moved to selftests/lib/wren.sh; this name stays for tests written before.
# shellcheck disable=SC1091
. "$WREN_TOP/selftests/lib/wren.sh"
