#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check`: run every test layer in order, then print one summary line
# "N passed, N failed, N skipped" counted over the TAP files the layers
# leave in $BUILD/check.  A layer that fails without saying so in TAP (a
# build error, a crash) is counted as one failure of its own.
. "$(dirname "$0")/lib/common.sh"
set +e # failures are handled here, one by one

CHECK=$BUILD/check
# The layers and their order: selftests/plan (make check-plan prints it).
# shellcheck disable=SC1091 # ours
. "$TOP/scripts/lib/plan.sh"
# shellcheck disable=SC1091 # ours
. "$TOP/scripts/lib/tap-count.sh"
LAYERS=${CHECK_LAYERS:-$(plan_layers | tr '\n' ' ')}

mkdir -p "$CHECK"
rm -f "$CHECK"/*.tap "$CHECK"/*.log

count_failures() {
	cat "$CHECK"/*.tap 2>/dev/null | grep -c '^not ok' || true
}

start_all=$(date +%s)
if ! make -C "$TOP" --no-print-directory deps >"$CHECK/deps.log" 2>&1; then
	echo "check: dependency installation failed, see $CHECK/deps.log"
	printf '1..1\nnot ok 1 - deps: make deps failed\n' >"$CHECK/deps.tap"
fi

for layer in $LAYERS; do
	log=$CHECK/$layer.log
	before=$(count_failures)
	start=$(date +%s)
	# hw and fuzz compile object by object; the other layers run one
	# script at a time, which is how their guests share the CPUs.
	case $layer in
	hw | fuzz) jobs=-j${JOBS:-2} ;;
	*) jobs= ;;
	esac
	# shellcheck disable=SC2086 # $jobs is empty or one word
	make -C "$TOP" --no-print-directory $jobs "check-$layer" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	after=$(count_failures)
	if [ "$rc" -ne 0 ] && [ "$after" -eq "$before" ]; then
		printf '1..1\nnot ok 1 - %s: make check-%s exited %d (%s)\n' \
			"$layer" "$layer" "$rc" "$log" >"$CHECK/$layer-exit.tap"
	fi
	printf 'check: %-8s rc=%d %4ds\n' "$layer" "$rc" "$secs"
	# A QEMU that crashed: vmrun.sh's report, the crashing thread's
	# backtrace, here where CI's log shows it.
	sed -n '/QEMU died of signal/,/^----$/p' "$log"
done

tap_count "$CHECK"

echo "check: total $(($(date +%s) - start_all))s; logs and TAP in $CHECK"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
