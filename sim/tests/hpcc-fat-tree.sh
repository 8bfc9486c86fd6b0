#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The E4 pipeline on a small fat-tree: fat-tree.py writes a 16-host
# tree of 2 pods, traffic.py 2 ms of Poisson flows at 30 % load (a test
# size distribution, not a published one) and 8-sender incasts at 2 %,
# hpcc-run runs them on Wren NICs and switches, fct-slowdown.py bins the
# slowdowns.  Also: fat-tree.py's defaults are the HPCC paper's tree
# (376 nodes, 56 switches, 480 links).  TAP on stdout.
#
# usage: sim/tests/hpcc-fat-tree.sh BUILD_SIM_DIR
set -u
sim=$1
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=selftests/lib/tap.sh
. "$here/../../selftests/lib/tap.sh"
# shellcheck source=sim/tests/lib/small-tree.sh
. "$here/lib/small-tree.sh"

/usr/bin/python3 "$tools/fat-tree.py" >"$work/fat.txt"
check "fat-tree.py's default is the HPCC paper's tree: 376 nodes, 56 switches, 480 links" \
	test "$(head -1 "$work/fat.txt")" = "376 56 480"

flows=$(small_tree "$work")
check "traffic.py: $flows flows in 2 ms at 30 % load on 16 hosts" test "$flows" -gt 100

out=$("$sim/hpcc-run" --topology="$work/small.txt" --flows="$work/flows.txt" \
	--fct="$work/fct.txt" 2>&1)
rc=$?
diag "$out"
check "hpcc-run: all $flows flows end on the 2-pod tree (status $rc)" \
	test "$rc" = 0 -a "$(wc -l <"$work/fct.txt")" = "$flows"

bins=$(/usr/bin/python3 "$tools/fct-slowdown.py" "$work/fct.txt" |
	awk '!/^#/ && $3 >= 1 && $4 >= $3 && $5 >= $4' | wc -l)
check "fct-slowdown.py: 20 bins, median <= 95th <= 99th, all >= 1 ($bins)" test "$bins" = 20

tap_done
