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
# tap_all_ok TAP: the TAP text has an "ok" and no "not ok" line.
tap_all_ok() {
	! grep -q '^not ok' <<<"$1" && grep -q '^ok ' <<<"$1"
}

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

# tap_relay PREFIX [FILE]: re-emit another program's TAP (FILE, default
# stdin) as results of this stream: renumbered, PREFIX put in front of each
# description, "# SKIP" kept, "#" lines passed on, other lines made
# diagnostics.  Takes kselftest's "ok N desc" and the "ok N - desc" form.
# Sets TAP_RELAY_COUNT (results), TAP_RELAY_FAILED and TAP_RELAY_PLAN (the
# other program's plan, empty if it printed none).
tap_relay() {
	local prefix=$1 file=${2:-/dev/stdin} line desc saved=$TAP_PREFIX
	TAP_RELAY_COUNT=0 TAP_RELAY_FAILED=0 TAP_RELAY_PLAN=''
	TAP_PREFIX=$saved$prefix
	while IFS= read -r line; do
		case $line in
		"ok "* | "not ok "*)
			TAP_RELAY_COUNT=$((TAP_RELAY_COUNT + 1))
			_tap_result "$line" || TAP_RELAY_FAILED=$((TAP_RELAY_FAILED + 1))
			;;
		1..*) TAP_RELAY_PLAN=${line#1..} TAP_RELAY_PLAN=${TAP_RELAY_PLAN%% *} ;;
		"TAP version"* | "") ;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done <"$file"
	TAP_PREFIX=$saved
}

# tap_relay_cases PREFIX FILE N WHAT [WHY]: tap_relay PREFIX FILE, then a
# failure for each of the N results the program should have given and
# did not ("PREFIXWHAT K did not run (WHY)"), as after a crash.
tap_relay_cases() {
	local n0=$TAP_COUNT
	tap_relay "$1" "$2"
	while [ $((TAP_COUNT - n0)) -lt "$3" ]; do
		not_ok "$1$4 $((TAP_COUNT - n0 + 1)) did not run${5:+ ($5)}"
	done
}

# _tap_result LINE: one "ok"/"not ok" line of another stream as ours;
# returns 1 for "not ok".
_tap_result() {
	local line=$1 desc why
	desc=${line#*ok }
	desc=${desc#"${desc%%[!0-9]*}"}
	desc=${desc# }
	desc=${desc#- }
	case $line in
	"not ok "*) not_ok "$desc"; return 1 ;;
	*"# SKIP"* | *"# skip"*)
		why=${line#*# [Ss][Kk][Ii][Pp]} desc=${desc%%# [Ss][Kk][Ii][Pp]*}
		skip "${desc% }" "${why# }"
		;;
	*) ok "$desc" ;;
	esac
	return 0
}

# tap_relay_kselftest [FILE]: kselftest's runner output (run_kselftest.sh:
# "# selftests: COLLECTION: TEST", the test's own TAP indented by "# ",
# then "ok N selftests: ..." or "not ok N selftests: ... # exit=RC |
# # TIMEOUT S seconds" or "ok ... # SKIP") as this stream's results: every
# result of every test counted, its description prefixed "TEST: " (TEST
# without .sh); a test that failed without a failing result, timed out,
# gave fewer results than it planned, or was skipped without a result adds
# one result of its own.  Sets TAP_RELAY_TESTS (tests the runner reported)
# and TAP_RELAY_PLANNED (the runner's plans added up).
tap_relay_kselftest() {
	local file=${1:-/dev/stdin} line name='' sub=0 bad=0 plan='' saved=$TAP_PREFIX why
	TAP_RELAY_TESTS=0 TAP_RELAY_PLANNED=0
	while IFS= read -r line; do
		case $line in
		"# selftests: "*)
			name=${line##*: } name=${name%.sh} sub=0 bad=0 plan=
			TAP_PREFIX="$saved$name: "
			;;
		"# ok "* | "# not ok "*)
			sub=$((sub + 1))
			_tap_result "${line#\# }" || bad=1
			;;
		"# 1.."*) plan=${line#\# 1..} plan=${plan%% *} ;;
		"# TAP version"*) ;;
		"ok "*"selftests: "* | "not ok "*"selftests: "*)
			TAP_RELAY_TESTS=$((TAP_RELAY_TESTS + 1))
			TAP_PREFIX="$saved$name: "
			case $line in
			"not ok "*"# TIMEOUT"*)
				not_ok "killed by kselftest's runner after ${line##*# TIMEOUT }" ;;
			"not ok "*)
				why=${line##*# exit=}
				[ "$bad" = 1 ] || not_ok "exited with status ${why%% *}" ;;
			*"# SKIP"*)
				[ "$sub" -gt 0 ] || skip "$name" "exit status 4 (KSFT_SKIP)" ;;
			esac
			if [ -n "$plan" ] && [ "$sub" -lt "$plan" ]; then
				not_ok "planned $plan results, gave $sub"
			fi
			TAP_PREFIX=$saved name=
			;;
		1..*) plan=${line#1..} TAP_RELAY_PLANNED=$((TAP_RELAY_PLANNED + ${plan%% *})) plan= ;;
		"TAP version"* | "") ;;
		*) echo "$line" ;;
		esac
	done <"$file"
	TAP_PREFIX=$saved
}
