#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, on the debug kernel (failslab and fail_page_alloc): every
# allocation wren.ko's probe and remove and wren_ib.ko's probe and remove
# make is failed in turn, through /proc/thread-self/fail-nth ("fail the
# Nth allocation of this task"): the probe runs in the task that writes
# the device's name to its driver's bind file, so that task's Nth
# allocation, wherever in the kernel it falls, fails.  For N = 1, 2, ...
# until a bind makes fewer than N allocations (WREN_FAILNTH_MAX points at
# most, spread evenly over the count when there are more), every failure
# must end as an errno from the write, the device unbound with nothing
# left behind (interrupts, devlink, auxiliary devices, MSI-X, regions),
# and the next clean bind must give a working device.  Then verbs objects
# under random failures of 2% of the allocations of the process that
# makes them (wren_verbs_test faults, WREN_FAULT_ROUNDS rounds): every
# failed call gives an errno, the data of every round that got going is
# right, a clean round works afterwards and nothing is left.  KASAN, lockdep, kmemleak and the other
# checkers judge the rest (wren-debug-reports.sh, last in the boot).
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"

dbg=/sys/kernel/debug
MAX=${WREN_FAILNTH_MAX:-60}
mods=$(wren_moddir)
ROUNDS=${WREN_FAULT_ROUNDS:-100}
wvt=$WREN_TOP/build/tests/rdma/wren_verbs_test
resdir=${WREN_RESULTS:-/tmp}
plan 16
mountpoint -q "$dbg" || mount -t debugfs none "$dbg"

wren_require_nic 13 "fault injection"
if [ ! -d "$dbg/failslab" ] || [ ! -e /proc/thread-self/fail-nth ]; then
	for _ in $(seq 13); do skip "fault injection" "not a debug kernel (no failslab)"; done
	tap_done
	exit 0
fi

# Disarm the random injection: its probability to 0 first, read back, and
# only then the task filter off.  A write that failed and left the filter
# off with the probability still set would fail 2% of every allocation
# of the whole guest, and every test after this one with it.
disarm() {
	local a p
	for a in failslab fail_page_alloc; do
		for _ in $(seq 50); do
			echo 0 2>/dev/null >"$dbg/$a/probability"
			read -r p <"$dbg/$a/probability" 2>/dev/null && [ "$p" = 0 ] && break
		done
		[ "${p:-}" = 0 ] && echo N 2>/dev/null >"$dbg/$a/task-filter"
	done
}

# Whatever happens, nothing stays armed and the modules go: the next
# test finds the device as a fresh boot has it.
cleanup() {
	disarm
	for a in failslab fail_page_alloc; do
		echo 0 >"$dbg/$a/verbose"
	done
	grep -q '^wren ' /proc/modules && wren_unload 2>/dev/null
}
trap cleanup EXIT
trap "exit 143" TERM

# GFP_KERNEL allocations may sleep: count them too.  verbose=2 logs each
# injected failure with its stack, whose first module frame we count.
for a in failslab fail_page_alloc; do
	echo N >"$dbg/$a/ignore-gfp-wait"
	echo 2 >"$dbg/$a/verbose"
done
echo N >"$dbg/fail_page_alloc/ignore-gfp-highmem"

modprobe ib_uverbs
insmod "$mods/wren.ko" || diag "insmod wren.ko failed"
wren_ib_load "$mods" || diag "insmod wren_ib.ko failed"
pci_drv=/sys/bus/pci/drivers/wren
# The RDMA auxiliary device's name: wren.rdma.<id>, a new id at each probe.
aux_name() {
	local d
	for d in /sys/bus/auxiliary/devices/wren.rdma.*; do
		[ -e "$d" ] && { basename "$d"; return; }
	done
}
aux=$(aux_name)
aux_drv=$(readlink -f "/sys/bus/auxiliary/devices/$aux/driver" 2>/dev/null)
check "wren.ko and wren_ib.ko bind ($bdf, $aux, $(basename "${aux_drv:-none}"))" \
	test -n "$aux" -a -d "${aux_drv:-/nonexistent}"

# fail_nth N FILE WORD: write WORD to FILE with the Nth allocation of this
# (sub)shell failing; prints "rc remaining", remaining 0 when it fired.
fail_nth() {
	(
		echo "$1" >/proc/thread-self/fail-nth
		# stderr first: the open of FILE may be what fails.
		if echo "$3" 2>/dev/null >"$2"; then rc=0; else rc=1; fi
		read -r left </proc/thread-self/fail-nth
		echo 0 >/proc/thread-self/fail-nth
		echo "$rc $left"
	)
}

