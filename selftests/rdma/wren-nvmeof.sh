#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, run by both guests at once (N=2): NVMe over RoCE on Wren,
# entirely through the kernel verbs.  Guest 0 exports a memory-backed
# null_blk namespace with nvmet-rdma (RC QPs and CQs of the kernel, RDMA
# READ/WRITE with the reserved lkey); guest 1 connects with nvme-rdma
# (fast registration, send with invalidate, local invalidate) through
# nvme-cli's `nvme connect`, writes WREN_NVME_MB MiB (default 256) of
# wren-pattern's seeded stream with O_DIRECT, reads it back checking every
# byte, then `nvme disconnect`s.  Afterwards both devices hold only the
# MAD layer's objects again, the modules unload and no kernel warning was
# logged.
#
# WREN_NVME_RECOVER=N (default 0): then, still connected, N times over,
# the host's NIC goes fatal (`devlink health test ... fw_fatal`) under a
# 64 MiB O_DIRECT write (held at two gates so that it is under way when
# the NIC dies and cannot end before), and wren.ko recovers it by itself:
# nvme-rdma sees its work requests flush, tears its queues down before
# wren_0 goes, keeps the controller and reconnects through the wren_0 the
# recovery adds (--reconnect-delay 1), at the first attempt: the device
# hands out QPNs the target's CM does not still hold (no "stale conn"
# reject); the write completes and reads back intact.
#
# WREN_NVME_MULTIPATH=N loads nvme_core without native multipath (the
# debug boot's: 6.1's multipath code trips lockdep when the disk goes).
#
# WREN_NVME_SRQ=1 loads nvmet-rdma with use_srq=1 srq_size=256: the target
# receives its commands through kernel SRQs (one per completion vector)
# shared by all its queues, and checks, while the host is still connected
# after its I/O, that the device really has them (`rdma resource show
# srq`).
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-nvmeof.sh N=2
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

mb=${WREN_NVME_MB:-256}
use_srq=${WREN_NVME_SRQ:-0}
recover=${WREN_NVME_RECOVER:-0}
pattern=$WREN_TOP/build/tools/wren-pattern
seed=4420
nqn=wren-nvmeof-test
pair_init nvme "NVMe-oF"
tests=8
[ "$use_srq" = 1 ] && tests=$((tests + 1))
[ "$recover" -gt 0 ] && tests=$((tests + 3))
plan "$tests"
dmesg -C

command -v nvme >/dev/null || bail "nvme-cli is installed" "make deps installs it"
rdma_wren_up || bail "$RDMA_SETUP_ERR" "$(dmesg | tail -n 20)"
ok "$RDMA_WREN_DEV on $RDMA_WREN_IF for $WREN_IP"
base=$(rdma_objects "$RDMA_WREN_DEV")
diag "objects before: $base"

cfg=/sys/kernel/config
subsys=$cfg/nvmet/subsystems/$nqn
port=$cfg/nvmet/ports/1

target_up() {
	# /sys/kernel/config appears when configfs (a module) loads.
	modprobe configfs && modprobe null_blk nr_devices=0 || return 1
	grep -q " $cfg configfs" /proc/mounts || mount -t configfs none "$cfg" || return 1
	mkdir "$cfg/nullb/nullb0" &&
		echo 1 >"$cfg/nullb/nullb0/memory_backed" &&
		echo "$mb" >"$cfg/nullb/nullb0/size" &&
		echo 1 >"$cfg/nullb/nullb0/power" || return 1
	wait_for 10 test -b /dev/nullb0 || return 1
	if [ "$use_srq" = 1 ]; then
		# The smallest SRQ nvmet-rdma takes: the I/O below wraps
		# around it, so its slots are reused many times.
		modprobe nvmet-rdma use_srq=1 srq_size=256 &&
			grep -qx Y /sys/module/nvmet_rdma/parameters/use_srq || return 1
	else
		modprobe nvmet-rdma || return 1
	fi
	mkdir "$subsys" &&
		echo 1 >"$subsys/attr_allow_any_host" &&
		mkdir "$subsys/namespaces/1" &&
		echo /dev/nullb0 >"$subsys/namespaces/1/device_path" &&
		echo 1 >"$subsys/namespaces/1/enable" || return 1
	mkdir "$port" &&
		echo rdma >"$port/addr_trtype" &&
		echo ipv4 >"$port/addr_adrfam" &&
		echo "$WREN_IP" >"$port/addr_traddr" &&
		echo 4420 >"$port/addr_trsvcid" &&
		ln -s "$subsys" "$port/subsystems/$nqn"
}

