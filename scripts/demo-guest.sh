#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs inside each demo server (see scripts/demo.sh): bind wren.ko to the
# Wren NIC and show what an operator would look at.
set -eu
mods=$WREN_TOP/build/modules/$WREN_KVER
say() { printf '[server %s] %s\n' "$WREN_GUEST_INDEX" "$*"; }

say "kernel $(uname -r), Wren NIC on the PCI bus:"
lspci -nn -d 1f57:
modprobe devlink 2>/dev/null || true
modprobe auxiliary 2>/dev/null || true
insmod "$mods/wren.ko"
insmod "$mods/wren_ib.ko"
dev=$(basename "$(readlink -f /sys/bus/pci/drivers/wren/0000:* 2>/dev/null | head -n1)")
[ -n "$dev" ] || { say "wren.ko did not bind"; dmesg | tail -n 20; exit 1; }
say "wren.ko bound to $dev"
say "devlink dev info:"
devlink dev info "pci/$dev"
ifc=$(ls "/sys/bus/pci/devices/$dev/net" 2>/dev/null | head -n1)
if [ -n "$ifc" ]; then
	ip addr add "$WREN_IP/24" dev "$ifc"
	ip link set "$ifc" up
	for _ in $(seq 30); do
		[ "$(cat "/sys/class/net/$ifc/carrier" 2>/dev/null)" = 1 ] && break
		sleep 1
	done
	say "$ifc is $WREN_IP; pinging server $((1 - WREN_GUEST_INDEX)) at $WREN_PEER_IP over Wren:"
	# The peer boots at its own pace: wait for its first answer.
	# busybox: iputils-ping is not part of a minimal Debian install.
	for _ in $(seq 30); do
		busybox ping -q -c 1 -W 1 "$WREN_PEER_IP" >/dev/null 2>&1 && break
	done
	busybox ping -c 3 "$WREN_PEER_IP" 2>&1 ||
		say "no answer from $WREN_PEER_IP"
	ip -s link show "$ifc"
	# The peer may still be pinging us: stay up a little longer.
	sleep 5
fi
say "interrupts:"
grep wren /proc/interrupts || true
say "driver messages:"
dmesg | grep -E '(^|[] ])wren[ :_]' || true
if dmesg | grep -E 'WARNING|BUG|Call Trace'; then
	say "kernel warnings above"
	exit 1
fi
rmmod wren_ib
rmmod wren
say "unloaded cleanly"
