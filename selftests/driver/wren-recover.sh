#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: recovery from a fatal device error through devlink health.
# With wren.ko and wren_ib.ko up and the port in use (an address, MTU
# 4000, the RDMA device open in a user process, UDP datagrams to the peer
# and an RDMA WRITE stream in flight), the device is made to
# go fatal (`devlink health test ... fw_fatal`) WREN_RECOVER_CYCLES times
# (5) with auto-recover on and the grace period at 0: each time the
# fw_fatal reporter must count a recovery and be healthy again, the
# netdev must be the same one (ifindex, MTU, address) and transmit, the
# port's DCB, pause and DCQCN settings (the lossless profile where the
# board has DCB) must be as they were, and wren_0 must come back ACTIVE.
# The process that had wren_0 open gets
# IBV_EVENT_DEVICE_FATAL; a new one opens the new device, and an RDMA
# WRITE through it (loopback RC) lands verified.  Then the same by hand:
# auto-recover off, the reporter stays in error and the device fatal
# until `devlink health recover`, and a function reset through sysfs
# (the PCI core's reset_prepare/reset_done) brings the device back too.
# Finally both modules unload with nothing left behind.
#
# With 20 cycles or more (WREN_RECOVER_CYCLES=100 for the long run)
# the kernel's unreclaimable memory (SUnreclaim, Percpu,
# VmallocUsed) after cycle 10 and after the last must not have grown by
# more than 4 KiB a recovery: a ring, a page of an EQ or a DMA buffer
# lost per cycle is at least that.  Fewer cycles only print the figures.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

cycles=${WREN_RECOVER_CYCLES:-5}
res=${WREN_RESULTS:-/tmp}
bin=$WREN_TOP/build/tests/rdma/wren_verbs_test
plan 19
dmesg -C

wren_require_nic 18 "recovery"
rep() { devlink -j health show "pci/$bdf" reporter fw_fatal 2>/dev/null; }
# jget KEY: the fw_fatal reporter's KEY now.
jget() { rep | jq -r --arg k "$1" 'first(.. | objects | select(has($k)) | .[$k])'; }
recovered() { test "$(jget recover)" -ge "$1" -a "$(jget state)" = healthy; }

if ! rdma_env_check 2>"$res/recover-env.err" || ! rdma_wren_up 2>>"$res/recover-env.err"; then
	not_ok "wren.ko and wren_ib.ko up: ${RDMA_SETUP_ERR:-} $(cat "$res/recover-env.err")"
	for _ in $(seq 17); do skip "recovery" "no RDMA device"; done
	tap_done
	exit 1
fi
ifn=$RDMA_WREN_IF
dev=$RDMA_WREN_DEV
ip link set "$ifn" mtu 4000
ifindex=$(cat "/sys/class/net/$ifn/ifindex")
ok "$dev on $ifn (ifindex $ifindex, $WREN_IP, MTU 4000)"

check "fw_fatal reporter recovers by itself (auto_recover $(jget auto_recover), grace period $(jget grace_period) ms)" \
	test "$(jget auto_recover)" = true -a "$(jget grace_period)" -gt 0
check "devlink health set grace_period 0" \
	devlink health set "pci/$bdf" reporter fw_fatal grace_period 0

# same_netdev: the netdev of before, as it was, and transmitting.
same_netdev() {
	local tx0
	[ "$(cat "/sys/class/net/$ifn/ifindex" 2>/dev/null)" = "$ifindex" ] || return 1
	[ "$(cat "/sys/class/net/$ifn/mtu")" = 4000 ] || return 1
	ip -4 addr show dev "$ifn" | grep -qF "$WREN_IP/" || return 1
	wait_for 30 grep -qx 1 "/sys/class/net/$ifn/carrier" || return 1
	tx0=$(cat "/sys/class/net/$ifn/statistics/tx_packets")
	busybox ping -c 1 -W 1 "$WREN_PEER_IP" >/dev/null 2>&1
	[ "$(cat "/sys/class/net/$ifn/statistics/tx_packets")" -gt "$tx0" ]
}
# What the device keeps beyond the netdev, as the tools show it (the PFC
# counters left out); the driver restores it after a reset.
qos_state() {
	dcb ets show dev "$ifn"
	dcb pfc show dev "$ifn" pfc-enabled delay
	dcb app show dev "$ifn"
	dcb buffer show dev "$ifn"
	dcb maxrate show dev "$ifn"
	ethtool -a "$ifn"
	ethtool --get-tunable "$ifn" pfc-prevention-tout
	devlink dev param show "pci/$bdf"
} 2>&1
dev_back() {
	wait_for 30 test -e "/sys/class/infiniband/$dev" &&
		rdma_port_active "$dev"
}

