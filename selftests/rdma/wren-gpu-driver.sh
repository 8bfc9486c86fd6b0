#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: wren_test_gpu.ko, the test driver of the emulated GPU
# (1f57:0002, GPU=1 guests), on its own.  It binds, gives /dev/wren_gpu0
# and the counters under the PCI device's wren_gpu/; gpu/'s
# wren_gpu_test allocates, maps, writes and reads BAR memory through it,
# exports a dma-buf, frees, and checks that a closed file and a killed
# process give everything back.  Then, when `make gpu-modules` built it
# (it needs wren_peer_mem.ko's Module.symvers), NVIDIA's nvidia-peermem.ko
# loads after wren_peer_mem.ko and reports its version in
# /sys/module/nvidia_peermem/version.  Modules and helper come from
# `make gpu-modules KVER=...`; no peer is needed.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-gpu-driver.sh KVER=6.12 GPU=1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

kver=${WREN_KVER:-$(uname -r | cut -d. -f1,2)}
gdir=${WREN_GPU_MODULES:-$WREN_TOP/build/gpu/$kver}
bin=$WREN_TOP/build/tests/gpu/wren_gpu_test
counters="bar_size bar_free allocs p2p_tables p2p_pages p2p_dma_maps dmabufs dmabuf_maps free_callbacks"
dmesg -C

gpu=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor")" = 0x1f57 ] && [ "$(cat "$d/device")" = 0x0002 ]; then
		gpu=$d
		break
	fi
done

# stop DESC REASON: fail DESC, skip the rest with REASON, end the test.
stop() {
	not_ok "$1"
	diag "$2"
	skip "the rest of the GPU driver checks" "$2"
	rmmod nvidia_peermem 2>/dev/null
	rmmod wren_test_gpu 2>/dev/null
	tap_done
	exit 1
}

[ -n "$gpu" ] || stop "a test GPU (1f57:0002) is on the PCI bus" "no test GPU (boot with GPU=1)"
ok "a test GPU (1f57:0002) is on the PCI bus at ${gpu##*/}"
if [ ! -f "$gdir/wren_test_gpu.ko" ] || [ ! -x "$bin" ]; then
	stop "wren_test_gpu.ko and wren_gpu_test are built" "make gpu-modules KVER=$kver"
fi

check "insmod wren_test_gpu.ko" insmod "$gdir/wren_test_gpu.ko"
check "it binds the GPU" test "$(basename "$(readlink "$gpu/driver" 2>/dev/null)")" = wren_test_gpu
wait_for 10 test -c /dev/wren_gpu0 || stop "/dev/wren_gpu0 appears" "$(dmesg | tail -n 5)"
ok "/dev/wren_gpu0 appears"
diag "$(dmesg | grep -i wren_gpu | tail -n 2)"

# counter NAME: from sysfs.
counter() { cat "$gpu/wren_gpu/$1"; }
read -r start end _ < <(sed -n 3p "$gpu/resource")
bar=$((end - start + 1))
check "sysfs wren_gpu/bar_size is BAR2's size ($bar)" test "$(counter bar_size)" = "$bar"
missing=
for c in $counters; do
	[ -r "$gpu/wren_gpu/$c" ] || missing="$missing $c"
done
check "sysfs wren_gpu/ has every counter" test -z "$missing"
[ -z "$missing" ] || diag "missing:$missing"
sysfs_idle() {
	[ "$(counter bar_free)" = "$bar" ] && [ "$(counter allocs)" = 0 ] &&
		[ "$(counter dmabufs)" = 0 ] && [ "$(counter dmabuf_maps)" = 0 ] &&
		[ "$(counter p2p_tables)" = 0 ] && [ "$(counter p2p_pages)" = 0 ] &&
		[ "$(counter p2p_dma_maps)" = 0 ]
}
check "counters idle after load" sysfs_idle

# The helper's PASS/FAIL/SKIP lines as TAP.
run() {
	local label=$1 line out rc
	shift
	out=$(timeout 300 "$bin" "$@" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case $line in
		"PASS "*) ok "$label: ${line#PASS }" ;;
		"FAIL "*) not_ok "$label: ${line#FAIL }" ;;
		"SKIP "*) line=${line#SKIP }; skip "$label: ${line%%: *}" "${line#*: }" ;;
		*) diag "$line" ;;
		esac
	done <<<"$out"
	check "$label: wren_gpu_test exits 0" test "$rc" = 0
}
run "256k" -s $((256 << 10)) selftest
run "16m" -s $((16 << 20)) selftest
out=$("$bin" info 2>&1)
diag "$out"
check "WTGPU_INFO agrees with sysfs" test "$(echo "$out" | awk '$1 == "bar_free" { print $2 }')" = "$(counter bar_free)"
check "counters idle after the helper (no leaks)" sysfs_idle
diag "sysfs: $(for c in $counters; do printf '%s=%s ' "$c" "$(counter "$c")"; done)"

# NVIDIA's nvidia-peermem on Wren's registry, when built.
peer=$(wren_moddir)/wren_peer_mem.ko
if [ ! -f "$gdir/nvidia-peermem.ko" ]; then
	skip "nvidia-peermem.ko loads after wren_peer_mem.ko" "not built (no wren_peer_mem Module.symvers at build time)"
elif [ ! -f "$peer" ]; then
	skip "nvidia-peermem.ko loads after wren_peer_mem.ko" "$peer is not built"
else
	modprobe ib_core 2>/dev/null
	want=$(modinfo -F version "$gdir/nvidia-peermem.ko" 2>/dev/null)
	loaded_peer=0
	grep -q '^wren_peer_mem ' /proc/modules || { insmod "$peer" && loaded_peer=1; }
	check "insmod nvidia-peermem.ko after wren_peer_mem.ko" insmod "$gdir/nvidia-peermem.ko"
	check "/sys/module/nvidia_peermem/version is $want" \
		test "$(cat /sys/module/nvidia_peermem/version 2>/dev/null)" = "$want"
	[ -e /sys/kernel/mm/memory_peers/nv_mem/version ] &&
		diag "memory_peers/nv_mem/version: $(cat /sys/kernel/mm/memory_peers/nv_mem/version)"
	check "rmmod nvidia_peermem" rmmod nvidia_peermem
	[ "$loaded_peer" = 1 ] && rmmod wren_peer_mem
fi

check "rmmod wren_test_gpu" rmmod wren_test_gpu
check "the GPU is unbound and /dev/wren_gpu0 gone" \
	test ! -e "$gpu/driver" -a ! -e /dev/wren_gpu0
check_dmesg "dmesg has no warnings, oopses or timeouts"
tap_done
