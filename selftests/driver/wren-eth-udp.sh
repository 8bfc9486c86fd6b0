#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once: UDP over the Wren netdev, both
# directions at the same time, every datagram's bytes checked by the
# receiver (selftests/lib/udp_stream.py: numbered datagrams of 16 B to
# 8000 B, the larger ones IP-fragmented at MTU 1500, payloads derived
# from a seed and the sequence number, paced for TCG).
#
# UDP may lose datagrams, so the test does not demand that they all
# arrive.  It demands: no datagram corrupted, truncated or duplicated;
# fewer lost than WREN_UDP_MAX_LOSS_PPM (default 10000 = 1%); every loss
# accounted for by a drop counter somewhere on the path (the peer's
# transmit drops, our device's and driver's receive drops, the IP
# reassembly failures and UDP receive errors of our stack); and a digest
# of the payloads as received that equals the one recomputed from the
# seed for the datagrams that arrived.
#
# Checksum offload: the first run has RX checksum offload on; the
# unfragmented datagrams must have used TX checksum offload on the peer
# and been verified by our device (per-queue csum counters).  The second
# run turns RX offload off, so our stack checks in software the UDP
# checksums the peer's device computed: none may be bad.
#
# Environment: WREN_UDP_COUNT (3000 datagrams per direction in the first
# run), WREN_UDP_RATE (100 datagrams/s), WREN_UDP_MAX_LOSS_PPM.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/pair.sh"

mods=$(wren_moddir)
count=${WREN_UDP_COUNT:-3000}
count2=$(((count + 2) / 3))
rate=${WREN_UDP_RATE:-100}
max_ppm=${WREN_UDP_MAX_LOSS_PPM:-10000}
tool="/usr/bin/python3 $WREN_TOP/selftests/lib/udp_stream.py"
pair_init udp UDP
plan 20
dmesg -C

# json FILE KEY: one value from a tool report (jq: python3 takes about
# 2 s to start under TCG, and a report is read a dozen times).
json() {
	jq -r --arg k "$2" '.[$k]' "$1" 2>/dev/null
}

# counters: one "name value" line per counter the losses and the offloads
# are judged by, summed over the queues.
counters() {
	ethtool -S "$ifname" | awk '
		/^ *tx[0-9]+_csum:/ { tx_csum += $2 }
		/^ *rx[0-9]+_csum:/ { rx_csum += $2 }
		/^ *tx[0-9]+_(dropped|errors):/ { tx_drop += $2 }
		/^ *rx[0-9]+_(dropped|errors|alloc_fail):/ { rx_drop += $2 }
		/^ *port_(tx_dropped_link_down|tx_errors):/ { tx_drop += $2 }
		/^ *port_(rx_dropped_no_buffer|rx_errors_length|rx_csum_bad):/ { rx_drop += $2 }
		/^ *port_rx_csum_bad:/ { csum_bad += $2 }
		# Frames for other MACs (multicast the stack did not ask for):
		# never one of ours, so not counted as a drop of the stream.
		/^ *port_rx_dropped_filter:/ { filtered += $2 }
		END { printf "tx_csum %d\nrx_csum %d\ntx_drop %d\nrx_drop %d\ncsum_bad %d\nfiltered %d\n",
			tx_csum, rx_csum, tx_drop, rx_drop, csum_bad, filtered }'
	# /proc/net/snmp: a line of names, then a line of values, per protocol.
	awk '$1 == "Ip:" || $1 == "Udp:" {
		if (!(($1) in names)) { names[$1] = $0; next }
		n = split(names[$1], k); split($0, v)
		for (i = 2; i <= n; i++) print substr($1, 1, length($1) - 1) "_" k[i], v[i]
	}' /proc/net/snmp | grep -E '^(Ip_Reasm(OKs|Fails)|Udp_(InErrors|RcvbufErrors|InCsumErrors|InDatagrams))'
	local d sum=0
	# Column 2 (hex): packets dropped because a CPU's backlog was full.
	while read -r _ d _; do
		sum=$((sum + 0x$d))
	done </proc/net/softnet_stat
	echo "softnet_drop $sum"
}

# delta FILE_BEFORE FILE_AFTER NAME
delta() {
	echo $(($(awk -v k="$3" '$1 == k { print $2 }' "$2") - $(awk -v k="$3" '$1 == k { print $2 }' "$1")))
}

