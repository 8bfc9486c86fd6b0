#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): PFC on
# the wire between the Wren NICs and the lossless fabric.  Both NICs
# trust DSCP (DSCP 24 -> priority 3, 8 -> 1) with PFC on
# priority 3; the fabric makes priority 3 lossless on every port and
# guest 0's port the bottleneck.  Guest 1 sends RDMA WRITEs (wren_verbs_test
# bw, data verified by guest 0), guest 1 drives the fabric.
#
#   1. congested lossless priority 3 (100 Mb/s towards guest 0): nothing
#      dropped in the fabric, no retransmit, data verified; the fabric
#      sent XOFF/XON and guest 1's NIC counted and honoured them
#      (ethtool -S rx_prio3_pause, _duration); with PCAP=1, tshark
#      decodes the fabric's PFC frames as well-formed PFC naming
#      priority 3;
#   2. the same congestion on lossy priority 1 (a 64 KiB queue): the
#      fabric drops, RC retransmits, the data is still right, and nobody
#      pauses priority 1;
#   3. stuck host: guest 0's driver stops its NIC's receive drain
#      (debugfs rx_drain); the NIC pauses the fabric, its transmit PFC
#      watchdog (pfc-prevention-tout 100 ms) ends that after the timeout
#      (the fabric was held about that long) and sends no more pauses
#      while the host stays stuck, counts warning and error, devlink
#      health pfc_storm says so;
#      with the drain back the reporter is healthy again and the flow
#      completes with its data;
#   4. fabric storm: guest 0's port at 2 Mb/s keeps the fabric's XOFF
#      towards guest 1 up without a break; guest 1's receive watchdog
#      stops honouring it after the timeout (paused about that long, not
#      for the whole flow), counts the storm, devlink health reports it,
#      the flow goes on; when the pauses stop the reporter is healthy
#      and full-speed traffic resumes without a retransmit.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-pfc.sh KVER=6.1 [PCAP=1]
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/lossless.sh"

pair_init pfc "PFC"
tout=100
lossless=(--sl 3 --tclass 96)
lossy=(--sl 1 --tclass 32)
bulk=(--op write --size 65536 --depth 16 --verify)
if [ "$me" = 1 ]; then
	plan 28
else
	plan 14
fi
dmesg -C

ll_rdma_up
# DSCP trust, PFC on priority 3, both PFC watchdogs at $tout ms.
ll_lossless "DSCP trust (24 -> 3, 8 -> 1), PFC on priority 3, pfc-prevention-tout $tout ms" \
	"DSCP trust, PFC on priority 3, pfc-prevention-tout $tout" "8:1 24:3" \
	"ethtool --set-tunable $ll_if pfc-prevention-tout $tout"
diag "$(dcb pfc show dev "$ll_if" 2>&1)"
[ -n "${WREN_PCAP_DIR:-}" ] && fabric_ctl pcap "$me" off >/dev/null
busybox ping -c 1 -W 5 "$WREN_PEER_IP" >/dev/null 2>&1
barrier up

if [ "$me" = 1 ]; then
	# The lossless and lossy queues towards guest 0 hold 64 KiB: a
	# lossless frame is admitted against the ingress headroom instead.
	if fabric_ctl pfc all 3 on xoff 65536 xon 32768 >"$res/fab.out" 2>&1 &&
		fabric_ctl qlimit 0 1 65536 >>"$res/fab.out" 2>&1 &&
		fabric_ctl qlimit 0 3 65536 >>"$res/fab.out" 2>&1 &&
		fabric_ctl rate 0 100 >>"$res/fab.out" 2>&1; then
		ok "fabric: priority 3 lossless, queues 1 and 3 of port 0 at 64 KiB, port 0 at 100 Mb/s"
	else
		not_ok "fabric: priority 3 lossless, 64 KiB queues, port 0 at 100 Mb/s"
		diag "$(cat "$res/fab.out")"
	fi
	diag "$(fabric_ctl qos 0 | grep -E 'q3_|q1_' | tr '\n' ' ')"
fi
barrier fabric

# flow NAME PORT ARGS...: guest 0 serves, guest 1 sends; sets rc.
flow() {
	local name=$1 port=$2
	shift 2
	if [ "$me" = 0 ]; then
		ll_passive "$port" "$res/$name.out" "$@" --ready-file "$res/ready-$name"
	else
		ll_active "$port" "$res/$name.out" "$@"
	fi
	rc=$?
	return "$rc"
}
verified() { [ "$rc" = 0 ] && grep -q "data verified" "$res/$1.out"; }
snap() {
	ll_eth_snap "$res/$1.eth"
	if [ "$me" = 1 ]; then
		ll_fab_snap 0 "$res/$1.f0"
		ll_fab_snap 1 "$res/$1.f1"
	fi
	retx[$1]=$(ll_hw retransmits)
}
declare -A retx
# d FILE KEY A B: KEY of snapshot B minus snapshot A (FILE: eth, f0, f1).
d() { echo $(($(ll_val "$res/$4.$1" "$2") - $(ll_val "$res/$3.$1" "$2"))); }
pcap=${WREN_PCAP_DIR:+$WREN_PCAP_DIR/port1.pcap}

