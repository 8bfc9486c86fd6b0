#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test for two guests with 2 vCPUs each (make vmtest SMP=2): the
# Wren netdev gets one queue pair per CPU and spreads received TCP flows
# over its RX queues with RSS.  Both guests send flows to each other at
# once and judge what they received, from the per-queue counters of
# ethtool -S:
#   - ethtool -l shows 2 combined channels, ethtool -x the indirection
#     table over both, ethtool -n the hashed fields of tcp4;
#   - 16 flows with distinct ports land on both RX queues;
#   - ethtool -X equal 1 (then weight 0 1) steers everything to queue 0
#     (then 1), and ethtool -X default spreads again;
#   - ethtool -N rx-flow-hash tcp4 sd hashes addresses only, so all flows
#     between the two guests share one queue; an unsupported field set is
#     refused; sdfn restores the 4-tuple.
# With one vCPU the driver makes one channel and the test skips.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/pair.sh"

mods=$(wren_moddir)
flows=${WREN_RSS_FLOWS:-16}
kib=${WREN_RSS_FLOW_KIB:-256}
pair_init rss RSS
plan 23
dmesg -C

# rxq_packets: "rx0 rx1" packet counters.
rxq_packets() {
	ethtool -S "$ifname" | awk '/^ *rx0_packets:/ { a = $2 } /^ *rx1_packets:/ { b = $2 }
		END { print a + 0, b + 0 }'
}

# flows TAG: $flows TCP connections from the peer to us (ports 6000+i)
# and from us to the peer at the same time, $kib KiB each; sets q0 and q1
# to the packets our RX queues 0 and 1 got meanwhile.  False if a
# transfer failed.
flows() {
	local tag=$1 i pids=() rc=0 a0 a1 b0 b1
	read -r a0 a1 < <(rxq_packets)
	for ((i = 0; i < flows; i++)); do
		timeout 300 socat -u "TCP-LISTEN:$((6000 + i)),bind=$WREN_IP,reuseaddr" STDOUT >/dev/null &
		pids+=($!)
	done
	barrier "$tag"
	for ((i = 0; i < flows; i++)); do
		head -c $((kib << 10)) /dev/zero |
			timeout 300 socat -u STDIN "TCP:$WREN_PEER_IP:$((6000 + i)),retry=600,interval=0.5" &
		pids+=($!)
	done
	for i in "${pids[@]}"; do
		wait "$i" || rc=1
	done
	read -r b0 b1 < <(rxq_packets)
	q0=$((b0 - a0))
	q1=$((b1 - a1))
	diag "$tag: RX queue 0 +$q0 packets, queue 1 +$q1"
	barrier "$tag-done"
	return $rc
}

# run_flows TAG DESC: flows TAG as one result (in this shell: q0, q1).
run_flows() {
	if flows "$1"; then
		ok "$2"
	else
		not_ok "$2"
	fi
}

# indir_queues: the distinct queue numbers in ethtool -x's table.
indir_queues() {
	ethtool -x "$ifname" | awk '/^ *[0-9]+:/ { for (i = 2; i <= NF; i++) q[$i] = 1 }
		END { for (k in q) print k }' | sort -n | tr '\n' ' '
}

bdf=$(wren_bdf) || bail "a Wren NIC is on the PCI bus"
insmod "$mods/wren.ko" || bail "insmod wren.ko"
ifname=$(wren_netdev "$bdf")
[ -n "$ifname" ] || bail "wren.ko registers a netdev for $bdf" "$(dmesg | tail -n 20)"
ok "wren.ko registers netdev $ifname ($(nproc) CPUs)"
if [ "$(nproc)" -lt 2 ]; then
	while [ "$TAP_COUNT" -lt "$TAP_PLANNED" ]; do
		skip "RSS checks" "one CPU: one channel (run with SMP=2)"
	done
	rmmod wren
	tap_done
	exit 0
fi
ip addr add "$WREN_IP/24" dev "$ifname"
ip link set "$ifname" up || bail "ip link set $ifname up"
wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier" || bail "carrier comes up"
wren_qos_up "$ifname" || bail "QoS profile ${WREN_QOS_PROFILE:-} on $ifname" "$WREN_QOS_ERR"

