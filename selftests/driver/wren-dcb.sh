#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, one guest: wren.ko's dcbnl ops through iproute2's dcb.  ETS,
# PFC, DSCP app entries, DCBX mode, per-TC max rate and receive buffers
# are set and read back (every GET reads the NIC, QUERY_DCB); bad values
# are refused with the right errno (wren_dcb_nl.py) and leave the NIC's
# state as it was; dmesg stays clean.  Then what ethtool, devlink and
# rdma add to DCB: PFC and 802.3x pause refuse each other both
# ways (EBUSY, a message, state unchanged); the pfc-prevention-tout
# tunable (each valid class, refusals, read back); the per-priority pause
# counters in ethtool -S; every DCQCN devlink param set and read back,
# bad values refused with the old value kept; the pfc_storm health
# reporter listed and diagnosing; the CC counters in rdma statistic and
# the GSI QP's DCQCN state in `rdma -dd res show qp`; the wren_cc_rate
# tracepoint; apptrust, when the kernel has it (6.2+).  The engines
# behind them come later: counters read 0 here.  A NIC that advertises no
# WREN_CAP_DCB_* bit gets no dcbnl ops: then only that is checked and the
# rest is skipped (the bench's DCB=0 board):
#   make vmtest T=driver/wren-dcb.sh N=1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)

# DCQCN devlink params: name, a value to set (not the default), and a
# value the driver (range) or the NIC (link speed, another knob) must
# refuse, "-" where no refusable value exists (u8 masks, bools).  The
# range's ends are the contract's (WREN_DCQCN_*, wren.sh).
cc_params="
cc_ecn_enable 72 -
cc_np_enable 8 -
cc_rp_enable 8 -
np_min_time_between_cnps 50 $((WREN_DCQCN_TIME_MAX_US + 1))
np_cnp_dscp 46 $WREN_NUM_DSCP
np_cnp_prio 5 $WREN_NUM_PRIO
rp_time_reset 600 $((WREN_DCQCN_RP_TIME_RESET_MIN_US - 1))
rp_byte_reset 65536 $((WREN_DCQCN_RP_BYTE_RESET_MAX + 1))
rp_threshold 3 $((WREN_DCQCN_RP_THRESHOLD_MAX + 1))
rp_ai_rate 10 4000000000
rp_hai_rate 100 4000000000
rp_min_dec_fac 25 $((WREN_DCQCN_RP_MIN_DEC_FAC_MAX + 1))
rp_min_rate 2 $((WREN_DCQCN_RP_MIN_RATE_MIN_MBPS - 1))
rp_max_rate 1000 1
rp_rate_to_set_on_first_cnp 500 4000000000
rp_dce_tcp_g 8 $((WREN_DCQCN_RP_G_MAX + 1))
rp_dce_tcp_rtt 100 $((WREN_DCQCN_RP_ALPHA_UPDATE_MIN_US - 1))
rp_rate_reduce_monitor_period 8 $((WREN_DCQCN_TIME_MAX_US + 1))
rp_initial_alpha_value 512 $((WREN_DCQCN_ALPHA_MAX + 1))
rp_gd 12 $((WREN_DCQCN_RP_GD_MIN - 1))
rp_clamp_tgt_rate false -
"
n_cc=$(awk 'NF { n++; if ($3 != "-") n++ } END { print n }' <<<"$cc_params")
# 46 dcb checks, then exclusion 12, tunable 8, ethtool -S 2, devlink
# params n_cc + 2, health 2, rdma 5, tracepoint 1, apptrust 4.
planned=$((46 + 12 + 8 + 2 + n_cc + 2 + 2 + 5 + 1 + 4))
plan "$planned"
dmesg -C

wren_require_nic $((planned - 1)) "dcb checks"

# bail DESC [DIAG]: fail, skip what is left of the plan, end the test.
bail() {
	not_ok "$1"
	[ -n "${2:-}" ] && diag "$2"
	while [ "$TAP_COUNT" -lt "$TAP_PLANNED" ]; do
		skip "remaining dcb checks" "setup failed"
	done
	tap_done
	exit 1
}

