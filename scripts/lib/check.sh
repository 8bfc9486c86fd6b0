# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=sh
#
# The shared steps of the scripts/check/<layer>.sh scripts, sourced after
# lib/common.sh.  Each layer leaves its TAP in $CHECK (the files that
# scripts/check.sh and lib/tap-count.sh count) and prints a summary.
#
#   check_tap NAME CMD...     run CMD with its stdout into $CHECK/NAME.tap
#                             (through NAME.tap.tmp, so that a file there is
#                             always whole), print the file, return CMD's
#                             status
#   check_quiet NAME CMD...   the same, printing only its failures and
#                             comments and "NAME: N passed, N failed"
#   check_summary NAME TAP... that summary of TAP files
#   check_guests LAYER APPEND BOOT...
#                             a guest layer's boots of selftests/plan: the
#                             bench's own dependencies once for every
#                             kernel they use, then each boot announced and
#                             run (make vmtest, VMTEST_DEPS=0); non-zero if
#                             any step failed (needs lib/plan.sh)
#   check_result RC DESC [LOG] one result of a layer that runs its steps
#                             itself: ok for RC 0, a skip for 77 (the
#                             reason in LOG), else not ok with LOG's last
#                             40 lines as comments; counted in
#                             check_count and check_failed
#
# All of them work under set -e: a failing CMD is a status, not an exit.

CHECK=$BUILD/check
mkdir -p "$CHECK"

check_run() {
	_n=$1
	shift
	_rc=0
	"$@" >"$CHECK/$_n.tap.tmp" || _rc=$?
	mv "$CHECK/$_n.tap.tmp" "$CHECK/$_n.tap"
	return $_rc
}

check_tap() {
	_rc=0
	check_run "$@" || _rc=$?
	cat "$CHECK/$1.tap"
	return $_rc
}

check_summary() {
	_n=$1
	shift
	cat "$@" | grep -E '^(not ok|# )' || true
	echo "$_n: $(cat "$@" | grep -c '^ok') passed," \
	     "$(cat "$@" | grep -c '^not ok') failed"
}

check_quiet() {
	_rc=0
	check_run "$@" || _rc=$?
	check_summary "$1" "$CHECK/$1.tap"
	return $_rc
}

check_count=0
check_failed=0
check_result() {
	check_count=$((check_count + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $check_count - $2"
	elif [ "$1" -eq 77 ]; then
		echo "ok $check_count - $2 # SKIP $(cat "$3")"
	else
		check_failed=$((check_failed + 1))
		echo "not ok $check_count - $2${3:+ (log: $3)}"
		[ -z "${3:-}" ] || sed 's/^/# /' "$3" | tail -n 40
	fi
}

check_guests() {
	_layer=$1 _append=$2 _rc=0
	shift 2
	for _kver in $(plan_kvers "$@"); do
		make -C "$TOP" --no-print-directory vmtest-deps KVER="$_kver" || _rc=1
	done
	for _b in "$@"; do
		echo "check-$_layer: $(plan_boot "$_b" | sed "s/^$_layer /$_b: KVER=/")"
		make -C "$TOP" --no-print-directory vmtest B="$_b" APPEND="$_append" \
			TIMEOUT=1200 VMTEST_DEPS=0 || _rc=1
	done
	return $_rc
}
