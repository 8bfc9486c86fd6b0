#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, one guest: dcb/wren-qos against a real Wren NIC (with the
# driver's devlink CC params and pfc-prevention-tout).  Each
# profile applies and the standard tools read back what it asks for; a
# second apply changes nothing; a bad profile changes nothing; default
# brings back the state the port had after insmod.  A NIC without DCB
# capabilities (the bench's DCB=0) gets the skips of wren-dcb.sh.
#   make vmtest T=driver/wren-qos.sh N=1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

qos=$WREN_TOP/dcb/wren-qos
mods=$(wren_moddir)
plan 26
dmesg -C
wren_require_nic 25 "wren-qos checks"

bail() {
	not_ok "$1"
	[ -n "${2:-}" ] && diag "$2"
	while [ "$TAP_COUNT" -lt "$TAP_PLANNED" ]; do
		skip "remaining wren-qos checks" "setup failed"
	done
	tap_done
	exit 1
}

# CAPS_LO's DCB bits: DCB_ETS, PFC, DSCP_TRUST, BUFFER, MAXRATE (read
# before the driver binds, as wren-dcb.sh does).
capslo=$(wren_regs "$bdf" "$(wren_reg WREN_REG_CAPS_LO)")
insmod "$mods/wren.ko" || bail "insmod wren.ko"
ifname=$(wren_netdev "$bdf")
[ -n "$ifname" ] || bail "wren.ko registers a netdev for $bdf" "$(dmesg | tail -n 20)"
ok "wren.ko registers netdev $ifname"

if [ "$(wren_dcb_caps "$capslo")" = 0 ]; then
	for _ in $(seq 23); do
		skip "wren-qos checks" "the NIC advertises no WREN_CAP_DCB_* bit (DCB=0)"
	done
	check "rmmod wren" rmmod wren
	tap_done
	exit
fi

# j EXPR CMD...: a Python expression over the JSON CMD prints (as j).
j() {
	local expr=$1
	shift
	"$@" 2>/dev/null | python3 -c 'import json, sys
j = json.load(sys.stdin)
print(eval(sys.argv[1]))' "$expr"
}

# The port's whole state as the standard tools print it, one blob.
state() {
	local o
	for o in ets pfc app buffer maxrate dcbx; do
		dcb -j "$o" show dev "$ifname" 2>&1
	done
	ethtool -a "$ifname" 2>&1
	ethtool --get-tunable "$ifname" pfc-prevention-tout 2>&1
	# devlink 6.1 wants a name after a handle: dump every device's.
	devlink -j dev param show 2>&1
}

param() {
	j "[v['value'] for p in j['param']['pci/$bdf'] for v in p['values'] if v['cmode'] == 'runtime'][0]" \
		devlink -j dev param show "pci/$bdf" name "$1"
}

# apply DESC PROFILE: exit 0; the output is a diagnostic.
apply() {
	local out rc=0
	out=$("$qos" apply "$2" "$ifname" 2>&1) || rc=$?
	if [ "$rc" = 0 ]; then
		ok "$1"
	else
		not_ok "$1 (exit $rc)"
	fi
	diag "$out"
}

# again PROFILE: a second apply runs nothing.
again() {
	local out
	out=$("$qos" apply "$1" "$ifname" 2>&1)
	if grep -q "nothing to change" <<<"$out"; then
		ok "$1: a second apply changes nothing"
	else
		not_ok "$1: a second apply changes nothing"
		diag "$out"
	fi
}

# is DESC GOT WANT
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "got '$2', want '$3'"
	fi
}

start=$(state)

apply "wren-qos apply lossless $ifname" lossless
is "lossless: dcb pfc has PFC on priority 3 only" \
	"$(j "j['prio_pfc']" dcb -j pfc show dev "$ifname")" \
	"[False, False, False, True, False, False, False, False]"
is "lossless: dcb ets has TC 3 60%, TC 0 40%, TC 6 strict" \
	"$(j "(j['prio_tc'], j['tc_bw'][0], j['tc_bw'][3], j['tc_tsa'][6])" dcb -j ets show dev "$ifname")" \
	"([0, 0, 0, 3, 0, 0, 6, 0], 40, 60, 'strict')"
is "lossless: dcb app maps DSCP 26 to 3 and 48 to 6" \
	"$(j "sorted(j['dscp_prio'])" dcb -j app show dev "$ifname")" "[[26, 3], [48, 6]]"
is "lossless: dcb buffer gives priority 3 buffer 1" \
	"$(j "j['prio_buffer'][3], j['buffer_size'][1]" dcb -j buffer show dev "$ifname")" "(1, 262144)"
is "lossless: ethtool -a has 802.3x pause off" \
	"$(ethtool -a "$ifname" | grep -E '^(RX|TX):' | tr -s '\t ' ' ')" "RX: off
TX: off"
tout=$(ethtool --get-tunable "$ifname" pfc-prevention-tout 2>&1)
check "lossless: pfc-prevention-tout is auto ($tout)" \
	grep -qE "pfc-prevention-tout: ($WREN_PFC_TOUT_AUTO_MS|65535)\$" <<<"$tout"
is "lossless: devlink cc_ecn_enable, cc_np_enable, cc_rp_enable are priority 3 (8)" \
	"$(param cc_ecn_enable) $(param cc_np_enable) $(param cc_rp_enable)" "8 8 8"
again lossless

out=$("$qos" show "$ifname" 2>&1)
check "show prints eight priority rows" test "$(grep -cE '^[0-7] ' <<<"$out")" = 8
diag "$out"

apply "wren-qos apply ecn-only $ifname" ecn-only
is "ecn-only: no PFC, DSCP 26 still on 3, ECN still on 3" \
	"$(j "sum(j['prio_pfc'])" dcb -j pfc show dev "$ifname") $(j "sorted(j['dscp_prio'])" dcb -j app show dev "$ifname") $(param cc_ecn_enable)" \
	"0 [[26, 3], [48, 6]] 8"
is "ecn-only: pfc-prevention-tout off" \
	"$(ethtool --get-tunable "$ifname" pfc-prevention-tout 2>&1)" "pfc-prevention-tout: 0"
again ecn-only

# A bad profile: ETS shares summing to 90.
bad=$(mktemp --suffix=.conf)
sed 's/^tc_bw = .*/tc_bw = all:0 0:30 3:60/' "$WREN_TOP/dcb/profiles/lossless.conf" >"$bad"
before=$(state)
rc=0
out=$("$qos" apply "$bad" "$ifname" 2>&1) || rc=$?
is "a profile with ETS shares summing to 90: exit 2 naming tc_bw" \
	"$rc $(grep -o 'tc_bw' <<<"$out" | head -n 1)" "2 tc_bw"
is "the bad profile changed nothing" "$(state)" "$before"
rm -f "$bad"

# PFC and 802.3x pause exclude each other: lossless from pause on.
check "ethtool -A $ifname rx on tx on (PFC is off under ecn-only)" \
	ethtool -A "$ifname" rx on tx on
apply "lossless from 802.3x pause on: pause goes off first" lossless
is "... and PFC is on for priority 3" \
	"$(j "j['prio_pfc'][3]" dcb -j pfc show dev "$ifname")" True

apply "wren-qos apply default $ifname" default
again default
is "default brings back the state after insmod (dcb, ethtool, devlink)" \
	"$(state)" "$start"

check "rmmod wren" rmmod wren
check_dmesg "dmesg clean after the wren-qos tests"
tap_done