# What a failed wren.ko probe may leave: nothing of the device's.
pci_leftovers() {
	wren_leftovers "$bdf" | grep -v -e '^module: ' -e '^driver: '
}

injected=0 ours=0
count_injected() {
	local log
	log=$(dmesg)
	dmesg -C
	injected=$((injected + $(grep -c 'FAULT_INJECTION: forcing a failure' <<<"$log")))
	# The first stack line after the message that is a module's is ours
	# when it names wren or wren_ib.
	ours=$((ours + $(awk '/FAULT_INJECTION: forcing a failure/ { f = 1; next }
		f && /\[[a-z_]+\]$/ { if ($0 ~ /\[wren(_ib|_peer_mem)?\]$/) n++; f = 0 }
		END { print n + 0 }' <<<"$log")))
}

# sweep NAME BIND_FILE UNBIND_FILE DEV IS_BOUND LEFTOVERS: fail each
# allocation of a bind of DEV in turn.  Returns the points run and
# failures seen in the globals points/bad.
sweep() {
	local name=$1 bind=$2 unbind=$3 dev=$4 bound=$5 left=$6
	local total n step rc remaining res
	dmesg -C
	echo "$dev" >"$unbind"
	# How many allocations a clean bind makes.
	read -r rc remaining < <(fail_nth 1000000 "$bind" "$dev")
	total=$((1000000 - remaining))
	if [ "$rc" != 0 ] || ! $bound; then
		diag "$name: the counting bind failed (rc $rc)"
	fi
	step=$(((total + MAX - 1) / MAX))
	[ "$step" -ge 1 ] || step=1
	diag "$name: a bind makes $total allocations; failing every ${step}th"
	points=0 bad=0
	for ((n = 1; n <= total; n += step)); do
		echo "$dev" 2>/dev/null >"$unbind"
		read -r rc remaining < <(fail_nth "$n" "$bind" "$dev")
		points=$((points + 1))
		if [ "$remaining" != 0 ]; then
			continue	# fewer allocations this time: nothing failed
		fi
		# Either the probe survived the failure (an allocation with a
		# fallback) or the write failed and nothing is left.
		if [ "$rc" = 0 ] && $bound; then
			continue
		fi
		res=$($left)
		if [ "$rc" = 0 ] || [ -n "$res" ]; then
			bad=$((bad + 1))
			diag "$name: allocation $n failed: bind rc $rc, left: ${res:-nothing}"
		fi
	done
	count_injected
	echo "$dev" 2>/dev/null >"$unbind"
	echo "$dev" >"$bind"
}

pci_bound() { [ -e "/sys/bus/pci/devices/$bdf/driver" ]; }
aux_bound() { [ -e "/sys/bus/auxiliary/devices/$aux/driver" ]; }
aux_leftovers() {
	aux_bound && echo "aux driver still bound"
	rdma link show 2>/dev/null | grep -F wren
}

# wren_ib first: a wren.ko probe removes and adds the auxiliary device.
start=$SECONDS
sweep wren_ib "$aux_drv/bind" "$aux_drv/unbind" "$aux" aux_bound aux_leftovers
check "wren_ib probe: each of $points failed allocations ends in an errno with nothing left ($bad bad, $((SECONDS - start)) s)" \
	test "$bad" = 0
check "wren_ib binds again and wren_0 is back" \
	wait_for 20 test -d /sys/class/infiniband/wren_0

start=$SECONDS
sweep wren "$pci_drv/bind" "$pci_drv/unbind" "$bdf" pci_bound pci_leftovers
check "wren probe: each of $points failed allocations ends in an errno with nothing left ($bad bad, $((SECONDS - start)) s)" \
	test "$bad" = 0
aux=$(aux_name)
check "wren binds again: its netdev and wren_0 are back" \
	bash -c "[ -n \"\$(ls /sys/bus/pci/devices/$bdf/net 2>/dev/null)\" ] &&
		 for i in \$(seq 40); do [ -d /sys/class/infiniband/wren_0 ] && exit 0; sleep 0.5; done; exit 1"

# Teardown: remove cannot fail, so an unbind with an allocation failing
# either fails before it reaches the driver (an errno, the device still
# bound and working) or unbinds completely.
rebind() { pci_bound || echo "$bdf" 2>/dev/null >"$pci_drv/bind"; }
dmesg -C
read -r rc remaining < <(fail_nth 1000000 "$pci_drv/unbind" "$bdf")
total=$((1000000 - remaining))
rebind
step=$(((total + MAX - 1) / MAX))
[ "$step" -ge 1 ] || step=1
diag "wren: an unbind makes $total allocations; failing every ${step}th"
bad=0 failed_writes=0 points=0
for ((n = 1; n <= total; n += step)); do
	points=$((points + 1))
	read -r rc remaining < <(fail_nth "$n" "$pci_drv/unbind" "$bdf")
	if [ "$rc" = 0 ]; then
		res=$(pci_leftovers; pci_bound && echo "still bound")
	else
		failed_writes=$((failed_writes + 1))
		res=$(pci_bound || echo "the failed unbind left it unbound")
	fi
	[ -z "$res" ] || { bad=$((bad + 1)); diag "unbind with allocation $n failing (rc $rc): $res"; }
	rebind
done
count_injected
check "wren remove: an unbind with any of $points of its allocations failing unbinds completely or not at all ($bad bad, $failed_writes refused)" \
	test "$bad" = 0
check "the device binds after the remove sweep" pci_bound

# Verbs objects under random failures: wren_verbs_test faults marks
# itself for 2% of its allocations to fail while it opens the device,
# allocates a PD, an MR, two RC QPs it connects to each other over the
# port's loopback (its RoCE v2 link-local GID), WRITEs through them and
# frees it all, round after round.  Only that process is marked, and only
# while it touches no file system (selftests/rdma/verbs/faults.c): when
# the marked processes were ibv_rc_pingpongs loading from the 9p root, an
# injected failure in 9p left every later exec of the guest failing
# (EINVAL).
netdev=$(wren_netdev "$bdf")
ip link set "$netdev" up
wait_for 20 bash -c "rdma link show wren_0/1 | grep -q 'state ACTIVE'"
# The link-local address (and with it the RoCE v2 GID) comes after DAD.
roce_v2_gid() {
	ibv_devinfo -v -d wren_0 2>/dev/null |
		awk '/GID\[/ && /RoCE v2/ { sub(/.*GID\[ */, ""); sub(/\].*/, ""); print; exit }'
}
wait_for 20 bash -c "ibv_devinfo -v -d wren_0 2>/dev/null | grep -q 'RoCE v2'"
gid=$(roce_v2_gid)
diag "loopback over $netdev, GID index ${gid:-none}"
counts() { rdma resource show 2>/dev/null | sed -n 's/^[0-9]*: wren_0: //p'; }
counts_are() { [ "$(counts)" = "$1" ]; }
before=$(counts)
for a in failslab fail_page_alloc; do
	echo Y >"$dbg/$a/task-filter"
	echo 2 >"$dbg/$a/probability"
	echo -1 >"$dbg/$a/times"
	echo 1 >"$dbg/$a/interval"
done
dmesg -C
t0=$SECONDS
timeout 300 "$wvt" faults -d wren_0 -g "${gid:-0}" --rounds "$ROUNDS" \
	>"$resdir/faults.out" 2>"$resdir/faults.err"
rc=$?
disarm
count_injected
tap_relay_cases "verbs: " "$resdir/faults.out" 3 case "exit $rc"
[ -s "$resdir/faults.err" ] && diag "$(tail -n 20 "$resdir/faults.err")"
diag "wren_verbs_test faults: $ROUNDS rounds, exit $rc, $((SECONDS - t0)) s"
# A closed context's objects go with ib_uverbs' cleanup of its file.
wait_for 20 counts_are "$before"
after=$(counts)
check "verbs: the device holds what it held before the rounds: $after" test "$after" = "$before"

diag "injected allocation failures: $injected, $ours of them at a call site in wren, wren_ib or wren_peer_mem"
check "failures were injected into our modules ($ours)" test "$ours" -gt 0
for a in failslab fail_page_alloc; do
	echo 0 >"$dbg/$a/verbose"
done

check "wren_ib and wren unload" wren_unload
# What wren_ib's remove found still in its tables, if anything.
left=$(dmesg | grep 'left behind')
[ -z "$left" ] || diag "$left"
check_leftovers "$bdf"
check "the kernel is not tainted by a warning or oops" \
	test $(($(cat /proc/sys/kernel/tainted) & (1 << 7 | 1 << 9))) = 0
tap_done
