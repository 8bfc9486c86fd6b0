#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): the
# NIC's transmit scheduler on a rate-limited link.
# Guest 1 sends two RDMA WRITE flows to guest 0, on priorities 1 and 2
# (SL 1 and 2 under PCP trust; DSCP 8 and 16 for the fabric), mapped to
# TC 1 and TC 2.  The fabric tells guest 1's NIC its link runs at
# WREN_ETS_RATE Mb/s (50: well below what the model's RoCE engine makes
# of two flows under TCG on a loaded host, 110-190 Mb/s), so the NIC's
# scheduler paces at that speed and both flows stay backlogged in it.  Over windows of
# WREN_ETS_WINDOW seconds while both flows run, from the NIC's
# per-priority TX byte counters (ethtool -S tx_prio<N>_bytes; without
# them the fabric's per-queue counters of guest 0's port):
#
#   1. ETS 70/30 between TC 1 and TC 2: TC 1's share within 5 points
#      of 70;
#   2. TC 2 strict, TC 1 ETS: TC 2 takes at least 95%;
#   3. TC 2 strict capped by `dcb maxrate` at a fifth of the link: within 5%
#      of the cap, and TC 1 gets the rest (iproute2 6.1's dcb passes
#      bytes/s where the kernel means kb/s: then the cap is set through
#      raw netlink, wren_maxrate_nl.py, and the test says so).
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-qos-ets.sh KVER=6.1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/lossless.sh"

pair_init ets "ETS"
nlpy=$WREN_TOP/selftests/rdma/wren_maxrate_nl.py
rate=${WREN_ETS_RATE:-50}
window=${WREN_ETS_WINDOW:-5}
cap=$((rate / 5))
# Long enough for the three windows and the reconfiguration between
# them under TCG; the checks below fail if a window ends after the flows.
flow_secs=${WREN_ETS_FLOW_SECS:-55}
# A starved ETS flow (window 2) must outlive its RC timeout: 4.3 s.
flow_args=(--op write --size 65536 --depth 16 --mr-mib 4 --timeout 20)
if [ "$me" = 1 ]; then
	plan 14
else
	plan 4
fi
dmesg -C

ll_rdma_up
if ! dcb ets show dev "$ll_if" >/dev/null 2>&1; then
	bail "the NIC has dcbnl ETS (not a DCB=0 boot)" "$(dcb ets show dev "$ll_if" 2>&1)"
fi
[ -n "${WREN_PCAP_DIR:-}" ] && fabric_ctl pcap "$me" off >/dev/null
barrier up

# Per-priority bytes sent by guest 1's NIC: its own counters when the
# driver has them, else what the fabric gave guest 0 per queue (the
# fabric puts DSCP 8/16 in queues 1/2 and is not the bottleneck).
src=
bytes_snap() {
	if [ "$src" = nic ]; then
		ll_eth_snap "$1"
	else
		ll_fab_snap 0 "$1"
	fi
}
prio_bytes() {
	if [ "$src" = nic ]; then
		ll_val "$1" "tx_prio$2_bytes"
	else
		ll_val "$1" "q$2_tx_bytes"
	fi
}
# window NAME: both flows' bytes over $window s; sets b1 b2 mbps1 mbps2
# share1 (percent of the two) and total (Mb/s); false if the flows
# ended before the window did.
window() {
	local t0 t1
	bytes_snap "$res/$1.0"
	t0=$EPOCHREALTIME
	nap "$window"
	bytes_snap "$res/$1.1"
	t1=$EPOCHREALTIME
	b1=$(($(prio_bytes "$res/$1.1" 1) - $(prio_bytes "$res/$1.0" 1)))
	b2=$(($(prio_bytes "$res/$1.1" 2) - $(prio_bytes "$res/$1.0" 2)))
	read -r mbps1 mbps2 total share1 < <(awk -v a="$b1" -v b="$b2" -v t0="$t0" -v t1="$t1" 'BEGIN {
		s = t1 - t0; if (s <= 0) s = 1
		printf "%.1f %.1f %.1f %.2f\n", a * 8 / s / 1e6, b * 8 / s / 1e6,
			(a + b) * 8 / s / 1e6, a + b ? 100 * a / (a + b) : 0 }')
	diag "$1: TC1 $b1 B ($mbps1 Mb/s), TC2 $b2 B ($mbps2 Mb/s), $total Mb/s of $rate, TC1 share $share1% (counters: $src)"
	[ "$SECONDS" -lt "$flows_end" ]
}

if [ "$me" = 0 ]; then
	# The passive sides; guest 1 measures.
	ll_passive 18700 "$res/flow1.out" "${flow_args[@]}" --sl 1 --tclass 32 \
		--ready-file "$res/ready1" &
	p1=$!
	ll_passive 18701 "$res/flow2.out" "${flow_args[@]}" --sl 2 --tclass 64 \
		--ready-file "$res/ready2" &
	p2=$!
	wait "$p1"
	rc1=$?
	wait "$p2"
	rc2=$?
	check "passive sides of both flows end cleanly (exit $rc1, $rc2)" \
		test "$rc1$rc2" = 00
	[ "$rc1$rc2" = 00 ] || diag "$(tail -n 3 "$res/flow1.out" "$res/flow2.out")"
	barrier end
