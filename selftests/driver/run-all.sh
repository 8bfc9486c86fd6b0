#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Run the driver tests one after another in one guest boot (booting under
# TCG costs more than most tests), as one TAP stream: results renumbered
# and prefixed with the test's name, plus a failure for a test that exits
# non-zero without saying why or gives fewer results than it planned.
#
# WREN_DRIVER_TESTS overrides the list (names of scripts in this directory).
set -u

dir=$(cd "$(dirname "$0")" && pwd)
tests=${WREN_DRIVER_TESTS:-"wren-probe.sh wren-load-loop.sh wren-fatal.sh wren-aq-timeout.sh wren-eth.sh"}
# wren-eth.sh streams 256 MiB each way when run alone (about 6 min under a
# loaded TCG host); in the shared boot a smaller first stream keeps the
# guest inside check-driver's time limit.
export WREN_ETH_STREAM_MB=${WREN_ETH_STREAM_MB:-32}
n=0
failed=0

result() {
	n=$((n + 1))
	echo "$1 $n - $2"
	[ "$1" = ok ] || failed=$((failed + 1))
}

for t in $tests; do
	name=${t%.sh}
	out=$("$dir/$t" </dev/null 2>&1)
	rc=$?
	plan=
	count=0
	bad=0
	while IFS= read -r line; do
		case "$line" in
		"ok "* | "not ok "*)
			count=$((count + 1))
			desc=${line#*ok }
			desc=${desc#"${desc%%[!0-9]*}"}
			desc=${desc# }
			desc=${desc#- }
			case "$line" in
			"ok "*) result ok "$name: $desc" ;;
			*) result "not ok" "$name: $desc"; bad=1 ;;
			esac
			;;
		1..*) plan=${line#1..}; plan=${plan%% *} ;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done <<<"$out"
	if [ "$rc" -ne 0 ] && [ "$bad" = 0 ]; then
		result "not ok" "$name: exited with status $rc"
	fi
	if [ -n "$plan" ] && [ "$count" -lt "$plan" ]; then
		result "not ok" "$name: planned $plan results, gave $count"
	fi
done
echo "1..$n"
[ "$failed" = 0 ]
