#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# TCP throughput between the two bench guests over the Wren NIC and, in
# the same boot between the same guests, over virtio-net (the control
# network), with the same tool (iperf3, one stream), the same duration
# and both directions.  Guest 1 serves; guest 0 runs the clients and
# prints the figures, their ratio and whether Wren reaches the target of
# 1.0 of virtio-net (at least as fast).  Run through
# `make bench-eth` (mk/bench-eth.mk).
#
# Environment (kernel command-line words through make's APPEND):
#   BENCH_ETH_SECONDS  length of each iperf3 run (10)
#   BENCH_ETH_ROUNDS   rounds; each runs Wren and virtio-net alternately,
#                      both directions (2)
#   BENCH_ETH_TARGET   ratio Wren/virtio-net to reach (1.0)
#   BENCH_ETH_COALESCE ethtool -C arguments for the Wren netdev of both
#                      guests, comma-separated (e.g. rx-usecs,50,rx-frames,16)
#   BENCH_ETH_RINGS    ethtool -G arguments, likewise (e.g. rx,1024)
# The figures are what iperf3's receiver counted, in MB/s (10^6 bytes).
# Exit status: 0 when every run measured something, whatever the ratio.
set -u
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

secs=${BENCH_ETH_SECONDS:-10}
rounds=${BENCH_ETH_ROUNDS:-2}
target=${BENCH_ETH_TARGET:-1.0}
me=${WREN_GUEST_INDEX:-0}
res=$WREN_RESULTS
peer_res=$(dirname "$WREN_RESULTS")/g$((1 - me))
py=/usr/bin/python3

die() {
	echo "bench-eth: $*" >&2
	: >"$res/abort"
	exit 1
}

bdf=$(wren_bdf) || die "no Wren NIC on the PCI bus"
insmod "$(wren_moddir)/wren.ko" || die "insmod wren.ko failed"
ifname=$(wren_netdev "$bdf") || die "wren.ko made no netdev"
ip addr add "$WREN_IP/24" dev "$ifname"
ip link set "$ifname" up
wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier" || die "no carrier on $ifname"
if [ -n "${BENCH_ETH_RINGS:-}" ]; then
	IFS=, read -r -a rings <<<"$BENCH_ETH_RINGS"
	ethtool -G "$ifname" "${rings[@]}" || die "ethtool -G ${rings[*]} failed"
	wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier" || die "no carrier after ethtool -G"
fi
if [ -n "${BENCH_ETH_COALESCE:-}" ]; then
	IFS=, read -r -a coal <<<"$BENCH_ETH_COALESCE"
	ethtool -C "$ifname" "${coal[@]}" || die "ethtool -C ${coal[*]} failed"
fi

if [ "$me" = 1 ]; then
	iperf3 -s -D -B "$WREN_IP" -p 5201 --logfile "$res/iperf3-wren.log" || die "iperf3 -s failed"
	iperf3 -s -D -B "$WREN_VIRTIO_IP" -p 5202 --logfile "$res/iperf3-virtio.log" ||
		die "iperf3 -s failed"
	: >"$res/ready"
	# Serve until the client is done (or gave up).
	wait_for $((rounds * secs * 8 + 600)) test -e "$peer_res/done" -o -e "$peer_res/abort"
	exit 0
fi

wait_for 300 test -e "$peer_res/ready" -o -e "$peer_res/abort"
[ -e "$peer_res/ready" ] || die "the peer did not start its iperf3 servers"
wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP" >/dev/null || die "no ping over $ifname"
wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_VIRTIO_IP" >/dev/null || die "no ping over virtio-net"

# Summed Wren interrupts and per-queue packets, for a per-packet profile.
wren_irqs() {
	awk '/wren-eth/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' \
		/proc/interrupts
}
wren_pkts() {
	ethtool -S "$ifname" | awk '/^ *(tx|rx)[0-9]+_packets:/ { s += $2 } END { print s + 0 }'
}
# Busy and softirq jiffies of all CPUs.
cpu_ticks() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat
}