# frags_expired: no IPv4 reassembly queue left (sockstat's FRAG inuse).
frags_expired() {
	awk '$1 == "FRAG:" { exit !($3 == 0) }' /proc/net/sockstat
}

# run TAG COUNT SEED: both guests receive and send at once; reports and
# counter snapshots land in $res/TAG.*.
run() {
	local tag=$1 n=$2 seed=$3 rpid
	rm -f "$res/$tag".*
	counters >"$res/$tag.before"
	$tool recv --bind "$WREN_IP" --port 7000 --count "$n" --seed $((seed + me)) \
		--ready "$res/$tag.ready" --first 240 >"$res/$tag.recv" 2>"$res/$tag.recv.err" &
	rpid=$!
	wait_for 60 test -e "$res/$tag.ready"
	barrier "$tag"
	$tool send --dst "$WREN_PEER_IP" --bind "$WREN_IP" --port 7000 --count "$n" \
		--seed $((seed + peer)) --rate "$rate" >"$res/$tag.send" 2>"$res/$tag.send.err"
	echo $? >"$res/$tag.send.rc"
	wait "$rpid"
	echo $? >"$res/$tag.recv.rc"
	# Incomplete reassemblies expire after ipfrag_time (set to 3 s):
	# wait for them to be counted before reading the counters, i.e. for
	# the stack to hold no fragment queue any more.
	wait_for 10 frags_expired
	counters >"$res/$tag.after.tmp" && mv "$res/$tag.after.tmp" "$res/$tag.after"
	barrier "$tag-done"
	wait_for 60 test -e "$peer_res/$tag.after"
}

# judge TAG N SEED DESC: the receive-side checks of one run, 4 results.
judge() {
	local tag=$1 n=$2 seed=$3 desc=$4 r
	r=$res/$tag.recv
	local lost corrupt want got explained
	if [ "$(cat "$res/$tag.recv.rc")" != 0 ] || [ -z "$(json "$r" received)" ]; then
		not_ok "$desc: receiver ran"
		diag "$(cat "$res/$tag.recv.err" "$r" 2>/dev/null | tail -n 20)"
		skip "$desc: loss" "no receiver report"
		skip "$desc: digest" "no receiver report"
		skip "$desc: losses explained" "no receiver report"
		return
	fi
	lost=$(json "$r" lost)
	corrupt=$(($(json "$r" corrupted) + $(json "$r" truncated) + $(json "$r" duplicates) + $(json "$r" foreign)))
	diag "$desc: received $(json "$r" received)/$n datagrams ($(json "$r" bytes) B) in $(json "$r" seconds) s, lost $lost, reordered $(json "$r" reordered), end marker $(json "$r" end_marker)"
	if [ "$corrupt" = 0 ]; then
		ok "$desc: every datagram received intact (no corrupted, truncated, duplicated or foreign one)"
	else
		not_ok "$desc: every datagram received intact"
		diag "corrupted $(json "$r" corrupted), truncated $(json "$r" truncated), duplicates $(json "$r" duplicates), foreign $(json "$r" foreign)"
		diag "$(json "$r" problems)"
	fi
	check "$desc: lost $lost of $n, under $max_ppm ppm" \
		test $((lost * 1000000)) -lt $((max_ppm * n))
	# The peer sent with seed (seed + me): recompute what we must have got.
	want=$($tool digest --count "$n" --seed $((seed + me)) --exclude "$r")
	got=$(json "$r" digest)
	if [ -n "$got" ] && [ "$got" = "$want" ]; then
		if [ "$lost" = 0 ] && [ "$got" = "$(json "$peer_res/$tag.send" digest)" ]; then
			ok "$desc: digest of the received payloads equals the sender's (${got:0:16}...)"
		else
			ok "$desc: digest of the received payloads equals the seed's without the $lost lost (${got:0:16}...)"
		fi
	else
		not_ok "$desc: digest of the received payloads"
		diag "received '$got', expected '$want', sender's '$(json "$peer_res/$tag.send" digest)'"
	fi
	explained=$(($(delta "$peer_res/$tag.before" "$peer_res/$tag.after" tx_drop) +
		$(delta "$res/$tag.before" "$res/$tag.after" rx_drop) +
		$(delta "$res/$tag.before" "$res/$tag.after" softnet_drop) +
		$(delta "$res/$tag.before" "$res/$tag.after" Ip_ReasmFails) +
		$(delta "$res/$tag.before" "$res/$tag.after" Udp_InErrors)))
	check "$desc: $lost lost, $explained drops counted on the path (peer TX, our device, driver, reassembly, UDP)" \
		test "$lost" -le "$explained"
	if [ "$lost" != 0 ] || [ "$explained" != 0 ]; then
		diag "$(paste "$res/$tag.before" "$res/$tag.after")"
		diag "peer: $(paste "$peer_res/$tag.before" "$peer_res/$tag.after" | grep drop)"
	fi
}

