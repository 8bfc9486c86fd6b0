#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# `make demo`: install what is needed, build the NIC (QEMU with the Wren
# device), the fabric, the drivers, the GPU test driver with NVIDIA's
# nvidia-peermem and the test programs, boot two GPU servers (each with
# the emulated GPU beside its Wren NIC under one PCIe switch, GPU=1) on
# one fabric and show, part by part, what scripts/demo-guest.sh did in
# them: 1. the server as an operator sees it, 2. GPUDirect RDMA from GPU
# to GPU, 3. lossless RoCE under congestion, with ECN/DCQCN and with PFC;
# then 4. the congestion episode plotted to a PNG, 5. where to go next.
# Every figure is measured in this run.  A part that failed says FAILED
# and the demo exits 1.  KVER= picks the guests' kernel (7.3, the
# kernel of make check's GPU and lossless boot d73).
. "$(dirname "$0")/lib/common.sh"
kver=${KVER:-7.3}
out=$BUILD/demo
run=$BUILD/bench/vmrun-$kver-gpu-demo-guest.sh
t0=$(date +%s)
mkdir -p "$out"
if [ "$(id -u)" = 0 ]; then
	make -C "$TOP" --no-print-directory deps >"$out/deps.log" 2>&1 ||
		{ tail -n 20 "$out/deps.log"; die "make deps FAILED (log: $out/deps.log)"; }
fi
echo "demo: building QEMU with the Wren NIC and GPU, wren-fabric, the $kver drivers, rdma-core, the tests (log: $out/build.log)"
make -C "$TOP" --no-print-directory qemu fabric modules rdma-core rdma-tests gpu-modules \
	KVER="$kver" >"$out/build.log" 2>&1 ||
	{ tail -n 20 "$out/build.log"; die "build FAILED (log: $out/build.log)"; }
t1=$(date +%s)
echo "demo: booting two GPU servers (kernel $kver, Wren NIC and GPU under one PCIe switch each) on wren-fabric"
rc=0
make -C "$TOP" --no-print-directory vmrun KVER="$kver" GPU=1 \
	SCRIPT="$TOP/scripts/demo-guest.sh" >"$out/vmrun.log" 2>&1 || rc=$?
t2=$(date +%s)
failed=0
[ "$rc" = 0 ] || failed=1

titles="the server as an operator sees it|GPUDirect RDMA|lossless RoCE"
i=0
for p in 1 2 3; do
	i=$((i + 1))
	echo
	echo "=== $p. $(echo "$titles" | cut -d '|' -f "$i")"
	for g in 0 1; do
		f=$run/g$g/demo-part$p.txt
		if [ -s "$f" ]; then
			cat "$f"
		else
			echo "== server $g: FAILED: no output for this part (console: $run/guest$g.log)"
			failed=1
		fi
		grep -qx "$p ok" "$run/g$g/demo-status" 2>/dev/null || failed=1
	done
	if [ "$p" = 2 ]; then
		# The GPU's memory from outside the server: the file behind the
		# emulated GPU's BAR, checked against what the WRITEs carried.
		if [ -s "$run/g1/demo-gpu-expect" ] &&
			res=$("$BUILD/tests/gpu/gpu_mem_check" "$run/gpu1.mem" "$run/g1/demo-gpu-expect" 2>&1); then
			echo "== host: server 1's GPU memory (the file behind its BAR) holds the bytes server 0 sent:"
			echo "$res" | sed 's/^/  /'
		else
			echo "== host: FAILED: server 1's GPU memory does not hold what was sent: ${res:-no manifest}"
			failed=1
		fi
	fi
done

echo
echo "=== 4. the congestion episode, plotted"
png=$out/demo-congestion.png
if /usr/bin/python3 "$SCRIPTS/demo-plot.py" "$run/g1" "$png" \
	"server 1 (sender), kernel $kver, $(git -C "$TOP" describe --always --dirty 2>/dev/null)" \
	>"$out/plot.txt" 2>&1; then
	echo "$(cat "$out/plot.txt"): $png"
else
	echo "FAILED: the plot: $(cat "$out/plot.txt")"
	failed=1
fi

echo
echo "=== 5. where to go next"
echo "README.md: make check, make vmtest T=... / B=..., make bench-*: the tests and the figures"
echo "Documentation/networking/device_drivers/wren/gpudirect.rst: GPUDirect RDMA, dma-buf and nvidia-peermem"
echo "Documentation/networking/device_drivers/wren/dcb.rst: lossless RoCE with dcb/wren-qos, PFC, ECN and DCQCN"
echo
echo "demo: build $((t1 - t0)) s, the servers $((t2 - t1)) s, all $(($(date +%s) - t0)) s; logs in $out and $run"
if [ "$failed" != 0 ]; then
	echo "demo: FAILED (vmrun exit $rc; consoles in $run/guest*.log)" >&2
	exit 1
fi