# --- 1: congested lossless priority -------------------------------------
snap p1a
if [ "$me" = 1 ] && [ -n "$pcap" ]; then
	pcap0=$(stat -c %s "$pcap" 2>/dev/null || echo 0)
	fabric_ctl pcap 1 on >/dev/null
fi
flow p1 18710 "${bulk[@]}" "${lossless[@]}" --iters 256 --mr-mib 16
[ "$me" = 1 ] && [ -n "$pcap" ] && fabric_ctl pcap 1 off >/dev/null
snap p1b
if [ "$me" = 0 ]; then
	check "passive side of 16 MiB on lossless priority 3 (exit $rc)" test "$rc" = 0
else
	if verified p1; then
		ok "16 MiB on congested lossless priority 3, data verified: $(ll_mbs "$res/p1.out") MB/s"
	else
		not_ok "16 MiB on congested lossless priority 3, data verified (exit $rc)"
		diag "$(tail -n 5 "$res/p1.out")"
	fi
	drops=$(($(d f0 q3_drop_full_frames p1a p1b) + $(d f0 q3_drop_lossless_frames p1a p1b) +
		$(d f1 q3_drop_lossless_frames p1a p1b) + $(d f0 q3_drop_wd_frames p1a p1b)))
	check "the fabric dropped no priority-3 frame ($drops)" test "$drops" = 0
	r=$((retx[p1b] - retx[p1a]))
	check "no retransmit on the lossless flow ($r)" test "$r" = 0
	xoff=$(d f1 q3_pfc_tx_xoff p1a p1b)
	xon=$(d f1 q3_pfc_tx_xon p1a p1b)
	check "the fabric paused guest 1's priority 3: $xoff XOFF (refreshes included), $xon XON" \
		test "$xoff" -gt 0 -a "$xon" -gt 0
	np=$(d eth rx_prio3_pause p1a p1b)
	nd=$(d eth rx_prio3_pause_duration p1a p1b)
	check "guest 1's NIC counted $np PFC frames on priority 3 and was paused $nd us" \
		test "$np" -gt 0 -a "$nd" -gt 0
	depth=$(ll_val "$res/p1b.f0" q3_max_depth_bytes)
	check "congested: queue 3 towards guest 0 peaked at $depth B, where a lossy one drops (64 KiB)" \
		test "$depth" -ge 65536
	diag "fabric port 1 priority 3: ingress peak $(ll_val "$res/p1b.f1" q3_ingress_max_bytes) B, XOFF time $(d f1 q3_tx_pause_us p1a p1b) us"
	if [ -z "$pcap" ] || ! command -v tshark >/dev/null; then
		skip "tshark decodes the fabric's PFC frames" "no capture (PCAP=1) or no tshark"
	else
		# The records of this phase only: the file's header, then what
		# was appended while capture was on.
		{ head -c 24 "$pcap"; tail -c +$((pcap0 + 1)) "$pcap"; } >/tmp/pfc-p1.pcap
		tshark -r /tmp/pfc-p1.pcap -Y 'macc.opcode == 0x0101' -T fields -E separator=, \
			-e eth.dst -e macc.cbfc.enbv.c3 -e macc.cbfc.pause_time.c3 -e _ws.malformed \
			>"$res/p1.tshark" 2>"$res/p1.tshark.err"
		read -r n nbad nxoff nxon < <(awk -F, '
			{ n++ }
			$1 != "01:80:c2:00:00:01" || $4 != "" || ($2 != "1" && $2 != "True") { bad++ }
			$3 > 0 { xoff++ } $3 == "0" { xon++ }
			END { print n + 0, bad + 0, xoff + 0, xon + 0 }' "$res/p1.tshark")
		check "tshark: $n PFC frames to guest 1 ($nxoff XOFF, $nxon XON), $nbad malformed or not naming priority 3" \
			test "$n" -gt 0 -a "$nbad" = 0 -a "$nxoff" -gt 0 -a "$nxon" -gt 0
		[ "$nbad" = 0 ] || diag "$(head -n 5 "$res/p1.tshark")"
		rm -f /tmp/pfc-p1.pcap
	fi
fi
barrier p1

# --- 2: the same on a lossy priority --------------------------------------
flow p2 18711 "${bulk[@]}" "${lossy[@]}" --iters 128 --mr-mib 8
snap p2b
if [ "$me" = 0 ]; then
	check "passive side of 8 MiB on lossy priority 1 (exit $rc)" test "$rc" = 0
else
	if verified p2; then
		ok "8 MiB on congested lossy priority 1, data verified: $(ll_mbs "$res/p2.out") MB/s"
	else
		not_ok "8 MiB on congested lossy priority 1, data verified (exit $rc)"
		diag "$(tail -n 5 "$res/p2.out")"
	fi
	drops=$(d f0 q1_drop_full_frames p1b p2b)
	check "the fabric tail-dropped $drops priority-1 frames" test "$drops" -gt 0
	r=$((retx[p2b] - retx[p1b]))
	check "RC retransmitted ($r)" test "$r" -gt 0
	xoff=$(d f1 q1_pfc_tx_xoff p1b p2b)
	np=$(d eth rx_prio1_pause p1b p2b)
	check "nobody paused priority 1 (fabric XOFF $xoff, NIC rx_prio1_pause $np)" \
		test "$xoff" = 0 -a "$np" = 0
fi
barrier p2

# --- 3: stuck host: the NIC's transmit watchdog ---------------------------
# Guest 1's watchdogs off here: the fabric pauses it while guest 0 holds
# the fabric, and that must not be what trips.
[ "$me" = 1 ] && ethtool --set-tunable "$ll_if" pfc-prevention-tout 0
barrier p3
drain=/sys/kernel/debug/wren/$ll_bdf/rx_drain
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
snap p3a
if [ "$me" = 0 ]; then
	# Stuck once the flow runs (ARP and the connection are done by then).
	flow p3 18712 "${bulk[@]}" "${lossless[@]}" --iters 128 --mr-mib 8 --timeout 19 &
	fpid=$!
	wait_for 60 test -e "$res/ready-p3"
	if echo stuck >"$drain"; then
		ok "debugfs rx_drain: the host stops draining the NIC's receive buffers"
	else
		not_ok "debugfs rx_drain accepts stuck"
	fi
	t0=$EPOCHREALTIME
	stormed() { [ "$(ll_health)" = error ] && [ "$(($(ll_diag tx_storm_prios)))" = 8 ]; }
	if wait_for 20 stormed; then
		ok "devlink health pfc_storm: error, tx_storm_prios 8 (priority 3), seen after $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s"
	else
		not_ok "devlink health pfc_storm reports the TX storm on priority 3"
		diag "$(devlink health show "$ll_dl" reporter pfc_storm 2>&1)" \
			"$(devlink health diagnose "$ll_dl" reporter pfc_storm 2>&1)"
	fi
	# The host is still stuck and the buffer full: the NIC must not pause
	# again (its one XON went out with the storm).
	snap p3s
	nap 1
	snap p3b
	w=$(d eth tx_pause_storm_warning_events p3a p3b)
	e=$(d eth tx_pause_storm_error_events p3a p3b)
	tp=$(d eth tx_prio3_pause p3a p3s)
	check "the NIC paused priority 3 ($tp PFC frames), then counted $w storm warning(s), $e error(s)" \
		test "$tp" -gt 0 -a "$w" -ge 1 -a "$e" -ge 1
	again=$(d eth tx_prio3_pause p3s p3b)
	check "in the storm it sends no more pauses though still stuck ($again PFC frames in 1 s)" \
		test "$again" = 0
	diag "priority-3 frames discarded at the full buffer so far: $(d eth rx_prio3_buf_discard p3a p3b)"
	echo normal >"$drain"
	healthy() { [ "$(ll_health)" = healthy ]; }
	check "drain back: pfc_storm healthy again, storm_prios $(ll_diag storm_prios)" \
		wait_for 20 healthy
	diag "$(devlink health diagnose "$ll_dl" reporter pfc_storm 2>&1 | tr -s ' \n' ' ')"
	wait "$fpid"
	rc=$?
	check "the flow resumes and completes (passive exit $rc)" test "$rc" = 0
else
	flow p3 18712 "${bulk[@]}" "${lossless[@]}" --iters 128 --mr-mib 8 --timeout 19
	snap p3b
	if verified p3; then
		ok "8 MiB on priority 3 across the stuck host, data verified: $(ll_mbs "$res/p3.out") MB/s"
	else
		not_ok "8 MiB on priority 3 across the stuck host, data verified (exit $rc)"
		diag "$(tail -n 5 "$res/p3.out")"
	fi
	xoff=$(d f0 q3_pfc_rx_xoff p3a p3b)
	xon=$(d f0 q3_pfc_rx_xon p3a p3b)
	paused=$(ll_val "$res/p3b.f0" q3_rx_paused)
	check "the fabric got $xoff pauses and $xon XON from guest 0, not paused now ($paused)" \
		test "$xoff" -gt 0 -a "$xon" -gt 0 -a "$paused" = 0
	us=$(d f0 q3_rx_pause_us p3a p3b)
	check "guest 0 held the fabric $us us: about the $tout ms timeout (50%..300%)" \
		ll_between "$us" $((tout * 500)) $((tout * 3000))
fi
barrier p3done

# --- 4: fabric storm: the NIC's receive watchdog --------------------------
if [ "$me" = 1 ]; then
	ethtool --set-tunable "$ll_if" pfc-prevention-tout "$tout"
	# 65535 quanta at 100 Mb/s are 335 ms: a pause outlasts any TCG
	# hiccup.  Draining 56 KiB at 2 Mb/s keeps the XOFF up for 230 ms.
	fabric_ctl pfc all 3 on xoff 65536 xon 8192 >/dev/null
	fabric_ctl rate 0 2 >/dev/null
	fabric_ctl rate 1 100 >/dev/null
	wait_for 30 ll_speed_is 100
fi
barrier p4
snap p4a
if [ "$me" = 0 ]; then
	flow p4 18713 --op write --size 65536 --depth 4 --mr-mib 4 --verify "${lossless[@]}"
	check "passive side of the flow through the fabric storm (exit $rc)" test "$rc" = 0
else
	flow p4 18713 --op write --size 65536 --depth 4 --mr-mib 4 --verify "${lossless[@]}" \
		--timeout 20 --iters 12 &
	fpid=$!
	stormed() { [ "$(ll_health)" = error ] && [ "$(($(ll_diag rx_storm_prios)))" = 8 ]; }
	t0=$SECONDS
	if wait_for 30 stormed; then
		ok "devlink health pfc_storm: error, rx_storm_prios 8 (priority 3), after $((SECONDS - t0)) s"
	else
		not_ok "devlink health pfc_storm reports the RX storm on priority 3"
		diag "$(devlink health diagnose "$ll_dl" reporter pfc_storm 2>&1)"
	fi
	ev=$(ll_diag prio3_storm_events)
	check "the storm is counted: prio3_storm_events $ev" test "${ev:-0}" -ge 1
	wait "$fpid"
	rc=$?
	snap p4b
	if verified p4; then
		ok "the flow goes on through the storm, data verified: $(ll_mbs "$res/p4.out") MB/s"
	else
		not_ok "the flow goes on through the storm, data verified (exit $rc)"
		diag "$(tail -n 5 "$res/p4.out")"
	fi
	np=$(d eth rx_prio3_pause p4a p4b)
	nd=$(d eth rx_prio3_pause_duration p4a p4b)
	check "guest 1's NIC got $np pauses for priority 3" test "$np" -gt 0
	check "and was paused $nd us: at least the timeout, not the 3 s the fabric asked for" \
		ll_between "$nd" $((tout * 900)) 2000000
	xoff=$(d f1 q3_pfc_tx_xoff p4a p4b)
	lost=$(d f1 q3_drop_lossless_frames p4a p4b)
	check "the fabric kept pausing ($xoff XOFF) and its headroom held ($lost lossless drops)" \
		test "$xoff" -gt 0 -a "$lost" = 0
	healthy() { [ "$(ll_health)" = healthy ]; }
	check "pauses over: pfc_storm healthy again" wait_for 20 healthy
	diag "$(devlink health diagnose "$ll_dl" reporter pfc_storm 2>&1 | tr -s ' \n' ' ')"
	fabric_ctl rate 0 25000 >/dev/null
	fabric_ctl rate 1 25000 >/dev/null
	wait_for 30 ll_speed_is 25000
fi
barrier resume

# Traffic resumes at full speed on the lossless priority.
snap p5a
flow p5 18714 "${bulk[@]}" "${lossless[@]}" --iters 64 --mr-mib 4
snap p5b
if [ "$me" = 0 ]; then
	check "passive side of the flow after the storms (exit $rc)" test "$rc" = 0
else
	r=$((retx[p5b] - retx[p5a]))
	if verified p5 && [ "$r" = 0 ]; then
		ok "traffic resumes: 4 MiB on priority 3, data verified, no retransmit: $(ll_mbs "$res/p5.out") MB/s"
	else
		not_ok "traffic resumes: 4 MiB on priority 3, data verified, no retransmit ($r, exit $rc)"
		diag "$(tail -n 5 "$res/p5.out")"
	fi
	if fabric_ctl pfc all all off >"$res/fab.out" 2>&1 &&
		fabric_ctl qlimit 0 all 524288 1024 >>"$res/fab.out" 2>&1; then
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
