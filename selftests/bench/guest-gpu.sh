#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs inside a GPU=1 bench guest (selftests/bench/run.sh): are the Wren
# NIC and the test GPU (wren-gpu, 1f57:0002) under one PCIe switch, as on
# a GPU server, and does a pattern written through the GPU's BAR2 reach
# its memory?  The pattern goes to $WREN_RESULTS/gpu-pattern; the host
# compares it with RUN_DIR/gpu<i>.mem after the run.  TAP on stdout.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

find_pci() {
	local d
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor")" = "$1" ] && [ "$(cat "$d/device")" = "$2" ]; then
			echo "$d"
			return
		fi
	done
}
# The GPU is the model's (hw/qemu/wren_gpu.c), not the contract's.
nic=$(find_pci "$(printf '0x%04x' "$WREN_PCI_VENDOR_ID")" "$(printf '0x%04x' "$WREN_PCI_DEVICE_ID")")
gpu=$(find_pci 0x1f57 0x0002)
check "Wren NIC (1f57:0001) on the PCI bus" test -n "$nic"
check "test GPU (1f57:0002) on the PCI bus" test -n "$gpu"
if [ -z "$nic" ] || [ -z "$gpu" ]; then
	tap_done
	exit
fi
diag "$(lspci -tv 2>&1)"
check "GPU class is 0x030200 (3D controller)" test "$(cat "$gpu/class")" = 0x030200

# Each sits on a downstream port (TI XIO3130 downstream, 104c:8233) of
# the same upstream port (104c:8232), i.e. one switch.
nicp=$(realpath "$nic/..") gpup=$(realpath "$gpu/..")
nicup=$(realpath "$nicp/..") gpuup=$(realpath "$gpup/..")
diag "NIC ${nic##*/} on ${nicp##*/} under ${nicup##*/}; GPU ${gpu##*/} on ${gpup##*/} under ${gpuup##*/}"
ids() { echo "$(cat "$1/vendor" 2>/dev/null):$(cat "$1/device" 2>/dev/null)"; }
check "NIC and GPU on different downstream ports" \
	test "$nicp" != "$gpup" -a "$(ids "$nicp")" = 0x104c:0x8233 -a "$(ids "$gpup")" = 0x104c:0x8233
check "both downstream ports under one switch upstream port" \
	test "$nicup" = "$gpuup" -a "$(ids "$nicup")" = 0x104c:0x8232

if [ "${WREN_IOMMU:-0}" = 1 ]; then
	# Without ACS on the switch ports both may share a group; recorded.
	diag "iommu groups: NIC $(basename "$(readlink "$nic/iommu_group")"), GPU $(basename "$(readlink "$gpu/iommu_group")")"
	check "GPU is behind the IOMMU (has an iommu group)" test -e "$gpu/iommu_group"
fi

# resource: one "start end flags" line per BAR; 64-bit (0x100000) and
# prefetchable (0x2000) memory, 256 MiB.
read -r start end flags < <(sed -n 3p "$gpu/resource")
size=$((end - start + 1))
diag "GPU BAR2 at $start, $size bytes, flags $flags"
check "GPU BAR2 is 256 MiB" test $size = $((256 << 20))
check "GPU BAR2 is 64-bit prefetchable memory" \
	test $((flags & 0x102200)) = $((0x102200))

# The pattern, in the first and the last page of the BAR, read back.
pattern="wren-gpu guest$WREN_GUEST_INDEX $(date +%s%N) $RANDOM"
if python3 - "$gpu/resource2" "$pattern" <<'PY'
import mmap, os, sys
path, pat = sys.argv[1], sys.argv[2].encode()
fd = os.open(path, os.O_RDWR | os.O_SYNC)
size = os.fstat(fd).st_size
m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
last = size - 4096
m[0:len(pat)] = pat
m[last:last + len(pat)] = pat
ok = m[0:len(pat)] == pat and m[last:last + len(pat)] == pat
m.close()
os.close(fd)
sys.exit(0 if ok else 1)
PY
then
	ok "pattern written through resource2 (first and last page) reads back"
	printf '%s' "$pattern" >"$WREN_RESULTS/gpu-pattern"
else
	not_ok "pattern written through resource2 (first and last page) reads back"
fi
tap_done
