#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Kernel code lint: checkpatch.pl --strict over every kernel source and
# header, and sparse (make C=2) against Linux 6.1 and 6.12.  Zero findings
# is the bar.  TAP goes to stdout and, when given, to TAPFILE.
#
# usage: check/lint.sh [TAPFILE]
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one

tap=${1:-}
logdir=$BUILD/check/lint
mkdir -p "$logdir"

n=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2 (log: $3)"
		sed 's/^/# /' "$3" | tail -n 40
	fi
}

run() {
	echo "1..3"
	if ! "$SCRIPTS/deps/kernel.sh" >"$logdir/deps.log" 2>&1; then
		echo "# deps/kernel.sh failed, see $logdir/deps.log"
	fi
	"$SCRIPTS/kernel/checkpatch.sh" >"$logdir/checkpatch.log" 2>&1
	result $? "checkpatch.pl --strict (linux-source-6.1) is clean" "$logdir/checkpatch.log"
	for kver in 6.1 6.12; do
		"$SCRIPTS/kernel/build.sh" "$kver" sparse >"$logdir/sparse-$kver.log" 2>&1
		result $? "sparse (C=2) is clean against $kver" "$logdir/sparse-$kver.log"
	done
}

if [ -n "$tap" ]; then
	mkdir -p "$(dirname "$tap")"
	run | tee "$tap.tmp"
	mv "$tap.tmp" "$tap"
	! grep -q '^not ok' "$tap"
else
	run | tee "$logdir/lint.tap"
	! grep -q '^not ok' "$logdir/lint.tap"
fi
