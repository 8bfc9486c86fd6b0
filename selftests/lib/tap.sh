# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# TAP helpers for shell tests (kselftest style), host or guest:
#
#   . "$WREN_TOP/selftests/lib/tap.sh"
#   plan 3                     # optional; tap_done prints it otherwise
#   check "eth0 is up" ip link show eth0 up
#   ok "something"; not_ok "something else"; skip "thing" "why"
#   tap_done                   # prints the plan if needed, returns 1 on failure
#
# Descriptions get $TAP_PREFIX in front (e.g. "g0/6.1: "), so that lines from
# several guests and kernels stay distinct when they are counted together.

TAP_COUNT=0
TAP_FAILED=0
TAP_PLANNED=
TAP_PREFIX=${TAP_PREFIX:-}

plan() {
	TAP_PLANNED=$1
	echo "1..$1"
}

ok() {
	TAP_COUNT=$((TAP_COUNT + 1))
	echo "ok $TAP_COUNT - $TAP_PREFIX$1"
}

not_ok() {
	TAP_COUNT=$((TAP_COUNT + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_COUNT - $TAP_PREFIX$1"
}

# skip DESCRIPTION REASON
skip() {
	TAP_COUNT=$((TAP_COUNT + 1))
	echo "ok $TAP_COUNT - $TAP_PREFIX$1 # SKIP $2"
}

# Diagnostics: TAP consumers ignore lines that start with '#'.
diag() {
	local line
	while IFS= read -r line; do
		echo "# $line"
	done <<<"$*"
}

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds; its output is
# shown as diagnostics only when it fails.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc"
		[ -n "$out" ] && diag "$out"
	fi
	return 0
}

# tap_done: print the plan if none was given up front, flag a plan that
# does not match what ran, and return non-zero if anything failed.
tap_done() {
	if [ -z "$TAP_PLANNED" ]; then
		echo "1..$TAP_COUNT"
	elif [ "$TAP_PLANNED" != "$TAP_COUNT" ]; then
		echo "# planned $TAP_PLANNED tests but ran $TAP_COUNT"
		return 1
	fi
	[ "$TAP_FAILED" = 0 ]
}
