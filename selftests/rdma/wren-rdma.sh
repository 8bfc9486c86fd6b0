#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): RDMA between the Wren NICs
# through the fabric, with our own verbs program (verbs/, built by
# `make rdma-tests`) over the bench's rdma-core (libwren).  Guest 0 is the
# target / passive side, guest 1 the initiator / active side; they meet
# through marker files in each other's results share and talk over TCP on
# the virtio control network.
#
#   1. data integrity for every opcode and size pattern, unaligned and
#      multi-SGE, and the protection cases (wrong rkey, out of bounds,
#      missing rights, other PD, deregistered MR, another process's QP and
#      MR): completion status and the target's memory byte for byte;
#   2. no syscalls on the data path: strace -c -f of the same WRITE loop at
#      1,000 and 10,000 iterations counts the same syscalls;
#   3. the passive guest's CPU stays idle during long WRITE and READ runs
#      (/proc/stat, at most WREN_RDMA_IDLE_MAX percent busy);
#   4. loss recovery: with the fabric dropping 1% of the passive port's
#      frames, 64 MiB WRITE and READ complete with verified data and the
#      retransmit counter rises;
#   5. processes killed mid-traffic leave no object or pinned page behind,
#      and the modules unload cleanly.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-rdma.sh
#
# WREN_RDMA_DEV=rxe runs the same against rdma_rxe on the virtio NICs (for
# debugging the test itself); the Wren-only checks are then skipped.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
pair_init rdma "RDMA"
kind=${WREN_RDMA_DEV:-wren}
bin=$WREN_TOP/build/tests/rdma/wren_verbs_test
idle_max=${WREN_RDMA_IDLE_MAX:-5}
cpu_secs=${WREN_RDMA_CPU_SECS:-10}
loss_mib=${WREN_RDMA_LOSS_MIB:-64}
# Go-back-N resends what is in flight after a lost packet; the NIC's send
# window bounds that to 256 KiB a QP (1 MiB 16 deep: 2.3-3.2 s for 64 MiB
# at 1% loss, 34 s before the window).  256 KiB 4 deep is the default.
loss_size=${WREN_RDMA_LOSS_SIZE:-262144}
loss_depth=${WREN_RDMA_LOSS_DEPTH:-4}
peer_ctl=$WREN_PEER_VIRTIO_IP
ncases=$("$bin" count 2>/dev/null || echo 126)
if [ "$me" = 0 ]; then
	plan 18
else
	plan $((20 + ncases))
fi
dmesg -C

# --- setup ---------------------------------------------------------------
if rdma_env_check 2>"$res/env.err" && [ -x "$bin" ]; then
	ok "rdma-core with libwren and wren_verbs_test are built"
else
	bail "rdma-core with libwren and wren_verbs_test are built" \
		"$(cat "$res/env.err"); run make rdma-tests"
fi

modprobe ib_uverbs || bail "modprobe ib_uverbs"
if [ "$kind" = rxe ]; then
	ifname=$WREN_VIRTIO_IFNAME
	myip=$WREN_VIRTIO_IP
	{ modprobe rdma_rxe && rdma link add rxe0 type rxe netdev "$ifname"; } ||
		bail "rdma_rxe on $ifname"
	ok "rxe0 on $ifname (debug mode)"
else
	bdf=$(wren_bdf) || bail "a Wren NIC is on the PCI bus"
	insmod "$mods/wren.ko" || bail "insmod wren.ko"
	ifname=$(wren_netdev "$bdf")
	[ -n "$ifname" ] || bail "wren.ko registers a netdev" "$(dmesg | tail -20)"
	myip=$WREN_IP
	# The address first: ib_core builds the RoCE GIDs from it.
	ip addr add "$myip/24" dev "$ifname"
	ip link set "$ifname" up
	wait_for 30 grep -qx 1 "/sys/class/net/$ifname/carrier" ||
		bail "carrier on $ifname"
	wren_qos_up "$ifname" ||
		bail "QoS profile ${WREN_QOS_PROFILE:-} on $ifname" "$WREN_QOS_ERR"
	wren_ib_load "$mods" || bail "insmod wren_peer_mem.ko, wren_ib.ko" "$(dmesg | tail -20)"
	ok "wren.ko, wren_ib.ko and ib_uverbs loaded, netdev $ifname at $myip"
