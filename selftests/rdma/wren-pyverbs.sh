#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: rdma-core 56.1's python test suite (tests/run_tests.py over
# pyverbs, from the bench's build) against the local Wren device alone.
# Its tests pair QPs on the one device, so their traffic goes through the
# device's loopback; no peer is needed, and both guests of a pair may run
# this at the same time.  One TAP line per unittest result: a pass, a
# failure or error, or a skip with unittest's reason (the device said a
# feature is absent, or the test is for another vendor's device).  The
# suite crashing, hanging past WREN_PYVERBS_TIMEOUT (default 900 s), or
# its summary disagreeing with the parsed lines is a failure.  The full
# output is kept in $WREN_RESULTS/pyverbs.{err,out}.
#
# WREN_PYVERBS_SHARDS=N: the guests of a boot share the suite, each
# running every Nth of its test modules (sorted by name) from its own
# index (WREN_GUEST_INDEX), so that the pair pays for half of it each.
#
# Measured under TCG (one guest): 321 tests, 122 passed and 199 skipped
# on 6.12, 120 and 201 on 6.1 (whose ib_core has no FLUSH access flags);
# the skips are other vendors' tests, no GPU, and features the device
# lacks (rdma.rst).  This test 78-120 s on 6.1 and 6.12; make check runs
# it on 6.12 and, in two shards, on 6.1, make check-debug on 6.1-debug
# (selftests/plan).
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-pyverbs.sh
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

limit=${WREN_PYVERBS_TIMEOUT:-900}
res=${WREN_RESULTS:-/tmp}
dmesg -C

# setup_failed DESC [DIAG]: nothing can run; say so and stop.
setup_failed() {
	not_ok "$1"
	[ -n "${2:-}" ] && diag "$2"
	wren_ib_unload 2>/dev/null
	rmmod wren 2>/dev/null
	tap_done
	exit 1
}

rdma_env_check 2>"$res/pyverbs-env.err" ||
	setup_failed "the bench's rdma-core build with libwren is in place" "$(cat "$res/pyverbs-env.err")"
suite=$WREN_RDMA_CORE/bin/run_tests.py
if [ ! -x "$suite" ] || ! ls "$WREN_RDMA_CORE"/python/pyverbs/device.*.so >/dev/null 2>&1; then
	setup_failed "rdma-core was built with pyverbs and tests/run_tests.py"
fi
# The rdma_cm tests need the user CM.
modprobe rdma_ucm || setup_failed "modprobe rdma_ucm"
rdma_wren_up || setup_failed "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF, RoCE v2 GID index $RDMA_WREN_GID for $WREN_IP"

# A few 2 MiB huge pages, so that the tests which use them get as far as
# asking the device (they skip for "no huge pages allocated" otherwise).
hp=/proc/sys/vm/nr_hugepages
hp_was=$(cat "$hp" 2>/dev/null || echo 0)
echo 8 >"$hp" 2>/dev/null || diag "could not reserve huge pages"

# This guest's shard: its test modules by name (no names: all of them).
shards=${WREN_PYVERBS_SHARDS:-1}
mods=()
if [ "$shards" -gt 1 ]; then
	# The suite's sources: the directory rdma-core's wrapper runs from.
	src=$(sed -n "s|.*'\([^']*\)/run_tests.py'.*|\1|p" "$suite")
	i=0
	for f in "$src"/test_*.py; do
		[ $((i % shards)) = "${WREN_GUEST_INDEX:-0}" ] &&
			mods+=("$(basename "$f" .py)")
		i=$((i + 1))
	done
	[ ${#mods[@]} -gt 0 ] ||
		setup_failed "shard ${WREN_GUEST_INDEX:-0} of $shards has test modules" "sources: ${src:-?}"
	diag "shard ${WREN_GUEST_INDEX:-0} of $shards: ${#mods[@]} of $i modules"
fi
# The GID of the Wren address, as the other RoCE tests use; unittest's
# stream (stderr) is what gets parsed, the tests' own prints stay apart.
t0=$SECONDS
timeout -k 10 "$limit" "$suite" --dev "$RDMA_WREN_DEV" --port 1 --gid "$RDMA_WREN_GID" -v \
	"${mods[@]}" </dev/null >"$res/pyverbs.out" 2>"$res/pyverbs.err"
rc=$?
took=$((SECONDS - t0))
[ "$rc" = 124 ] && diag "run_tests.py killed after $limit s"
while IFS=$'\t' read -r kind desc reason; do
	case $kind in
	ok) ok "$desc" ;;
	fail) not_ok "$desc" ;;
	skip) skip "$desc" "$reason" ;;
	*) diag "$desc" ;;
	esac
done < <(python3 "$WREN_TOP/selftests/rdma/unittest_tap.py" --rc "$rc" --elapsed "$took" "$res/pyverbs.err" ||
	printf 'fail\tunittest_tap.py read the suite output\n')

echo "$hp_was" >"$hp" 2>/dev/null

check_dmesg "no kernel warnings"
# The next test of a shared boot loads the modules itself.
check "rmmod wren_ib and wren" wren_unload
tap_done
