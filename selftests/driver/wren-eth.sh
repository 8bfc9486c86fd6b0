#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once: the Wren netdev carries IP
# traffic to the peer through the fabric.  Ping both ways, TCP streams in
# both directions with every received byte checked against the seeded
# stream the peer sent (build/tools/wren-pattern), jumbo frames, ring/channel resize and MTU change while a
# stream runs, ethtool output, and module unload under traffic with a
# clean dmesg.  The guests meet through marker files in each other's
# results directory (the 9p share both see).
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
mb=${WREN_ETH_STREAM_MB:-256}
small_mb=${WREN_ETH_SMALL_MB:-32}
pair_init eth "Ethernet"
plan 25
dmesg -C

# stream TAG PORT MIB DIR: DIR "both", "send" or "recv".  Starts the
# receiver (listening on our Wren address) and/or the sender in the
# background.  The sender writes wren-pattern's stream seeded with PORT
# and its guest index; the receiver checks every byte against the same
# stream and writes the verdict to $res/TAG.recv.
pattern=$WREN_TOP/build/tools/wren-pattern
stream_start() {
	local tag=$1 port=$2 n=$3 dir=$4
	rm -f "$res/$tag".*
	recv_pid=
	send_pid=
	if [ "$dir" != send ]; then
		(timeout 1500 socat -u "TCP-LISTEN:$port,bind=$WREN_IP,reuseaddr" STDOUT |
			"$pattern" check $((port * 2 + peer)) $((n << 20)) >"$res/$tag.recv") &
		recv_pid=$!
	fi
	if [ "$dir" != recv ]; then
		("$pattern" gen $((port * 2 + me)) $((n << 20)) |
			timeout 1500 socat -u STDIN \
				"TCP:$WREN_PEER_IP:$port,retry=1200,interval=0.5") &
		send_pid=$!
	fi
}

# stream_check TAG DESC: wait for our side; the receiver judges the data.
stream_check() {
	local tag=$1 desc=$2 rc=0 t0=$SECONDS
	[ -n "$send_pid" ] && { wait "$send_pid" || rc=$?; }
	if [ -z "$recv_pid" ]; then
		# Only sending: the peer judges; we check that the send worked.
		check "$desc: sent" test "$rc" = 0
		return
	fi
	wait "$recv_pid" || rc=$?
	local verdict
	verdict=$(cat "$res/$tag.recv" 2>/dev/null)
	if [ "$rc" = 0 ] && [ "${verdict%% *}" = ok ]; then
		ok "$desc: every byte received as sent"
	else
		not_ok "$desc: every byte received as sent"
		diag "rc $rc, receiver: '${verdict}', $((SECONDS - t0)) s"
	fi
}

bdf=$(wren_bdf) || bail "a Wren NIC is on the PCI bus"
insmod "$mods/wren.ko" || bail "insmod wren.ko"
ifname=$(wren_netdev "$bdf")
[ -n "$ifname" ] || bail "wren.ko registers a netdev for $bdf" "$(dmesg | tail -n 20)"
ok "wren.ko registers netdev $ifname for $bdf"
mac=$(cat "/sys/class/net/$ifname/address")
check "MAC $mac is the device's (52:54:00:00:00:0$((me + 1)))" \
	test "$mac" = "52:54:00:00:00:0$((me + 1))"

ip addr add "$WREN_IP/24" dev "$ifname"
ip link set "$ifname" up || bail "ip link set $ifname up"
check "carrier comes up" wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier"
wren_qos_up "$ifname" || bail "QoS profile ${WREN_QOS_PROFILE:-} on $ifname" "$WREN_QOS_ERR"

# ethtool views.
drvinfo=$(ethtool -i "$ifname" 2>&1)
check "ethtool -i: driver wren, bus-info $bdf" \
	grep -qx "driver: wren" <<<"$drvinfo"
diag "$drvinfo"
rings=$(ethtool -g "$ifname" 2>&1)
check "ethtool -g reports rings rx 1024, tx 512, max 4096" \
	test "$(grep -c -E '^RX:[[:space:]]+(1024|4096)$|^TX:[[:space:]]+(512|4096)$' <<<"$rings")" = 4
chans=$(ethtool -l "$ifname" 2>&1)
maxq=$(awk '/^Combined:/ { print $2; exit }' <<<"$chans")
check "ethtool -l reports ${maxq:-?} combined channels" test "${maxq:-0}" -ge 1
feat=$(ethtool -k "$ifname" 2>&1)
check "ethtool -k: TSO, checksums, scatter-gather and VLAN offloads on" \
	test "$(grep -c -E '^(tcp-segmentation-offload|tx-checksumming|rx-checksumming|scatter-gather|rx-vlan-offload|tx-vlan-offload): on' <<<"$feat")" = 6