# measure PATH DIR: one iperf3 run; prints "MB/s" or nothing.
measure() {
	local path=$1 dir=$2 dst port args=() out
	if [ "$path" = wren ]; then
		dst=$WREN_PEER_IP port=5201
	else
		dst=$WREN_PEER_VIRTIO_IP port=5202
	fi
	[ "$dir" = rx ] && args=(-R)
	out=$res/iperf3-$path-$dir-$round.json
	iperf3 -c "$dst" -p "$port" -t "$secs" -J "${args[@]}" >"$out" 2>&1 || return 1
	$py - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["end"]["sum_received"]
print("%.2f" % (r["bytes"] / r["seconds"] / 1e6))
PY
}

echo "bench-eth: kernel $(uname -r), $(nproc) vCPU per guest, iperf3 one TCP stream, ${secs} s a run, $rounds round(s)"
echo "bench-eth: Wren $ifname $WREN_IP -> $WREN_PEER_IP (MTU $(cat "/sys/class/net/$ifname/mtu")), virtio-net $WREN_VIRTIO_IP -> $WREN_PEER_VIRTIO_IP"
echo "bench-eth: Wren coalescing: $(ethtool -c "$ifname" 2>/dev/null | awk '/^rx-usecs:|^rx-frames:/ { printf "%s %s ", $1, $2 }')rings $(ethtool -g "$ifname" | awk '/^RX:/ { n++; if (n == 2) printf "rx %s ", $2 } /^TX:/ { m++; if (m == 2) printf "tx %s", $2 }')"
declare -A sum cnt
failed=0
for round in $(seq 1 "$rounds"); do
	for dir in tx rx; do
		for path in wren virtio; do
			i0=$(wren_irqs)
			p0=$(wren_pkts)
			read -r busy0 soft0 all0 < <(cpu_ticks)
			mbs=$(measure "$path" "$dir")
			read -r busy1 soft1 all1 < <(cpu_ticks)
			if [ -z "$mbs" ]; then
				echo "bench-eth: round $round $path $dir: iperf3 failed: $(tail -c 300 "$res/iperf3-$path-$dir-$round.json")"
				failed=1
				continue
			fi
			extra=
			if [ "$path" = wren ]; then
				irqs=$(($(wren_irqs) - i0))
				pkts=$(($(wren_pkts) - p0))
				extra=$(awk -v i="$irqs" -v p="$pkts" 'BEGIN { printf ", %d packets, %.2f packets per interrupt", p, i ? p / i : 0 }')
			fi
			cpu=$(awk -v b=$((busy1 - busy0)) -v s=$((soft1 - soft0)) -v a=$((all1 - all0)) \
				'BEGIN { if (a) printf "guest 0 CPU busy %.0f%% (softirq+irq %.0f%%)", 100 * b / a, 100 * s / a }')
			printf 'bench-eth: round %s %-6s %s (guest 0 %s): %8.2f MB/s  [%s%s]\n' \
				"$round" "$path" "$dir" "$([ "$dir" = tx ] && echo sends || echo receives)" \
				"$mbs" "$cpu" "$extra"
			sum[$path]=$(awk -v a="${sum[$path]:-0}" -v b="$mbs" 'BEGIN { print a + b }')
			cnt[$path]=$((${cnt[$path]:-0} + 1))
		done
	done
done
: >"$res/done"
if [ "${cnt[wren]:-0}" = 0 ] || [ "${cnt[virtio]:-0}" = 0 ]; then
	die "no complete measurement"
fi
awk -v w="${sum[wren]}" -v wn="${cnt[wren]}" -v v="${sum[virtio]}" -v vn="${cnt[virtio]}" -v t="$target" 'BEGIN {
	w /= wn; v /= vn; r = v ? w / v : 0
	printf "bench-eth: Wren       %8.2f MB/s (mean of %d runs)\n", w, wn
	printf "bench-eth: virtio-net %8.2f MB/s (mean of %d runs)\n", v, vn
	printf "bench-eth: ratio Wren/virtio-net %.2f, target >= %s: %s\n", r, t, (r >= t ? "PASS" : "FAIL")
}'
ethtool -S "$ifname" | grep -E '^ *(tx0_(packets|tso|csum|busy|wake)|rx0_(packets|csum|alloc_fail)|port_rx_dropped_no_buffer):' |
	sed 's/^ */bench-eth: counters: /'
exit $failed
