#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The guest side of vmtest.sh: this guest's selftests through kselftest's
# own runner, run_kselftest.sh of the tree `make kselftest-install` put in
# WREN_KSFT_DIR.
#
#   WREN_KSFT_TESTS  COLLECTION:TEST words in order, separated by commas; a
#                    word "gN:COLLECTION:TEST" is for guest N only (vmtest.sh builds the list from
#                    selftests/plan, or from T=)
#
# run_kselftest.sh runs its list collection by collection, so each run of
# consecutive tests of one collection is one run_kselftest.sh: the order
# of the list is kept, which the pair tests' barriers need.  Its output is
# ours, plus a "# TEST: N s" comment after each test (where a boot's time
# goes).  WREN_KSFT_TIMES=1 (GUEST_ENV) adds a "# @N s" comment after each
# result of a test, N seconds into it: where a test's time goes.  Exits 1
# if the runner reported any test as not ok.
# shellcheck disable=SC2317 # run's exit ends its pipeline's subshell, not run
set -u
set -o pipefail

ksft=${WREN_KSFT_DIR:?WREN_KSFT_DIR: the installed kselftest tree}
me=g${WREN_GUEST_INDEX:-0}
status=0

# run TEST...: one run_kselftest.sh over tests of one collection.
run() {
	local args=() t
	for t; do args+=(-t "$t"); done
	"$ksft/run_kselftest.sh" "${args[@]}" </dev/null 2>&1 | {
		bad=0 start=$SECONDS
		while IFS= read -r line; do
			echo "$line"
			case $line in
			"# ok "* | "# not ok "*)
				[ -z "${WREN_KSFT_TIMES:-}" ] ||
					echo "# @$((SECONDS - start)) s"
				;;
			"# selftests: "*) start=$SECONDS ;;
			"ok "*"selftests: "* | "not ok "*"selftests: "*)
				[ "${line%%ok *}" = "not " ] && bad=1
				t=${line#*selftests: *: } t=${t%% *}
				echo "# ${t%.sh}: $((SECONDS - start)) s"
				;;
			esac
		done
		exit $bad
	} || status=1
}

group=() coll=
tests=${WREN_KSFT_TESTS:?WREN_KSFT_TESTS: the tests to run}
for w in ${tests//,/ }; do
	case $w in
	g[0-9]*:*:*)
		[ "${w%%:*}" = "$me" ] || continue
		w=${w#*:}
		;;
	esac
	if [ "${w%%:*}" != "$coll" ] && [ ${#group[@]} -gt 0 ]; then
		run "${group[@]}"
		group=()
	fi
	coll=${w%%:*}
	group+=("$w")
done
[ ${#group[@]} -gt 0 ] && run "${group[@]}"
exit $status
