#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Run the wren-fabric test suites and merge their TAP into one stream.
# usage: run-tests.sh <fabric build dir> <output .tap>
# Suites: unit tests (-O2 and ASan/UBSan builds) and the integration test
# against both fabric binaries.  Exits non-zero if anything failed.
set -eu
out_dir=$1
tap=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

n=0
failed=0
emit() { printf '%s\n' "$*" >>"$tmp/all"; echo "$*"; }

run_suite() {
	name=$1
	shift
	rc=0
	"$@" >"$tmp/suite" 2>"$tmp/stderr" || rc=$?
	emit "# suite: $name"
	# renumber "ok N"/"not ok N" into one sequence; drop inner plans
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			case $line in
			"not ok "*) failed=$((failed + 1)); status="not ok" ;;
			*) status="ok" ;;
			esac
			desc=$(printf '%s\n' "$line" | sed -E 's/^(not )?ok [0-9]+ ?//')
			emit "$status $n $desc"
			;;
		1..*) ;;
		*) emit "$line" ;;
		esac
	done <"$tmp/suite"
	if [ "$rc" -ne 0 ] || ! grep -q '^1\.\.' "$tmp/suite"; then
		# a crash or sanitizer report: make it a failure of its own
		n=$((n + 1))
		failed=$((failed + 1))
		emit "not ok $n - $name exited with status $rc"
		sed 's/^/# /' "$tmp/stderr" | head -40 | while IFS= read -r l; do emit "$l"; done
	fi
}

: >"$tmp/all"
run_suite "unit (-O2)" "$out_dir/test-unit"
run_suite "unit (ASan/UBSan)" "$out_dir/san/test-unit"
run_suite "integration (-O2 fabric)" "$out_dir/test-integration" "$out_dir/wren-fabric"
run_suite "integration (ASan/UBSan fabric)" "$out_dir/test-integration" "$out_dir/san/wren-fabric"
emit "1..$n"
mkdir -p "$(dirname "$tap")"
cp "$tmp/all" "$tap"
echo "# fabric: $((n - failed)) passed, $failed failed" >&2
[ "$failed" -eq 0 ]
