#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test for a boot of three guests (N=3): UD multicast through
# rdma_cm, with rdma-core's mckey.
#
#   1. Guests 1 and 2 join the group 239.1.2.3 (rdma_join_multicast: the
#      kernel joins the IP group on the netdev, which sends its IGMP
#      report, and librdmacm attaches the UD QP to the group in the
#      NIC); guest 0 joins too and sends 100 messages to the group.
#      Each receiver gets all of them, its NIC's rx_mcast_packets counts
#      them and the sender's tx_mcast_packets the sends; the fabric
#      learned every port's membership from the reports (IGMP snooping).
#      After mckey leaves, the kernel has left the IP group.
#   2. Guest 1 alone joins 239.1.2.4, guest 0 sends to it as a send-only
#      member (no IGMP report) and guest 2 stays out: guest 1 gets every
#      message, and the fabric sends guest 2's port none of them.
#
# Guest 1 asks the fabric for its counters (fabric port n is guest n).
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-mcast.sh KVER=6.1 N=3
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

pair_init mcast "multicast"
group=239.1.2.3
group2=239.1.2.4
count=${WREN_MCAST_COUNT:-100}
case $me in
0) plan 4 ;;
1) plan 8 ;;
*) plan 5 ;;
esac
dmesg -C

[ "$nguests" -ge 3 ] || bail "three guests (N=3)" "this boot has $nguests"
rdma_env_check 2>"$res/mcast-env.err" ||
	bail "the bench's rdma-core build with librdmacm is in place" "$(cat "$res/mcast-env.err")"
modprobe rdma_ucm || bail "modprobe rdma_ucm"
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
dev=$RDMA_WREN_DEV
ifn=$RDMA_WREN_IF
max_grp=$(ibv_devinfo -v -d "$dev" 2>/dev/null | awk '$1 == "max_mcast_grp:" { print $2 }')
check "$dev on $ifn: the device has multicast groups (max_mcast_grp ${max_grp:-none})" \
	test "${max_grp:-0}" -gt 0

# cnt NAME: a port counter of the Wren device.
cnt() { cat "/sys/class/infiniband/$dev/ports/1/hw_counters/$1"; }
# in_group G: the netdev is in the IP group G (that its IGMP report went
# out, the fabric's snooping table shows).
in_group() { ip maddr show dev "$ifn" | awk -v g="$1" '$1 == "inet" && $2 == g { f = 1 } END { exit !f }'; }
# receive G: mckey receives COUNT messages of group G in the background
# ($pid); once it has joined (line-buffered: its output is read while it
# runs), the checks of the join.
receive() {
	timeout 120 stdbuf -oL mckey -m "$1" -b "$WREN_IP" -C "$count" \
		>"$res/mckey-$1.out" 2>&1 &
	pid=$!
	wait_for 60 grep -q "joined dgid" "$res/mckey-$1.out"
}
# received G: the receiver's exit and counter, checked.
received() {
	local rc rx
	wait "$pid"
	rc=$?
	diag "$(tail -n 3 "$res/mckey-$1.out")"
	rx=$(($(cnt rx_mcast_packets) - rx0))
	check "mckey received all $count messages of $1 (exit $rc, rx_mcast_packets +$rx)" \
		test "$rc" = 0 -a "$rx" -ge "$count"
}

# --- 1: two receivers, a sender that is a member too ----------------------
tx0=$(cnt tx_mcast_packets)
rx0=$(cnt rx_mcast_packets)
if [ "$me" != 0 ]; then
	receive "$group"
	# shellcheck disable=SC2016 # eval expands it, in this shell
	check "mckey joined $group through rdma_cm, and the kernel the IP group on $ifn" \
		eval 'grep -q "joined dgid" "$res/mckey-$group.out" && in_group "$group"'
fi
barrier joined 300
# Both receivers' reports have crossed the fabric.
if [ "$me" = 1 ]; then
	m="$(fabric_stat 1 mcast_groups) $(fabric_stat 2 mcast_groups)"
	check "the fabric learned both receivers' membership from their IGMP reports (groups of ports 1 and 2: $m)" \
		test "$m" = "1 1"
fi
if [ "$me" = 0 ]; then
	out=$(timeout 120 mckey -m "$group" -b "$WREN_IP" -s -C "$count" 2>&1)
	rc=$?
	diag "$(tail -n 3 <<<"$out")"
	tx=$(($(cnt tx_mcast_packets) - tx0))
	check "mckey sent $count messages to $group (exit $rc, tx_mcast_packets +$tx)" \
		test "$rc" = 0 -a "$tx" -ge "$count"
else
	received "$group"
	# shellcheck disable=SC2016 # eval expands it, in this shell
	wait_for 10 eval '! in_group "$group"'
	# shellcheck disable=SC2016
	check "after mckey left, the kernel left the IP group" eval '! in_group "$group"'
fi
barrier sent 300

# --- 2: one receiver, a send-only sender, guest 2 out -----------------------
rx0=$(cnt rx_mcast_packets)
if [ "$me" = 1 ]; then
	receive "$group2"
	t0=$(fabric_stat 2 tx_frames)
fi
barrier joined2 300
if [ "$me" = 0 ]; then
	tx0=$(cnt tx_mcast_packets)
	out=$(timeout 120 mckey -m "$group2" -b "$WREN_IP" -s -o -C "$count" 2>&1)
	rc=$?
	echo "$out" >"$res/mckey-sender-$group2.out"
	diag "$(tail -n 3 <<<"$out")"
	tx=$(($(cnt tx_mcast_packets) - tx0))
	check "mckey sent $count messages to $group2 as a send-only member (exit $rc, tx_mcast_packets +$tx)" \
		test "$rc" = 0 -a "$tx" -ge "$count"
elif [ "$me" = 1 ]; then
	received "$group2"
	# What the fabric and the NIC saw, when the messages did not all come.
	[ "$(($(cnt rx_mcast_packets) - rx0))" -ge "$count" ] ||
		diag "fabric port 0: $(fabric_ctl stats 0 | awk '$3 ~ /^(rx_frames|flooded|mcast_to_members|mcast_reports)$/ { printf "%s %s ", $3, $4 }'); port 1: $(fabric_ctl stats 1 | awk '$3 ~ /^(tx_frames|mcast_groups|mcast_reports)$/ { printf "%s %s ", $3, $4 }'); NIC: $(ethtool -S "$ifn" | awk '/port_rx_multicast|dropped_filter/ { printf "%s ", $0 }') discards $(cnt rx_roce_discards)"
	t1=$(fabric_stat 2 tx_frames)
	check "the fabric sent none of them to guest 2, not a member ($((${t1:-0} - ${t0:-0})) frames in all)" \
		test -n "$t0" -a -n "$t1" -a $((${t1:-0} - ${t0:-0})) -lt $((count / 2))
fi
barrier sent2 300
check_dmesg "no kernel warnings"
tap_done
