#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-hw` (mk/hw.mk, which builds the programs first): the
# libwrenhw host tests under ASan and UBSan, TAP in $BUILD/check/hw.tap,
# and the engine benchmark's smoke run (mk/bench-engine.mk) that keeps it
# working, its own TAP in hw-engine-bench.tap, counted with the tests.
#
# usage: check/hw.sh
. "$(dirname "$0")/../lib/common.sh"
set +e # both programs run; the status is the worse of the two
. "$SCRIPTS/lib/check.sh"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
check_run hw "$BUILD/hw/wrenhw-tests"
rc=$?
check_run hw-engine-bench "$BUILD/hw/engine-bench-smoke" --smoke || rc=1
check_summary hw "$CHECK/hw.tap" "$CHECK/hw-engine-bench.tap"
exit $rc
