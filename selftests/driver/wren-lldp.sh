#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once: DCBX between the two Wren ports
# with lldpad (Debian's openlldp, unpacked by `make lldpad` into
# build/lldpad: scripts/deb/lldpad-fetch.sh), the way an operator lets a
# switch push its DCB configuration to a host.  Guest 0 plays the switch:
# not willing, it advertises an ETS configuration and recommendation
# (priority 3 on TC 1, priority 6 on strict TC 2, 40/60 between TCs 0 and
# 1), PFC on priority 3 and a DSCP 26 -> priority 3 application entry.
# Guest 1 is willing.  Checked through dcbnl (iproute2's dcb), not through
# lldpad's own view:
#
#   - lldpad joins the LLDP group (01:80:c2:00:00:0e) and the NIC's filter
#     lets the peer's LLDPDUs (EtherType 0x88cc) reach the netdev: each
#     side sees the other as its neighbour;
#   - lldpad switches the port to DCBX host + IEEE (getdcbx/setdcbx);
#   - the non-willing side programs its own configuration into its NIC;
#   - the willing side adopts the peer's: ETS (prio-tc, TSA, bandwidth),
#     PFC enable and the application entry, all read back from its NIC;
#   - after lldpad stops (the willing side's first), the NIC keeps what
#     it was given, and a clean dmesg.
#
#   flock /tmp/wren-guest.lock make vmtest T=driver/wren-lldp.sh KVER=6.1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

pair_init lldp "LLDP"
root=$WREN_TOP/build/lldpad
lldpad=$root/usr/sbin/lldpad
lldptool=$root/usr/sbin/lldptool
export LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu
# What the "switch" advertises; the willing side must end up with it.
up2tc=0:0,1:0,2:0,3:1,4:0,5:0,6:2,7:0
tsa=0:ets,1:ets,2:strict,3:strict,4:strict,5:strict,6:strict,7:strict
tcbw=40,60,0,0,0,0,0,0
want_prio_tc="prio-tc 0:0 1:0 2:0 3:1 4:0 5:0 6:2 7:0"
want_tc_bw="tc-bw 0:40 1:60 2:0 3:0 4:0 5:0 6:0 7:0"
want_tsa="tc-tsa 0:ets 1:ets 2:strict 3:strict 4:strict 5:strict 6:strict 7:strict"
want_pfc="prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off"
if [ "$me" = 0 ]; then
	plan 11
else
	plan 14
fi
dmesg -C

if [ ! -x "$lldpad" ] || [ ! -x "$lldptool" ]; then
	bail "lldpad is unpacked in $root (make lldpad)"
fi
bdf=$(wren_bdf) || bail "a Wren NIC is on the PCI bus"
# A NIC fresh from its reset (remove resets it): no DCB state an earlier
# test or the boot's QoS profile left.
if grep -q '^wren_ib ' /proc/modules; then
	wren_ib_unload || bail "unload wren_ib.ko an earlier test left"
fi
if grep -q '^wren ' /proc/modules; then
	rmmod wren || bail "unload wren.ko an earlier test left"
fi
insmod "$(wren_moddir)/wren.ko" || bail "insmod wren.ko"
ifname=$(wren_netdev "$bdf") || bail "wren.ko registers a netdev for $bdf"
ip link set "$ifname" up
wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier" ||
	bail "carrier on $ifname"
dcb ets show dev "$ifname" >/dev/null 2>&1 ||
	bail "the NIC has dcbnl ETS (not a DCB=0 board)" "$(dcb ets show dev "$ifname" 2>&1)"

if [ "$me" = 1 ]; then
	# So that adopting is seen, not a leftover: the fresh NIC's ETS is
	# not what the peer will advertise.
	check "before the exchange the NIC's ETS is not the peer's" sh -c \
		"! dcb ets show dev $ifname | grep -q '$want_tc_bw'"
fi

# lldpad keeps its configuration in its own file; state (shm, pid file)
# lives in the guest's tmpfs.
"$lldpad" -d -t -f "$res/lldpad.conf" >"$res/lldpad.out" 2>&1 ||
	bail "lldpad starts" "$(cat "$res/lldpad.out")"
wait_for 30 "$lldptool" -p >/dev/null 2>&1 ||
	bail "lldpad answers lldptool" "$(cat "$res/lldpad.out")"
ok "lldpad $("$lldpad" -v 2>&1 | head -n 1) runs, lldptool talks to it"

