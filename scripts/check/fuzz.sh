#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-fuzz` (mk/fuzz.mk): for each libFuzzer harness of libwrenhw,
# replay every input of its in-tree corpus once (seeds and the inputs of
# bugs found, which must stay fixed), then fuzz it from that corpus for
# RUNS inputs with a fixed SEED, so that every machine runs the same
# mutations (not seconds' worth, which depend on its speed) and a failure
# seen in CI replays anywhere.  TAP (two lines a harness) in
# $(BUILD)/check/fuzz.tap, failures and a count printed; exits non-zero if
# any line is "not ok".  A failing harness's output is kept in
# $OUT/check-<harness>-{replay,run}.log.
#
# usage: check/fuzz.sh OUT CORPUS RUNS SEED HARNESS...  (OUT: $(BUILD)/fuzz)
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one
. "$SCRIPTS/lib/check.sh"
out=$1 corpus=$2 runs=$3 seed=$4
shift 4
opts=${FUZZ_OPTS:?set by mk/fuzz.mk}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

fuzz_tap() {
	n=0 failed=0
	echo "1..$(($# * 2))"
	for h in "$@"; do
		bin=$out/fuzz_$h
		# Replay: each file run once, by name (libFuzzer's plain driver).
		n=$((n + 1))
		files=$(find "$corpus/$h" -type f | sort)
		count=$(echo "$files" | grep -c .)
		# shellcheck disable=SC2086 # one argument per corpus file
		if [ "$count" -gt 0 ] && "$bin" $opts $files \
			>"$out/check-$h-replay.log" 2>&1; then
			echo "ok $n - fuzz: $h replays its $count corpus inputs"
		else
			echo "not ok $n - fuzz: $h corpus replay (see $out/check-$h-replay.log)"
			failed=1
		fi
		# A short run: new inputs to a scratch corpus, never into the tree.
		n=$((n + 1))
		rm -rf "$out/check-corpus/$h"
		mkdir -p "$out/check-corpus/$h" "$out/check-artifacts/$h"
		# shellcheck disable=SC2086 # libFuzzer options
		if "$bin" $opts -runs="$runs" -seed="$seed" -print_final_stats=1 \
			-artifact_prefix="$out/check-artifacts/$h/" \
			"$out/check-corpus/$h" "$corpus/$h" \
			>"$out/check-$h-run.log" 2>&1; then
			cov=$(sed -n 's/.*DONE *cov: *\([0-9]*\).*/\1/p' \
				"$out/check-$h-run.log")
			echo "ok $n - fuzz: $h runs $runs inputs (seed $seed) clean, cov ${cov:-?}"
		else
			echo "not ok $n - fuzz: $h short run (see $out/check-$h-run.log)"
			failed=1
		fi
	done
	return $failed
}

check_quiet fuzz fuzz_tap "$@"
