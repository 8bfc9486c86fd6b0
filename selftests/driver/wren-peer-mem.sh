#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: wren_peer_mem.ko, the peer-memory client registry, and
# wren_ib.ko's peer MRs, with selftests/driver/peer_mem's test client
# (wren_peer_test.ko from `selftests/driver/peer_mem/build.sh KVER`, host
# memory in 64 KiB chunks mapped VM_PFNMAP as a GPU BAR would be): the
# clients' directories under /sys/kernel/mm/memory_peers, then
# wren_peer_mem.py's registrations, invalidations and unregistration
# (needs the bench's rdma-core build).  No peer is needed.
#
#   flock /tmp/wren-guest.lock make vmtest T=driver/wren-peer-mem.sh KVER=6.12
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
kver=${WREN_KVER:-$(uname -r | cut -d. -f1,2)}
test_ko=${WREN_PEER_TEST_KO:-$WREN_TOP/build/peer_mem_test/$kver/wren_peer_test.ko}
peers=/sys/kernel/mm/memory_peers
dmesg -C

wren_require_nic 1 "peer-memory checks"
if [ ! -f "$test_ko" ]; then
	skip "peer-memory checks" \
		"no $test_ko (selftests/driver/peer_mem/build.sh $kver)"
	tap_done
	exit 0
fi

check "modprobe ib_uverbs" modprobe ib_uverbs
check "insmod wren.ko" insmod "$mods/wren.ko"
nd=$(wren_netdev "$bdf")
[ -n "$nd" ] && ip link set dev "$nd" up
check "insmod wren_peer_mem.ko and wren_ib.ko" wren_ib_load "$mods"
check "$peers exists and is empty" bash -c "test -d $peers && test -z \"\$(ls $peers)\""
check "insmod wren_peer_test.ko" insmod "$test_ko"
for c in wren_test wren_test_legacy wren_test_nc; do
	check "$peers/$c/version reads 1.0-test" test "$(cat "$peers/$c/version" 2>&1)" = 1.0-test
done
check "counters start at 0" bash -c "cat $peers/wren_test/num_* | grep -qvx 0 && exit 1 || exit 0"

dev=
for _ in $(seq 50); do
	for d in /sys/class/infiniband/wren_*; do
		[ -e "$d" ] && dev=${d##*/} && break 2
	done
	sleep 0.2
done
check "wren_ib registers ib device ${dev:-none}" test -n "$dev"

if [ -n "$dev" ] && . "$WREN_TOP/selftests/lib/rdma-env.sh" &&
	rdma_env_check >/dev/null 2>&1; then
	out=$(timeout 300 python3 "$WREN_TOP/selftests/driver/wren_peer_mem.py" "$dev" 2>&1)
	rc=$?
	n=0
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }"; n=$((n + 1)) ;;
		"not ok - "*) not_ok "${line#not ok - }"; n=$((n + 1)) ;;
		*) diag "$line" ;;
		esac
	done <<<"$out"
	check "wren_peer_mem.py ran its checks (exit $rc, $n results)" test "$rc" = 0 -a "$n" -gt 0
else
	skip "wren_peer_mem.py: registrations, invalidations, unregistration" "no rdma-core build or no ib device"
fi

rmmod wren_peer_test 2>/dev/null
check "no client is left in $peers" test -z "$(ls "$peers" 2>/dev/null)"
check "rmmod wren_ib, wren_peer_mem and wren" wren_unload
check "$peers is gone with wren_peer_mem" test ! -e "$peers"
check_leftovers "$bdf" "nothing left behind (irq, devlink, aux device, iomem, MSI-X, module)"
check_dmesg "dmesg has no warnings, oopses or timeouts"
diag "$(dmesg | grep -iE 'wren|peer' | tail -20)"
tap_done
