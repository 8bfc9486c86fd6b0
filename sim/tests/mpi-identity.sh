#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The distributed simulation gives what one process gives, to the byte:
# on a 16-host fat-tree of 2 pods with 2 ms of Poisson flows and
# incasts, hpcc-run built against ns-3 with MPI (make sim-mpi) writes
# the same FCT file on one rank as on two (null messages and the
# granted time window), and as the default build on Debian's ns-3.
# TAP on stdout.
#
# usage: sim/tests/mpi-identity.sh BUILD_SIM_DIR
set -u
sim=$1
mpi=$sim/../sim-mpi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=selftests/lib/tap.sh
. "$here/../../selftests/lib/tap.sh"
# shellcheck source=sim/tests/lib/small-tree.sh
. "$here/lib/small-tree.sh"
# As CI runs it: as root, more ranks than cores, a waiting rank yielding.
mpirun=(mpirun --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1)

flows=$(small_tree "$work")
args=(--topology="$work/small.txt" --flows="$work/flows.txt")

run() {
	local name=$1
	shift
	out=$("$@" "${args[@]}" --fct="$work/$name.txt" 2>&1)
	rc=$?
	diag "$out"
	[ "$rc" = 0 ] && [ "$(wc -l <"$work/$name.txt")" = "$flows" ]
}

check "hpcc-run, default build: all $flows flows end" run default "$sim/hpcc-run"
check "hpcc-run over MPI, one rank: all $flows flows end" run one "$mpi/hpcc-run"
check "one rank writes the default build's FCTs, byte for byte" \
	cmp "$work/default.txt" "$work/one.txt"
check "two ranks, null messages: all $flows flows end" \
	run two "${mpirun[@]}" -np 2 "$mpi/hpcc-run" --simulator=nullmsg
check "two ranks (null messages) write one rank's FCTs, byte for byte" \
	cmp "$work/one.txt" "$work/two.txt"
check "two ranks, granted time window: all $flows flows end" \
	run window "${mpirun[@]}" -np 2 "$mpi/hpcc-run" --simulator=window
check "two ranks (granted time window) write one rank's FCTs, byte for byte" \
	cmp "$work/one.txt" "$work/window.txt"

tap_done
