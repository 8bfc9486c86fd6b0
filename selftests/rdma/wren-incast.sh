#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test for a boot of three guests (N=3): a 2:1 incast.
# Guests 1 and 2 each send a stream of RDMA WRITEs on priority 3 (DSCP 24)
# to guest 0, whose fabric port is the bottleneck (100 Mb/s); each sender
# has its own NIC, fabric ingress port and DCQCN reaction point, guest 0's
# NIC is the notification point for both.  Twice:
#
#   1. PFC alone (priority 3 lossless in the fabric, XOFF at 128 KiB, no
#      ECN): both flows complete, the fabric pauses both senders - the
#      figures to beat, and the senders' skew without rate control;
#   2. with DCQCN (RED/ECN on the bottleneck queue: Kmin 16 KiB, Kmax
#      64 KiB, Pmax 20%; ECN, NP and RP on in the NICs): both flows within
#      10% of the fair share (plus PFC alone's skew, at most 15%), the
#      bottleneck queue below Kmax for at least 3/4 of the arrivals in
#      steady state, and at most a quarter of the pauses of PFC alone.
#
# Guest 1 drives the fabric and judges; guest 2's figures reach it through
# the results share.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-incast.sh KVER=6.1 N=3
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/lossless.sh"

pair_init incast "incast"
kmin=16384
kmax=65536
ecn_on=(ecn 0 3 on kmin "$kmin" kmax "$kmax" pmax 0.2)
# Above Kmax: DCQCN should keep the queue below them, PFC alone cannot.
pfc_on=(pfc all 3 on xoff 131072 xon 98304)
# DCQCN's published constants (a 300 us timer, alpha over 55 us) suit a
# fabric whose marking comes back within microseconds; under TCG a CNP
# takes milliseconds to come round, so the reaction point is tuned to
# that loop, as operators tune it to their RTT: an increase event every
# 10 ms of 1 Mb/s (hyper 5), alpha over 2 ms, at most one cut per ms.
rp_tuned='rp_time_reset 10000 rp_ai_rate 1 rp_hai_rate 5 rp_dce_tcp_rtt 2000 rp_rate_reduce_monitor_period 1000'
# The counters' window in each phase is the nap WINDOW plus a fabric call
# (which takes seconds here, more when three TCG guests load the host):
# the senders run until guest 1 has its second snapshot and drops a stop
# file, at most WINDOW + 120 s, so that the window always lies inside
# both flows.  DCQCN's rates swing over seconds at this loop's speed: its
# shares are taken over a long window.
pfc_window=${WREN_INCAST_PFC_WINDOW:-3}
cc_window=${WREN_INCAST_WINDOW:-16}
prio3=(--sl 3 --tclass 96)
bulk=(--op write --size 65536 --depth 16 --mr-mib 4)
case $me in
0) plan 6 ;;
1) plan 11 ;;
*) plan 6 ;;
esac
dmesg -C

if [ "$nguests" -lt 3 ]; then
	bail "three guests (N=3)" "this boot has $nguests"
fi
ll_rdma_up
diag "RDMA up at $SECONDS s"
# ECN starts off: the first phase is PFC alone.
ll_lossless "DSCP trust (24 -> 3, ${ll_cnp/:/ -> }), PFC on 3, NP/RP on priority 3" \
	"DSCP trust, PFC on 3, NP/RP on priority 3" "24:3 $ll_cnp" \
	"ll_param cc_ecn_enable 0" "ll_param cc_np_enable 8" "ll_param cc_rp_enable 8"
busybox ping -c 1 -W 5 "$WREN_PEER_IP" >/dev/null 2>&1
if [ "$me" = 1 ]; then
	fabric_ctl rate 0 100 >"$res/fab.out" 2>&1 &&
		fabric_ctl ecn 0 3 off >>"$res/fab.out" 2>&1 &&
		fabric_ctl "${pfc_on[@]}" >>"$res/fab.out" 2>&1
	check "fabric: port 0 at 100 Mb/s, priority 3 lossless (XOFF 128 KiB), no ECN" \
		test "$(grep -c -x ok "$res/fab.out")" = 3
