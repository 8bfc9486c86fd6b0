#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make check-debug`: the guest boots of selftests/plan's "debug" layer on
# the debug kernel (tools/testbench/kernel-debug-build.sh: KASAN, UBSAN,
# lockdep, kmemleak, DMA API debugging, fault injection), each ending with
# wren-debug-reports.sh, which fails on any report the checkers made.
# Not part of `make check`: the kernel's cold build alone takes longer than
# the check's whole budget allows (README.md, "make check-debug").  TAP in
# $BUILD/check-debug; ends with the same summary line as make check.
#
# usage: check/debug.sh
. "$(dirname "$0")/../lib/common.sh"
set +e # failures are handled here, one by one

export TOP BUILD
CHECK=$BUILD/check-debug
# shellcheck disable=SC1091 # ours
. "$TOP/scripts/lib/plan.sh"
# shellcheck disable=SC1091 # ours
. "$TOP/scripts/lib/tap-count.sh"
boots=${DEBUG_BOOTS:-$(plan_boots debug)}
mkdir -p "$CHECK"
rm -f "$CHECK"/*.tap
status=0
start_all=$(date +%s)

step() {
	local what=$1
	shift
	if ! "$@" >>"$CHECK/build.log" 2>&1; then
		echo "check-debug: $what failed, see $CHECK/build.log"
		status=1
		return 1
	fi
}

"$TOP/scripts/deps/kernel.sh" >>"$CHECK/build.log" 2>&1 || status=1
# shellcheck disable=SC2086 # boot names
for kver in $(plan_kvers $boots); do
	t0=$(date +%s)
	step "the $kver kernel" make -C "$TOP" --no-print-directory kernel KVER="$kver" &&
		echo "check-debug: kernel $kver ready in $(($(date +%s) - t0)) s"
	step "modules for $kver" make -C "$TOP" --no-print-directory modules KVER="$kver"
	step "GPU modules for $kver" make -C "$TOP" --no-print-directory gpu-modules KVER="$kver"
	step "peer-memory test modules for $kver" \
		make -C "$TOP" --no-print-directory peer-test-modules KVER="$kver"
	step "the bench for $kver" make -C "$TOP" --no-print-directory vmtest-deps KVER="$kver"
done
step "rdma-core and the verbs tests" make -C "$TOP" --no-print-directory rdma-tests

# As check-driver's, and longer still: a debug kernel under TCG is several
# times slower.  Debian's LSMs without TOMOYO, which panics when one of
# its allocations fails before a policy is loaded (seen in an exec during
# wren-fault-inject.sh: tomoyo_warn_oom); nothing here uses it.
append=${APPEND:-watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=240 hung_task_timeout_secs=600 lsm=landlock,lockdown,yama,integrity,apparmor,bpf}
for b in $boots; do
	t0=$(date +%s)
	echo "check-debug: $(plan_boot "$b" | sed "s/^debug /$b: KVER=/")"
	make -C "$TOP" --no-print-directory vmtest B="$b" APPEND="$append" \
		TIMEOUT=3000 VMTEST_DEPS=0 CHECK_DIR="$CHECK" >"$CHECK/$b.log" 2>&1 || status=1
	echo "check-debug: $b took $(($(date +%s) - t0)) s"
done

tap_count "$CHECK"
if [ "$status" != 0 ] && [ "$failed" = 0 ]; then
	failed=1
	echo "FAIL: a build or boot failed without a failing test, see $CHECK"
fi
echo "check-debug: total $(($(date +%s) - start_all))s; logs and TAP in $CHECK"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
