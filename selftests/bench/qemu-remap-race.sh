#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test of the bench's QEMU, on a guest of two vCPUs before any
# driver binds the Wren NIC: one vCPU turns the NIC's memory decode off
# and on (each time QEMU rebuilds the memory map) while the other
# accesses the NIC's BARs (selftests/bench/remap_race.c).  QEMU 7.2 as
# released let such an access reach another region (a stray read) or
# crash (memory_region_dispatch_write on a NULL region), fixed by
# hw/qemu/patches/0001-*; a crash fails the boot.
# WREN_REMAP_RACE_SECONDS: how long (10).  Run as a loop of boots by
# tools/testbench/remap-race.sh (make remap-race).
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

bin=$WREN_TOP/build/tests/qemu/remap_race
seconds=${WREN_REMAP_RACE_SECONDS:-10}
plan 4

skip_rest() {
	skip "both vCPUs raced" "$1"
	skip "no stray MMIO reads" "$1"
}

bdf=$(wren_bdf) || {
	not_ok "a Wren NIC is on the PCI bus"
	skip "remap_race ran for ${seconds}s" "no NIC"
	skip_rest "no NIC"
	tap_done
	exit
}
ok "a Wren NIC is on the PCI bus ($bdf)"
dev=/sys/bus/pci/devices/$bdf
if [ "$(nproc)" -lt 2 ]; then
	skip "remap_race ran for ${seconds}s" "needs two vCPUs"
	skip_rest "needs two vCPUs"
elif [ -e "$dev/driver" ]; then
	skip "remap_race ran for ${seconds}s" "a driver holds the NIC"
	skip_rest "a driver holds the NIC"
else
	rc=0
	out=$("$bin" "$seconds" "$dev" 2>&1) || rc=$?
	diag "$out"
	# shellcheck disable=SC2046 # "toggles N accesses M stray S"
	set -- $(head -n 1 <<<"$out")
	if [ "${1:-}" != toggles ] || [ $rc -gt 1 ]; then
		not_ok "remap_race ran for ${seconds}s (exit $rc)"
		skip_rest "remap_race failed"
	else
		ok "remap_race ran for ${seconds}s"
		if [ "${2:-0}" -gt 0 ] && [ "${4:-0}" -gt 0 ]; then
			ok "both vCPUs raced: $2 decode toggles, $4 MMIO accesses"
		else
			not_ok "both vCPUs raced: $2 decode toggles, $4 MMIO accesses"
		fi
		if [ "${6:-x}" = 0 ]; then
			ok "no stray MMIO reads"
		else
			not_ok "no stray MMIO reads: ${6:-?} reached another region"
		fi
	fi
fi
tap_done