fi
barrier up

# snap NAME a|b: every port's counters in one call (a call costs seconds
# when three TCG guests load the host) and the bottleneck queue's depths,
# the counters innermost so that their window is short; snap_live says
# whether both flows still ran when the counters had been read.
snap() {
	[ "$2" = a ] && fabric_ctl qdepth 0 3 >"$res/$1.$2.q" 2>&1
	fabric_ctl stats >"$res/$1.$2.f" 2>&1
	snap_t=$EPOCHREALTIME
	snap_live=yes
	kill -0 "$p1" 2>/dev/null && [ ! -e "$(guest_res 2)/done-$name" ] ||
		snap_live=no
	[ "$2" = b ] && fabric_ctl qdepth 0 3 >"$res/$1.$2.q" 2>&1
}
# pval FILE PORT KEY: a port's counter in a snapshot; pd A B PORT KEY:
# that counter in snapshot B minus snapshot A.
pval() {
	awk -v p="$2" -v k="$3" '$1 == "port" && $2 == p && $3 == k { v = $4 }
		END { print v + 0 }' "$1"
}
pd() { echo $(($(pval "$2" "$3" "$4") - $(pval "$1" "$3" "$4"))); }
# fair_skew A B: the fair share of two flows of A and B MB/s, and how far
# the one further from it is off, in percent of it.
fair_skew() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		f = (a + b) / 2; w = f ? (a > b ? a - f : b - f) / f * 100 : 100
		printf "%.2f %.1f\n", f, w }'
}

# incast NAME PORT WINDOW: guest 0 serves both flows (PORT for guest 1,
# PORT+1 for guest 2), the senders send until guest 1's stop file; guest 1
# naps WINDOW s between its snapshots: XOFFs towards both senders, the
# queue's depth.  Sets rc (each side's own flows), and on guest 1 xoff,
# hi, n, mb1, mb2, span (the window's seconds) and inside.
incast() {
	local name=$1 port=$2 window=$3 p1 p2 rc1 rc2
	if [ "$me" = 0 ]; then
		ll_passive "$port" "$res/$name-1.out" "${bulk[@]}" "${prio3[@]}" \
			--ready-file "$res/ready-$name-1" &
		p1=$!
		ll_passive $((port + 1)) "$res/$name-2.out" "${bulk[@]}" "${prio3[@]}" \
			--ready-file "$res/ready-$name-2" &
		p2=$!
		wait "$p1"
		rc1=$?
		wait "$p2"
		rc2=$?
		rc=$rc1$rc2
		return
	fi
	# The passive side's ready file means connected: both flows run.
	ll_active $((port + me - 1)) "$res/$name.out" "${bulk[@]}" "${prio3[@]}" \
		--seconds $((window + 120)) --stop-file "$(guest_res 1)/stop-$name" &
	p1=$!
	if [ "$me" = 1 ]; then
		wait_for 60 test -e "$peer_res/ready-$name-1" -a -e "$peer_res/ready-$name-2"
		nap 1
		snap "$name" a
		t0=$snap_t
		nap "$window"
		snap "$name" b
		t1=$snap_t
		# The window counts only while both flows still run.
		inside=$snap_live
		: >"$res/stop-$name"
	fi
	wait "$p1"
	rc=$?
	: >"$res/done-$name"
	[ "$me" = 1 ] || return
	wait_for 60 test -e "$(guest_res 2)/done-$name"
	xoff=$(($(pd "$res/$name.a.f" "$res/$name.b.f" 1 q3_pfc_tx_xoff) +
		$(pd "$res/$name.a.f" "$res/$name.b.f" 2 q3_pfc_tx_xoff)))
	read -r hi n < <(ll_above_kmax "$kmax" "$res/$name.a.q" "$res/$name.b.q")
	# Each sender's share while both are backlogged: what the fabric
	# received from its port in the window (the flows' own averages
	# include their staggered starts).
	read -r mb1 mb2 span < <(awk -v a="$(pd "$res/$name.a.f" "$res/$name.b.f" 1 rx_bytes)" \
		-v b="$(pd "$res/$name.a.f" "$res/$name.b.f" 2 rx_bytes)" \
		-v t0="$t0" -v t1="$t1" 'BEGIN {
		s = t1 - t0; if (s <= 0) s = 1
		printf "%.2f %.2f %.1f\n", a / s / 1e6, b / s / 1e6, s }')
	diag "$name: in the window $mb1 and $mb2 MB/s (whole flows $(ll_mbs "$res/$name.out") and $(ll_mbs "$(guest_res 2)/$name.out")), $xoff XOFF to the senders in the window of $span s, $hi% of $n arrivals at or above Kmax, queue samples: $(awk '$3 ~ /_sample_/ { printf "%s ", $4 }' "$res/$name.b.q"); at ${SECONDS} s"
	[ -s "$(guest_res 2)/$name.out" ] || rc=1
}

