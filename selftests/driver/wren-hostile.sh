#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once: a hostile guest.  Before any
# driver is loaded, wren_hostile (wren_hostile.c) drives the NIC through
# its BARs from userspace: random register writes, admin and event queues
# at the device's own BARs, past the end of memory and in pages full of
# garbage commands of every opcode, producer indexes beyond the rings,
# doorbells on every page for queues that do not exist.  The device model
# (in this guest's QEMU) must keep running and answer as hardware does;
# then wren.ko binds, resets it and gets a working NIC: the two guests
# ping each other over it.  WREN_HOSTILE_SEED picks the random walk
# (default: the guest index + 1, so the two guests differ).
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

pair_init hostile "hostile guest"
bin=$WREN_TOP/build/tests/hostile/wren_hostile
mods=$(wren_moddir)
# wren_hostile's plan, then ours.
ncases=7
plan $((ncases + 5))
dmesg -C

bdf=$(wren_bdf) || bail "a Wren NIC is on the PCI bus"
[ -x "$bin" ] || bail "wren_hostile is built (make rdma-tests)"
if grep -q '^wren ' /proc/modules; then
	bail "no driver bound to $bdf before the test" "wren.ko is loaded"
fi

seed=${WREN_HOSTILE_SEED:-$((me + 1))}
t0=$SECONDS
timeout 300 "$bin" "$bdf" "$seed" >"$res/hostile.out" 2>"$res/hostile.err"
rc=$?
tap_relay_cases "" "$res/hostile.out" "$ncases" "hostile case" "exit $rc"
[ -s "$res/hostile.err" ] && diag "$(tail -n 10 "$res/hostile.err")"
diag "wren_hostile $bdf seed $seed: exit $rc, $((SECONDS - t0)) s"

# The driver after all that: probe resets the device.
if ! insmod "$mods/wren.ko"; then
	bail "wren.ko binds to the NIC after the hostile run" "$(dmesg | tail -n 20)"
fi
ifname=$(wren_netdev "$bdf")
[ -n "$ifname" ] || bail "wren.ko binds to the NIC after the hostile run" "$(dmesg | tail -n 20)"
ok "wren.ko binds to the NIC after the hostile run: netdev $ifname"
ip addr add "$WREN_IP/24" dev "$ifname"
ip link set "$ifname" up
check "carrier comes up" wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier"
barrier up
check "ping $WREN_PEER_IP over $ifname" wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP"
barrier pinged
check "wren.ko unloads" rmmod wren
check_dmesg "dmesg has no warnings, oopses or timeouts"
tap_done
