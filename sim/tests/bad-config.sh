#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# A switch whose shared buffer cannot hold its ports' reserves and
# lossless headroom would pause its senders for good; the experiments
# refuse to build one, with a message and exit status 2.  TAP on stdout.
#
# usage: sim/tests/bad-config.sh BUILD_SIM_DIR
set -u
sim=$1
n=0
fail=0

refused() {
	local name=$1 msg rc
	shift
	msg=$("$@" 2>&1 >/dev/null)
	rc=$?
	n=$((n + 1))
	if [ "$rc" = 2 ] && [[ $msg == *"cannot hold the ports' reserves"* ]]; then
		echo "ok $n - $name: refused (status $rc): $msg"
	else
		echo "not ok $n - $name: status $rc, \"$msg\""
		fail=1
	fi
}

refused "E3 with a 4 MiB buffer for 61 ports" "$sim/e3-incast" --senders=60 --buffer-mb=4
refused "E5 with 100 KiB buffers" "$sim/e5-deadlock" --buffer-kb=100
echo "1..$n"
exit $fail