target_down() {
	rm -f "$port/subsystems/$nqn"
	rmdir "$port" 2>/dev/null
	echo 0 >"$subsys/namespaces/1/enable" 2>/dev/null
	rmdir "$subsys/namespaces/1" "$subsys" 2>/dev/null
	modprobe -r nvmet-rdma nvmet
	echo 0 >"$cfg/nullb/nullb0/power" 2>/dev/null
	rmdir "$cfg/nullb/nullb0" 2>/dev/null
	modprobe -r null_blk
}

# The controller connected to our subsystem, and the namespace's block
# device (the guests have no other NVMe; with native multipath the disk
# belongs to the subsystem, not to the controller).
nvme_ctrl() {
	local c
	for c in /sys/class/nvme/nvme*; do
		grep -qx "$nqn" "$c/subsysnqn" 2>/dev/null && echo "${c##*/}" && return 0
	done
	return 1
}
nvme_disk() {
	local d
	nvme_ctrl >/dev/null || return 1
	for d in /sys/block/nvme*n1; do
		[[ ${d##*/} =~ ^nvme[0-9]+n1$ ]] && echo "/dev/${d##*/}" && return 0
	done
	return 1
}

# gated_write SEED: write 64 MiB of SEED's stream to $disk in the
# background ($! is the writing dd) in three parts: 16 MiB at once, 32 MiB
# when the test says "go" on FD $go, the last 16 MiB at the next "go".
# The writer says "1" and "2" on FD $up as it reaches each gate.  The
# gates make the write outlast the fatal error however slow the host: timed
# by a poll of the NIC's counters alone, all 64 MiB could be written before
# devlink returned (3.6 s into the write the first poll had seen 35 of 64
# MiB go, on an idle host).
gated_write() {
	local part='dd bs=64k iflag=fullblock status=none'
	"$pattern" gen "$1" $((64 << 20)) |
		{
			$part count=256
			echo 1 >&"$up"
			read -r -t 120 -u "$go" _
			$part count=512
			echo 2 >&"$up"
			read -r -t 120 -u "$go" _
			cat
		} |
		dd of="$disk" bs=64k iflag=fullblock oflag=direct 2>"$res/nvme-rec-dd.err" &
}

# nvme_recover_cycles: the WREN_NVME_RECOVER cycles on the host (two
# checks).
nvme_recover_cycles() {
	local bdf i n w0 t0 ta tb sent pid rc mark at_error bad_conn='' bad_io='' secs=''
	local s=$((seed + 1)) up go fifo=/tmp/wren-nvme-gate.$$
	bdf=$(wren_bdf)
	recovered_since() { [ "$(jrec)" -gt "$1" ]; }
	ctrl_live() { grep -qx live "/sys/class/nvme/$ctrl/state" 2>/dev/null; }
	tx_bytes() {
		local v=0
		read -r v <"/sys/class/infiniband/$RDMA_WREN_DEV/ports/1/hw_counters/tx_roce_bytes" 2>/dev/null
		echo "$v"
	}
	# tx_since_w0 N: more than N bytes sent since w0 (read at each try).
	tx_since_w0() { [ "$(tx_bytes)" -gt $((w0 + $1)) ]; }
	jrec() {
		devlink -j health show "pci/$bdf" reporter fw_fatal 2>/dev/null |
			jq -r 'first(.. | objects | select(has("recover")) | .recover)'
	}
	devlink health set "pci/$bdf" reporter fw_fatal grace_period 0
	for ((i = 1; i <= recover; i++, s++)); do
		# Fresh gates each cycle: a "go" a failed cycle left unread
		# would open the next cycle's gate early.
		rm -f "$fifo.up" "$fifo.go"
		mkfifo "$fifo.up" "$fifo.go"
		exec {up}<>"$fifo.up" {go}<>"$fifo.go"
		rm -f "$fifo.up" "$fifo.go"
		n=$(jrec)
		ta=$EPOCHREALTIME
		gated_write "$s"
		pid=$!
		mark=
		read -r -t 60 -u "$up" mark
		# Under way: the target has read a MiB of the middle part
		# (RDMA READ responses leave this NIC); it cannot finish it
		# before the error, the second gate holds the rest.
		w0=$(tx_bytes)
		echo go >&"$go"
		wait_for 10 tx_since_w0 $((1 << 20))
		t0=$SECONDS
		sent=$(($(tx_bytes) - w0))
		tb=$EPOCHREALTIME
		devlink health test "pci/$bdf" reporter fw_fatal
		at_error='the middle part in flight'
		read -r -t 0 -u "$up" && at_error='the writer at the second gate'
		diag "cycle $i: fatal error $(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.2f", b - a }') s into the write ($sent bytes of the middle part sent, $at_error), devlink returned after $(awk -v a="$tb" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s"
		[ "$mark" = 1 ] || bad_io+=" $i(the first 16 MiB not written in 60 s)"
		echo go >&"$go"
		if ! wait_for 60 recovered_since "$n" ||
		   ! wait_for 90 ctrl_live; then
			bad_conn+=" $i($(cat "/sys/class/nvme/$ctrl/state" 2>&1))"
			kill "$pid" 2>/dev/null
			wait "$pid"
			exec {up}>&- {go}>&-
			break
		fi
		secs+=" $((SECONDS - t0))"
		wait "$pid"
		rc=$?
		dd if="$disk" bs=1M count=64 iflag=direct 2>/dev/null |
			"$pattern" check "$s" $((64 << 20)) >"$res/nvme-rec-check.out" 2>&1 ||
			rc="$rc/check"
		[ "$rc" = 0 ] || bad_io+=" $i(exit $rc)"
		exec {up}>&- {go}>&-
	done
	diag "recoveries: live again after$secs s; $(dmesg | grep -c 'nvme.*failed with status') flushed nvme-rdma requests reported"
	# wren_ib says so when a kernel consumer kept its queues.
	check "$ctrl reconnects after each of $recover device recoveries (same controller, live)" \
		test -z "$bad_conn" -a -e "/sys/class/nvme/$ctrl" -a \
		-z "$(dmesg | grep 'removing the device under them')"
	[ -z "$bad_conn" ] || diag "not live after cycle$bad_conn: $(dmesg | grep -E 'nvme|wren|infiniband' | tail -n 25)"
	# The target's CM still holds the connections of the QPNs the host
	# had before the reset; the device hands out others after it.
	check "no reconnect was rejected as a stale connection (QPNs new after each reset)" \
		test -z "$(dmesg | grep 'stale conn')"
	check "64 MiB written across each recovery completes and reads back intact" \
		test -z "$bad_io$bad_conn"
	[ -z "$bad_io" ] || diag "I/O failed in cycle$bad_io: $(cat "$res/nvme-rec-dd.err" "$res/nvme-rec-check.out")"
}

if [ "$me" = 0 ]; then
	if target_up 2>"$res/nvme-target.err"; then
		ok "nvmet-rdma exports a $mb MiB null_blk namespace on $WREN_IP:4420"
	else
		bail "nvmet-rdma exports a $mb MiB null_blk namespace" "$(cat "$res/nvme-target.err"; dmesg | tail -n 20)"
	fi
	barrier target-up
	if [ "$use_srq" = 1 ]; then
		barrier io-done 900
		srqs=$(rdma resource show srq 2>&1 | grep -c "dev $RDMA_WREN_DEV ")
		diag "$(rdma -dd resource show srq 2>&1)"
		diag "objects with the host connected: $(rdma_objects "$RDMA_WREN_DEV")"
		# nvmet-rdma says so when it falls back to an RQ per queue.
		check "nvmet-rdma receives through $srqs kernel SRQ(s) of $RDMA_WREN_DEV" \
			test "$srqs" -ge 1 -a -z "$(dmesg | grep 'SRQ requested but not supported')"
		barrier srq-checked
	fi
	barrier host-done 900
	skip "connect, write" "the host's part (guest 1)"
	skip "read back equals what was written" "the host's part (guest 1)"
	skip "disconnect" "the host's part (guest 1)"
	if [ "$recover" -gt 0 ]; then
		skip "reconnect after each recovery" "the host's part (guest 1)"
		skip "I/O across each recovery" "the host's part (guest 1)"
		skip "no stale connection" "the host's part (guest 1)"
	fi
	target_down
else
	ok "host ready"
	barrier target-up
	[ -z "${WREN_NVME_MULTIPATH:-}" ] ||
		modprobe nvme_core multipath="$WREN_NVME_MULTIPATH"
	modprobe nvme-rdma
	# Reconnect a second after a loss, for two minutes (the defaults:
	# 10 s, 10 minutes).
	conn=$(nvme connect -t rdma -a "$WREN_PEER_IP" -s 4420 -n "$nqn" \
		--reconnect-delay=1 --ctrl-loss-tmo=120 2>&1)
	disk=
	wait_for 30 nvme_disk >/dev/null && disk=$(nvme_disk)
	if [ -z "$disk" ]; then
		bail "nvme-rdma connects to $WREN_PEER_IP:4420" "$conn $(dmesg | tail -n 20)"
	fi
	t0=$(date +%s.%N)
	"$pattern" gen "$seed" "$((mb << 20))" |
		dd of="$disk" bs=1M iflag=fullblock oflag=direct 2>"$res/nvme-dd.err"
	ddrc=$?
	t1=$(date +%s.%N)
	dd if="$disk" bs=1M count="$mb" iflag=direct 2>/dev/null |
		"$pattern" check "$seed" "$((mb << 20))" >"$res/nvme-check.out" 2>&1
	checkrc=$?
	t2=$(date +%s.%N)
	wr=$(awk -v m="$mb" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", m / (b - a) }')
	rd=$(awk -v m="$mb" -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", m / (b - a) }')
	diag "write $mb MiB: $wr MiB/s, read and check: $rd MiB/s (1 MiB O_DIRECT requests, one at a time)"
	diag "$(cat "$res/nvme-dd.err")"
	check "connect to $WREN_PEER_IP, write $mb MiB through $disk (dd exit $ddrc)" \
		test "$ddrc" = 0
	check "read back equals what was written, byte for byte" test "$checkrc" = 0
	[ "$checkrc" = 0 ] || diag "$(cat "$res/nvme-check.out")"
	if [ "$use_srq" = 1 ]; then
		# The target looks at its SRQs while we are still connected.
		barrier io-done
		barrier srq-checked 300
		skip "the target's SRQs" "the target's part (guest 0)"
	fi
	ctrl=$(nvme_ctrl)
	[ "$recover" -gt 0 ] && nvme_recover_cycles
	out=$(nvme disconnect -n "$nqn" 2>&1)
	diag "$out"
	check "nvme disconnect: controller $ctrl goes away" wait_for 30 test ! -e "/sys/class/nvme/$ctrl"
	modprobe -r nvme-rdma
	barrier host-done
fi

wait_for 20 rdma_objects_are "$RDMA_WREN_DEV" "$base"
now=$(rdma_objects "$RDMA_WREN_DEV")
check "only the MAD layer's objects (and pooled CQs) left ($now)" test "$now" = "$base"
barrier counted 300
# Later tests of a shared boot load the modules themselves.
check "wren_ib.ko and wren.ko unload" wren_unload
check_dmesg "no kernel warnings"
tap_done
