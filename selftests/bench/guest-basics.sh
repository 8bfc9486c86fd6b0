#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs inside each bench guest (via vmrun): is the guest set up the way
# tests rely on?  TAP on stdout.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
i=$WREN_GUEST_INDEX

check "kernel is $WREN_KABI" test "$(uname -r)" = "$WREN_KABI"
check "hostname is guest$i" test "$(hostname)" = "guest$i"
missing=
for v in WREN_GUEST_INDEX WREN_NGUESTS WREN_PEER_IP WREN_PEER_VIRTIO_IP \
	WREN_RESULTS WREN_TOP WREN_KABI; do
	[ -n "${!v:-}" ] || missing="$missing $v"
done
check "bench environment complete" test -z "$missing"
[ -n "$missing" ] && diag "missing:$missing"

check "host root is read-only" bash -c '! touch /usr/.wren-bench-probe 2>/dev/null'
check "/etc, /var, /tmp, /root are writable" \
	touch /etc/.wren /var/.wren /tmp/.wren /root/.wren
check "repository is visible" test -r "$WREN_TOP/Makefile"
check "process substitution works (/dev/fd)" test "$(cat <(echo fd))" = fd
check "/dev/shm and /dev/pts exist" test -d /dev/shm -a -d /dev/pts

echo "guest$i" >"$WREN_RESULTS/hello" 2>/dev/null
check "results share is writable" test "$(cat "$WREN_RESULTS/hello")" = "guest$i"

# modprobe against the kernel's own modules (extracted and depmod'ed).
if modprobe dummy numdummies=0 2>/dev/null && grep -q '^dummy ' /proc/modules; then
	ok "modprobe loads the guest kernel's modules"
	rmmod dummy
else
	not_ok "modprobe loads the guest kernel's modules"
fi

ifc=${WREN_VIRTIO_IFNAME:-}
check "virtio-net has $WREN_VIRTIO_IP" bash -c "ip -4 addr show dev '$ifc' | grep -qw '$WREN_VIRTIO_IP'"
if [ "$WREN_NGUESTS" -ge 2 ]; then
	# The peer may still be booting: retry for a while.
	if wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_VIRTIO_IP" >/dev/null 2>&1; then
		ok "ping peer $WREN_PEER_VIRTIO_IP over virtio-net through the fabric"
	else
		not_ok "ping peer $WREN_PEER_VIRTIO_IP over virtio-net through the fabric"
	fi
else
	skip "ping peer over virtio-net" "single guest"
fi

# The Wren NIC when QEMU has it, else the virtio NIC: the device whose DMA
# must go through the IOMMU.
nic=
bdf=$(wren_bdf) && nic=/sys/bus/pci/devices/$bdf
if [ "${WREN_HAS_NIC:-0}" = 1 ]; then
	check "Wren NIC (1f57:0001) on the PCI bus" test -n "$nic"
else
	skip "Wren NIC on the PCI bus" "QEMU has no wren device"
	# The PCI function is the parent of the virtio device.
	[ -n "$ifc" ] && nic=$(readlink -f "/sys/class/net/$ifc/device/..")
fi

if [ "${WREN_IOMMU:-0}" = 1 ]; then
	check "intel-iommu registered (/sys/class/iommu)" \
		bash -c 'ls /sys/class/iommu | grep -q .'
	check "DMAR active in dmesg" bash -c 'dmesg | grep -q "DMAR: IOMMU enabled"'
	# DMA or DMA-FQ: the device sees IOVAs, not physical addresses.
	type=$(cat "$nic/iommu_group/type" 2>/dev/null)
	check "${nic##*/} DMA is translated (iommu group type ${type:-none})" \
		test "${type#DMA}" != "$type"
else
	skip "intel-iommu active" "IOMMU=0"
fi

# Make sure both guests finish their pings before either powers off.
if [ "$WREN_NGUESTS" -ge 2 ]; then
	touch "$WREN_RESULTS/done"
	peer_done=$(dirname "$WREN_RESULTS")/g$(((i + 1) % WREN_NGUESTS))/done
	wait_for 60 test -e "$peer_done" || diag "peer never finished"
fi
tap_done
