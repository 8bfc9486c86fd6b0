# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash disable=SC2034 # the RDMA_* variables are what callers read
#
# Bring up RDMA devices in a bench guest, for the perftest-based scripts
# (selftests/rdma/wren-perftest.sh, selftests/bench/rdma-bench.sh, the
# demo).  Needs wait.sh and wren.sh sourced first.
#
#   rdma_wren_up              wren.ko + wren_ib.ko, $WREN_IP on the Wren
#                             netdev; sets RDMA_WREN_IF RDMA_WREN_DEV
#                             RDMA_WREN_GID
#   rdma_rxe_up               rdma_rxe on the virtio-net NIC ($WREN_VIRTIO_IP)
#                             as rxe0; sets RDMA_RXE_IF RDMA_RXE_DEV RDMA_RXE_GID
#   rdma_gid_index DEV IPV4   index of the RoCE v2 GID of IPV4 on port 1
#   rdma_hw_counter DEV NAME  port 1's hardware counter NAME (0 if none),
#                             read with a shell builtin
#   rdma_objects DEV          DEV's object counts from `rdma resource show`,
#                             without the CQs
#   rdma_objects_are DEV OBJ  rdma_objects DEV is OBJ now (for wait_for)
#
# Each returns non-zero with RDMA_SETUP_ERR saying what went wrong.

RDMA_SETUP_ERR=

rdma_setup_fail() {
	RDMA_SETUP_ERR=$*
	return 1
}

# The RoCE v2 GID of an IPv4 address, read with shell builtins only: one
# process per entry is slow under TCG (DESIGN.md).
rdma_gid_index() {
	local dev=$1 ip=$2 a b c d want i gid type p
	IFS=. read -r a b c d <<<"$ip"
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
	p=/sys/class/infiniband/$dev/ports/1
	for ((i = 0; i < 16; i++)); do
		read -r gid <"$p/gids/$i" 2>/dev/null || continue
		read -r type <"$p/gid_attrs/types/$i" 2>/dev/null || continue
		if [ "$gid" = "$want" ] && [ "$type" = "RoCE v2" ]; then
			echo "$i"
			return 0
		fi
	done
	return 1
}

rdma_hw_counter() {
	local v
	read -r v <"/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || v=0
	echo "$v"
}

# Object counts without the CQs: ib_core's CQ pool (ib_cq_pool_get(),
# which the kernel ULPs use) keeps its CQs until the device unregisters.
rdma_objects() {
	rdma resource show 2>/dev/null |
		sed -n "s/^[0-9]*: $1: //p" | sed 's/ cq [0-9]*//'
}

# A function, so that wait_for reads the counts at each try, not once.
rdma_objects_are() { [ "$(rdma_objects "$1")" = "$2" ]; }

# rdma_port_active DEV: port 1 of DEV is ACTIVE (within 30 s).
rdma_port_active() {
	wait_for 30 grep -q ACTIVE "/sys/class/infiniband/$1/ports/1/state"
}

rdma_wren_up() {
	local bdf mods d n
	mods=$(wren_moddir)
	modprobe ib_uverbs || rdma_setup_fail "modprobe ib_uverbs failed" || return 1
	bdf=$(wren_bdf) || rdma_setup_fail "no Wren NIC on the PCI bus" || return 1
	if ! grep -q '^wren ' /proc/modules; then
		insmod "$mods/wren.ko" || rdma_setup_fail "insmod wren.ko failed" || return 1
	fi
	RDMA_WREN_IF=$(wren_netdev "$bdf") ||
		rdma_setup_fail "wren.ko registered no netdev" || return 1
	# The address before the ib device: ib_core builds the GIDs from it.
	ip addr add "$WREN_IP/24" dev "$RDMA_WREN_IF" 2>/dev/null || true
	ip link set "$RDMA_WREN_IF" up
	wait_for 30 grep -qx 1 "/sys/class/net/$RDMA_WREN_IF/carrier" ||
		rdma_setup_fail "no carrier on $RDMA_WREN_IF" || return 1
	# The boot's QoS profile, if any; idempotent, so every test may ask
	# again.
	wren_qos_up "$RDMA_WREN_IF" || rdma_setup_fail "$WREN_QOS_ERR" || return 1
	if ! grep -q '^wren_ib ' /proc/modules; then
		wren_ib_load "$mods" || rdma_setup_fail "insmod wren_peer_mem.ko, wren_ib.ko failed" || return 1
	fi
	RDMA_WREN_DEV=
	for ((n = 0; n < 50; n++)); do
		for d in /sys/class/infiniband/wren_*; do
			[ -e "$d" ] && RDMA_WREN_DEV=${d##*/} && break 2
		done
		nap 0.2
	done
	[ -n "$RDMA_WREN_DEV" ] ||
		rdma_setup_fail "wren_ib.ko registered no ib device (is RDMA enabled in the NIC's caps?)" ||
		return 1
	rdma_port_active "$RDMA_WREN_DEV" ||
		rdma_setup_fail "$RDMA_WREN_DEV port 1 not ACTIVE" || return 1
	# ib_core adds the GIDs from a work item: give it a moment.
	wait_for 10 rdma_gid_index "$RDMA_WREN_DEV" "$WREN_IP" >/dev/null
	RDMA_WREN_GID=$(rdma_gid_index "$RDMA_WREN_DEV" "$WREN_IP") ||
		rdma_setup_fail "$RDMA_WREN_DEV has no RoCE v2 GID for $WREN_IP" || return 1
}

rdma_rxe_up() {
	local dev ip rest
	RDMA_RXE_IF=
	while read -r _ dev _ ip rest; do
		[ "${ip%/*}" = "$WREN_VIRTIO_IP" ] && RDMA_RXE_IF=$dev && break
	done < <(ip -o -4 addr show)
	[ -n "$RDMA_RXE_IF" ] ||
		rdma_setup_fail "no interface holds $WREN_VIRTIO_IP" || return 1
	rdma_rxe_on "$RDMA_RXE_IF" "$WREN_VIRTIO_IP"
}

# rdma_rxe_on IF IP: rxe0 on netdev IF, active, with a RoCE v2 GID for
# IP; sets RDMA_RXE_DEV and RDMA_RXE_GID.
rdma_rxe_on() {
	modprobe ib_uverbs || rdma_setup_fail "modprobe ib_uverbs failed" || return 1
	modprobe rdma_rxe || rdma_setup_fail "modprobe rdma_rxe failed" || return 1
	RDMA_RXE_DEV=rxe0
	if [ ! -e /sys/class/infiniband/rxe0 ]; then
		rdma link add rxe0 type rxe netdev "$1" ||
			rdma_setup_fail "rdma link add rxe0 netdev $1 failed" || return 1
	fi
	rdma_port_active rxe0 || rdma_setup_fail "rxe0 port 1 not ACTIVE" || return 1
	wait_for 10 rdma_gid_index rxe0 "$2" >/dev/null
	RDMA_RXE_GID=$(rdma_gid_index rxe0 "$2") ||
		rdma_setup_fail "rxe0 has no RoCE v2 GID for $2" || return 1
}