# --- 1: PFC alone -------------------------------------------------------------
incast pfc 18740 "$pfc_window"
if [ "$me" = 0 ]; then
	check "passive sides of the PFC-alone incast (exit $rc)" test "$rc" = 00
elif [ "$me" = 2 ]; then
	check "PFC alone: guest 2's flow completes (exit $rc)" test "$rc" = 0
else
	xoff_pfc=$xoff hi_pfc=$hi
	# How far apart the senders are with no rate control at all: PFC
	# pauses both ports alike, so this is the bench's own asymmetry
	# (three TCG guests on the host's cores), which DCQCN cannot undo.
	read -r _ skew_pfc < <(fair_skew "$mb1" "$mb2")
	check "PFC alone: both flows complete ($mb1, $mb2 MB/s) and the fabric paused the senders ($xoff_pfc XOFF)" \
		test "$rc" = 0 -a "$xoff_pfc" -gt 0
fi

# --- 2: with DCQCN --------------------------------------------------------------
if [ "$me" != 0 ]; then
	err=
	# shellcheck disable=SC2086 # name value pairs
	set -- cc_ecn_enable 8 $rp_tuned
	while [ $# -ge 2 ]; do
		ll_param "$1" "$2" || err+=" $1"
		shift 2
	done
	[ -z "$err" ] || diag "devlink params refused:$err"
fi
[ "$me" = 1 ] && fabric_ctl "${ecn_on[@]}" >/dev/null
barrier dcqcn
incast dcqcn 18742 "$cc_window"
if [ "$me" = 0 ]; then
	check "passive sides of the DCQCN incast (exit $rc)" test "$rc" = 00
elif [ "$me" = 2 ]; then
	check "DCQCN: guest 2's flow completes (exit $rc)" test "$rc" = 0
else
	check "DCQCN: both flows complete ($mb1, $mb2 MB/s)" test "$rc" = 0
	read -r fair worst < <(fair_skew "$mb1" "$mb2")
	# 10% of the fair share, plus the skew PFC alone showed in this
	# boot, at most 15%: a reaction point that starves one flow is far
	# outside that.
	bound=$(awk -v s="${skew_pfc:-0}" 'BEGIN { b = 10 + s; printf "%.1f\n", (b > 15 ? 15 : b) }')
	check "DCQCN: $mb1 and $mb2 MB/s, fair share $fair MB/s, worst $worst% off (<= $bound%: 10% and PFC alone's ${skew_pfc:-?}%; window inside both flows: $inside)" \
		test "$inside" = yes -a "$(ll_between "$worst" 0 "$bound" && echo y)" = y
	check "DCQCN: the queue below Kmax ($kmax B) for $(awk -v h="$hi" 'BEGIN { print 100 - h }')% of $n arrivals (>= 75%; PFC alone: $(awk -v h="$hi_pfc" 'BEGIN { print 100 - h }')%)" \
		ll_between "$hi" 0 25
	check "DCQCN: $xoff XOFF against $xoff_pfc with PFC alone (at most a quarter)" \
		test $((xoff * 4)) -le "$xoff_pfc"
	diag "guest 1's NIC handled $(ll_hw rp_cnp_handled) CNPs in all"
fi
barrier finish

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
check "rmmod wren_ib and wren" wren_unload
check_dmesg "no driver warnings"
tap_done
