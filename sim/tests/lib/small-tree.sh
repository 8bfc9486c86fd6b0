# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# The small fat-tree and its traffic that the simulation's tests share:
# 2 pods of 2 ToRs and 2 aggregation switches, 4 hosts a ToR (16 hosts),
# with 2 ms of flows from the test distribution at 30 % load and 8-sender
# incasts.  Sourced; small_tree DIR writes DIR/small.txt and
# DIR/flows.txt and prints the flow count.

small_tree() {
	local dir=$1 tests
	tests=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	/usr/bin/python3 "$tests/../tools/fat-tree.py" --pods 2 --tors-per-pod 2 \
		--aggs-per-pod 2 --hosts-per-tor 4 --cores-per-agg 2 >"$dir/small.txt"
	/usr/bin/python3 "$tests/../tools/traffic.py" --hosts 16 \
		--cdf "$tests/files/test.cdf" --load 0.3 --seconds 0.002 \
		--incast-load 0.02 --incast-senders 8 >"$dir/flows.txt"
	head -1 "$dir/flows.txt"
}