# CAPS_LO's DCB bits: DCB_ETS, PFC, DSCP_TRUST, BUFFER, MAXRATE.
capslo=$(wren_regs "$bdf" "$(wren_reg WREN_REG_CAPS_LO)")
dcb_caps=$(wren_dcb_caps "$capslo")
diag "CAPS_LO $capslo, DCB capability bits 0x$(printf %x "$dcb_caps")"

insmod "$mods/wren.ko" || bail "insmod wren.ko"
ifname=$(wren_netdev "$bdf")
[ -n "$ifname" ] || bail "wren.ko registers a netdev for $bdf" "$(dmesg | tail -n 20)"
ok "wren.ko registers netdev $ifname"

# show OBJ [ARGS]: `dcb OBJ show dev IF ARGS`, on one line.
show() {
	local obj=$1
	shift
	dcb "$obj" show dev "$ifname" "$@" 2>&1 | tr -s ' \n' ' ' | sed 's/ $//'
}

# dcb_check DESC ARGS...: ok when `dcb ARGS` (wren_dcb: once more on
# iproute2 6.1's stale-ACK EPROTO) exits 0; what it said is shown.
dcb_check() {
	local desc=$1 out rc=0
	shift
	out=$(wren_dcb "$@" 2>&1) || rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "$desc"
	else
		not_ok "$desc"
	fi
	[ -z "$out" ] || diag "$out"
	return 0
}

# refused DESC OBJ CMD ARGS...: `dcb OBJ show` (the NIC's state, read
# back) is the same before and after the command.  iproute2 6.1's dcb
# exits 0 when the driver refused an ets, pfc, maxrate or buffer set: it
# reads its GET's stale ACK in place of the set's answer (wren_dcb in
# wren.sh); app and dcbx sets it reports.  So only the state can tell;
# dcb's words go to the diagnostics.
refused() {
	local desc=$1 obj=$2 before after out rc=0
	shift 2
	before=$(show "$obj")
	out=$(dcb "$obj" "$@" 2>&1) || rc=$?
	after=$(show "$obj")
	if [ "$before" = "$after" ]; then
		ok "$desc: refused, state unchanged"
	else
		not_ok "$desc: refused, state unchanged"
		diag "before: $before" "after:  $after"
	fi
	diag "dcb $obj $*: exit $rc${out:+: ${out%%$'\n'*}}"
}

# shows DESC OBJ WANT [ARGS]: `dcb OBJ show ARGS` contains WANT.
shows() {
	local desc=$1 obj=$2 want=$3 got
	shift 3
	got=$(show "$obj" "$@")
	if grep -qF -- "$want" <<<"$got"; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "want '$want' in: $got"
	fi
}

if [ "$dcb_caps" = 0 ]; then
	out=$(dcb ets show dev "$ifname" 2>&1)
	check "no DCB caps: no dcbnl ops, dcb ets show is refused" \
		test -n "$(grep -i 'not supported' <<<"$out")"
	for _ in $(seq $((planned - 5))); do
		skip "dcb checks" "the NIC advertises no WREN_CAP_DCB_* bit"
	done
	check "rmmod wren" rmmod wren
	check_dmesg "dmesg clean after the DCB tests"
	tap_done
	exit
fi

# ETS: two ETS TCs sharing 70/30, the rest strict.
check "dcb ets show reads the NIC" dcb ets show dev "$ifname"
diag "ets: $(show ets)"
dcb_check "dcb ets set: TC0 70% TC1 30%, others strict, prio 0-3 -> TC0, 4-7 -> TC1" \
	ets set dev "$ifname" tc-tsa all:strict 0:ets 1:ets \
	tc-bw all:0 0:70 1:30 prio-tc 0:0 1:0 2:0 3:0 4:1 5:1 6:1 7:1
