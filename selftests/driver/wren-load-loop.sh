#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: 20 rounds of loading and unloading wren.ko, wren_peer_mem.ko
# and wren_ib.ko leave nothing behind: every round binds, and afterwards no
# interrupt, devlink instance, auxiliary device, claimed region, MSI-X vector or
# ioremap mapping remains, free pages and slab are where they were, and the
# kernel logged no warning.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

ROUNDS=${ROUNDS:-20}
# Leaks are measured over the ROUNDS and EXTRA more rounds, against
# thresholds above the noise seen here: slab pages come and go as other
# code allocates (up to ~80 KiB across such a run), and free pages follow
# slab (up to 128 KiB seen on 6.12 with wren_ib's ib device in each
# round).  Free pages are counted together with the per-CPU page lists,
# where freed pages park without showing in MemFree.  The driver's DMA buffers
# are 20 KiB a round and its admin slot array 4 KiB (a kmalloc-4k object),
# so leaking either, or even one page a round (160 KiB), crosses the
# thresholds within 40 rounds.
EXTRA=${EXTRA:-20}
PAGE_TOLERANCE_KB=${PAGE_TOLERANCE_KB:-144}
SLAB_TOLERANCE_KB=${SLAB_TOLERANCE_KB:-112}
# VmallocUsed also holds the 16 KiB stacks of kernel threads, and the
# workqueue pools start and reap workers as they like; a leaked module
# image or BAR mapping per round would be far above this.
VMALLOC_TOLERANCE_KB=${VMALLOC_TOLERANCE_KB:-64}
# Load from tmpfs: faster rounds, and no 9p page cache coming and going.
mods=$(mktemp -d)
for m in wren wren_peer_mem wren_ib; do
	strip --strip-debug -o "$mods/$m.ko" "$(wren_moddir)/$m.ko"
done
plan 8
dmesg -C
# wren_ib.ko needs ib_core and ib_uverbs; insmod does not load them.
modprobe ib_uverbs

wren_require_nic 7 "load/unload loop"

round() {
	insmod "$mods/wren.ko" || return 1
	wren_ib_load "$mods" || { rmmod wren; return 1; }
	local bound=0
	[ -e "/sys/bus/pci/devices/$bdf/driver" ] &&
		devlink dev | grep -qF "pci/$bdf" && bound=1
	wren_unload || return 1
	[ $bound = 1 ]
}

# SLUB keeps partly used slabs on per-CPU lists, where they count as
# unreclaimable however few objects they hold; shrinking every cache hands
# those back, so that what stays counted is what is really allocated.
settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	for s in /sys/kernel/slab/*/shrink; do
		echo 1 >"$s" 2>/dev/null
	done
}
# Free pages in KiB: the buddy allocator's plus the per-CPU lists'.
free_kb() {
	awk '/^ *pages free/ { f += $3 } /^ *count:/ { f += $2 } END { print f * 4 }' /proc/zoneinfo
}
meminfo() { awk -v k="$1:" '$1 == k {print $2}' /proc/meminfo; }
# name and bytes in use, one cache a line, for naming what grew
slab_caches() {
	awk 'NR > 2 { print $1, $2 * $4 }' /proc/slabinfo 2>/dev/null | sort
}
ioremaps() { grep -c ioremap /proc/vmallocinfo; }

# A few rounds first, so that one-time allocations (module loader, sysfs,
# devlink's netlink family) do not count.
for i in 1 2 3; do round || diag "warm-up round $i failed"; done
settle
free0=$(free_kb)
slab0=$(meminfo SUnreclaim)
caches0=$(mktemp)
slab_caches >"$caches0"
vmalloc0=$(meminfo VmallocUsed)
map0=$(ioremaps)

failed=0
start=$SECONDS
for i in $(seq "$ROUNDS"); do
	round || { failed=$((failed + 1)); diag "round $i failed"; }
done
diag "$ROUNDS rounds in $((SECONDS - start)) s"
check "$ROUNDS load/bind/unload rounds all succeed" test "$failed" = 0

check_leftovers "$bdf" "nothing left behind (irq, devlink, aux device, iomem, MSI-X, module)"

for i in $(seq "$EXTRA"); do
	round || diag "extra round $i failed"
done

settle
free1=$(free_kb)
slab1=$(meminfo SUnreclaim)
vmalloc1=$(meminfo VmallocUsed)
map1=$(ioremaps)
diag "free pages $free0 -> $free1 KiB, SUnreclaim $slab0 -> $slab1 KiB, VmallocUsed $vmalloc0 -> $vmalloc1 KiB"
slab_caches | join "$caches0" - |
	awk '$3 - $2 >= 4096 { printf "%s +%d KiB\n", $1, ($3 - $2) / 1024 }' |
	sort -t+ -k2 -rn | head -5 | while read -r line; do diag "slab grew: $line"; done
rm -f "$caches0"
check "no ioremap mapping leaked ($map0 before, $map1 after)" test "$map1" -le "$map0"
check "VmallocUsed grew at most ${VMALLOC_TOLERANCE_KB} KiB over $((ROUNDS + EXTRA)) rounds ($((vmalloc1 - vmalloc0)) KiB)" \
	test $((vmalloc1 - vmalloc0)) -le "$VMALLOC_TOLERANCE_KB"
check "unreclaimable slab grew at most ${SLAB_TOLERANCE_KB} KiB over $((ROUNDS + EXTRA)) rounds ($((slab1 - slab0)) KiB)" \
	test $((slab1 - slab0)) -le "$SLAB_TOLERANCE_KB"
check "free pages shrank at most ${PAGE_TOLERANCE_KB} KiB over $((ROUNDS + EXTRA)) rounds ($((free0 - free1)) KiB)" \
	test $((free0 - free1)) -le "$PAGE_TOLERANCE_KB"

rm -rf "$mods"
check_dmesg "dmesg has no warnings, oopses or timeouts"
tap_done