lt() {
	"$lldptool" "$@" >>"$res/lldptool.out" 2>&1 ||
		{ echo "lldptool $*: $(tail -n 2 "$res/lldptool.out")"; return 1; }
}
err=
if [ "$me" = 0 ]; then
	lt set-lldp -i "$ifname" adminStatus=rxtx &&
	lt -T -i "$ifname" -V ETS-CFG enableTx=yes willing=no \
		"up2tc=$up2tc" "tsa=$tsa" "tcbw=$tcbw" &&
	lt -T -i "$ifname" -V ETS-REC enableTx=yes \
		"up2tc=$up2tc" "tsa=$tsa" "tcbw=$tcbw" &&
	lt -T -i "$ifname" -V PFC enableTx=yes willing=no enabled=3 &&
	lt -T -i "$ifname" -V APP enableTx=yes app=3,5,26 ||
		err=$?
else
	lt set-lldp -i "$ifname" adminStatus=rxtx &&
	lt -T -i "$ifname" -V ETS-CFG enableTx=yes willing=yes &&
	lt -T -i "$ifname" -V PFC enableTx=yes willing=yes &&
	lt -T -i "$ifname" -V APP enableTx=yes ||
		err=$?
fi
check "lldptool configures the port (adminStatus rxtx, ETS, PFC, APP TLVs)" \
	test -z "$err"
[ -n "$err" ] && diag "$(cat "$res/lldptool.out")"

check "lldpad joined the LLDP group on $ifname (01:80:c2:00:00:0e)" \
	wait_for 20 grep -q '01:80:c2:00:00:0e' <(ip maddr show dev "$ifname")
barrier configured

# neighbour TLV: the peer's chassis ID TLV as this side received it.
neighbour() {
	"$lldptool" -t -n -i "$ifname" -V chassisID 2>/dev/null | grep -qi "$1"
}
peer_mac=52:54:00:00:00:0$((peer + 1))
check "the peer's LLDPDUs reach the netdev: neighbour $peer_mac" \
	wait_for 60 neighbour "$peer_mac"

dcbx_ok() {
	dcb dcbx show dev "$ifname" 2>/dev/null | grep -qw host &&
		dcb dcbx show dev "$ifname" 2>/dev/null | grep -qw ieee
}
check "lldpad put the port in DCBX host + IEEE mode" wait_for 30 dcbx_ok
diag "dcbx: $(dcb dcbx show dev "$ifname" 2>&1)"

ets_is() {
	local s
	s=$(dcb ets show dev "$ifname" 2>/dev/null) || return 1
	grep -q "$want_prio_tc" <<<"$s" && grep -q "$want_tc_bw" <<<"$s" &&
		grep -q "$want_tsa" <<<"$s"
}
pfc_is() {
	dcb pfc show dev "$ifname" prio-pfc 2>/dev/null | grep -q "$want_pfc"
}
app_is() {
	dcb -N app show dev "$ifname" dscp-prio 2>/dev/null | grep -qw '26:3'
}
if [ "$me" = 0 ]; then
	who="its own (not willing)"
else
	who="the peer's (willing)"
fi
check "ETS in the NIC is $who: $want_prio_tc, 40/60, TC 2 strict" \
	wait_for 60 ets_is
diag "ets: $(dcb ets show dev "$ifname" 2>&1 | tr '\n' ' ')"
check "PFC in the NIC is $who: priority 3 on" wait_for 30 pfc_is
diag "pfc: $(dcb pfc show dev "$ifname" 2>&1 | tr '\n' ' ')"
check "the application table has $who DSCP 26 -> priority 3" \
	wait_for 30 app_is
diag "app: $(dcb app show dev "$ifname" 2>&1 | tr '\n' ' ')"
if [ "$me" = 1 ]; then
	willing_peer=$("$lldptool" -t -n -i "$ifname" -V ETS-CFG 2>&1)
	check "the peer's ETS-CFG TLV says not willing" \
		grep -qi 'willing: *no' <<<"$willing_peer"
	diag "neighbour ETS-CFG: $(tr '\n' ' ' <<<"$willing_peer")"
	rec=$("$lldptool" -t -n -i "$ifname" -V ETS-REC 2>&1)
	check "the peer recommends TC bandwidths 40/60 (ETS-REC TLV)" \
		grep -q 'TC Bandwidth: 40% 60% 0%' <<<"$rec"
	diag "neighbour ETS-REC: $(tr '\n' ' ' <<<"$rec")"
fi
barrier adopted

# The willing side stops first: an lldpad that stops sends a shutdown
# LLDPDU, and a willing peer that still runs goes back to its own
# configuration when its neighbour leaves (802.1Qaz), so guest 0 waits.
stop_lldpad() {
	"$lldpad" -k >/dev/null 2>&1
	check "lldpad stops" wait_for 30 sh -c "! $lldptool -p >/dev/null 2>&1"
	check "the NIC keeps the configuration after lldpad has gone" ets_is
}
if [ "$me" = 1 ]; then
	stop_lldpad
	barrier stopped
else
	barrier stopped
	stop_lldpad
fi
check_dmesg "no driver warnings"
tap_done