else
	fabric_ctl rate 1 "$rate" >/dev/null
	check "the fabric sets guest 1's link to $rate Mb/s, the NIC reports it" \
		wait_for 30 ll_speed_is "$rate"
	# ll_setup: dcb through wren_dcb, which runs a set once more when
	# iproute2 6.1's dcb says EPROTO for a set the NIC took (wren.sh).
	if ll_setup "dcb ets set dev $ll_if prio-tc all:0 1:1 2:2 tc-tsa all:strict 1:ets 2:ets tc-bw all:0 1:70 2:30"; then
		ok "dcb ets: prio 1 -> TC 1, prio 2 -> TC 2, both ETS 70/30, the rest strict"
	else
		not_ok "dcb ets: prio 1 -> TC 1, prio 2 -> TC 2, both ETS 70/30, the rest strict"
		diag "$ll_setup_err"
	fi
	diag "$(dcb ets show dev "$ll_if" 2>&1)"
	ll_eth_snap "$res/eth.0"
	if grep -q 'tx_prio1_bytes:' "$res/eth.0"; then src=nic; else src=fabric; fi

	t0=$SECONDS
	flows_end=$((SECONDS + flow_secs))
	# Once the windows are measured the flows end (the stop file), not
	# at $flow_secs: that is the bound for a slow host.
	rm -f "$res/flows.stop"
	ll_active 18700 "$res/flow1.out" "${flow_args[@]}" --sl 1 --tclass 32 --seconds "$flow_secs" \
		--stop-file "$res/flows.stop" &
	a1=$!
	ll_active 18701 "$res/flow2.out" "${flow_args[@]}" --sl 2 --tclass 64 --seconds "$flow_secs" \
		--stop-file "$res/flows.stop" &
	a2=$!
	started() { test -e "$peer_res/ready1" && test -e "$peer_res/ready2"; }
	check "both flows started (passive sides got START)" wait_for 60 started
	diag "flows up after $((SECONDS - t0)) s"
	# Let the flows reach the NIC's scheduler before measuring.
	nap 1

	# 1: ETS 70/30.
	if window ets; then
		check "ETS 70/30: TC1 $share1% of the bytes (70 +- 5), TC1 $mbps1 / TC2 $mbps2 Mb/s" \
			ll_between "$share1" 65 75
	else
		not_ok "ETS 70/30 window ended before the flows"
	fi
	total_ets=$total

	# 2: TC 2 strict wins over ETS TC 1.
	if ll_setup "dcb ets set dev $ll_if tc-tsa 1:ets 2:strict tc-bw all:0 1:100"; then
		ok "dcb ets: TC 2 strict, TC 1 ETS 100%"
	else
		not_ok "dcb ets: TC 2 strict, TC 1 ETS 100%"
		diag "$ll_setup_err"
	fi
	nap 1
	if window strict; then
		share2=$(awk -v s="$share1" 'BEGIN { printf "%.2f", 100 - s }')
		check "strict TC 2 takes $share2% of the bytes (>= 95), $mbps2 Mb/s" \
			ll_ge "$share2" 95
	else
		not_ok "strict window ended before the flows"
	fi

	# 3: maxrate caps the strict TC; the ETS TC gets what is left.
	wren_dcb maxrate set dev "$ll_if" tc-maxrate all:0 "2:${cap}Mbit" >&2
	got=$(python3 "$nlpy" "$ll_if" get 2 2>&1)
	if [ "$got" = $((cap * 125000)) ]; then
		# iproute2 before its 2024 fix sends bytes/s; the kernel's unit
		# (and mlx5's, and ours) is kb/s.
		diag "dcb sent $got for ${cap}Mbit: bytes/s, the iproute2 unit bug; setting $((cap * 1000)) kb/s through netlink"
		python3 "$nlpy" "$ll_if" set 2 $((cap * 1000)) >/dev/null 2>&1
		got=$(python3 "$nlpy" "$ll_if" get 2 2>&1)
	fi
	check "maxrate: TC 2 capped at ${cap} Mb/s ($got kb/s)" test "$got" = $((cap * 1000))
	diag "$(dcb maxrate show dev "$ll_if" 2>&1)"
	nap 1
	if window maxrate; then
		check "maxrate: TC 2 at $mbps2 Mb/s, cap $cap (within 5%)" \
			ll_between "$mbps2" "$((cap * 95 / 100))" "$((cap * 105 / 100))"
		rest=$(awk -v t="$total_ets" -v c="$cap" 'BEGIN { printf "%.1f", (t - c) / 2 }')
		check "maxrate: TC 1 gets the rest, $mbps1 Mb/s (>= half of the $total_ets Mb/s the link carried less the cap, $rest)" \
			ll_ge "$mbps1" "$rest"
	else
		not_ok "maxrate window ended before the flows"
		not_ok "maxrate: TC 1 gets the rest"
	fi
	diag "windows done after $((SECONDS - t0)) s of $flow_secs"
	: >"$res/flows.stop"

	wait "$a1"
	rc1=$?
	wait "$a2"
	rc2=$?
	check "both flows complete (exit $rc1, $rc2): $(ll_mbs "$res/flow1.out") and $(ll_mbs "$res/flow2.out") MB/s overall" \
		test "$rc1$rc2" = 00
	[ "$rc1$rc2" = 00 ] || diag "$(tail -n 3 "$res/flow1.out" "$res/flow2.out")"
	barrier end
	fabric_ctl rate 1 25000 >/dev/null
	check "the fabric gives guest 1 its 25 Gb/s link back" wait_for 30 ll_speed_is 25000
fi

# The reset at unload returns the NIC's DCB state to its defaults.
check "rmmod wren_ib and wren" wren_unload
check_dmesg "dmesg clean"
tap_done
