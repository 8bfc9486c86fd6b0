#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-sim` (mk/sim.mk, which builds the programs first): the
# ns-3 experiments that make check runs, each printing its figures as
# comments and its criteria as TAP, and the simulation's tests
# (sim/tests/*.sh), TAP in $BUILD/check/sim-*.tap.
#
# usage: check/sim.sh EXPERIMENT...
. "$(dirname "$0")/../lib/common.sh"
set +e # every experiment runs; the status is the worst
. "$SCRIPTS/lib/check.sh"

rc=0
for e in "$@"; do
	check_run "sim-$e" "$BUILD/sim/$e" || rc=1
done
for t in "$TOP"/sim/tests/*.sh; do
	check_run "sim-$(basename "$t" .sh)" "$t" "$BUILD/sim" || rc=1
done
check_summary sim "$CHECK"/sim-*.tap
exit $rc
