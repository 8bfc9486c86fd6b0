#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test of the bench's QEMU, on a guest of two vCPUs before any
# driver binds the Wren NIC: one vCPU turns the NIC's memory decode off
# and on (each time QEMU rebuilds the memory map) while the other
# accesses the NIC's registers (tests/qemu/remap_race.c).  QEMU 7.2 as
# released crashed under this now and then (memory_region_dispatch_write
# on a NULL region, hw/qemu/patches/0001-*); the guest dying fails the
# boot.  WREN_REMAP_RACE_SECONDS: how long (10).  Run as a loop of boots
# by tools/testbench/remap-race.sh (make remap-race).
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

bin=$WREN_TOP/build/tests/qemu/remap_race
seconds=${WREN_REMAP_RACE_SECONDS:-10}
plan 3

bdf=$(wren_bdf) || { not_ok "a Wren NIC is on the PCI bus"; skip "remap race" "no NIC"; skip "remap race counts" "no NIC"; tap_done; exit; }
ok "a Wren NIC is on the PCI bus ($bdf)"
dev=/sys/bus/pci/devices/$bdf
if [ "$(nproc)" -lt 2 ]; then
	skip "remap race" "needs two vCPUs"
	skip "remap race counts" "needs two vCPUs"
elif [ -e "$dev/driver" ]; then
	skip "remap race" "a driver holds the NIC"
	skip "remap race counts" "a driver holds the NIC"
elif out=$("$bin" "$seconds" "$dev" 2>&1); then
	ok "QEMU kept running for ${seconds}s of decode toggles under MMIO"
	diag "$out"
	# shellcheck disable=SC2086 # "toggles N accesses M"
	set -- $out
	if [ "${1:-}" = toggles ] && [ "${2:-0}" -gt 0 ] && [ "${4:-0}" -gt 0 ]; then
		ok "both vCPUs raced: $2 decode toggles, $4 register accesses"
	else
		not_ok "both vCPUs raced"
	fi
else
	not_ok "remap_race ran"
	diag "$out"
	skip "remap race counts" "remap_race failed"
fi
tap_done