check "ethtool (link settings): full duplex, speed known" \
	grep -q 'Duplex: Full' <<<"$(ethtool "$ifname" 2>&1)"

barrier up
check "ping $WREN_PEER_IP over $ifname" wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP"
# busybox ping exits 0 on a single reply; the summary says whether any
# was lost.  -A sends the next as soon as one returns; -i 5 keeps its
# interval timer from sending one more when a reply takes over a second
# on a loaded host (a 21st of 20 was seen, counted as lost).
ping_out=$(busybox ping -A -i 5 -q -c 10 -W 2 "$WREN_PEER_IP" 2>&1)
check "ping -c 10: no loss" grep -q " 0% packet loss" <<<"$ping_out"

barrier stream1
t0=$SECONDS
stream_start s1 5001 "$mb" both
stream_check s1 "TCP ${mb} MiB each way at MTU 1500"
diag "stream of ${mb} MiB each way took $((SECONDS - t0)) s"

stats=$(ethtool -S "$ifname" 2>&1)
txp=$(awk '/^ *tx[0-9]+_packets:/ { s += $2 } END { print s + 0 }' <<<"$stats")
port_tx=$(awk '/^ *port_tx_packets:/ { print $2 }' <<<"$stats")
check "ethtool -S: per-queue tx packets ($txp) and port tx packets (${port_tx:-none}) counted" \
	test "$txp" -gt 1000 -a "${port_tx:-0}" -gt 1000
tso=$(awk '/^ *tx[0-9]+_tso:/ { s += $2 } END { print s + 0 }' <<<"$stats")
csum=$(awk '/^ *rx[0-9]+_csum:/ { s += $2 } END { print s + 0 }' <<<"$stats")
check "TSO used on transmit ($tso) and checksums verified on receive ($csum)" \
	test "$tso" -gt 0 -a "$csum" -gt 0

barrier jumbo-before
ip link set "$ifname" mtu 9000
check "MTU 9000 accepted" test "$(cat "/sys/class/net/$ifname/mtu")" = 9000
barrier jumbo
check "ping -s 8900 (jumbo frames both ways)" \
	wait_for 30 busybox ping -A -i 5 -c 2 -W 2 -s 8900 "$WREN_PEER_IP"
stream_start s2 5002 "$small_mb" both
stream_check s2 "TCP ${small_mb} MiB each way at MTU 9000"

# port_bytes: what the port has received and sent, in bytes.
port_bytes() {
	local st=/sys/class/net/$ifname/statistics r t
	read -r r <"$st/rx_bytes" && read -r t <"$st/tx_bytes" && echo $((r + t))
}
# flowing: wait until the port has carried another MiB (or the stream
# has ended), so that what comes next happens under traffic that is
# really moving: a fixed sleep is too short on a loaded host and idles
# on a fast one.
flowing() {
	local from
	from=$(port_bytes)
	moved() {
		[ "$(port_bytes)" -ge $((from + (1 << 20))) ] && return 0
		! kill -0 ${send_pid:-} ${recv_pid:-} 2>/dev/null
	}
	wait_for 30 moved
}

# Rings and channels change on both sides while both streams run.
barrier resize
stream_start s3 5003 "$small_mb" both
flowing
check "ethtool -G rx 256 tx 128 under traffic" ethtool -G "$ifname" rx 256 tx 128
flowing
check "ethtool -L combined 1 under traffic" ethtool -L "$ifname" combined 1
flowing
check "ethtool -L combined ${maxq:-1} and -G back to 1024/512 under traffic" \
	sh -c "ethtool -L $ifname combined ${maxq:-1} && ethtool -G $ifname rx 1024 tx 512"
stream_check s3 "TCP ${small_mb} MiB each way across ring and channel changes"

# MTU change under traffic: guest 0 sends and changes its own MTU; the
# receiver keeps 9000 and accepts any smaller frame.
barrier mtu
if [ "$me" = 0 ]; then
	stream_start s4 5004 "$small_mb" send
	flowing
	check "MTU 9000 -> 1500 under traffic" ip link set "$ifname" mtu 1500
	flowing
	check "MTU 1500 -> 9000 under traffic" ip link set "$ifname" mtu 9000
	stream_check s4 "TCP ${small_mb} MiB across MTU changes"
else
	stream_start s4 5004 "$small_mb" recv
	ok "receiver keeps MTU 9000"
	ok "peer changes its MTU"
	stream_check s4 "TCP ${small_mb} MiB across the peer's MTU changes"
fi

# Unload while traffic runs both ways; the streams die with the netdev.
barrier unload
stream_start s5 5005 4096 both
flowing
check "rmmod wren under traffic" rmmod wren
for p in $recv_pid $send_pid; do
	pkill -P "$p" 2>/dev/null
	kill "$p" 2>/dev/null
done
wait 2>/dev/null
check_dmesg "dmesg clean after the Ethernet tests"
tap_done
