#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): ECN,
# CNPs and DCQCN on the wire.  Both NICs trust DSCP
# (24 -> priority 3, CNPs' 48 -> 6) and run ECN, the notification point
# and the reaction point on priority 3 (devlink cc_ecn_enable,
# cc_np_enable, cc_rp_enable = 8).  Guest 1 sends RDMA WRITEs to guest 0
# through the fabric, whose egress towards guest 0 is the bottleneck
# (100 Mb/s) and marks CE on queue 3 above Kmin (RED: Kmin 16 KiB, Kmax
# 64 KiB, Pmax 20%).
#
#   1. marking on: the fabric marks, guest 0 counts CE-marked packets and
#      sends CNPs (np_ecn_marked_roce_packets, np_cnp_sent), guest 1
#      handles them (rp_cnp_handled) and its QP's DCQCN rate
#      (rdma -dd res: cc_rate_kbps) drops well below the link; with
#      PCAP=1, tshark decodes the CNPs guest 0 sent: opcode 0x81, BECN,
#      DSCP 48, to guest 1's QP.  Marking off: the rate recovers;
#   2. guest 1's ECN off (cc_ecn_enable 0): the queue still goes above
#      Kmax, and nothing is marked, no CNP sent.
#
# The 2:1 incast, PFC alone against DCQCN, is wren-incast.sh: it needs a
# sender per NIC, i.e. three guests.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-dcqcn.sh KVER=6.1 [PCAP=1]
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/lossless.sh"

pair_init dcqcn "DCQCN"
kmin=16384
kmax=65536
ecn_on=(ecn 0 3 on kmin "$kmin" kmax "$kmax" pmax 0.2)
link_kbps=25000000
prio3=(--sl 3 --tclass 96)
bulk=(--op write --size 65536 --depth 16 --mr-mib 4)
if [ "$me" = 1 ]; then
	plan 12
else
	plan 6
fi
dmesg -C

ll_rdma_up
ll_lossless "DSCP trust (24 -> 3, ${ll_cnp/:/ -> }), PFC on 3, ECN/NP/RP on priority 3" \
	"DSCP trust, PFC on 3, ECN/NP/RP on priority 3" "24:3 $ll_cnp" \
	"ll_param cc_ecn_enable 8" "ll_param cc_np_enable 8" "ll_param cc_rp_enable 8"
[ -n "${WREN_PCAP_DIR:-}" ] && fabric_ctl pcap "$me" off >/dev/null
busybox ping -c 1 -W 5 "$WREN_PEER_IP" >/dev/null 2>&1
barrier up

# flow NAME PORT ARGS...: guest 0 serves, guest 1 sends.
flow() {
	local name=$1 port=$2
	shift 2
	if [ "$me" = 0 ]; then
		ll_passive "$port" "$res/$name.out" "$@" --ready-file "$res/ready-$name"
	else
		ll_active "$port" "$res/$name.out" "$@"
	fi
}
# d A B NAME: a counter of snapshot B minus snapshot A.
d() { echo $(($(ll_val "$2" "$3") - $(ll_val "$1" "$3"))); }
qsnap() { fabric_ctl qdepth 0 3 >"$1" 2>&1; }
cc_snap() {
	local f=$1 c
	for c in np_ecn_marked_roce_packets np_cnp_sent rp_cnp_handled; do
		echo "$c: $(ll_hw "$c")"
	done >"$f"
}

# --- 1: marking, CNPs, the rate cut and its recovery ------------------------
if [ "$me" = 1 ]; then
	fabric_ctl rate 0 100 >/dev/null
	fabric_ctl "${ecn_on[@]}" >"$res/fab.out" 2>&1
	check "fabric: port 0 at 100 Mb/s, RED/ECN on queue 3 (Kmin $kmin, Kmax $kmax, Pmax 20%)" \
		grep -qx ok "$res/fab.out"
fi
barrier p1
cc_snap "$res/p1a.cc"
if [ "$me" = 0 ]; then
	flow p1 18720 "${bulk[@]}" "${prio3[@]}"
	rc=$?
	cc_snap "$res/p1b.cc"
	m=$(d "$res/p1a.cc" "$res/p1b.cc" np_ecn_marked_roce_packets)
	c=$(d "$res/p1a.cc" "$res/p1b.cc" np_cnp_sent)
	check "guest 0 (notification point): $m CE-marked packets, $c CNPs sent (flow exit $rc)" \
		test "$m" -gt 0 -a "$c" -gt 0 -a "$rc" = 0
