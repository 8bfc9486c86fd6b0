#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, one guest: wren.ko's dcbnl ops through iproute2's dcb.  ETS,
# PFC, DSCP app entries, DCBX mode, per-TC max rate and receive buffers
# are set and read back (every GET reads the NIC, QUERY_DCB); bad values
# are refused with the right errno (wren_dcb_nl.py) and leave the NIC's
# state as it was; dmesg stays clean.  A NIC that advertises no
# WREN_CAP_DCB_* bit gets no dcbnl ops: then only that is checked and the
# rest is skipped.  Today's model advertises them only with
# `-device wren,x-dcb=on`: make vmtest T=driver/wren-dcb.sh X_DCB=1.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
plan 46
dmesg -C

wren_require_nic 45 "dcb checks"

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

# CAPS_LO bits 16..20: DCB_ETS, PFC, DSCP_TRUST, BUFFER, MAXRATE.
capslo=$(wren_regs "$bdf" 0x10)
dcb_caps=$(((capslo >> 16) & 0x1f))
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

# refused DESC OBJ CMD ARGS...: `dcb OBJ show` (the NIC's state, read
# back) is the same before and after the command.  iproute2 6.1's dcb
# exits 0 when the kernel's DCB_CMD_IEEE_SET reply carries the driver's
# errno for ets, pfc, maxrate and buffer (it reports it for app and
# dcbx), so only the state can tell; dcb's words go to the diagnostics.
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
	for _ in $(seq 41); do
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
check "dcb ets set: TC0 70% TC1 30%, others strict, prio 0-3 -> TC0, 4-7 -> TC1" \
	dcb ets set dev "$ifname" tc-tsa all:strict 0:ets 1:ets \
	tc-bw all:0 0:70 1:30 prio-tc 0:0 1:0 2:0 3:0 4:1 5:1 6:1 7:1
shows "ets reads back tc-tsa" ets "tc-tsa 0:ets 1:ets 2:strict 3:strict 4:strict 5:strict 6:strict 7:strict"
shows "ets reads back tc-bw 70/30" ets "tc-bw 0:70 1:30 2:0"
shows "ets reads back prio-tc" ets "prio-tc 0:0 1:0 2:0 3:0 4:1 5:1 6:1 7:1"
refused "ETS bandwidths summing to 90" ets set dev "$ifname" tc-bw 0:60 1:30
refused "vendor TSA (not in the contract)" ets set dev "$ifname" tc-tsa 2:vendor
refused "CBS TSA" ets set dev "$ifname" tc-tsa 2:cbs

# PFC on priority 3, a cable delay, and the per-priority PFC counters.
check "dcb pfc set: prio 3 lossless, delay 4096" \
	dcb pfc set dev "$ifname" prio-pfc all:off 3:on delay 4096
shows "pfc reads back prio-pfc 3:on" pfc "prio-pfc 0:off 1:off 2:off 3:on 4:off"
shows "pfc reads back delay 4096" pfc "delay 4096"
shows "pfc reads pfc-cap 8" pfc "pfc-cap 8"
shows "pfc reports requests per priority" pfc "requests 0:" requests
shows "pfc reports indications per priority" pfc "indications 0:" indications
refused "PFC MACsec bypass" pfc set dev "$ifname" macsec-bypass on

# DSCP app entries: the first switches the NIC to DSCP trust.
check "dcb app add dscp-prio 26:3" dcb app add dev "$ifname" dscp-prio 26:3
shows "app reads back dscp-prio 26 (AF31):3" app "AF31:3" dscp-prio
check "dcb app replace dscp-prio 26:5" dcb app replace dev "$ifname" dscp-prio 26:5
got=$(show app dscp-prio)
check "app has 26:5 and no longer 26:3 ($got)" \
	bash -c "grep -qF AF31:5 <<<'$got' && ! grep -qF AF31:3 <<<'$got'"
refused "EtherType app entry (DSCP only)" app add dev "$ifname" ethtype-prio 0x8915:3
check "dcb app del dscp-prio 26:5" dcb app del dev "$ifname" dscp-prio 26:5
got=$(show app dscp-prio)
check "app table has no DSCP entry left ($got)" \
	bash -c "! grep -qF AF31: <<<'$got'"

# DCBX: host-managed IEEE only.
shows "dcbx reads host ieee" dcbx "host ieee"
check "dcb dcbx set host ieee" dcb dcbx set dev "$ifname" host ieee
refused "DCBX CEE, LLD-managed" dcbx set dev "$ifname" lld-managed cee

# Max rate per TC (the NIC refuses more than its link speed).  The
# driver's unit is kb/s, as mlx5's; dcb's numbers pass through as they are.
check "dcb maxrate set: TC1 at 1Mbit" \
	dcb maxrate set dev "$ifname" tc-maxrate all:0 1:1Mbit
shows "maxrate reads back TC1 1Mbit" maxrate "1:1Mbit"
refused "max rate above the link speed" maxrate set dev "$ifname" tc-maxrate 2:1000Gbit

# Receive buffers: priority 3 gets its own.
check "dcb buffer set: prio 3 -> buffer 1 (128K), buffer 0 256K" \
	dcb buffer set dev "$ifname" prio-buffer all:0 3:1 buffer-size all:0 0:256K 1:128K
shows "buffer reads back prio-buffer" buffer "prio-buffer 0:0 1:0 2:0 3:1 4:0"
shows "buffer reads back buffer-size" buffer "buffer-size 0:256Kb 1:128Kb 2:0b"
refused "buffers larger than the NIC's total" buffer set dev "$ifname" buffer-size all:128K

# The errno of each bad value, from a raw DCB_CMD_IEEE_SET (dcb hides
# it, or refuses the value itself), and the NIC's state unchanged.
nl=$(dirname "$0")/wren_dcb_nl.py
state() { show ets; show pfc; show maxrate; show buffer; }
before=$(state)
while read -r case want; do
	got=$(python3 "$nl" "$ifname" "$case" 2>&1)
	after=$(state)
	if [ "$got" = "$want" ] && [ "$before" = "$after" ]; then
		ok "raw IEEE_SET $case: $want, state unchanged"
	else
		not_ok "raw IEEE_SET $case: $want, state unchanged"
		diag "got '$got'" "before: $before" "after:  $after"
	fi
done <<'CASES'
ets-vendor EOPNOTSUPP
ets-cbs EOPNOTSUPP
ets-tsa-7 EINVAL
ets-sum-80 EINVAL
ets-bw-101 EINVAL
ets-prio-tc-8 EINVAL
pfc-mbc EOPNOTSUPP
maxrate-above-link EINVAL
buffer-prio-8 EINVAL
buffer-over-total EINVAL
CASES

check "rmmod wren" rmmod wren
check_dmesg "dmesg clean after the DCB tests"
tap_done