# A lossless port, as an operator sets one up, unless the boot did; a
# board without DCB keeps pause and the DCQCN parameters only.
if dcb pfc show dev "$ifn" >/dev/null 2>&1; then
	WREN_QOS_PROFILE=${WREN_QOS_PROFILE:-lossless} wren_qos_up "$ifn" >/dev/null ||
		diag "$WREN_QOS_ERR"
fi
qos0=$(qos_state)
same_qos() {
	local now
	now=$(qos_state)
	[ "$now" = "$qos0" ] && return 0
	diag "port settings differ: $(diff <(echo "$qos0") <(echo "$now") | grep '^[<>]' | head -n 6 | tr '\n' ';')"
	return 1
}

# Line-buffered: the events must be in the file before it exits.
stdbuf -oL "$WREN_RDMA_CORE/bin/ibv_asyncwatch" -d "$dev" >"$res/asyncwatch.out" 2>&1 &
watch=$!
wait_for 10 test -s "$res/asyncwatch.out"
# Traffic in flight when the device dies: datagrams to the peer through
# the netdev for the whole loop, and an RDMA WRITE stream over loopback
# RC started before each fatal error, which must end, never hang: the
# program learns of the death from IBV_EVENT_DEVICE_FATAL (a dead
# device's CQ stays empty) and exits.
xmit_data() { cat "/sys/class/infiniband/$dev/ports/1/hw_counters/tx_roce_bytes" 2>/dev/null || echo 0; }
rdma_traffic() {
	local gid port=$((18900 + $1)) x0
	wait_for 20 rdma_gid_index "$dev" "$WREN_IP" >/dev/null
	gid=$(rdma_gid_index "$dev" "$WREN_IP")
	timeout 90 "$bin" bw --passive --listen "$port" --op write --size 65536 --mr-mib 1 \
		-d "$dev" -g "${gid:-0}" >/dev/null 2>&1 &
	tp=$!
	x0=$(xmit_data)
	timeout 90 "$bin" bw --active --connect "127.0.0.1:$port" --op write --size 65536 \
		--mr-mib 1 --seconds 60 -d "$dev" -g "${gid:-0}" >/dev/null 2>&1 &
	ta=$!
	wait_for 20 bash -c "[ \$(cat /sys/class/infiniband/$dev/ports/1/hw_counters/tx_roce_bytes) -gt $x0 ]" ||
		diag "cycle $1: no RDMA traffic before the fatal error"
}
# traffic_ended: both stream processes gone within 30 s of the recovery.
traffic_ended() {
	wait_for 30 bash -c "! kill -0 $ta 2>/dev/null && ! kill -0 $tp 2>/dev/null" && return 0
	kill "$ta" "$tp" 2>/dev/null
	return 1
}
python3 "$WREN_TOP/selftests/lib/udp_stream.py" send --dst "$WREN_PEER_IP" --port 9 \
	--count 100000000 --seed 7 --rate 2000 >/dev/null 2>"$res/recover-udp.err" &
udp=$!

