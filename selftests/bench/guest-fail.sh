#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs inside the bench guests to test the bench's failure paths: guest 0's
# script fails with status 3, guest 1's never ends (vmrun's timeout must
# kill it).  The host side (run.sh) checks that vmrun reports both.
if [ "$WREN_GUEST_INDEX" = 0 ]; then
	echo "failing on purpose"
	exit 3
fi
echo "hanging on purpose"
exec sleep 100000
