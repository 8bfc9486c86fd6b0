#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs inside each demo server (see scripts/demo.sh): bind wren.ko to the
# Wren NIC and show what an operator would look at, then RDMA between
# the servers (ib_write_bw, ib_send_lat, rping through the RDMA CM).  Exits non-zero, saying
# "RDMA FAILED", when the RDMA part fails.
set -eu
mods=$WREN_TOP/build/modules/$WREN_KVER
say() { printf '[server %s] %s\n' "$WREN_GUEST_INDEX" "$*"; }

rdma_failed=0

# RDMA between the servers over Wren: server 1 serves, server 0 runs
# perftest's ib_write_bw and ib_send_lat against it (the connection is set
# up over the virtio control network, the traffic is RoCEv2 through the
# fabric).  Returns non-zero, having said why, when any of it fails.
rdma_demo() {
	local res=$WREN_RESULTS out name
	# shellcheck source=/dev/null
	. "$WREN_TOP/selftests/lib/rdma-env.sh"
	. "$WREN_TOP/selftests/lib/wait.sh"
	. "$WREN_TOP/selftests/lib/wren.sh"
	. "$WREN_TOP/selftests/lib/rdma-setup.sh"
	. "$WREN_TOP/selftests/lib/perftest.sh"
	if ! rdma_env_check; then
		say "RDMA FAILED: the rdma-core build with libwren is missing (make rdma-core)"
		: >"$res/rdma-abort"
		return 1
	fi
	if ! rdma_wren_up; then
		say "RDMA FAILED: $RDMA_SETUP_ERR"
		: >"$res/rdma-abort"
		return 1
	fi
	say "RDMA device $RDMA_WREN_DEV on $RDMA_WREN_IF, RoCE v2 GID index $RDMA_WREN_GID:"
	ibv_devinfo -d "$RDMA_WREN_DEV" | grep -E 'hca_id|fw_ver|vendor_part_id|state|active_mtu|link_layer'
	: >"$res/rdma-ready"
	wait_for 300 test -e "$(perftest_peer_results)/rdma-ready" -o \
		-e "$(perftest_peer_results)/rdma-abort"
	if [ ! -e "$(perftest_peer_results)/rdma-ready" ]; then
		say "RDMA FAILED: server $((1 - WREN_GUEST_INDEX)) has no RDMA device"
		return 1
	fi
	local failed=0 port=18700 t args
	for t in "ib_write_bw -s 65536 -n 500" "ib_send_lat -s 8 -n 1000"; do
		port=$((port + 1))
		read -r -a args <<<"$t"
		name=${args[0]}
		out=$res/demo-$name.out
		local cmd=("$name" -d "$RDMA_WREN_DEV" -x "$RDMA_WREN_GID" -p "$port" -F "${args[@]:1}")
		if [ "$WREN_GUEST_INDEX" = 1 ]; then
			say "serving $t for server 0"
			perftest_server "demo-$name" "$out" "${cmd[@]}" && continue
			say "RDMA FAILED: $name (server) exited with an error:"
			tail -n 15 "$out"
			failed=1
			continue
		fi
		say "$t to server 1 over Wren (RC, RoCEv2):"
		if perftest_client "demo-$name" "$out" "$WREN_PEER_VIRTIO_IP" "${cmd[@]}" &&
			grep -q '#bytes' "$out"; then
			grep -A 1 '#bytes' "$out"
		else
			say "RDMA FAILED: $t did not complete:"
			tail -n 15 "$out"
			failed=1
		fi
	done
	# rping connects through the RDMA CM (its MADs go over the GSI QP1
	# that ib_core made on wren_0) and checks every ping's data (-V).
	if [ "$WREN_GUEST_INDEX" = 1 ]; then
		say "serving rping for server 0 (connection through rdma_cm)"
		if ! timeout 120 rping -s -a "$WREN_IP" -C 5 -V >"$res/demo-rping.out" 2>&1; then
			say "RDMA FAILED: rping (server):"
			tail -n 5 "$res/demo-rping.out"
			failed=1
		fi
	else
		say "rping -C 5 -V to server 1 (connection through rdma_cm):"
		local i rc=1
		# Until server 1 listens, its CM rejects the connection.
		for ((i = 0; i < 30 && rc != 0; i++)); do
			[ "$i" = 0 ] || sleep 1
			timeout 60 rping -c -a "$WREN_PEER_IP" -C 5 -V -v >"$res/demo-rping.out" 2>&1
			rc=$?
		done
		if [ "$rc" = 0 ]; then
			say "$(grep -c '^ping data' "$res/demo-rping.out") pings, data validated"
		else
			say "RDMA FAILED: rping did not complete:"
			tail -n 5 "$res/demo-rping.out"
			failed=1
		fi
	fi
	say "RDMA counters of $RDMA_WREN_DEV:"
	rdma statistic show link "$RDMA_WREN_DEV/1" 2>&1 | tr ' ' '\n' | paste -d ' ' - - |
		grep -E 'packets|bytes|retrans|seq|rnr|icrc|timeout' | tr '\n' ' '
	echo
	return $failed
}