shows "ets reads back tc-tsa" ets "tc-tsa 0:ets 1:ets 2:strict 3:strict 4:strict 5:strict 6:strict 7:strict"
shows "ets reads back tc-bw 70/30" ets "tc-bw 0:70 1:30 2:0"
shows "ets reads back prio-tc" ets "prio-tc 0:0 1:0 2:0 3:0 4:1 5:1 6:1 7:1"
refused "ETS bandwidths summing to 90" ets set dev "$ifname" tc-bw 0:60 1:30
refused "vendor TSA (not in the contract)" ets set dev "$ifname" tc-tsa 2:vendor
refused "CBS TSA" ets set dev "$ifname" tc-tsa 2:cbs

# PFC on priority 3, a cable delay, and the per-priority PFC counters.
dcb_check "dcb pfc set: prio 3 lossless, delay 4096" \
	pfc set dev "$ifname" prio-pfc all:off 3:on delay 4096
shows "pfc reads back prio-pfc 3:on" pfc "prio-pfc 0:off 1:off 2:off 3:on 4:off"
shows "pfc reads back delay 4096" pfc "delay 4096"
shows "pfc reads pfc-cap 8" pfc "pfc-cap 8"
shows "pfc reports requests per priority" pfc "requests 0:" requests
shows "pfc reports indications per priority" pfc "indications 0:" indications
refused "PFC MACsec bypass" pfc set dev "$ifname" macsec-bypass on

# DSCP app entries: the first switches the NIC to DSCP trust.
dcb_check "dcb app add dscp-prio 26:3" app add dev "$ifname" dscp-prio 26:3
shows "app reads back dscp-prio 26 (AF31):3" app "AF31:3" dscp-prio
dcb_check "dcb app replace dscp-prio 26:5" app replace dev "$ifname" dscp-prio 26:5
got=$(show app dscp-prio)
check "app has 26:5 and no longer 26:3 ($got)" \
	bash -c "grep -qF AF31:5 <<<'$got' && ! grep -qF AF31:3 <<<'$got'"
refused "EtherType app entry (DSCP only)" app add dev "$ifname" ethtype-prio 0x8915:3
dcb_check "dcb app del dscp-prio 26:5" app del dev "$ifname" dscp-prio 26:5
got=$(show app dscp-prio)
check "app table has no DSCP entry left ($got)" \
	bash -c "! grep -qF AF31: <<<'$got'"

# DCBX: host-managed IEEE only.
shows "dcbx reads host ieee" dcbx "host ieee"
dcb_check "dcb dcbx set host ieee" dcbx set dev "$ifname" host ieee
refused "DCBX CEE, LLD-managed" dcbx set dev "$ifname" lld-managed cee

# Max rate per TC (the NIC refuses more than its link speed).  The
# driver's unit is kb/s, as mlx5's; dcb's numbers pass through as they are.
dcb_check "dcb maxrate set: TC1 at 1Mbit" \
	maxrate set dev "$ifname" tc-maxrate all:0 1:1Mbit
shows "maxrate reads back TC1 1Mbit" maxrate "1:1Mbit"
refused "max rate above the link speed" maxrate set dev "$ifname" tc-maxrate 2:1000Gbit

# Receive buffers: priority 3 gets its own.
dcb_check "dcb buffer set: prio 3 -> buffer 1 (128K), buffer 0 256K" \
	buffer set dev "$ifname" prio-buffer all:0 3:1 buffer-size all:0 0:256K 1:128K
shows "buffer reads back prio-buffer" buffer "prio-buffer 0:0 1:0 2:0 3:1 4:0"
shows "buffer reads back buffer-size" buffer "buffer-size 0:256Kb 1:128Kb 2:0b"
refused "buffers larger than the NIC's total" buffer set dev "$ifname" buffer-size all:128K