fi

dev=
find_dev() {
	local d
	for d in /sys/class/infiniband/"$kind"*; do
		[ -e "$d" ] || return 1
		dev=${d##*/}
		return 0
	done
	return 1
}
wait_for 20 find_dev || bail "an ib device $kind* is registered" "$(dmesg | tail -20)"
sys=/sys/class/infiniband/$dev
port_active() { grep -q ACTIVE "$sys/ports/1/state"; }
check "ib device $dev, port 1 ACTIVE" wait_for 30 port_active

# The RoCE v2 GID of our IPv4 address, with builtins only (a `cat` per
# entry is slow under TCG).
IFS=. read -r a b c d <<<"$myip"
want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
gidx=
gid_find() {
	local f n g t
	for f in "$sys"/ports/1/gids/*; do
		n=${f##*/}
		read -r g <"$f" 2>/dev/null || continue
		[ "$g" = "$want" ] || continue
		read -r t <"$sys/ports/1/gid_attrs/types/$n" 2>/dev/null || continue
		[ "$t" = "RoCE v2" ] && { gidx=$n; return 0; }
	done
	return 1
}
wait_for 20 gid_find || bail "a RoCE v2 GID for $myip" "$(cd "$sys/ports/1/gids" && printf '%s\n' * | head)"
ok "RoCE v2 GID index $gidx for $myip"
# Bulk RDMA traffic would fill the fabric's capture (PCAP=1) with
# gigabytes that the later tests of a shared boot do not want.
[ -n "${WREN_PCAP_DIR:-}" ] && fabric_ctl pcap "$me" off >/dev/null
barrier up
peer_ip=$WREN_PEER_IP
[ "$kind" = rxe ] && peer_ip=$WREN_PEER_VIRTIO_IP
check "ping $peer_ip over $ifname" wait_for 60 busybox ping -c 1 -W 2 "$peer_ip"

# --- 1: integrity and protection ------------------------------------------
barrier integrity
t0=$SECONDS
if [ "$me" = 0 ]; then
	timeout 900 "$bin" target -d "$dev" -g "$gidx" -p 18600 >"$res/target.out" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		ok "target and its child process judged every case, exit 0 ($((SECONDS - t0)) s)"
	else
		not_ok "target and its child process judged every case, exit 0"
		diag "exit $rc; $(tail -n 20 "$res/target.out")"
	fi
else
	timeout 900 "$bin" initiator -d "$dev" -g "$gidx" -p 18600 "$peer_ctl" \
		>"$res/initiator.out" 2>"$res/initiator.err"
	rc=$?
	tap_relay_cases "" "$res/initiator.out" "$ncases" "verbs case" "initiator exit $rc"
	[ -s "$res/initiator.err" ] && diag "$(tail -n 20 "$res/initiator.err")"
	diag "integrity and protection cases: $((SECONDS - t0)) s, exit $rc"
fi

