#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Two-guest test: rdma-core's ibv_rc_pingpong, ibv_ud_pingpong and
# ibv_srq_pingpong (from the bench's build, through libwren) between the
# guests' Wren NICs over the fabric, with data checking (-c).  Guest 0
# serves, guest 1 connects; they exchange QP numbers over the virtio
# control network, the traffic itself is RoCEv2 on the Wren ports.
#
#   flock /tmp/wren-guest.lock make vmrun N=2 TIMEOUT=600 \
#       SCRIPT=providers/wren/tests/guest-pingpong.sh
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
mods=${WREN_MODULES:-$WREN_TOP/build/modules/${WREN_KVER:-$(uname -r | cut -d. -f1,2)}}
me=${WREN_GUEST_INDEX:-0}
ITERS=${PP_ITERS:-200}

bail() {
	not_ok "$1"
	[ $# -gt 1 ] && diag "$2"
	tap_done
	exit 1
}

rdma_env_check || bail "the bench's rdma-core build with libwren is in place"
modprobe ib_uverbs || bail "modprobe ib_uverbs"
insmod "$mods/wren.ko" || bail "insmod wren.ko"
ifname=
bdf=$(grep -l 0x1f57 /sys/bus/pci/devices/*/vendor | head -1)
bdf=${bdf%/vendor}
if wait_for 20 test -d "$bdf/net"; then
	for n in "$bdf"/net/*; do
		ifname=${n##*/}
		break
	done
fi
[ -n "$ifname" ] || bail "wren.ko registers a netdev"
# The address first: ib_core builds the RoCE GIDs from it.
ip addr add "$WREN_IP/24" dev "$ifname"
ip link set "$ifname" up
check "carrier on $ifname" wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier"
insmod "$mods/wren_ib.ko" || bail "insmod wren_ib.ko"
dev=
for _ in $(seq 50); do
	for d in /sys/class/infiniband/wren_*; do
		[ -e "$d" ] && dev=${d##*/} && break 2
	done
	sleep 0.2
done
[ -n "$dev" ] || bail "wren_ib registers an ib device" "$(dmesg | tail -20)"
ok "ib device $dev on $ifname"
check "port 1 ACTIVE" wait_for 30 grep -q ACTIVE "/sys/class/infiniband/$dev/ports/1/state"

# The RoCE v2 GID of our IPv4 address, read with builtins only (one
# process per entry is slow under TCG).
IFS=. read -r a b c d <<<"$WREN_IP"
want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
gidx=
for i in $(seq 0 15); do
	g=/sys/class/infiniband/$dev/ports/1/gids/$i
	t=/sys/class/infiniband/$dev/ports/1/gid_attrs/types/$i
	[ -r "$g" ] || continue
	read -r gid <"$g" 2>/dev/null || continue
	read -r type <"$t" 2>/dev/null || continue
	if [ "$gid" = "$want" ] && [ "$type" = "RoCE v2" ]; then
		gidx=$i
		break
	fi
done
[ -n "$gidx" ] || bail "a RoCE v2 GID for $WREN_IP" "$(ls "/sys/class/infiniband/$dev/ports/1/gids")"
ok "RoCE v2 GID index $gidx for $WREN_IP"
check "ping $WREN_PEER_IP over $ifname" wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP"

# pingpong NAME PORT ARGS...: server on guest 0, client on guest 1 (which
# retries until the server listens).
pingpong() {
	local name=$1 port=$2 out rc=1
	shift 2
	if [ "$me" = 0 ]; then
		out=$(timeout 180 "$name" -d "$dev" -g "$gidx" -p "$port" -n "$ITERS" -c "$@" 2>&1)
		rc=$?
	else
		for _ in $(seq 60); do
			out=$(timeout 180 "$name" -d "$dev" -g "$gidx" -p "$port" -n "$ITERS" -c "$@" \
				"$WREN_PEER_VIRTIO_IP" 2>&1)
			rc=$?
			grep -q "Couldn't connect" <<<"$out" || break
			sleep 1
		done
	fi
	diag "$out"
	if [ "$rc" = 0 ] && grep -q "iters in" <<<"$out"; then
		ok "$name $* ($ITERS iterations, data checked)"
	else
		not_ok "$name $* ($ITERS iterations, data checked): exit $rc"
	fi
}

pingpong ibv_rc_pingpong 18515 -s 4096
pingpong ibv_rc_pingpong 18516 -s 65536 -m 1024
pingpong ibv_ud_pingpong 18517 -s 1024
pingpong ibv_srq_pingpong 18518 -s 4096 -q 4
tap_done
