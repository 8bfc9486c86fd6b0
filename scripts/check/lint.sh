#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Lint: checkpatch.pl --strict over every kernel source and header, sparse
# (make C=2, Debian's sparse with kernel/sparse-patches/, which parses
# 7.3's headers) against every kernel series of kernel/series that has a
# sparse where it builds, shellcheck over every shell file and pyflakes
# over every Python file of the tree (scripts/lint/).  Zero
# findings is the bar.  TAP goes to stdout and, when given, to TAPFILE.
#
# usage: check/lint.sh [TAPFILE]
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one
# shellcheck source=scripts/lib/check.sh
. "$SCRIPTS/lib/check.sh"

tap=${1:-}
logdir=$BUILD/check/lint
mkdir -p "$logdir"


series=$("$SCRIPTS/kernel/series.sh" list) || exit 1

run() {
	echo "1..$(($(echo "$series" | wc -l) + 3))"
	if ! { "$SCRIPTS/deps/kernel.sh" && "$SCRIPTS/deps/lint.sh"; } >"$logdir/deps.log" 2>&1; then
		echo "# deps/kernel.sh or deps/lint.sh failed, see $logdir/deps.log"
	fi
	"$SCRIPTS/lint/checkpatch.sh" >"$logdir/checkpatch.log" 2>&1
	check_result $? "checkpatch.pl --strict (linux-source-6.1) is clean" "$logdir/checkpatch.log"
	for kver in $series; do
		log=$logdir/sparse-$kver.log
		"$SCRIPTS/kernel/build.sh" "$kver" sparse >"$log" 2>&1
		rc=$?
		# A skip's reason is the script's last line.
		[ "$rc" -ne 77 ] || { tail -n 1 "$log" >"$log.why"; log=$log.why; }
		check_result "$rc" "sparse (C=2) is clean against $kver" "$log"
	done
	"$SCRIPTS/lint/shellcheck.sh" >"$logdir/shellcheck.log" 2>&1
	check_result $? "shellcheck is clean over the tree's shell files" "$logdir/shellcheck.log"
	"$SCRIPTS/lint/pyflakes.sh" >"$logdir/pyflakes.log" 2>&1
	check_result $? "pyflakes is clean over the tree's Python files" "$logdir/pyflakes.log"
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
