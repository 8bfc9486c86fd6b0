#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# What `make demo` needs beyond the test bench's packages: Debian's
# matplotlib for /usr/bin/python3, which draws the demo's congestion
# episode (scripts/demo-plot.py).
. "$(dirname "$0")/../lib/common.sh"
exec "$SCRIPTS/lib/apt-install.sh" python3-matplotlib
