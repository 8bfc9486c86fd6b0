#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: wren_ib.ko registers the RoCE device wren_N on the Wren
# netdev: `rdma link` shows it ACTIVE on that netdev, ib_core's RoCE GID
# code puts a RoCE v2 GID for an IPv4 address added to the netdev into the
# table (and takes it out again), the port attributes are the device's,
# `rdma resource` and `rdma statistic` work, user contexts open through the
# bench's libwren when it is built, and both modules unload leaving nothing
# behind.
#
#   flock /tmp/wren-guest.lock make vmtest T=driver/wren-ib.sh N=1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
ip4=${WREN_IP:-10.0.0.1}
plan 27
dmesg -C

wren_require_nic 26 "RDMA checks"

check "modprobe ib_uverbs (ib_core with it)" modprobe ib_uverbs
check "insmod wren.ko" insmod "$mods/wren.ko"
nd=$(wren_netdev "$bdf")
check "the Wren netdev exists (${nd:-none})" test -n "$nd"
ip link set dev "$nd" up
check "insmod wren_peer_mem.ko and wren_ib.ko" wren_ib_load "$mods"
check "wren_peer_mem.ko made /sys/kernel/mm/memory_peers" test -d /sys/kernel/mm/memory_peers

dev=
find_dev() {
	local d
	for d in /sys/class/infiniband/wren_*; do
		[ -e "$d" ] || return 1
		dev=${d##*/}
		return 0
	done
	return 1
}
if wait_for 10 find_dev; then
	ok "wren_ib registers ib device $dev"
else
	not_ok "wren_ib registers an ib device wren_N"
	diag "$(dmesg | tail -20)"
	for _ in $(seq 20); do skip "RDMA checks" "no ib device"; done
	tap_done
	exit 1
fi
sys=/sys/class/infiniband/$dev
parent=$(basename "$(readlink -f "$sys/device")")
check "its parent is the PCI function ($parent)" test "$parent" = "$bdf"

link=$(rdma link show "$dev/1" 2>&1)
diag "$link"
port_active() { grep -q '^4: ACTIVE' "$sys/ports/1/state"; }
check "port 1 is ACTIVE" wait_for 10 port_active
check "rdma link: $dev/1 is ACTIVE on netdev $nd" \
	grep -Eq "link $dev/1 .*state ACTIVE .*netdev $nd( |\$)" <<<"$(rdma link show "$dev/1")"
check "link layer Ethernet, node type CA, fw_ver from the device" \
	bash -c "grep -qx Ethernet '$sys/ports/1/link_layer' && grep -q '^1: CA' '$sys/node_type' && grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+\$' '$sys/fw_ver'"

# The GID of an IPv4 address, as ib_core writes it: ::ffff:a.b.c.d.
v4gid() {
	local IFS=.
	# shellcheck disable=SC2086 # split the address on dots
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
}
want=$(v4gid "$ip4")
# Index of GID $1 of type RoCE v2, with shell builtins only (a `cat` per
# entry of a large table costs a minute under TCG).
gid_index() {
	local f n g t
	for f in "$sys"/ports/1/gids/*; do
		n=${f##*/}
		read -r g <"$f" 2>/dev/null || continue
		[ "$g" = "$1" ] || continue
		read -r t <"$sys/ports/1/gid_attrs/types/$n" 2>/dev/null || continue
		[ "$t" = "RoCE v2" ] && { echo "$n"; return 0; }
	done
	return 1
}
has_gid() { gid_index "$want" >/dev/null; }
no_gid() { ! gid_index "$want" >/dev/null; }

ip addr add "$ip4/24" dev "$nd"
if wait_for 10 has_gid; then
	ok "adding $ip4 to $nd puts RoCE v2 GID $want at index $(gid_index "$want")"
else
	not_ok "adding $ip4 to $nd puts RoCE v2 GID $want in the table"
	diag "$(grep -v '^0000:0000:0000:0000:0000:0000:0000:0000' "$sys"/ports/1/gids/* 2>/dev/null | head)"