say "kernel $(uname -r), Wren NIC on the PCI bus:"
lspci -nn -d 1f57:
modprobe devlink 2>/dev/null || true
modprobe auxiliary 2>/dev/null || true
insmod "$mods/wren.ko"
# wren_ib.ko needs ib_core and, for the RDMA part, ib_uverbs and rdma_ucm
# (no udev here).
modprobe ib_uverbs
modprobe rdma_ucm
# wren_ib.ko links against wren_peer_mem.ko (peer-memory registry).
insmod "$mods/wren_peer_mem.ko"
insmod "$mods/wren_ib.ko"
dev=$(basename "$(readlink -f /sys/bus/pci/drivers/wren/0000:* 2>/dev/null | head -n1)")
[ -n "$dev" ] || { say "wren.ko did not bind"; dmesg | tail -n 20; exit 1; }
say "wren.ko bound to $dev"
say "devlink dev info:"
devlink dev info "pci/$dev"
# shellcheck disable=SC2012 # sysfs names are plain words
ifc=$(ls "/sys/bus/pci/devices/$dev/net" 2>/dev/null | head -n1)
if [ -n "$ifc" ]; then
	ip addr add "$WREN_IP/24" dev "$ifc"
	ip link set "$ifc" up
	for _ in $(seq 30); do
		[ "$(cat "/sys/class/net/$ifc/carrier" 2>/dev/null)" = 1 ] && break
		sleep 1
	done
	say "$ifc is $WREN_IP; pinging server $((1 - WREN_GUEST_INDEX)) at $WREN_PEER_IP over Wren:"
	# The peer boots at its own pace: wait for its first answer.
	# busybox: iputils-ping is not part of a minimal Debian install.
	for _ in $(seq 30); do
		busybox ping -q -c 1 -W 1 "$WREN_PEER_IP" >/dev/null 2>&1 && break
	done
	busybox ping -c 3 "$WREN_PEER_IP" 2>&1 ||
		say "no answer from $WREN_PEER_IP"
	ip -s link show "$ifc"
	# The peer may still be pinging us: stay up a little longer.
	sleep 5
fi
rdma_demo || rdma_failed=1
say "interrupts:"
grep wren /proc/interrupts || true
say "driver messages:"
dmesg | grep -E '(^|[] ])wren[ :_]' || true
if dmesg | grep -E 'WARNING|BUG|Call Trace'; then
	say "kernel warnings above"
	exit 1
fi
rmmod wren_ib
rmmod wren_peer_mem
rmmod wren
say "unloaded cleanly"
if [ "$rdma_failed" = 1 ]; then
	say "RDMA part FAILED (see the lines above)"
	exit 1
fi
