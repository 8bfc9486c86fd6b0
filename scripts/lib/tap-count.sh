# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# tap_count DIR: count the results of every DIR/*.tap into the globals
# passed, failed and skipped, printing "FAIL <file>: <line>" for each
# failure.  Sourced by scripts/check.sh and scripts/check/debug.sh, whose
# summary lines are these counts.
tap_count() {
	local tap line
	passed=0 failed=0 skipped=0
	for tap in "$1"/*.tap; do
		[ -e "$tap" ] || continue
		# shellcheck disable=SC2094 # basename only reads the name
		while IFS= read -r line; do
			case "$line" in
			"not ok"*)
				failed=$((failed + 1))
				echo "FAIL $(basename "$tap" .tap): $line" ;;
			"ok "*"# SKIP"* | "ok "*"# skip"*)
				skipped=$((skipped + 1)) ;;
			"ok "*)
				passed=$((passed + 1)) ;;
			esac
		done <"$tap"
	done
}
