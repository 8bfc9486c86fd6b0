#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# selftests/bench/qemu-remap-race.sh as a loop of boots: BOOTS boots of
# one guest of two vCPUs, SECONDS of racing each, stopping at the first
# boot whose QEMU crashed or let an MMIO read stray to another region
# (REMAP_RACE_KEEP_GOING=1: go on, to count them).  It makes QEMU rebuild
# the memory map under a vCPU's MMIO, as a guest's PCI probing does at
# boot; QEMU 7.2 as released strayed and crashed there, and
# hw/qemu/patches/ carries the fix.  A boot whose QEMU died keeps its
# core and backtrace in its run directory (vmrun.sh).
#
# usage: remap-race.sh BOOTS SECONDS  (environment as for vmrun.sh; this
#        sets RUN_DIR, N, SMP and TIMEOUT)
# Prints a line per boot and "remap-race: B boots, C crashed, S with
# stray reads, ..."; exits 1 if any boot crashed, strayed or failed.
set -euo pipefail

boots=${1:?usage: remap-race.sh BOOTS SECONDS}
seconds=${2:?usage: remap-race.sh BOOTS SECONDS}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:?}"
base=$BUILD/bench/remap-race
rm -rf "$base"
mkdir -p "$base"

crashed=0 strayed=0 strays=0 failed=0 toggles=0 start=$SECONDS b=0
while [ $b -lt "$boots" ]; do
	b=$((b + 1))
	dir=$base/boot$b
	rc=0
	RUN_DIR=$dir N=1 SMP=2 TIMEOUT=$((seconds + 240)) \
		GUEST_ENV="${GUEST_ENV:-} WREN_REMAP_RACE_SECONDS=$seconds" \
		"$here/vmrun.sh" "$top/selftests/bench/qemu-remap-race.sh" >"$dir.log" 2>&1 || rc=$?
	result=$(cat "$dir/guest0.result" 2>/dev/null || echo "no result (vmrun exit $rc)")
	counts=$(sed -n 's/^# \(toggles [0-9]* accesses [0-9]* stray [0-9]*\)$/\1/p' \
		"$dir/guest0.out" 2>/dev/null || true)
	echo "remap-race: boot $b: $result${counts:+ ($counts)}"
	stray=0
	if [ -n "$counts" ]; then
		# shellcheck disable=SC2086 # "toggles N accesses M stray S"
		set -- $counts
		toggles=$((toggles + $2))
		stray=$6
	fi
	case $result in
	ok)
		rm -rf "$dir" "$dir.log"
		;;
	failed* | crashed*)
		if [[ $result == crashed* ]]; then
			crashed=$((crashed + 1))
			sed -n '/QEMU died of signal/,/^----$/p' "$dir.log"
		elif [ "$stray" -gt 0 ]; then
			strayed=$((strayed + 1))
			strays=$((strays + stray))
			grep '^# stray read' "$dir/guest0.out" | head -n 3
		else
			failed=$((failed + 1))
		fi
		echo "remap-race: boot $b kept in $dir ($dir.log)"
		[ "${REMAP_RACE_KEEP_GOING:-0}" = 1 ] || break
		;;
	*)
		failed=$((failed + 1))
		echo "remap-race: boot $b kept in $dir ($dir.log)"
		[ "${REMAP_RACE_KEEP_GOING:-0}" = 1 ] || break
		;;
	esac
done
echo "remap-race: $b boots, $crashed crashed, $strayed with stray reads ($strays reads)," \
	"$failed failed otherwise; $toggles decode toggles, $((SECONDS - start)) s"
[ $crashed = 0 ] && [ $strayed = 0 ] && [ $failed = 0 ]
