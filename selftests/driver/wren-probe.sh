#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: the Wren NIC is on the PCI bus with its documented identity,
# wren.ko binds to it, `devlink dev info` reports the firmware version and
# serial the device's own registers hold, wren_ib.ko binds to the wren.rdma
# auxiliary device and registers its ib device when the NIC can do RDMA
# (none otherwise), and both unload leaving nothing behind.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
plan 16
dmesg -C

wren_require_nic 13 "driver checks"

# The identity and the registers as the contract defines them (wren.sh).
printf -v id '%04x:%04x' "$WREN_PCI_VENDOR_ID" "$WREN_PCI_DEVICE_ID"
printf -v subid '0x%04x:0x%04x' "$WREN_PCI_SUBSYS_VENDOR_ID" "$WREN_PCI_SUBSYS_ID"
printf -v class '%04x' $((WREN_PCI_CLASS >> 8))
printf -v rev '%02x' "$WREN_PCI_REVISION"
printf -v magic_want '0x%08x' "$WREN_MAGIC"
line=$(lspci -nn -s "$bdf")
if grep -q "Ethernet controller \[$class\]" <<<"$line" &&
	grep -qF "[$id]" <<<"$line" && grep -qF "(rev $rev)" <<<"$line"; then
	ok "lspci -nn: Ethernet controller [$class], [$id], rev $rev"
else
	not_ok "lspci -nn: Ethernet controller [$class], [$id], rev $rev"
fi
diag "$line"
check "subsystem is ${subid//0x/}" test \
	"$(cat "/sys/bus/pci/devices/$bdf/subsystem_vendor"):$(cat "/sys/bus/pci/devices/$bdf/subsystem_device")" = "$subid"

# Read the identity straight from BAR0 before any driver claims it.
read -r magic fwreg serlo serhi capslo < <(wren_regs "$bdf" "$(wren_reg WREN_REG_MAGIC)" \
	"$(wren_reg WREN_REG_FW_VERSION)" "$(wren_reg WREN_REG_SERIAL_LO)" \
	"$(wren_reg WREN_REG_SERIAL_HI)" "$(wren_reg WREN_REG_CAPS_LO)" | tr '\n' ' ')
check "BAR0 MAGIC reads \"WREN\" ($magic_want) through resource0" test "${magic:-}" = "$magic_want"
fw=$((fwreg))
fw_want=$(printf '%u.%u.%u' $((fw >> 24 & 0xff)) $((fw >> 16 & 0xff)) $((fw & 0xffff)))
serial_want=$(printf '%08x%08x' $((serhi)) $((serlo)))
diag "registers: FW_VERSION $fwreg ($fw_want), serial $serial_want"

check "insmod wren.ko" insmod "$mods/wren.ko"
drv=$(basename "$(readlink "/sys/bus/pci/devices/$bdf/driver" 2>/dev/null)" 2>/dev/null)
check "wren.ko is bound to $bdf" test "$drv" = wren
check "management interrupt wren-mgmt@pci:$bdf is registered" \
	grep -q "wren-mgmt@pci:$bdf" /proc/interrupts
# Probe ends with a NOP through the interrupt path: the vector has fired.
irqs=$(awk -v n="wren-mgmt@pci:$bdf" '$NF == n { s = 0; for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+$/) s += $i; print s }' /proc/interrupts)
check "the management interrupt fired (${irqs:-0} times)" test "${irqs:-0}" -gt 0
[ "${irqs:-0}" -gt 0 ] || diag "$(grep -E 'CPU|wren' /proc/interrupts)"

info=$(devlink -j dev info "pci/$bdf" 2>&1)
diag "$(devlink dev info "pci/$bdf" 2>&1)"
# field KEY...: a string under the device's info (jq: python3 takes
# about 2 s to start under TCG).
field() {
	local path
	path=$(printf '"%s",' "$@")
	jq -r --arg dev "pci/$bdf" ".info[\$dev] | getpath([${path%,}]) |
		if type == \"string\" then . else \"\" end" <<<"$info" 2>/dev/null
}
fw_got=$(field versions running fw)
check "devlink dev info: running fw $fw_got equals FW_VERSION register ($fw_want)" \
	test "$fw_got" = "$fw_want"
serial_got=$(field board.serial_number)
if [ "$serial_want" = 0000000000000000 ]; then
	check "devlink dev info: no board serial for a device without one" test -z "$serial_got"
else
	check "devlink dev info: board serial $serial_got equals SERIAL registers" \
		test "$serial_got" = "$serial_want"
fi

# wren_ib.ko needs ib_core and ib_uverbs; insmod does not load them.
modprobe ib_uverbs
check "insmod wren_peer_mem.ko and wren_ib.ko" wren_ib_load "$mods"
aux=
for d in /sys/bus/auxiliary/devices/wren.rdma.*; do
	[ -e "$d" ] && aux=${d##*/} && break
done
auxdrv=$(basename "$(readlink "/sys/bus/auxiliary/devices/$aux/driver" 2>/dev/null)" 2>/dev/null)
# RDMA capability bits as the device itself reports them (CAPS_LO 7:0);
# RC is what wren_ib requires.
caps=$((capslo))
rdma_caps=$((WREN_CAP_RDMA_RC | WREN_CAP_RDMA_UD | WREN_CAP_RDMA_SRQ |
	WREN_CAP_RDMA_ATOMIC | WREN_CAP_RDMA_FAST_REG | WREN_CAP_RDMA_GSI |
	WREN_CAP_RDMA_SEND_INV | WREN_CAP_RDMA_MR_INVALIDATE))
ibdevs() {
	local d
	for d in /sys/class/infiniband/wren_*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
	return 0
}
if [ $((caps & rdma_caps)) = 0 ]; then
	check "no wren.rdma device on a NIC without RDMA capabilities (CAPS_LO $capslo)" \
		test -z "$aux"
	check "no ib device is registered" test -z "$(ibdevs)"
elif [ $((caps & WREN_CAP_RDMA_RC)) != 0 ]; then
	check "wren_ib binds to the wren.rdma auxiliary device (${aux:-none})" \
		test -n "$aux" -a "$auxdrv" = wren_ib.rdma
	check "wren_ib registers ib device $(ibdevs | head -n 1)" test -n "$(ibdevs)"
else
	check "wren_ib declines a wren.rdma device without RC (CAPS_LO $capslo)" \
		test -n "$aux" -a -z "$auxdrv"
	check "no ib device is registered" test -z "$(ibdevs)"
fi

check "rmmod wren_ib, wren_peer_mem and wren" wren_unload
check_leftovers "$bdf" "nothing left behind (irq, devlink, aux device, iomem, MSI-X, module)"
check_dmesg "dmesg has no warnings, oopses or timeouts"
diag "$(dmesg | grep -i wren)"
tap_done