chans=$(ethtool -l "$ifname")
check "ethtool -l: 2 combined channels, 2 at most" \
	test "$(awk '/^Combined:/ { printf "%s ", $2 }' <<<"$chans")" = "2 2 "
check "MSI-X: one interrupt per channel" \
	test "$(grep -c "wren-eth[0-9]*@pci:$bdf" /proc/interrupts)" = 2
check "ethtool -x: indirection table over queues 0 and 1" \
	test "$(indir_queues)" = "0 1 "
hash=$(ethtool -n "$ifname" rx-flow-hash tcp4 2>&1)
check "ethtool -n rx-flow-hash tcp4: addresses and ports" \
	test "$(grep -c -E 'IP SA|IP DA|L4 bytes 0 & 1|L4 bytes 2 & 3' <<<"$hash")" = 4
diag "$hash"

barrier up
check "ping $WREN_PEER_IP" wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP"

run_flows spread "$flows TCP flows each way (distinct ports)"
check "RSS spreads the flows over both RX queues (+$q0 / +$q1 packets)" \
	test "$q0" -gt $((flows * 4)) -a "$q1" -gt $((flows * 4))

check "ethtool -X equal 1" ethtool -X "$ifname" equal 1
check "the table now holds queue 0 only" test "$(indir_queues)" = "0 "
run_flows equal1 "$flows flows each way with equal 1"
check "everything lands on RX queue 0 (+$q0 / +$q1 packets)" \
	test "$q1" = 0 -a "$q0" -gt $((flows * 4))

check "ethtool -X weight 0 1" ethtool -X "$ifname" weight 0 1
run_flows weight01 "$flows flows each way with weight 0 1"
check "everything lands on RX queue 1 (+$q0 / +$q1 packets)" \
	test "$q0" = 0 -a "$q1" -gt $((flows * 4))

# Addresses only: every flow between the two guests hashes alike.
check "ethtool -X default, -N rx-flow-hash tcp4 sd" \
	sh -c "ethtool -X $ifname default && ethtool -N $ifname rx-flow-hash tcp4 sd"
hash=$(ethtool -n "$ifname" rx-flow-hash tcp4 2>&1)
check "ethtool -n rx-flow-hash tcp4: addresses only" \
	test "$(grep -c -E 'IP SA|IP DA' <<<"$hash")" = 2 -a "$(grep -c 'L4 bytes' <<<"$hash")" = 0
run_flows sd "$flows flows each way hashed on addresses only"
# ARP and other non-IP frames always take table entry 0: allow 1%.
small=$((q0 < q1 ? q0 : q1))
check "all of them on one RX queue (+$q0 / +$q1 packets)" \
	test $((small * 100)) -le $((q0 + q1)) -a $((q0 + q1)) -gt $((flows * 4))

# ethtool 6.1 reports the kernel's refusal but exits 0: judge by its
# message and by the setting staying as it was.
out=$(ethtool -N "$ifname" rx-flow-hash tcp4 s 2>&1)
rc=$?
hash=$(ethtool -n "$ifname" rx-flow-hash tcp4 2>&1)
if { [ "$rc" != 0 ] || grep -q 'Invalid argument' <<<"$out"; } &&
	[ "$(grep -c -E 'IP SA|IP DA' <<<"$hash")" = 2 ]; then
	ok "rx-flow-hash tcp4 s (source address only) is refused: ${out:-exit status $rc}"
else
	not_ok "rx-flow-hash tcp4 s (source address only) is refused"
	diag "exit status $rc: $out"
	diag "$hash"
fi
check "ethtool -N rx-flow-hash tcp4 sdfn restores the 4-tuple" \
	sh -c "ethtool -N $ifname rx-flow-hash tcp4 sdfn &&
		test \$(ethtool -n $ifname rx-flow-hash tcp4 | grep -c -E 'IP SA|IP DA|L4 bytes') = 4"

barrier unload
check "rmmod wren" rmmod wren
check_dmesg "dmesg clean after the RSS tests"
: >"$res/barrier-rss-done"
tap_done
