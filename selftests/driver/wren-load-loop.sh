#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: 20 rounds of loading and unloading wren.ko and wren_ib.ko
# leave nothing behind: every round binds, and afterwards no interrupt,
# devlink instance, auxiliary device, claimed region, MSI-X vector or
# ioremap mapping remains, free memory is back where it was, and the
# kernel logged no warning.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/driver/wren-lib.sh"

ROUNDS=${ROUNDS:-20}
# Free memory wanders a little with per-CPU page lists and slab caches; a
# leak of the rings alone (16 KiB a round) would exceed this after 20.
TOLERANCE_KB=${TOLERANCE_KB:-192}
mods=$(wren_moddir)
plan 7
dmesg -C

bdf=$(wren_bdf)
if [ -z "$bdf" ]; then
	not_ok "a Wren NIC (1f57:0001) is on the PCI bus"
	for _ in $(seq 6); do skip "load/unload loop" "no Wren NIC"; done
	tap_done
	exit 1
fi
ok "a Wren NIC (1f57:0001) is on the PCI bus at $bdf"

round() {
	insmod "$mods/wren.ko" || return 1
	insmod "$mods/wren_ib.ko" || { rmmod wren; return 1; }
	local bound=0
	[ -e "/sys/bus/pci/devices/$bdf/driver" ] &&
		devlink dev | grep -qF "pci/$bdf" && bound=1
	rmmod wren_ib && rmmod wren || return 1
	[ $bound = 1 ]
}

settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
}
memfree() { awk '/^MemFree:/ {print $2}' /proc/meminfo; }
ioremaps() { grep -c ioremap /proc/vmallocinfo; }

# One round first, so that one-time allocations (module loader, sysfs,
# devlink's netlink family) do not count as a leak.
round || diag "warm-up round failed"
settle
mem0=$(memfree)
map0=$(ioremaps)

failed=0
start=$SECONDS
for i in $(seq "$ROUNDS"); do
	round || { failed=$((failed + 1)); diag "round $i failed"; }
done
diag "$ROUNDS rounds in $((SECONDS - start)) s"
check "$ROUNDS load/bind/unload rounds all succeed" test $failed = 0

left=$(wren_leftovers "$bdf")
check "nothing left behind (irq, devlink, aux device, iomem, MSI-X, module)" test -z "$left"
[ -n "$left" ] && diag "$left"

settle
mem1=$(memfree)
map1=$(ioremaps)
check "no ioremap mapping leaked ($map0 before, $map1 after)" test "$map1" -le "$map0"
delta=$((mem0 - mem1))
check "MemFree within ${TOLERANCE_KB} KiB of where it was (lost $delta KiB)" \
	test "$delta" -le "$TOLERANCE_KB"

bad=$(wren_bad_dmesg)
check "dmesg has no warnings, oopses or timeouts" test -z "$bad"
[ -n "$bad" ] && diag "$bad"

# The device still works after all that.
check "wren.ko binds again after the loop" round
tap_done
