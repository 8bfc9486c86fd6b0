#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Two-guest test: Debian's perftest binaries (/usr/bin/ib_*) run unchanged
# against the bench's rdma-core build and libwren: bandwidth and latency
# tests for RC (SEND, WRITE, READ, atomics) and UD SEND, to completion.
# Guest 0 serves, guest 1 connects (over the virtio control network; the
# traffic is RoCEv2 on the Wren ports).  Sizes and iterations are small
# enough for TCG; PERF_ITERS overrides the count.
#
#   flock /tmp/wren-guest.lock make vmrun N=2 TIMEOUT=900 \
#       SCRIPT=providers/wren/tests/guest-perftest.sh
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
mods=${WREN_MODULES:-$WREN_TOP/build/modules/${WREN_KVER:-$(uname -r | cut -d. -f1,2)}}
me=${WREN_GUEST_INDEX:-0}
ITERS=${PERF_ITERS:-200}

bail() {
	not_ok "$1"
	[ $# -gt 1 ] && diag "$2"
	tap_done
	exit 1
}

rdma_env_check || bail "the bench's rdma-core build with libwren is in place"
modprobe ib_uverbs || bail "modprobe ib_uverbs"
insmod "$mods/wren.ko" || bail "insmod wren.ko"
bdf=$(grep -l 0x1f57 /sys/bus/pci/devices/*/vendor | head -1)
bdf=${bdf%/vendor}
ifname=
if wait_for 20 test -d "$bdf/net"; then
	for n in "$bdf"/net/*; do
		ifname=${n##*/}
		break
	done
fi
[ -n "$ifname" ] || bail "wren.ko registers a netdev"
ip addr add "$WREN_IP/24" dev "$ifname"
ip link set "$ifname" up
wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier" || bail "carrier on $ifname"
insmod "$mods/wren_ib.ko" || bail "insmod wren_ib.ko"
dev=
for _ in $(seq 50); do
	for d in /sys/class/infiniband/wren_*; do
		[ -e "$d" ] && dev=${d##*/} && break 2
	done
	sleep 0.2
done
[ -n "$dev" ] || bail "wren_ib registers an ib device"
wait_for 30 grep -q ACTIVE "/sys/class/infiniband/$dev/ports/1/state" || bail "port ACTIVE"
IFS=. read -r a b c d <<<"$WREN_IP"
want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
gidx=
for i in $(seq 0 15); do
	read -r gid <"/sys/class/infiniband/$dev/ports/1/gids/$i" 2>/dev/null || continue
	read -r type <"/sys/class/infiniband/$dev/ports/1/gid_attrs/types/$i" 2>/dev/null || continue
	if [ "$gid" = "$want" ] && [ "$type" = "RoCE v2" ]; then
		gidx=$i
		break
	fi
done
[ -n "$gidx" ] || bail "a RoCE v2 GID for $WREN_IP"
ok "$dev on $ifname, RoCE v2 GID index $gidx"
wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP" >/dev/null || bail "ping $WREN_PEER_IP"

# Busy jiffies (user+nice+system+irq+softirq) and all jiffies, from the
# first line of /proc/stat.
cpu_sample() {
	local _ user nice sys idle iowait irq softirq rest
	read -r _ user nice sys idle iowait irq softirq rest </proc/stat
	echo "$((user + nice + sys + irq + softirq)) $((user + nice + sys + idle + iowait + irq + softirq))"
}

# perf NAME PORT ARGS...: server on guest 0, client on guest 1 (retrying
# until the server listens).  The client's result lines are printed as
# diagnostics; the server of a READ or atomic test is passive and prints
# none.  The server's guest CPU use during the run is printed too (the
# NIC, not the passive side's CPU, does the protocol work).
perf() {
	local name=$1 port=$2 out rc=1 b0 t0 b1 t1
	shift 2
	local args=(-d "$dev" -x "$gidx" -p "$port" -F "$@")
	if [ "$me" = 0 ]; then
		read -r b0 t0 < <(cpu_sample)
		out=$(timeout 300 "$name" "${args[@]}" 2>&1)
		rc=$?
		read -r b1 t1 < <(cpu_sample)
		PERF_CPU=$(( (b1 - b0) * 100 / (t1 - t0 > 0 ? t1 - t0 : 1) ))
		if [ "$rc" = 0 ]; then
			ok "$name $* (server; guest CPU busy ${PERF_CPU}% during the run)"
			grep -q "#bytes" <<<"$out" && diag "$(grep -A1 '#bytes' <<<"$out")"
		else
			not_ok "$name $* (server): exit $rc"
			diag "$out"
		fi
		return
	fi
	for _ in $(seq 30); do
		sleep 1
		out=$(timeout 300 "$name" "${args[@]}" "$WREN_PEER_VIRTIO_IP" 2>&1)
		rc=$?
		[ "$rc" = 0 ] && break
		grep -q "#bytes" <<<"$out" && break
	done
	if [ "$rc" = 0 ] && grep -q "#bytes" <<<"$out"; then
		ok "$name $*"
		diag "$(grep -A1 '#bytes' <<<"$out")"
	else
		not_ok "$name $*: exit $rc"
		diag "$out"
	fi
}

# syscalls ITERS PORT: the client's system calls for an ib_write_bw run of
# ITERS iterations (strace -c total; the table is kept in $WREN_RESULTS),
# 0 on the server.
syscalls() {
	local iters=$1 port=$2 out
	if [ "$me" = 0 ]; then
		timeout 300 ib_write_bw -d "$dev" -x "$gidx" -p "$port" -F -s 64 \
			-n "$iters" >/dev/null 2>&1
		echo 0
		return
	fi
	for _ in $(seq 30); do
		sleep 1
		out=$(timeout 300 strace -f -c -o /dev/stdout ib_write_bw -d "$dev" \
			-x "$gidx" -p "$port" -F -s 64 -n "$iters" \
			"$WREN_PEER_VIRTIO_IP" 2>/dev/null) && break
	done
	grep -A100 '^% time' <<<"$out" >"${WREN_RESULTS:-/tmp}/strace-$iters.txt"
	awk '$NF == "total" {print $4}' <<<"$out"
}

# Which system calls ran how often, "name calls" per line.
syscall_counts() {
	awk '$1 ~ /^[0-9.]+$/ && $NF != "total" {print $NF, $4}' "$1" | sort
}

sections=${PERF_SECTIONS:-bw lat idle syscalls}
if [[ " $sections " == *" bw "* ]]; then
	perf ib_write_bw 18600 -s 65536 -n "$ITERS"
	perf ib_read_bw 18601 -s 65536 -n "$ITERS"
	perf ib_send_bw 18602 -s 65536 -n "$ITERS"
	perf ib_atomic_bw 18603 -n "$ITERS"
	perf ib_send_bw 18604 -c UD -s 1024 -n "$ITERS"
	perf ib_write_bw 18609 -s 2 -n "$ITERS"
	perf ib_write_bw 18610 -s 1048576 -n 20
fi
if [[ " $sections " == *" lat "* ]]; then
	perf ib_write_lat 18605 -s 8 -n "$ITERS"
	perf ib_read_lat 18606 -s 8 -n "$ITERS"
	perf ib_send_lat 18607 -s 8 -n "$ITERS"
	perf ib_atomic_lat 18608 -n "$ITERS"
fi

# Passive side idle: a longer WRITE and READ run; the server's CPU use.
if [[ " $sections " == *" idle "* ]]; then
	perf ib_write_bw 18611 -s 65536 -n $((ITERS * 5))
	[ "$me" = 0 ] && check "passive side of ib_write_bw: guest CPU busy ${PERF_CPU}% < 25%" \
		test "$PERF_CPU" -lt 25
	perf ib_read_bw 18612 -s 65536 -n $((ITERS * 5))
	[ "$me" = 0 ] && check "passive side of ib_read_bw: guest CPU busy ${PERF_CPU}% < 25%" \
		test "$PERF_CPU" -lt 25
fi

# No system calls on the data path: 1,000 and 10,000 iterations make the
# same number of them (setup and teardown only).  brk is left out of the
# count: perftest sizes its per-iteration timestamp arrays by -n, so the
# heap may grow once more for the longer run.
if [[ " $sections " == *" syscalls "* ]]; then
	syscalls 1000 18613 >/dev/null
	syscalls 10000 18614 >/dev/null
	if [ "$me" = 1 ]; then
		s1=${WREN_RESULTS:-/tmp}/strace-1000.txt
		s2=${WREN_RESULTS:-/tmp}/strace-10000.txt
		n1=$(syscall_counts "$s1" | awk '$1 != "brk" {n += $2} END {print n + 0}')
		n2=$(syscall_counts "$s2" | awk '$1 != "brk" {n += $2} END {print n + 0}')
		if [ "$n1" -gt 0 ] && [ "$n1" = "$n2" ]; then
			ok "ib_write_bw makes $n1 system calls (brk aside) for 1,000 and for 10,000 iterations"
		else
			not_ok "ib_write_bw system calls (brk aside): $n1 for 1,000 vs $n2 for 10,000 iterations"
		fi
		diag "$(diff <(syscall_counts "$s1") <(syscall_counts "$s2"))"
	fi
fi
tap_done