bdf=$(wren_bdf) || bail "a Wren NIC is on the PCI bus"
insmod "$mods/wren.ko" || bail "insmod wren.ko"
ifname=$(wren_netdev "$bdf")
[ -n "$ifname" ] || bail "wren.ko registers a netdev for $bdf" "$(dmesg | tail -n 20)"
ok "wren.ko registers netdev $ifname"
ip addr add "$WREN_IP/24" dev "$ifname"
ip link set "$ifname" up || bail "ip link set $ifname up"
wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier" || bail "carrier comes up"
wren_qos_up "$ifname" || bail "QoS profile ${WREN_QOS_PROFILE:-} on $ifname" "$WREN_QOS_ERR"
sysctl -qw net.core.rmem_max=16777216 net.core.wmem_max=16777216 net.ipv4.ipfrag_time=3
barrier up
check "ping $WREN_PEER_IP over $ifname" wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP"
feat=$(ethtool -k "$ifname")
check "TX and RX checksum offload on" \
	test "$(grep -c -E '^(tx-checksumming|rx-checksumming): on' <<<"$feat")" = 2

# Run 1: RX checksum offload on.
run u1 "$count" 1000
send_rc=$(cat "$res/u1.send.rc")
check "sent $count datagrams of 16..8000 B to the peer at $rate/s (rc $send_rc)" \
	test "$send_rc" = 0 -a "$(json "$res/u1.send" sent)" = "$count"
diag "sender: $(cat "$res/u1.send" "$res/u1.send.err" 2>/dev/null | cut -c1-300)"
judge u1 "$count" 1000 "UDP from the peer, RX csum offload on"

# Offload counters: the sender's unfragmented datagrams went out with
# CHECKSUM_PARTIAL; ours (those that arrived) were verified by the device.
unfrag_sent=$(json "$res/u1.send" unfragmented)
tx_csum=$(delta "$res/u1.before" "$res/u1.after" tx_csum)
check "TX checksum offload used: tx csum counter +$tx_csum for ${unfrag_sent:-?} unfragmented datagrams sent" \
	test "$tx_csum" -ge "${unfrag_sent:-1}"
unfrag_got=$(json "$res/u1.recv" unfragmented)
rx_csum=$(delta "$res/u1.before" "$res/u1.after" rx_csum)
csum_errs=$(($(delta "$res/u1.before" "$res/u1.after" csum_bad) +
	$(delta "$res/u1.before" "$res/u1.after" Udp_InCsumErrors)))
check "RX checksum verified by the device: rx csum counter +$rx_csum for ${unfrag_got:-?} unfragmented datagrams, $csum_errs bad" \
	test "$rx_csum" -ge "${unfrag_got:-1}" -a "$csum_errs" = 0
reasm=$(delta "$res/u1.before" "$res/u1.after" Ip_ReasmOKs)
frag_got=$(($(json "$res/u1.recv" received) - ${unfrag_got:-0}))
check "fragmented datagrams reassembled: $frag_got received, IP ReasmOKs +$reasm" \
	test "$frag_got" -gt 0 -a "$reasm" -ge "$frag_got"

# Run 2: our stack verifies in software the checksums the peer's device
# computed, and the device's verdicts are not used.
check "ethtool -K rx off" ethtool -K "$ifname" rx off
run u2 "$count2" 2000
judge u2 "$count2" 2000 "UDP from the peer, RX csum offload off"
rx_csum=$(delta "$res/u2.before" "$res/u2.after" rx_csum)
csum_errs=$(delta "$res/u2.before" "$res/u2.after" Udp_InCsumErrors)
check "software checks of the peer's offloaded checksums: $csum_errs bad, device verdicts unused (rx csum +$rx_csum)" \
	test "$csum_errs" = 0 -a "$rx_csum" = 0
check "ethtool -K rx on" ethtool -K "$ifname" rx on

barrier unload
check "rmmod wren" rmmod wren
check_dmesg "dmesg clean after the UDP tests"
: >"$res/barrier-udp-done"
tap_done
