#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Run one selftest in the bench guests and file each guest's TAP where the
# check summary counts it.
#
# usage: vmtest.sh TEST CHECK_DIR
#   TEST       path under selftests/ of an executable printing TAP
#   CHECK_DIR  where guest-<KVER>[-iommu]-<test>-g<i>.tap go
# Environment: as for vmrun.sh (RUN_DIR is chosen here).
#
# Each guest's TAP lines are renumbered, their descriptions prefixed with
# "g<i>/<KVER>[-iommu]: ", and a "not ok" is added when the guest did not
# finish, the script failed without saying so in TAP, or the plan was not
# met - so a crash or a hang is never counted as a pass.  Exit status 4
# (kselftest's KSFT_SKIP) is not a failure.
set -uo pipefail

test=${1:?usage: vmtest.sh TEST CHECK_DIR}
checkdir=${2:?usage: vmtest.sh TEST CHECK_DIR}
here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/../.." && pwd)}
N=${N:-2}
label=${KVER:-6.1}
[ "${IOMMU:-0}" = 1 ] && label+=-iommu
name=${test//\//_}
script=$top/selftests/$test
[ -x "$script" ] || { echo "vmtest: $script is not an executable test" >&2; exit 2; }
export RUN_DIR=${BUILD:-$top/build}/bench/vmtest-$label-$name

"$here/vmrun.sh" "$script"

# collect GUEST: print the guest's TAP, rewritten as described above.
collect() {
	local g=$1 tag="g$1/$label" n=0 bad=0 plan='' line desc result rc
	local out=$RUN_DIR/guest$g.out
	while IFS= read -r line; do
		case "$line" in
		"ok "* | "not ok "*)
			n=$((n + 1))
			desc=${line#*ok }
			desc=${desc#"${desc%%[!0-9]*}"}
			desc=${desc# }
			desc=${desc#- }
			case "$line" in
			"ok "*) echo "ok $n - $tag: $desc" ;;
			*) echo "not ok $n - $tag: $desc"; bad=1 ;;
			esac
			;;
		1..*) plan=${line#1..}; plan=${plan%% *} ;;
		"#"*) echo "$line" ;;
		esac
	done < <(cat "$out" 2>/dev/null)
	result=$(cat "$RUN_DIR/guest$g.result" 2>/dev/null || echo "no result")
	rc=$(cat "$RUN_DIR/guest$g.rc" 2>/dev/null || echo none)
	case "$result" in
	ok | "failed 4") ;;
	failed*)
		if [ $bad = 0 ]; then
			n=$((n + 1))
			echo "not ok $n - $tag: $test exited with status $rc"
		fi
		;;
	*)
		n=$((n + 1))
		echo "not ok $n - $tag: $test did not finish: $result"
		;;
	esac
	if [ -n "$plan" ] && [ "$plan" != 0 ] && [ "$n" -lt "$plan" ]; then
		n=$((n + 1))
		echo "not ok $n - $tag: $test planned $plan results, gave fewer"
	elif [ "$n" = 0 ] && [ "$plan" != 0 ]; then
		n=$((n + 1))
		echo "not ok $n - $tag: $test printed no TAP results"
	fi
	echo "1..$n"
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
