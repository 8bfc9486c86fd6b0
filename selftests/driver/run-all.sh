#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Run the driver tests one after another in one guest boot (booting under
# TCG costs more than most tests), as one TAP stream: results renumbered
# and prefixed with the test's name, plus a failure for a test that exits
# non-zero without saying why or gives fewer results than it planned.
#
# WREN_DRIVER_TESTS overrides the list (scripts, relative to this directory).
# An entry "gN:script" runs on guest N only: in a pair boot the two guests
# run different single-guest tests side by side (each has its own core)
# before the next test for both, whose barriers wait for the slower one.
set -u

dir=$(cd "$(dirname "$0")" && pwd)
tests=${WREN_DRIVER_TESTS:-"wren-probe.sh g0:../rdma/wren-pyverbs.sh g0:wren-aq-timeout.sh g1:wren-aq-late.sh g1:wren-load-loop.sh g1:wren-fatal.sh g1:wren-ib.sh ../rdma/wren-rdma.sh ../rdma/wren-cm.sh ../rdma/wren-nvmeof.sh wren-eth-fabric.sh wren-eth-udp.sh wren-eth.sh"}
# Data sizes for a shared boot under `make check`'s time budget (TCG
# moves a few MiB/s): every check still runs, on less data than each test
# uses when run alone (wren-eth.sh alone streams 256 MiB each way).
export WREN_ETH_STREAM_MB=${WREN_ETH_STREAM_MB:-64}
export WREN_ETH_SMALL_MB=${WREN_ETH_SMALL_MB:-16}
export WREN_UDP_COUNT=${WREN_UDP_COUNT:-1000}
export WREN_RSS_FLOWS=${WREN_RSS_FLOWS:-8}
# nvmet-rdma on the kernel SRQ here; run-net.sh (6.1) keeps a receive
# queue per QP, so make check covers both.
export WREN_NVME_SRQ=${WREN_NVME_SRQ:-1}
n=0
failed=0

result() {
	n=$((n + 1))
	echo "$1 $n - $2"
	[ "$1" = ok ] || failed=$((failed + 1))
}

for t in $tests; do
	case $t in
	g[0-9]:*)
		[ "${t%%:*}" = "g${WREN_GUEST_INDEX:-0}" ] || continue
		t=${t#*:}
		;;
	esac
	name=$(basename "$t" .sh)
	t0=$SECONDS
	out=$("$dir/$t" </dev/null 2>&1)
	rc=$?
	# Where a boot's time goes, for the check time budget.
	echo "# $name: $((SECONDS - t0)) s"
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
