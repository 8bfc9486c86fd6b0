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
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib/tap.sh
. "$here/../../selftests/lib/tap.sh"

refused() {
	local name=$1 msg rc
	shift
	msg=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && [[ $msg == *"cannot hold the ports' reserves"* ]]; then
		ok "$name: refused (status $rc): $msg"
	else
		not_ok "$name: status $rc, \"$msg\""
	fi
}

refused "E3 with a 4 MiB buffer for 61 ports" "$sim/e3-incast" --senders=60 --buffer-mb=4
refused "E5 with 100 KiB buffers" "$sim/e5-deadlock" --buffer-kb=100
tap_done