# --- 2: no syscalls on the data path --------------------------------------
# The active side listens (no connect retries in the traced process) and
# runs under strace; the passive side connects.
barrier strace
bwargs="--op write --size 4096 --depth 16"
syscalls() { awk '$NF == "total" { print $4 }' "$1"; }
syscall_table() { awk 'NF >= 5 && $1 ~ /^[0-9.]+$/ && $NF != "total" { print $NF, $4 }' "$1" | sort; }
for n in 1000 10000; do
	port=$((18610 + ${#n}))
	if [ "$me" = 1 ]; then
		# shellcheck disable=SC2086 # $bwargs holds several options
		timeout 300 strace -c -f -o "$res/strace-$n.txt" \
			"$bin" bw --active --listen "$port" --iters "$n" $bwargs \
			-d "$dev" -g "$gidx" >"$res/strace-$n.out" 2>&1
		rc=$?
		check "WRITE loop of $n iterations under strace completes (exit $rc)" test "$rc" = 0
		diag "$(grep '^#' "$res/strace-$n.out")"
	else
		# shellcheck disable=SC2086
		timeout 300 "$bin" bw --passive --connect "$peer_ctl:$port" $bwargs \
			-d "$dev" -g "$gidx" >"$res/strace-$n.out" 2>&1
		rc=$?
		check "passive side of the $n-iteration WRITE loop (exit $rc)" test "$rc" = 0
	fi
done
if [ "$me" = 1 ]; then
	c1=$(syscalls "$res/strace-1000.txt")
	c2=$(syscalls "$res/strace-10000.txt")
	diag "strace -c -f, 1000 iterations: ${c1:-?} syscalls"
	diag "$(cat "$res/strace-1000.txt")"
	diag "strace -c -f, 10000 iterations: ${c2:-?} syscalls"
	diag "$(cat "$res/strace-10000.txt")"
	if [ -n "$c1" ] && [ "$c1" = "$c2" ] &&
		[ "$(syscall_table "$res/strace-1000.txt")" = "$(syscall_table "$res/strace-10000.txt")" ]; then
		ok "same syscalls at 1,000 and 10,000 iterations ($c1 and $c2): none on the data path"
	else
		not_ok "same syscalls at 1,000 and 10,000 iterations (${c1:-?} vs ${c2:-?})"
		diag "$(diff <(syscall_table "$res/strace-1000.txt") <(syscall_table "$res/strace-10000.txt"))"
	fi
fi

# --- 3: the passive side's CPU stays idle ---------------------------------
barrier cpu
for op in write read; do
	port=$((18620 + ${#op}))
	if [ "$me" = 0 ]; then
		timeout 300 "$bin" bw --passive --listen "$port" --op "$op" --size 65536 \
			--mr-mib 4 --cpu -d "$dev" -g "$gidx" >"$res/cpu-$op.out" 2>&1
		rc=$?
		busy=$(sed -n 's/^passive_cpu_busy_pct=//p' "$res/cpu-$op.out")
		diag "$(grep '^#' "$res/cpu-$op.out")"
		if [ "$rc" = 0 ] && [ -n "$busy" ] &&
			awk -v b="$busy" -v m="$idle_max" 'BEGIN { exit !(b <= m) }'; then
			ok "passive guest CPU during ${cpu_secs} s of RDMA ${op^^}: ${busy}% busy (limit ${idle_max}%)"
		else
			not_ok "passive guest CPU during ${cpu_secs} s of RDMA ${op^^}: ${busy:-?}% busy (limit ${idle_max}%)"
			diag "exit $rc: $(tail -n 5 "$res/cpu-$op.out")"
		fi
	else
		timeout 300 "$bin" bw --active --connect "$peer_ctl:$port" --op "$op" \
			--size 65536 --mr-mib 4 --seconds "$cpu_secs" -d "$dev" -g "$gidx" \
			>"$res/cpu-$op.out" 2>&1
		rc=$?
		check "${cpu_secs} s of RDMA ${op^^} 64 KiB completes (exit $rc)" test "$rc" = 0
		diag "$(grep '^#' "$res/cpu-$op.out")"
	fi
done

# --- 4: loss recovery -----------------------------------------------------
counter() { local v; read -r v <"$sys/ports/1/hw_counters/$1" 2>/dev/null && echo "$v"; }
barrier loss
if [ "$me" = 1 ]; then
	retx0=$(counter retransmits)
	diag "before the loss test: retransmits ${retx0:-?}, fabric port 0 queue drops $(fabric_stat 0 drop_queue_full), port 1 $(fabric_stat 1 drop_queue_full)"
	if [ "$kind" = rxe ]; then
		WREN_FABRIC=virtio fabric_ctl loss 0 1% >/dev/null
	else
		fabric_ctl loss 0 1% >/dev/null
	fi
	lrc=$?
	[ "$lrc" = 0 ] || diag "fabric_ctl loss 0 1% failed ($lrc)"
	: >"$res/loss-on"
fi
wait_for 60 test -e "$res/loss-on" -o -e "$peer_res/loss-on"
for op in write read; do
	port=$((18630 + ${#op}))
	if [ "$me" = 0 ]; then
		timeout 600 "$bin" bw --passive --listen "$port" --op "$op" --size "$loss_size" \
			--depth "$loss_depth" --mr-mib "$loss_mib" --verify -d "$dev" -g "$gidx" \
			>"$res/loss-$op.out" 2>&1
		rc=$?
		check "passive side of the $loss_mib MiB ${op^^} under 1% loss (exit $rc)" test "$rc" = 0
	else
		t0=$SECONDS
		timeout 600 "$bin" bw --active --connect "$peer_ctl:$port" --op "$op" \
			--size "$loss_size" --depth "$loss_depth" --mr-mib "$loss_mib" \
			--iters $(((loss_mib << 20) / loss_size)) --verify \
			-d "$dev" -g "$gidx" >"$res/loss-$op.out" 2>&1
		rc=$?
		if [ "$rc" = 0 ] && grep -q "data verified" "$res/loss-$op.out"; then
			ok "$loss_mib MiB RDMA ${op^^} with 1% frame loss completes, data verified ($((SECONDS - t0)) s)"
		else
			not_ok "$loss_mib MiB RDMA ${op^^} with 1% frame loss completes, data verified"
			diag "exit $rc after $((SECONDS - t0)) s: $(tail -n 5 "$res/loss-$op.out")"
		fi
		diag "$(grep -v '^OK' "$res/loss-$op.out")"
	fi
done
if [ "$me" = 1 ]; then
	if [ "$kind" = rxe ]; then
		drops=$(WREN_FABRIC=virtio fabric_ctl stats 0 | awk '$3 ~ /^drop_(rx|tx)_loss$/ { s += $4 } END { print s + 0 }')
		WREN_FABRIC=virtio fabric_ctl loss 0 0 >/dev/null
		skip "the retransmit counter rose" "rxe has no retransmits counter"
	else
		drops=$(fabric_ctl stats 0 | awk '$3 ~ /^drop_(rx|tx)_loss$/ { s += $4 } END { print s + 0 }')
		fabric_ctl loss 0 0 >/dev/null
		retx1=$(counter retransmits)
		check "the retransmit counter rose (${retx0:-?} -> ${retx1:-?})" \
			test "${retx1:-0}" -gt "${retx0:-0}"
		diag "$(rdma statistic show link "$dev/1" 2>&1)"
	fi
	check "the fabric dropped frames ($drops)" test "${drops:-0}" -gt 0
fi

# --- 5: a process killed mid-traffic leaves nothing behind ----------------
barrier kill
# Kernel-owned objects (ib_core's GSI QP on rxe, say) are there before too.
objects() { rdma resource show "$dev" 2>&1 | sed 's/^[0-9]*: //'; }
objects_before=$(objects)
avail() { awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo; }
sync
echo 3 >/proc/sys/vm/drop_caches
before=$(avail)
rm -f "$res/kill-ready"
if [ "$me" = 0 ]; then
	"$bin" bw --passive --listen 18640 --op write --size 65536 --mr-mib 128 \
		--ready-file "$res/kill-ready" --hold -d "$dev" -g "$gidx" >"$res/kill.out" 2>&1 &
else
	"$bin" bw --active --connect "$peer_ctl:18640" --op write --size 65536 \
		--mr-mib 128 --seconds 600 --ready-file "$res/kill-ready" --hold \
		-d "$dev" -g "$gidx" >"$res/kill.out" 2>&1 &
fi
pid=$!
wait_for 120 test -e "$res/kill-ready"
barrier kill-traffic
sleep 2
during=$(avail)
kill -9 "$pid" 2>/dev/null
wait "$pid"
rc=$?
check "process in traffic with a 128 MiB MR killed (status $rc, MemAvailable $before -> $during MiB)" \
	test "$rc" = 137
no_objects() { [ "$(objects)" = "$objects_before" ]; }
check "no PD, CQ, QP, MR or context left (rdma resource as before: $objects_before)" \
	wait_for 30 no_objects
diag "$(objects)"
sync
echo 3 >/proc/sys/vm/drop_caches
after=$(avail)
# A leaked pin would keep all 128 MiB; what else moves MemAvailable
# across a process exit (page tables, slab, 6.12's deferred frees) was
# measured at up to 40 MiB, so the bound is half the MR.
check "its pinned pages were released (MemAvailable $before -> $during -> $after MiB)" \
	test $((before - after)) -lt 64
barrier unload
if [ "$kind" = rxe ]; then
	check "rdma link delete rxe0" rdma link delete rxe0
	skip "nothing of wren.ko left" "rxe mode"
else
	check "rmmod wren_ib and wren" wren_unload
	check_leftovers "$bdf" "nothing of wren.ko left (irq, devlink, aux device, MSI-X, module)"
fi
check_dmesg "dmesg clean"
tap_done