# kernel_kib: memory the kernel cannot reclaim, in KiB.
kernel_kib() {
	awk '/^(SUnreclaim|Percpu|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}
mem_first=$(kernel_kib) mem_mark=''
bad_rec='' bad_net='' bad_dev='' bad_qos='' bad_traffic='' t0=$SECONDS
for ((i = 1; i <= cycles; i++)); do
	[ "$i" = 11 ] && mem_mark=$(kernel_kib)
	n=$(jget recover)
	rdma_traffic "$i"
	if ! devlink health test "pci/$bdf" reporter fw_fatal ||
	   ! wait_for 60 recovered $((n + 1)); then
		bad_rec+=" $i($(jget state)/$(jget recover))"
		break
	fi
	same_netdev || bad_net+=" $i"
	same_qos || bad_qos+=" $i"
	dev_back || bad_dev+=" $i"
	traffic_ended || bad_traffic+=" $i"
done
udp_alive=no
kill -0 "$udp" 2>/dev/null && udp_alive=yes
kill "$udp" 2>/dev/null
wait "$udp" 2>/dev/null
mem_last=$(kernel_kib)
diag "$cycles recoveries in $((SECONDS - t0)) s; reporter: $(rep)"
diag "unreclaimable kernel memory: $mem_first KiB before, ${mem_mark:-?} KiB after 10, $mem_last KiB after $cycles"
check "$cycles fatal errors, each recovered by devlink health (recover $(jget recover))" \
	test -z "$bad_rec" -a "$(jget recover)" -ge "$cycles"
[ -z "$bad_rec" ] || diag "not recovered at cycle$bad_rec; $(dmesg | grep -i wren | tail -n 8)"
check "the netdev stays (ifindex $ifindex, MTU 4000, $WREN_IP) and transmits after each" \
	test -z "$bad_net$bad_rec"
[ -z "$bad_net" ] || diag "netdev wrong after cycle$bad_net: $(ip addr show dev "$ifn" 2>&1)"
check "the port's DCB, pause and DCQCN settings are as before after each" \
	test -z "$bad_qos$bad_rec"
check "$dev comes back ACTIVE after each" test -z "$bad_dev$bad_rec"
check "traffic through every fatal error: the RDMA streams end, the UDP sender keeps sending" \
	test -z "$bad_traffic$bad_rec" -a "$udp_alive" = yes
[ -z "$bad_traffic" ] || diag "RDMA stream still running after cycle$bad_traffic"
[ "$udp_alive" = yes ] || diag "UDP sender died: $(tail -n 3 "$res/recover-udp.err")"

if [ "$cycles" -ge 20 ] && [ -n "$mem_mark" ]; then
	per=$(((mem_last - mem_mark) / (cycles - 10)))
	check "no memory lost per recovery: $per KiB a cycle over cycles 11-$cycles (<= 4)" \
		test "$per" -le 4
else
	skip "memory per recovery" "$cycles cycles; the figure needs 20"
fi

# It keeps waiting on the file it holds (now disassociated): stop it.
wait_for 10 grep -q IBV_EVENT_DEVICE_FATAL "$res/asyncwatch.out"
kill "$watch" 2>/dev/null
check "the process that had $dev open got IBV_EVENT_DEVICE_FATAL" \
	grep -q IBV_EVENT_DEVICE_FATAL "$res/asyncwatch.out"
grep -q IBV_EVENT_DEVICE_FATAL "$res/asyncwatch.out" || diag "$(cat "$res/asyncwatch.out")"

# A new process opens the new device: RDMA WRITE to itself, verified
# (the active side retries its connection until the passive one listens).
wait_for 10 rdma_gid_index "$dev" "$WREN_IP" >/dev/null
gid=$(rdma_gid_index "$dev" "$WREN_IP")
timeout 60 "$bin" bw --passive --listen 18950 --op write --size 65536 --mr-mib 1 \
	--verify -d "$dev" -g "${gid:-0}" >"$res/recover-p.out" 2>&1 &
p=$!
timeout 60 "$bin" bw --active --connect 127.0.0.1:18950 --op write --size 65536 \
	--mr-mib 1 --iters 16 --verify -d "$dev" -g "${gid:-0}" >"$res/recover-a.out" 2>&1
rc=$?
wait "$p"
rcp=$?
check "a new context on $dev: 1 MiB of RDMA WRITE verified (exit $rc/$rcp)" \
	test "$rc$rcp" = 00
[ "$rc$rcp" = 00 ] || diag "$(tail -n 5 "$res/recover-a.out" "$res/recover-p.out")"

# By hand: no auto-recover, the device stays fatal until asked.
devlink health set "pci/$bdf" reporter fw_fatal auto_recover false
n=$(jget recover)
devlink health test "pci/$bdf" reporter fw_fatal
wait_for 20 bash -c "devlink -j health diagnose pci/$bdf reporter fw_fatal | grep -q '\"state\":\"fatal\"'"
check "auto-recover off: the reporter stays in error and the device fatal" \
	test "$(jget state)" = error -a "$(jget recover)" = "$n"
devlink health recover "pci/$bdf" reporter fw_fatal
check "devlink health recover brings it back (state $(jget state), recover $(jget recover))" \
	test "$(jget state)" = healthy -a "$(jget recover)" = $((n + 1))
if same_netdev && same_qos && dev_back; then
	ok "the netdev, its settings and $dev after the manual recovery"
else
	not_ok "the netdev, its settings and $dev after the manual recovery"
fi

# A function reset through sysfs: reset_prepare and reset_done.
if echo 1 >"/sys/bus/pci/devices/$bdf/reset" 2>"$res/recover-reset.err"; then
	if same_netdev && same_qos && dev_back; then
		ok "function reset through sysfs: netdev, its settings and $dev back"
	else
		not_ok "function reset through sysfs: netdev, its settings and $dev back"
		diag "$(dmesg | grep -i wren | tail -n 8)"
	fi
else
	skip "function reset through sysfs" "no reset method: $(cat "$res/recover-reset.err")"
fi

check "rmmod wren_ib, wren_peer_mem and wren" wren_unload
check_leftovers "$bdf"
check_dmesg "dmesg has no warnings, oopses or timeouts"
tap_done
