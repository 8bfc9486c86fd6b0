#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Run selftests in the bench guests with kselftest's runner and file each
# guest's TAP where the check summary counts it.
#
# usage: vmtest.sh TESTS CHECK_DIR
#   TESTS      a boot of selftests/plan (e.g. d612): its kernel, bench
#              variables, guest environment and each guest's tests; or
#              one or more COLLECTION/TEST words (driver/wren-probe.sh,
#              collection = directory under selftests/), run in every guest
#   CHECK_DIR  where guest-<KVER>[-iommu]-<name>-g<i>.tap go
# Environment: as for vmrun.sh (RUN_DIR is chosen here), plus KSFT_INSTALL
# (the tree of `make kselftest-install`) and GUEST_ENV (more VAR=value
# words for the guests).  For a boot, the caller (make vmtest B=) has
# already taken KVER, IOMMU, SMP, PCAP and RXE from the plan.
#
# Each guest runs tools/testbench/ksft-guest.sh, i.e. run_kselftest.sh over
# its tests.  Every result of every test is counted (the runner's nested
# TAP: selftests/lib/tap.sh, tap_relay_kselftest), renumbered, prefixed
# "g<i>/<KVER>[-iommu]: <test>: ", and a "not ok" is added when a test
# failed without saying so in TAP, timed out, gave fewer results than it
# planned, when the runner ran fewer tests than it planned, or when the
# guest did not finish - so a crash or a hang is never counted as a pass.
set -uo pipefail

tests=${1:?usage: vmtest.sh TESTS CHECK_DIR}
checkdir=${2:?usage: vmtest.sh TESTS CHECK_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/../.." && pwd)}
export TOP=$top
# shellcheck disable=SC1091 # ours
. "$top/scripts/lib/plan.sh"
# shellcheck disable=SC1091
. "$top/selftests/lib/tap.sh"
N=${N:-2}
label=${KVER:-6.1}
[ "${IOMMU:-0}" = 1 ] && label+=-iommu
ksft=${KSFT_INSTALL:-${BUILD:-$top/build}/kselftest}
[ -x "$ksft/run_kselftest.sh" ] || { echo "vmtest: no kselftest tree in $ksft (make kselftest-install)" >&2; exit 2; }

case $tests in
*/*)	# tests by path: every guest runs them all
	list='' name=''
	for t in $tests; do
		[ -x "$top/selftests/$t" ] || { echo "vmtest: $top/selftests/$t is not an executable test" >&2; exit 2; }
		grep -qx "${t%%/*}:${t#*/}" "$ksft/kselftest-list.txt" ||
			{ echo "vmtest: $t is not in its Makefile's TEST_PROGS" >&2; exit 2; }
		list+="${t%%/*}:${t#*/} "
		name+=${name:++}${t//\//_}
	done
	;;
*)	# a boot of the plan
	plan_boot "$tests" >/dev/null || exit 2
	list=''
	while read -r t who; do
		case $who in
		"*") list+="$t " ;;
		*) list+="$who:$t " ;;
		esac
	done < <(plan_boot_tests "$tests")
	name=$tests
	GUEST_ENV="$PLAN_GUESTENV ${GUEST_ENV:-}"
	;;
esac
export RUN_DIR=${BUILD:-$top/build}/bench/vmtest-$label-$name
list=${list% }
export GUEST_ENV="${GUEST_ENV:-} WREN_KSFT_DIR=$ksft WREN_KSFT_TESTS=${list// /,}"

t0=$SECONDS
"$here/vmrun.sh" "$here/ksft-guest.sh"
# A boot's wall time, start to poweroff, for the check budget's tables.
echo "vmtest: $label-$name ran $((SECONDS - t0)) s"

# gpu_mem_check GUEST: with GPU=1, what the guest's tests left in its
# GPU's memory (gpu-expect lines in its results) checked in the file
# behind the BAR, from outside the guest.
gpu_mem_check() {
	local g=$1 line bin=${BUILD:-$top/build}/tests/gpu/gpu_mem_check
	[ "${GPU:-0}" = 1 ] && [ -s "$RUN_DIR/g$g/gpu-expect" ] || return 0
	if [ ! -x "$bin" ]; then
		not_ok "host: GPU memory check: $bin is not built (make rdma-tests)"
		return
	fi
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "host: ${line#ok - }" ;;
		"not ok - "*) not_ok "host: ${line#not ok - }" ;;
		esac
	done < <("$bin" "$RUN_DIR/gpu$g.mem" "$RUN_DIR/g$g/gpu-expect" 2>&1)
}

# collect GUEST: print the guest's TAP, rewritten as described above.
collect() {
	local g=$1 result rc
	TAP_COUNT=0 TAP_FAILED=0 TAP_PLANNED='' TAP_PREFIX="g$g/$label: "
	tap_relay_kselftest "$RUN_DIR/guest$g.out" 2>/dev/null
	TAP_PREFIX="g$g/$label: "
	result=$(cat "$RUN_DIR/guest$g.result" 2>/dev/null || echo "no result")
	rc=$(cat "$RUN_DIR/guest$g.rc" 2>/dev/null || echo none)
	gpu_mem_check "$g"
	case "$result" in
	ok | "failed "*) ;;
	*) not_ok "$name did not finish: $result" ;;
	esac
	if [ "$TAP_RELAY_TESTS" -lt "$TAP_RELAY_PLANNED" ]; then
		not_ok "kselftest's runner planned $TAP_RELAY_PLANNED tests, reported $TAP_RELAY_TESTS"
	elif [ "$TAP_COUNT" = 0 ]; then
		not_ok "$name printed no TAP results"
	elif [ "$rc" != 0 ] && [ "$TAP_FAILED" = 0 ]; then
		not_ok "$name: the guest's runner exited with status $rc"
	fi
	echo "1..$TAP_COUNT"
}

mkdir -p "$checkdir"
# A run with fewer guests than the last one must not leave old files counted.
rm -f "$checkdir/guest-$label-$name-g"*.tap
status=0
for ((g = 0; g < N; g++)); do
	tap=$checkdir/guest-$label-$name-g$g.tap
	collect "$g" >"$tap"
	grep -q '^not ok' "$tap" && status=1
	echo "vmtest: $tap: $(grep -c '^ok' "$tap") ok, $(grep -c '^not ok' "$tap") not ok"
done
exit $status