fi
ndev_of=$(cat "$sys/ports/1/gid_attrs/ndevs/$(gid_index "$want" || echo 0)" 2>/dev/null)
check "the GID belongs to $nd" test "$ndev_of" = "$nd"
ip addr del "$ip4/24" dev "$nd"
check "removing $ip4 takes the GID out again" wait_for 10 no_gid
ip addr add "$ip4/24" dev "$nd"
wait_for 10 has_gid

res=$(rdma resource show "$dev" 2>&1)
diag "$res"
# The kernel's own objects only: the MAD layer's PD, CQ and GSI QP.
check "rdma resource shows $dev with the MAD layer's objects only" \
	grep -Eq "$dev: pd 1 cq 1 qp 1 .*mr 0" <<<"$res"

stats=$(rdma statistic show link "$dev/1" 2>&1)
diag "$stats"
missing=
for c in tx_roce_packets rx_roce_packets rx_icrc_errors retransmits \
	 packet_seq_err out_of_sequence rnr_nak_received local_ack_timeout_err; do
	grep -Eq "(^| )$c [0-9]+( |\$)" <<<"$stats" || missing="$missing $c"
done
check "rdma statistic: the device's RDMA counters are there" test -z "$missing"
[ -n "$missing" ] && diag "missing:$missing"
check "hw_counters in sysfs read as numbers" \
	bash -c "grep -Eqx '[0-9]+' '$sys/ports/1/hw_counters/rx_icrc_errors'"

# With the bench's rdma-core build (libwren), open a user context: the
# provider matches the device by its PCI parent and maps the doorbell page.
if [ -f "$WREN_TOP/selftests/lib/rdma-env.sh" ] &&
	. "$WREN_TOP/selftests/lib/rdma-env.sh" && rdma_env_check >/dev/null 2>&1; then
	devinfo=$(ibv_devinfo -d "$dev" 2>&1)
	rc=$?
	diag "$devinfo"
	check "ibv_devinfo -d $dev opens a context through libwren" test "$rc" = 0
	devinfo_ok() {
		grep -q 'state:.*PORT_ACTIVE' <<<"$devinfo" &&
			grep -q 'link_layer:.*Ethernet' <<<"$devinfo"
	}
	check "ibv_devinfo: PORT_ACTIVE, link_layer Ethernet" devinfo_ok
	# Every user object through the kernel's verbs: CQs, QPs (RC, UD, on
	# an SRQ), SRQ, MR, PD, with their rings pinned and released.
	smoke=$(python3 "$WREN_TOP/providers/wren/tests/verbs_smoke.py" "$dev" 2>&1)
	diag "$(grep -v '^ok ' <<<"$smoke")"
	check "libwren creates, modifies and destroys every user object (verbs_smoke.py)" \
		tap_all_ok "$smoke"
	# What the kernel driver decides: QP state machine and RoCE path,
	# refused transitions and values, AH, SRQ limit.
	kv=$(python3 "$WREN_TOP/selftests/driver/wren_ib_verbs.py" "$dev" "$want" 2>&1)
	diag "$kv"
	check "wren_ib_verbs.py: QP states and path, AH, SRQ limit" \
		tap_all_ok "$kv"
	check "rdma resource: no object is left (but the MAD layer's)" \
		grep -Eq "$dev: pd 1 cq 1 qp 1 .*mr 0 ctx 0" <<<"$(rdma resource show "$dev")"
else
	skip "ibv_devinfo -d $dev opens a context through libwren" "no rdma-core build (make rdma-core)"
	skip "ibv_devinfo: PORT_ACTIVE, link_layer Ethernet" "no rdma-core build"
	skip "libwren creates, modifies and destroys every user object" "no rdma-core build"
	skip "wren_ib_verbs.py: QP states and path, AH, SRQ limit" "no rdma-core build"
	skip "rdma resource: no object is left" "no rdma-core build"
fi

check "rmmod wren_ib (and wren_peer_mem)" wren_ib_unload
check "no ib device is left" bash -c '! ls /sys/class/infiniband 2>/dev/null | grep -q .'
check "rmmod wren" rmmod wren
check_leftovers "$bdf" "nothing left behind (irq, devlink, aux device, iomem, MSI-X, module)"
check_dmesg "dmesg has no warnings, oopses or timeouts"
diag "$(dmesg | grep -iE 'wren|infiniband' | tail -20)"
tap_done
