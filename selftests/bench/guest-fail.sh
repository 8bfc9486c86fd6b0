#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs inside the bench guests to test the bench's failure paths: guest 0
# plans 3 results, gives one and exits with status 3; guest 1 never ends
# (the timeout must kill it); guest 2, if there is one, never ends either
# but says so in its results directory, where the host (run.sh) waits to
# kill its QEMU with SIGSEGV, a QEMU crash.  The host side checks that
# vmrun and vmtest report each, and that nothing of it is counted as a
# pass.
echo "1..3"
if [ "$WREN_GUEST_INDEX" = 0 ]; then
	echo "ok 1 - before failing"
	exit 3
fi
[ "$WREN_GUEST_INDEX" = 2 ] && : >"$WREN_RESULTS/crash-me"
exec sleep 100000
