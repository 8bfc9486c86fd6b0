#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-bench` (mk/bench.mk, which passes the bench's variables):
# the test bench's own test, selftests/bench/run.sh, TAP in TAPFILE
# ($BUILD/check/bench.tap for 6.1, bench-<KVER>.tap for another KVER),
# its runs in $BUILD/bench/check-bench-$KVER.
#
# usage: check/bench.sh TAPFILE
. "$(dirname "$0")/../lib/common.sh"
set +e # the TAP is printed whatever the status

tap=${1:?usage: check/bench.sh TAPFILE}
BENCH_OUT=$BUILD/bench/check-bench-${KVER:?set by mk/bench.mk}
export BENCH_OUT
mkdir -p "$(dirname "$tap")" "$BENCH_OUT"
"$TOP/selftests/bench/run.sh" >"$tap"
rc=$?
grep -v '^#' "$tap"
exit $rc
