#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Host test of wren_mpi_check (selftests/rdma/wren_mpi_check.c) with Open
# MPI on this machine, no guest: the checks over 4 ranks on shared memory
# (btl vader, osc rdma), over 2 ranks on TCP through loopback (btl tcp, osc
# pt2pt: what the guests' control-network run uses), one run with a
# corrupted rank that must fail every check, and the --bench line.  The
# program's TAP lines are relayed with the run's name in front.  TAP on
# stdout.
#
#   MPI_CHECK=build/apps/wren_mpi_check selftests/host/mpi-host.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck disable=SC1091 # ours
. "$top/selftests/lib/tap.sh"

prog=${MPI_CHECK:-$top/build/apps/wren_mpi_check}
# As root (CI), on however many cores; a hung job is a failure, not a
# stuck check.
mpirun=(timeout -k 5 120 mpirun --allow-run-as-root --oversubscribe)
shm=(--mca btl "self,vader" --mca pml ob1)
# Loopback only, so the run needs no network of the host's.  Debian's
# openmpi-mca-params.conf leaves osc pt2pt out; osc rdma cannot use tcp.
tcp=(--mca btl "self,tcp" --mca pml ob1 --mca btl_tcp_if_include lo
	--mca oob_tcp_if_include lo --mca osc pt2pt)
out=$(mktemp "${TMPDIR:-/tmp}/wren-mpi.XXXXXX")
trap 'rm -f "$out"' EXIT

if [ ! -x "$prog" ]; then
	plan 1
	not_ok "wren_mpi_check built" && diag "$prog missing: make mpi-check"
	tap_done
	exit 1
fi

# relay NAME RC: the program's TAP in $out, renumbered into ours; then a
# check that it ran every planned check and exited 0.
relay() {
	tap_relay "$1: " "$out"
	if [ "$2" = 0 ] && [ -n "$TAP_RELAY_PLAN" ] && [ "$TAP_RELAY_COUNT" = "$TAP_RELAY_PLAN" ]; then
		ok "$1: $TAP_RELAY_COUNT of $TAP_RELAY_PLAN checks ran, exit status 0"
	else
		not_ok "$1: $TAP_RELAY_COUNT of ${TAP_RELAY_PLAN:-?} checks ran, exit status $2"
	fi
}

start=$SECONDS
rc=0
"${mpirun[@]}" -np 4 "${shm[@]}" "$prog" >"$out" 2>&1 || rc=$?
relay "np 4 shm" "$rc"

rc=0
"${mpirun[@]}" -np 2 "${tcp[@]}" "$prog" >"$out" 2>&1 || rc=$?
relay "np 2 tcp" "$rc"

# The checks can fail: rank 2 adds one wrong element to each of its
# contributions, and every check (each sees rank 2's data on some rank)
# must say not ok, with the job's exit status non-zero.
rc=0
"${mpirun[@]}" -np 4 "${shm[@]}" "$prog" --corrupt 2 >"$out" 2>&1 || rc=$?
planned=$(sed -n 's/^1\.\.//p' "$out")
bad=$(grep -c '^not ok ' "$out")
good=$(grep -c '^ok ' "$out")
if [ "$rc" != 0 ] && [ -n "$planned" ] && [ "$bad" = "$planned" ] && [ "$good" = 0 ]; then
	ok "np 4 shm, rank 2 corrupt: all $bad checks not ok, exit status $rc"
else
	not_ok "np 4 shm, rank 2 corrupt: all checks not ok, exit status non-zero"
	diag "exit status $rc, $bad not ok and $good ok of ${planned:-?} planned"
	diag "$(cat "$out")"
fi

rc=0
"${mpirun[@]}" -np 4 "${shm[@]}" "$prog" --bench --iters 20 >"$out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && grep -Eqx 'allreduce_8B_us=[0-9]+\.[0-9] allreduce_1MiB_us=[0-9]+\.[0-9]' "$out"; then
	ok "np 4 shm --bench: one line of medians"
	diag "$(cat "$out")"
else
	not_ok "np 4 shm --bench: one line of medians"
	diag "exit status $rc"
	diag "$(cat "$out")"
fi
diag "wren_mpi_check host runs: $((SECONDS - start)) s"
tap_done
