# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash disable=SC2034 # the RDMA_* variables are what callers read
#
# Bring up this guest's RDMA device on the Wren fabric, whichever NIC the
# bench gave it there ($WREN_FABRIC_NIC, tools/testbench/vmrun.sh RXE=):
# a Wren NIC (wren.ko + wren_ib.ko) or a virtio-net NIC with Linux's
# rdma_rxe on it.  Needs wait.sh, wren.sh and rdma-setup.sh sourced.
#
#   rdma_fabric_up    sets RDMA_KIND (wren|rxe) RDMA_DEV RDMA_IF RDMA_GID,
#                     $WREN_IP on RDMA_IF; non-zero with RDMA_SETUP_ERR
#   rdma_fabric_rxe_ifname
#                     the virtio-net interface on the Wren fabric (its MAC
#                     is 52:54:00:00:00:xx, the control NIC's 52:54:00:00:01:xx)

rdma_fabric_rxe_ifname() {
	local n mac
	for n in /sys/class/net/*; do
		case "$(readlink "$n/device/driver")" in
		*/virtio_net) ;;
		*) continue ;;
		esac
		read -r mac <"$n/address" || continue
		case $mac in
		52:54:00:00:00:*) echo "${n##*/}"; return 0 ;;
		esac
	done
	return 1
}

rdma_fabric_rxe_up() {
	RDMA_IF=$(rdma_fabric_rxe_ifname) ||
		rdma_setup_fail "no virtio-net NIC on the Wren fabric (vmrun.sh RXE=)" || return 1
	ip addr add "$WREN_IP/24" dev "$RDMA_IF" 2>/dev/null || true
	ip link set "$RDMA_IF" up
	wait_for 30 grep -qx 1 "/sys/class/net/$RDMA_IF/carrier" ||
		rdma_setup_fail "no carrier on $RDMA_IF" || return 1
	rdma_rxe_on "$RDMA_IF" "$WREN_IP" || return 1
	RDMA_DEV=$RDMA_RXE_DEV
	RDMA_GID=$RDMA_RXE_GID
}

rdma_fabric_up() {
	case ${WREN_FABRIC_NIC:-wren} in
	wren)
		RDMA_KIND=wren
		rdma_wren_up || return 1
		RDMA_DEV=$RDMA_WREN_DEV
		RDMA_IF=$RDMA_WREN_IF
		RDMA_GID=$RDMA_WREN_GID
		;;
	virtio)
		RDMA_KIND=rxe
		rdma_fabric_rxe_up
		;;
	*)
		rdma_setup_fail "no NIC on the Wren fabric (WREN_FABRIC_NIC=${WREN_FABRIC_NIC:-})"
		;;
	esac
}