# The errno of each bad value, from a raw DCB_CMD_IEEE_SET (dcb hides
# it, or refuses the value itself), and the NIC's state unchanged: the
# IEEE_GET reply before and after each set (wren_dcb_nl.py, all cases in
# one run), and what dcb shows before and after them all.
nl=$(dirname "$0")/wren_dcb_nl.py
state() { show ets; show pfc; show maxrate; show buffer; }
cases="ets-vendor:EOPNOTSUPP ets-cbs:EOPNOTSUPP ets-tsa-7:EINVAL ets-sum-80:EINVAL
ets-bw-101:EINVAL ets-prio-tc-8:EINVAL pfc-mbc:EOPNOTSUPP maxrate-above-link:EINVAL
buffer-prio-8:EINVAL buffer-over-total:EINVAL"
before=$(state)
# shellcheck disable=SC2046 # one word per case
raw=$(python3 "$nl" "$ifname" $(for c in $cases; do echo "${c%%:*}"; done) 2>&1)
after=$(state)
for c in $cases; do
	case=${c%%:*} want=${c#*:}
	got=$(awk -v c="$case" '$1 == c { print $2, $3 }' <<<"$raw")
	if [ "$got" = "$want same" ] && [ "$before" = "$after" ]; then
		ok "raw IEEE_SET $case: $want, state unchanged"
	else
		not_ok "raw IEEE_SET $case: $want, state unchanged"
		diag "got '$got'" "before: $before" "after:  $after" "$raw"
	fi
done

# --- PFC and 802.3x pause exclude each other (EBUSY, both ways) -------
pause_state() {
	ethtool -a "$ifname" 2>&1 | awk '/^(RX|TX):/ { printf "%s%s ", $1, $2 }'
}
# said WHAT: the driver's message is in dmesg.
said() { dmesg | grep -qF -- "$1"; }
shows "PFC is on priority 3 (from above)" pfc "prio-pfc 0:off 1:off 2:off 3:on 4:off"
before=$(pause_state)
diag "pause: $before"
out=$(ethtool -A "$ifname" rx on tx on 2>&1)
rc=$?
check "ethtool -A rx on tx on with PFC on: refused, EBUSY (exit $rc)" \
	bash -c "[ $rc -ne 0 ] && grep -qi 'busy' <<<'$out'"
diag "ethtool -A: $out"
check "the driver says why (PFC is on)" said "PFC is on (priorities 0x08): turn it off before 802.3x pause"
check "pause state unchanged ($(pause_state))" test "$(pause_state)" = "$before"
dcb_check "PFC off" pfc set dev "$ifname" prio-pfc all:off
check "with PFC off, ethtool -A rx on tx on" ethtool -A "$ifname" rx on tx on
check "pause reads back RX on, TX on" test "$(pause_state)" = "RX:on TX:on "
refused "PFC on priority 3 with 802.3x pause on" pfc set dev "$ifname" prio-pfc 3:on
got=$(python3 "$nl" "$ifname" pfc-prio3 2>&1)
check "raw IEEE_SET of PFC on priority 3 with pause on: EBUSY ($got)" test "$got" = EBUSY
check "the driver says why (pause is on)" said "802.3x pause is on (rx tx): turn it off before PFC"
check "ethtool -A rx off tx off" ethtool -A "$ifname" rx off tx off
dcb_check "then PFC on priority 3 again" pfc set dev "$ifname" prio-pfc 3:on

# --- ethtool tunable pfc-prevention-tout -------------------------------
tout() {
	ethtool --get-tunable "$ifname" pfc-prevention-tout 2>&1 | awk 'END { print $NF }'
}
diag "pfc-prevention-tout: $(ethtool --get-tunable "$ifname" pfc-prevention-tout 2>&1)"
while read -r val want what; do
	ethtool --set-tunable "$ifname" pfc-prevention-tout "$val" >/dev/null 2>&1
	got=$(tout)
	check "pfc-prevention-tout $val ($what) reads back $want (got $got)" \
		test "$got" = "$want"
done <<TOUT
$WREN_PFC_TOUT_MIN_MS $WREN_PFC_TOUT_MIN_MS minimum
$WREN_PFC_TOUT_MAX_MS $WREN_PFC_TOUT_MAX_MS maximum
0 0 off
65535 $WREN_PFC_TOUT_AUTO_MS auto
500 500 in-range
TOUT
# 65535 is ethtool's "auto" (PFC_STORM_PREVENTION_AUTO); 65534 is above
# any timeout.
for val in $((WREN_PFC_TOUT_MIN_MS - 1)) $((WREN_PFC_TOUT_MAX_MS + 1)) 65534; do
	out=$(ethtool --set-tunable "$ifname" pfc-prevention-tout "$val" 2>&1)
	rc=$?
	got=$(tout)
	check "pfc-prevention-tout $val refused (exit $rc), still 500 (got $got)" \
		bash -c "[ $rc -ne 0 ] && [ '$got' = 500 ]"
	diag "ethtool: $out"
done

# --- ethtool -S: per-priority pause counters and the storm counters ----
stats=$(ethtool -S "$ifname" 2>&1)
# stat_missing NAME...: the names ethtool -S does not list with a number
# (one awk over the dump: a grep per name costs seconds under TCG).
stat_missing() {
	awk 'NR == FNR { want[$1] = 1; next }
	     $2 ~ /^[0-9]+$/ { sub(/:$/, "", $1); delete want[$1] }
	     END { for (w in want) printf " %s", w }' <(printf '%s\n' "$@") - <<<"$stats"
}
names=()
for p in 0 1 2 3 4 5 6 7; do
	for c in bytes packets; do names+=("rx_prio${p}_$c" "tx_prio${p}_$c"); done
	for c in pause pause_duration; do names+=("rx_prio${p}_$c" "tx_prio${p}_$c"); done
	names+=("rx_prio${p}_pause_transition" "rx_prio${p}_buf_discard")
done
missing=$(stat_missing "${names[@]}")
check "ethtool -S has rx/tx_prio<N>_{bytes,packets,pause,pause_duration}, _pause_transition, _buf_discard (${#names[@]})" \
	test -z "$missing"
[ -n "$missing" ] && diag "missing:$missing"
missing=$(stat_missing tx_pause_storm_warning_events tx_pause_storm_error_events)
check "ethtool -S has tx_pause_storm_warning_events, tx_pause_storm_error_events" \
	test -z "$missing"

# --- DCQCN devlink params -----------------------------------------------
dl=pci/$bdf
param() {
	devlink dev param show "$dl" name "$1" 2>&1 |
		sed -n 's/.*cmode runtime value \([^ ]*\).*/\1/p'
}
# iproute2 6.1 shows one device's params only by name: dump them all.
listed=$(devlink dev param show 2>&1)
missing=
while read -r name _; do
	[ -n "$name" ] || continue
	grep -q "name $name type driver-specific" <<<"$listed" || missing="$missing $name"
done <<<"$cc_params"
check "devlink lists the 21 DCQCN params, driver-specific" test -z "$missing"
[ -n "$missing" ] && diag "$listed" "missing:$missing"
while read -r name good bad; do
	[ -n "$name" ] || continue
	old=$(param "$name")
	out=$(devlink dev param set "$dl" name "$name" value "$good" cmode runtime 2>&1)
	got=$(param "$name")
	check "devlink param $name: $old -> $good, reads back $got" test "$got" = "$good"
	[ -n "$out" ] && diag "$out"
	[ "$bad" = - ] && continue
	out=$(devlink dev param set "$dl" name "$name" value "$bad" cmode runtime 2>&1)
	rc=$?
	got=$(param "$name")
	check "devlink param $name $bad refused (exit $rc), still $good (got $got)" \
		bash -c "[ $rc -ne 0 ] && [ '$got' = '$good' ]"
	diag "devlink: ${out%%$'\n'*}"
done <<<"$cc_params"
check "the numeric params kept each priority's enables (cc_np_enable $(param cc_np_enable))" \
	test "$(param cc_np_enable)" = 8

# --- devlink health: pfc_storm ------------------------------------------
check "devlink health lists the pfc_storm reporter" \
	bash -c "devlink health show $dl reporter pfc_storm | grep -q 'reporter pfc_storm'"
out=$(devlink health diagnose "$dl" reporter pfc_storm 2>&1)
diag "diagnose: $out"
missing=
for w in "storm_prios: 0" "rx_storm_prios: 0" "tx_storm_prios: 0" \
	 "last_direction: none" "timeout_ms: 500" "recovery_ms: $WREN_PFC_RECOVERY_MS" "pfc_en: 8" \
	 "tx_pause_storm_warning_events: 0" "tx_pause_storm_error_events: 0" \
	 "prio3_storm_events: 0"; do
	grep -Eq -- "(^| )$w( |\$)" <<<"$out" || missing="$missing '$w'"
done
check "pfc_storm diagnose: storm bitmaps, direction, timeout, counters" test -z "$missing"
[ -n "$missing" ] && diag "missing:$missing"

# --- rdma: CC counters, per-QP DCQCN state ------------------------------
modprobe ib_uverbs
check "insmod wren_peer_mem.ko and wren_ib.ko (ib_uverbs loaded)" wren_ib_load "$mods"
rdev=
find_rdev() {
	local d
	for d in /sys/class/infiniband/wren_*; do
		[ -e "$d" ] || return 1
		rdev=${d##*/}
		return 0
	done
	return 1
}
if wait_for 10 find_rdev; then
	ok "wren_ib registers ib device $rdev"
else
	not_ok "wren_ib registers an ib device"
fi
stats=$(rdma statistic show link "$rdev/1" 2>&1)
missing=
for c in np_cnp_sent np_ecn_marked_roce_packets rp_cnp_handled rp_cnp_ignored \
	 rp_rate_reductions; do
	grep -Eq "(^| )$c [0-9]+( |\$)" <<<"$stats" || missing="$missing $c"
done
check "rdma statistic has mlx5's CC counters" test -z "$missing"
[ -n "$missing" ] && diag "$stats" "missing:$missing"
# The MAD layer's GSI QP is a QP of the device: enough for restrack.
res=$(rdma -dd res show qp link "$rdev/1" 2>&1)
missing=
# iproute2 prints driver attributes with a drv_ prefix.
for a in cc_rate_kbps cc_target_kbps cc_alpha cc_rp_active cc_cnps_handled; do
	grep -Eq "(^| )drv_$a [0-9]+( |\$)" <<<"$res" || missing="$missing $a"
done
check "rdma -dd res show qp: the GSI QP's DCQCN state" test -z "$missing"
[ -n "$missing" ] && diag "$res" "missing:$missing"
check "rmmod wren_ib" wren_ib_unload

# --- tracepoint ---------------------------------------------------------
tr=/sys/kernel/tracing
[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null
check "tracepoint wren:wren_cc_rate with qpn, reason, rate, alpha" \
	bash -c "grep -q 'field:u32 qpn' $tr/events/wren/wren_cc_rate/format &&
		 grep -q 'field:u32 rate_kbps' $tr/events/wren/wren_cc_rate/format &&
		 grep -q 'field:u32 alpha' $tr/events/wren/wren_cc_rate/format"

# --- apptrust (Linux 6.2+; iproute2 6.1 has no dcb apptrust) ------------
at=$(python3 "$nl" "$ifname" apptrust-get 2>&1)
diag "apptrust: $at"
if [ "$at" = absent ]; then
	for _ in 1 2 3 4; do skip "apptrust" "the kernel has no dcbnl apptrust"; done
else
	got=$(python3 "$nl" "$ifname" apptrust-pcp 2>&1)
	check "apptrust pcp: $got, reads back pcp" \
		bash -c "[ '$got' = 0 ] && [ \"\$(python3 '$nl' '$ifname' apptrust-get)\" = pcp ]"
	got=$(python3 "$nl" "$ifname" apptrust-dscp-pcp 2>&1)
	check "apptrust dscp pcp: $got, reads back dscp pcp" \
		bash -c "[ '$got' = 0 ] && [ \"\$(python3 '$nl' '$ifname' apptrust-get)\" = 'dscp pcp' ]"
	for c in apptrust-pcp-dscp apptrust-ethtype; do
		got=$(python3 "$nl" "$ifname" $c 2>&1)
		check "$c: EOPNOTSUPP ($got), still dscp pcp" \
			bash -c "[ '$got' = EOPNOTSUPP ] && [ \"\$(python3 '$nl' '$ifname' apptrust-get)\" = 'dscp pcp' ]"
	done
fi

check "rmmod wren" rmmod wren
check_dmesg "dmesg clean after the DCB tests"
tap_done