else
	ll_fab_snap 0 "$res/p1a.f0"
	# The driver's wren:wren_cc_rate tracepoint, for the CC_RATE events
	# the NIC raises as the QP's rate is cut and recovers.
	tr=/sys/kernel/tracing
	[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null
	: >"$tr/trace" 2>/dev/null
	echo 1 >"$tr/events/wren/wren_cc_rate/enable" 2>/dev/null
	# Long enough for the cut, the capture and the recovery under TCG on
	# a loaded host, where each fabric_ctl call can take seconds (seen:
	# five calls in 21 s, and a 20 s flow ending before the recovery).
	# It ends once the recovery is seen (the stop file).
	rm -f "$res/p1.stop"
	flow p1 18720 "${bulk[@]}" "${prio3[@]}" --seconds 30 --stop-file "$res/p1.stop" &
	fpid=$!
	have_qpn() { [ -n "$(ll_qpn "$res/p1.out")" ]; }
	wait_for 60 have_qpn
	qpn=$(ll_qpn "$res/p1.out")
	cc=
	cut() {
		local r
		cc=$(ll_qp_cc "$qpn")
		read -r r _ <<<"$cc"
		[ -n "$r" ] && [ "$r" -gt 0 ] && [ "$r" -lt $((link_kbps / 2)) ]
	}
	t0=$SECONDS
	if wait_for 20 cut; then
		read -r r rt al act <<<"$cc"
		ok "QP $qpn's DCQCN rate drops to $r kb/s (link $link_kbps) within $((SECONDS - t0)) s: Rt $rt, alpha $al/$WREN_DCQCN_ALPHA_MAX, active $act"
	else
		not_ok "QP ${qpn:-?}'s DCQCN rate drops below half the link (now: ${cc:-no QP})"
		diag "$(rdma -dd res show qp link "$ll_dev/1" 2>&1)"
	fi
	# The CNPs guest 0 sends while its queue marks: a short capture, as
	# long as the two fabric calls take.  tshark dissects every frame of
	# it, the bulk data too: 1 ms a frame under TCG, and a window with a
	# one-second nap in it held 24000 CNPs and took it 39 s.
	pcap=${WREN_PCAP_DIR:+$WREN_PCAP_DIR/port0.pcap}
	if [ -n "$pcap" ]; then
		pcap0=$(stat -c %s "$pcap" 2>/dev/null || echo 0)
		fabric_ctl pcap 0 on >/dev/null
		fabric_ctl pcap 0 off >/dev/null
	fi
	diag "DCQCN state while marking (rate target alpha active): $(ll_qp_cc "$qpn")"
	fabric_ctl ecn 0 3 off >/dev/null
	t0=$EPOCHREALTIME
	recovered() {
		local r a
		cc=$(ll_qp_cc "$qpn")
		read -r r _ _ a <<<"$cc"
		[ -n "$r" ] && { [ "$a" = 0 ] || [ "$r" = 0 ] || [ "$r" -ge $((link_kbps * 9 / 10)) ]; }
	}
	if wait_for 20 recovered; then
		ok "marking off: the rate recovers ($cc) in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
	else
		not_ok "marking off: the rate recovers (now: ${cc:-no QP})"
		diag "$(rdma -dd res show qp link "$ll_dev/1" 2>&1)"
	fi
	: >"$res/p1.stop"
	wait "$fpid"
	rc=$?
	echo 0 >"$tr/events/wren/wren_cc_rate/enable" 2>/dev/null
	grep "wren_cc_rate: .* qpn $qpn " "$tr/trace" >"$res/p1.trace" 2>/dev/null
	ncut=$(grep -c " qpn $qpn cut " "$res/p1.trace")
	nrec=$(grep -c " qpn $qpn recovered " "$res/p1.trace")
	check "tracepoint wren_cc_rate: $ncut cuts and $nrec recoveries of QP $qpn" \
		test "$ncut" -gt 0 -a "$nrec" -gt 0
	diag "first and last: $(head -n 1 "$res/p1.trace"); $(tail -n 1 "$res/p1.trace")"
	ll_fab_snap 0 "$res/p1b.f0"
	cc_snap "$res/p1b.cc"
	marked=$(d "$res/p1a.f0" "$res/p1b.f0" q3_ecn_marked)
	h=$(d "$res/p1a.cc" "$res/p1b.cc" rp_cnp_handled)
	check "the fabric marked $marked packets CE, guest 1 handled $h CNPs (flow exit $rc, $(ll_mbs "$res/p1.out") MB/s)" \
		test "$marked" -gt 0 -a "$h" -gt 0 -a "$rc" = 0
	if [ -z "$pcap" ] || ! command -v tshark >/dev/null; then
		skip "tshark decodes the CNPs" "no capture (PCAP=1) or no tshark"
	else
		{ head -c 24 "$pcap"; tail -c +$((pcap0 + 1)) "$pcap"; } >/tmp/dcqcn-p1.pcap
		# This tshark has no BECN field: it is bit 6 of the BTH's byte 4.
		tshark -r /tmp/dcqcn-p1.pcap -Y 'infiniband.bth.opcode == 0x81' -T fields \
			-E separator=, -e ip.src -e infiniband.bth.destqp -e infiniband.bth \
			-e ip.dsfield.dscp -e _ws.malformed >"$res/p1.tshark" 2>"$res/p1.tshark.err"
		read -r n nbad < <(awk -F, -v q="$qpn" -v src="$WREN_PEER_IP" \
			-v dscp="$WREN_DCQCN_NP_CNP_DSCP_DEFAULT" '
			function num(s) { return s ~ /^0x/ ? hex(substr(s, 3)) : s + 0 }
			function hex(s,  i, v) {
				v = 0
				for (i = 1; i <= length(s); i++)
					v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
				return v
			}
			{ n++; bth = $3; gsub(/:/, "", bth); b4 = hex(substr(bth, 9, 2)) }
			$1 != src || num($2) != q + 0 || int(b4 / 64) % 2 != 1 ||
			$4 + 0 != dscp || $5 != "" { bad++ }
			END { print n + 0, bad + 0 }' "$res/p1.tshark")
		check "tshark: $n CNPs (opcode 0x81) from guest 0, $nbad not BECN, DSCP $WREN_DCQCN_NP_CNP_DSCP_DEFAULT, to QP $qpn" \
			test "$n" -gt 0 -a "$nbad" = 0
		[ "$nbad" = 0 ] || diag "$(head -n 5 "$res/p1.tshark" "$res/p1.tshark.err")"
		rm -f /tmp/dcqcn-p1.pcap
	fi
fi
barrier p1done

# --- 2: ECN off at the sender: nothing marked -------------------------------
if [ "$me" = 1 ]; then
	ll_param cc_ecn_enable 0
	fabric_ctl "${ecn_on[@]}" >/dev/null
fi
barrier p2
cc_snap "$res/p2a.cc"
if [ "$me" = 0 ]; then
	flow p2 18721 "${bulk[@]}" "${prio3[@]}"
	rc=$?
	cc_snap "$res/p2b.cc"
	m=$(d "$res/p2a.cc" "$res/p2b.cc" np_ecn_marked_roce_packets)
	c=$(d "$res/p2a.cc" "$res/p2b.cc" np_cnp_sent)
	check "ECN off: guest 0 saw $m CE-marked packets, sent $c CNPs (flow exit $rc)" \
		test "$m" = 0 -a "$c" = 0 -a "$rc" = 0
else
	ll_fab_snap 0 "$res/p2a.f0"
	qsnap "$res/p2a.q"
	flow p2 18721 "${bulk[@]}" "${prio3[@]}" --seconds 4
	rc=$?
	ll_fab_snap 0 "$res/p2b.f0"
	qsnap "$res/p2b.q"
	marked=$(d "$res/p2a.f0" "$res/p2b.f0" q3_ecn_marked)
	read -r hi n < <(ll_above_kmax "$kmax" "$res/p2a.q" "$res/p2b.q")
	check "ECN off: $hi% of $n arrivals met the queue above Kmax, the fabric marked $marked (flow exit $rc)" \
		test "$marked" = 0 -a "$rc" = 0 -a "$n" -gt 0 -a "${hi%.*}" -gt 0
fi
barrier p2done

if [ "$me" = 1 ]; then
	if fabric_ctl pfc all all off >"$res/fab.out" 2>&1 &&
		fabric_ctl ecn all all off >>"$res/fab.out" 2>&1 &&
		fabric_ctl rate 0 25000 >>"$res/fab.out" 2>&1; then
		ok "fabric back to its defaults"
	else
		not_ok "fabric back to its defaults"
		diag "$(cat "$res/fab.out")"
	fi
fi
barrier end
check "rmmod wren_ib and wren" wren_unload
check_dmesg "dmesg clean"
tap_done
