#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Run the wren-fabric test suites and merge their TAP into one stream.
# usage: run-tests.sh <fabric build dir> <output .tap>
# Suites: unit tests (-O2 and ASan/UBSan builds) and the integration test
# against both fabric binaries.  Exits non-zero if anything failed.
set -u
out_dir=$1
tap=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC1091 # ours: tap_relay renumbers each suite's TAP
. "$here/../../../selftests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_suite() {
	local name=$1 rc=0
	shift
	"$@" >"$tmp/suite" 2>"$tmp/stderr" || rc=$?
	echo "# suite: $name"
	tap_relay "" "$tmp/suite"
	if [ "$rc" -ne 0 ] || [ -z "$TAP_RELAY_PLAN" ]; then
		# a crash or a sanitizer report: a failure of its own
		not_ok "$name exited with status $rc"
		sed 's/^/# /' "$tmp/stderr" | head -40
	fi
}

{
	run_suite "unit (-O2)" "$out_dir/test-unit"
	run_suite "unit (ASan/UBSan)" "$out_dir/san/test-unit"
	run_suite "integration (-O2 fabric)" "$out_dir/test-integration" "$out_dir/wren-fabric"
	run_suite "integration (ASan/UBSan fabric)" "$out_dir/test-integration" "$out_dir/san/wren-fabric"
	tap_done
	rc=$?
	echo "# fabric: $((TAP_COUNT - TAP_FAILED)) of $TAP_COUNT ok, $TAP_FAILED failed"
} >"$tmp/all"
mkdir -p "$(dirname "$tap")"
cp "$tmp/all" "$tap"
cat "$tap"
exit $rc
