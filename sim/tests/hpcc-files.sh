#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# hpcc-run against HPCC-format files: a small star runs every flow to
# its end and writes FCT lines in HPCC's columns; each kind of bad
# topology or flow file is refused with a message naming the file and
# line, and exit status 2, never a crash.  TAP on stdout.
#
# usage: sim/tests/hpcc-files.sh BUILD_SIM_DIR
set -u
bin=$1/hpcc-run
here=$(cd "$(dirname "$0")" && pwd)
files=$here/files
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=selftests/lib/tap.sh
. "$here/../../selftests/lib/tap.sh"

out=$("$bin" --topology="$files/star.topo" --flows="$files/star.flows" \
	--fct="$work/fct.txt" 2>&1)
rc=$?
diag "$out"
check "the star runs its 6 flows to their end (status $rc)" test "$rc" = 0
lines=$(wc -l <"$work/fct.txt")
bad=$(awk 'NF != 8 || length($1) != 8 || length($2) != 8 ||
	$1 !~ /^[0-9a-f]+$/ || $2 !~ /^[0-9a-f]+$/ ||
	$7 + 0 <= 0 || $8 + 0 <= 0 { print }' "$work/fct.txt" | wc -l)
check "6 FCT lines in HPCC's 8 columns, hex addresses, FCT and standalone FCT > 0" \
	test "$lines" = 6 -a "$bad" = 0
# The 1 MB flow alone on its path for most of its life: slowdown near 1.
# shellcheck disable=SC2016 # the program is awk's
check "the 1 MB flow's FCT is at least its standalone FCT and under three times it" \
	awk '$5 == 1000000 { exit !($7 >= $8 && $7 < 3 * $8) }' "$work/fct.txt"

# A bad file: status 2 and a message that names it (and its line).
refused() {
	local name=$1 topo=$2 flows=$3 want=$4 msg rc
	msg=$("$bin" --topology="$topo" --flows="$flows" --fct="$work/x" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && [[ $msg == *"$want"* ]]; then
		ok "$name: refused (status $rc): ${msg#hpcc-run: }"
	else
		not_ok "$name: refused (status $rc): ${msg#hpcc-run: }"
	fi
}

t=$work/t
printf '5 1 4\n4\n0 4 100Gbps 1000ns 0\n' >"$t"
refused "a link short" "$t" "$files/star.flows" "4 links announced, 1 found"
printf '5 1 1\n9\n0 4 100Gbps 1000ns 0\n' >"$t"
refused "a switch id out of range" "$t" "$files/star.flows" "t:2: switch id"
printf '3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 fast 1000ns 0\n' >"$t"
refused "a rate that is not one" "$t" "$files/star.flows" "t:4: rate \"fast\""
printf '3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1lightyear 0\n' >"$t"
refused "a delay that is not one" "$t" "$files/star.flows" "t:4: delay"
printf '3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0.01\n' >"$t"
refused "a link error rate" "$t" "$files/star.flows" "error rates are not supported"
printf '3 1 3\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n0 1 100Gbps 1000ns 0\n' >"$t"
refused "two hosts linked" "$t" "$files/star.flows" "hosts link to switches only"
printf '4 2 3\n2 3\n0 2 100Gbps 1000ns 0\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n' >"$t"
refused "a host with two links" "$t" "$files/star.flows" "a NIC has one port"
printf 'lots of nodes\n' >"$t"
refused "a header that is no count" "$t" "$files/star.flows" "t:1: expected"
f=$work/f
printf '2\n0 3 3 100 1000 0\n' >"$f"
refused "a flow short" "$files/star.topo" "$f" "2 flows announced, 1 found"
printf '1\n0 4 3 100 1000 0\n' >"$f"
refused "a flow to a switch" "$files/star.topo" "$f" "f:2: src and dst must be two different hosts"
printf '1\n0 0 3 100 1000 0\n' >"$f"
refused "a flow to itself" "$files/star.topo" "$f" "two different hosts"
printf '1\n0 3 9 100 1000 0\n' >"$f"
refused "a priority above 7" "$files/star.topo" "$f" "priority 0..7"
printf '1\n0 3 3 100 0 0\n' >"$f"
refused "a flow of no bytes" "$files/star.topo" "$f" "bytes > 0"
printf '1\n0 3 3 100 1000 -1\n' >"$f"
refused "a start before 0" "$files/star.topo" "$f" "start 0..1e6 s"
printf '1\n0 3 3 100 1000 0\n1 3 3 100 1000 0\n' >"$f"
refused "more flows than announced" "$files/star.topo" "$f" "more flows than the 1 announced"
refused "a missing file" "$work/none" "$files/star.flows" "cannot be read"
printf '5 2 3\n3 4\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n2 4 100Gbps 1000ns 0\n' >"$t"
printf '1\n0 2 3 100 1000 0\n' >"$f"
refused "a flow between unconnected hosts" "$t" "$f" "flow 1: no path from node 0 to node 2"

tap_done
