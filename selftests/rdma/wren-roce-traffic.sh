#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2, best with PCAP=1): RoCEv2
# traffic of every kind the Wren NIC sends, for the fabric's captures,
# which selftests/host/roce-pcap-check.py then decodes with Wireshark's
# dissector and checks (ICRC included) on the host - see
# scripts/check/interop.sh, which runs both.  Guest 0 is the target /
# receiver, guest 1 the initiator / sender:
#
#   1. wren_verbs_test (verbs/): RC SEND, SEND with immediate, WRITE,
#      WRITE with immediate, READ at 15 sizes from 0 B to 1 MiB (ONLY,
#      FIRST/MIDDLE/LAST packets), inline, both atomics, UD SEND with and
#      without immediate, and the protection cases (NAK Remote Access
#      Error, NAK Invalid Request);
#   2. roce_extra_traffic.py: SEND with invalidate in one packet and in
#      three, an RNR NAK (a SEND before its receive is posted) and a NAK
#      Remote Operational Error (a receive with a bad lkey);
#   3. with the fabric dropping 2% of guest 0's frames, short ib_write_bw
#      and ib_read_bw runs: PSN sequence error NAKs, retransmits, duplicate
#      requests answered again.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-roce-traffic.sh PCAP=1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/perftest.sh"

bin=$WREN_TOP/build/tests/rdma/wren_verbs_test
extra=$WREN_TOP/selftests/rdma/roce_extra_traffic.py
loss=${WREN_TRAFFIC_LOSS:-0.02}
pair_init roce "RoCE traffic"
plan 6
dmesg -C

if ! rdma_env_check 2>"$res/roce-env.err" || [ ! -x "$bin" ]; then
	bail "the bench's rdma-core build with libwren and wren_verbs_test are in place" \
		"$(cat "$res/roce-env.err"); run make rdma-tests"
fi
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
dev=$RDMA_WREN_DEV
gidx=$RDMA_WREN_GID
ok "$dev on $RDMA_WREN_IF, RoCE v2 GID index $gidx for $WREN_IP"
# Capture on, whatever an earlier test of a shared boot left.
if [ -n "${WREN_PCAP_DIR:-}" ]; then
	fabric_ctl pcap "$me" on >/dev/null || bail "fabric capture on for port $me"
else
	diag "no capture (PCAP=1 not given): the traffic runs, nothing checks its frames"
fi
barrier up

# --- 1: every opcode and size, the protection NAKs ------------------------
t0=$SECONDS
if [ "$me" = 0 ]; then
	timeout 600 "$bin" target -d "$dev" -g "$gidx" -p 19300 >"$res/roce-target.out" 2>&1
	rc=$?
	check "wren_verbs_test target: every case judged, exit $rc ($((SECONDS - t0)) s)" test "$rc" = 0
	[ "$rc" = 0 ] || diag "$(tail -n 20 "$res/roce-target.out")"
else
	timeout 600 "$bin" initiator -d "$dev" -g "$gidx" -p 19300 "$WREN_PEER_VIRTIO_IP" \
		>"$res/roce-initiator.out" 2>&1
	rc=$?
	bad=$(grep '^not ok' "$res/roce-initiator.out")
	n=$(grep -c '^ok' "$res/roce-initiator.out")
	if [ "$rc" = 0 ] && [ -z "$bad" ] && [ "$n" = "$("$bin" count)" ]; then
		ok "wren_verbs_test initiator: $n cases ok ($((SECONDS - t0)) s)"
	else
		not_ok "wren_verbs_test initiator: $n ok, exit $rc"
		diag "$bad"
	fi
fi
barrier verbs 600

# --- 2: SEND with invalidate, RNR NAK -------------------------------------
t0=$SECONDS
if [ "$me" = 0 ]; then
	timeout 300 "$extra" -d "$dev" -g "$gidx" --listen 19310 >/dev/null 2>"$res/roce-extra.err"
	rc=$?
	check "roce_extra_traffic.py receiver, exit $rc ($((SECONDS - t0)) s)" test "$rc" = 0
	diag "$(tail -n 5 "$res/roce-extra.err")"
else
	timeout 300 "$extra" -d "$dev" -g "$gidx" --connect "$WREN_PEER_VIRTIO_IP:19310" \
		>"$res/roce-extra.out" 2>"$res/roce-extra.err"
	rc=$?
	bad=$(grep '^not ok' "$res/roce-extra.out")
	if [ "$rc" = 0 ] && [ -z "$bad" ] && grep -q '^ok 4 ' "$res/roce-extra.out"; then
		ok "SEND with invalidate (1 and 3 packets), RNR NAK, Remote Operational Error NAK ($((SECONDS - t0)) s)"
	else
		not_ok "SEND with invalidate, RNR NAK, Remote Operational Error NAK: exit $rc"
		diag "$(cat "$res/roce-extra.out") $(tail -n 10 "$res/roce-extra.err")"
	fi
	diag "$(grep '^ok' "$res/roce-extra.out")"
fi
barrier extra 300

# --- 3: loss: sequence error NAKs, retransmits ----------------------------
# Guest 0 serves; the loss is on its link, both ways.
if [ "$me" = 0 ]; then
	fabric_ctl loss 0 "$loss" >/dev/null || diag "fabric loss on port 0 failed"
fi
barrier loss-on 60
port=19320
for t in "ib_write_bw -s 65536 -n 40" "ib_read_bw -s 65536 -n 40"; do
	port=$((port + 1))
	read -r -a words <<<"$t"
	cmd=("${words[0]}" -d "$dev" -x "$gidx" -p "$port" -F "${words[@]:1}")
	t0=$SECONDS
	if [ "$me" = 0 ]; then
		perftest_server "roce-$port" "$res/roce-$port.out" "${cmd[@]}"
		rc=$?
		check "$t at ${loss} loss (server), exit $rc ($((SECONDS - t0)) s)" test "$rc" = 0
	else
		perftest_client "roce-$port" "$res/roce-$port.out" "$WREN_PEER_VIRTIO_IP" "${cmd[@]}"
		rc=$?
		check "$t at ${loss} loss (client), exit $rc ($((SECONDS - t0)) s)" test "$rc" = 0
	fi
	[ "$rc" = 0 ] || diag "$(tail -n 15 "$res/roce-$port.out")"
	barrier "loss-$port" 300
done
[ "$me" = 0 ] && fabric_ctl loss 0 0 >/dev/null
diag "$(rdma statistic show link "$dev/1" 2>&1)"

check_dmesg "no kernel warnings"
tap_done
