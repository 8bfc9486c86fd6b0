#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, both guests of a GPU=1 pair at once: GPUDirect RDMA between
# the two servers.  Each guest has a Wren NIC and the emulated GPU under
# one PCIe switch; wren_test_gpu.ko (gpu/) drives the GPU and
# implements NVIDIA's nvidia_p2p_* interface, NVIDIA's own nvidia-peermem
# (Debian's source, unmodified, built by `make gpu-modules`) registers
# with wren_peer_mem.ko.  Guest 0 owns the GPU memory that is written,
# read and attacked; guest 1 initiates.
#
#   1. NCCL's questions (gpu/wren_nccl_check, guest 0): the GDR
#      sysfs probe, the dma-buf probe, the NIC-GPU PCI distance, the
#      RoCE v2 GID, its transport's verbs on host and GPU memory; at the
#      same time guest 1 runs pyverbs' DmaBufMR over a GPU dma-buf
#      (wren_gpu_pyverbs.py);
#   2. wren_verbs_test's integrity and protection cases with the target's
#      memory in the GPU, registered through dma-buf and through peer
#      memory (plain ibv_reg_mr on the GPU mapping);
#   3. bandwidth, GPU to GPU and host to host in the same run, and a
#      64 MiB READ from GPU memory verified byte for byte;
#   4. GPU memory freed under a live peer MR while the peer WRITEs into
#      it: nvidia-peermem's free callback invalidates the MR, the WRITEs
#      end with a remote access error, no byte lands after the free;
#   5. processes with live GPU MRs (peer and dma-buf) killed mid-traffic:
#      the memory_peers counters balance, the GPU driver got every page
#      back, no verbs object is left;
#   6. 64 MiB WRITEs into GPU memory through peer memory and through
#      dma-buf, verified in the guest and, after the boot, in the host
#      file behind the BAR; every module unloads.
#
#   flock /tmp/wren-guest.lock make vmtest T=rdma/wren-gpudirect.sh GPU=1
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"

pair_init gdr "GPUDirect"
mods=$(wren_moddir)
gmods=${mods%/modules/*}/gpu/${mods##*/}
wvt=$WREN_TOP/build/tests/rdma/wren_verbs_test
nccl=$WREN_TOP/build/tests/gpu/wren_nccl_check
pyv=$WREN_TOP/selftests/rdma/wren_gpu_pyverbs.py
gpudev=/dev/wren_gpu0
peers=/sys/kernel/mm/memory_peers/nv_mem
bw_secs=${WREN_GDR_BW_SECS:-5}
peer_ctl=$WREN_PEER_VIRTIO_IP
NCCL_ANSWERS=15
PYVERBS_CASES=4	# its 3 cases and the summary check
ncases=$("$wvt" count 2>/dev/null || echo 126)
if [ "$me" = 0 ]; then
	plan $((6 + NCCL_ANSWERS + 2 + 3 + 2 + 3 + 2 + 2))
else
	plan $((6 + PYVERBS_CASES + 2 * ncases + 3 + 1 + 1 + 2 + 2))
fi
dmesg -C

# --- setup ---------------------------------------------------------------
if rdma_env_check 2>"$res/gdr-env.err" && [ -x "$wvt" ] && [ -x "$nccl" ] &&
	[ -e "$gmods/wren_test_gpu.ko" ] && [ -e "$gmods/nvidia-peermem.ko" ]; then
	ok "rdma-core with libwren, the test programs, wren_test_gpu.ko and nvidia-peermem.ko are built"
else
	bail "rdma-core with libwren, the test programs, wren_test_gpu.ko and nvidia-peermem.ko are built" \
		"$(cat "$res/gdr-env.err"); run make rdma-tests gpu-modules"
fi

# nvidia-peermem needs the registry (rdma_wren_up loads it before
# wren_ib) and the GPU driver's nvidia_p2p_*.  insmod loads no
# dependencies.
load() {
	rdma_wren_up || return 1
	insmod "$gmods/wren_test_gpu.ko" || return 1
	insmod "$gmods/nvidia-peermem.ko" || return 1
	wait_for 10 test -c "$gpudev"
}
load || bail "wren, wren_peer_mem, wren_ib, wren_test_gpu and nvidia-peermem loaded" \
	"${RDMA_SETUP_ERR:-}; $(dmesg | tail -n 20)"
ok "wren, wren_peer_mem, wren_ib, wren_test_gpu and nvidia-peermem loaded; $RDMA_WREN_DEV on $RDMA_WREN_IF"
dev=$RDMA_WREN_DEV gidx=$RDMA_WREN_GID
read -r pv <"$peers/version" 2>/dev/null
read -r mv </sys/module/nvidia_peermem/version 2>/dev/null
if [ -n "${pv:-}" ] && [ "$pv" = "${mv:-}" ]; then
	ok "nvidia-peermem registered as $peers (version $pv, as its module says)"
else
	not_ok "nvidia-peermem registered as $peers (version ${pv:-none}, module ${mv:-none})"
fi
check "ib device $dev, port 1 ACTIVE" rdma_port_active "$dev"
ok "RoCE v2 GID index $gidx for $WREN_IP"
barrier up
check "ping $WREN_PEER_IP over $RDMA_WREN_IF" wait_for 60 busybox ping -c 1 -W 2 "$WREN_PEER_IP"

# counters: the registry's and the GPU driver's, one "name=value" a word.
peer_counters() {
	local f out=
	for f in num_alloc_mrs num_dealloc_mrs num_reg_pages num_dereg_pages \
		num_reg_bytes num_dereg_bytes num_free_callbacks; do
		out+="$f=$(cat "$peers/$f" 2>/dev/null) "
	done
	echo "$out"
}
gpu_sysfs=
for d in /sys/bus/pci/drivers/wren_test_gpu/0000:*/wren_gpu; do
	[ -d "$d" ] && gpu_sysfs=$d && break
done
gpu_counters() {
	local f out=
	for f in "$gpu_sysfs"/*; do
		out+="${f##*/}=$(cat "$f" 2>/dev/null) "
	done
	echo "$out"
}
counter() { # counter "LIST" NAME
	local w
	for w in $1; do
		[ "${w%%=*}" = "$2" ] && echo "${w#*=}" && return
	done
	echo -1
}

# tap_lines LABEL: PASS/FAIL/SKIP lines on stdin as TAP, the rest as
# diagnostics; sets lines to the number of results.
tap_lines() {
	local line
	lines=0
	while IFS= read -r line; do
		case $line in
		"PASS "*) ok "$1${line#PASS }"; lines=$((lines + 1)) ;;
		"FAIL "*) not_ok "$1${line#FAIL }"; lines=$((lines + 1)) ;;
		"SKIP "*) line=${line#SKIP }; skip "$1${line%%: *}" "${line#*: }"; lines=$((lines + 1)) ;;
		*) diag "$line" ;;
		esac
	done
}

# --- 1: NCCL's checks (guest 0) and pyverbs (guest 1), at once ------------
if [ "$me" = 0 ]; then
	tap_lines "NCCL: " < <(timeout 300 "$nccl" -d "$dev" -G "$gpudev" \
		-x "rdma -dd res show mr dev $dev" 2>&1)
	for ((i = lines; i < NCCL_ANSWERS; i++)); do
		not_ok "NCCL: wren_nccl_check gave $lines of $NCCL_ANSWERS answers"
	done
else
	t0=$SECONDS
	timeout -k 10 600 python3 "$pyv" --dev "$dev" --port 1 --gid "$gidx" \
		</dev/null >"$res/gdr-pyverbs.out" 2>"$res/gdr-pyverbs.err"
	rc=$?
	n=0
	while IFS=$'\t' read -r kind desc reason; do
		case $kind in
		ok) ok "pyverbs: $desc"; n=$((n + 1)) ;;
		fail) not_ok "pyverbs: $desc"; n=$((n + 1)) ;;
		skip) skip "pyverbs: $desc" "$reason"; n=$((n + 1)) ;;
		*) diag "$desc" ;;
		esac
	done < <(python3 "$WREN_TOP/selftests/rdma/unittest_tap.py" --rc "$rc" \
		--elapsed $((SECONDS - t0)) "$res/gdr-pyverbs.err" ||
		printf 'fail\tunittest_tap.py read the output\n')
	for ((i = n; i < PYVERBS_CASES; i++)); do
		not_ok "pyverbs: $n of $PYVERBS_CASES GPU dma-buf cases reported"
	done
fi

# --- 2: integrity and protection on GPU memory ------------------------------
for mem in gpu-dmabuf gpu-peer; do
	barrier "cases-$mem"
	t0=$SECONDS
	if [ "$me" = 0 ]; then
		timeout 900 "$wvt" target --mem "$mem" -d "$dev" -g "$gidx" -p 18600 \
			>"$res/gdr-target-$mem.out" 2>&1
		rc=$?
		if [ "$rc" = 0 ]; then
			ok "$mem: target and its child process, memory in the GPU, judged every case, exit 0 ($((SECONDS - t0)) s)"
		else
			not_ok "$mem: target and its child process, memory in the GPU, judged every case, exit 0"
			diag "exit $rc; $(tail -n 20 "$res/gdr-target-$mem.out")"
		fi
	else
		timeout 900 "$wvt" initiator -d "$dev" -g "$gidx" -p 18600 "$peer_ctl" \
			>"$res/gdr-initiator-$mem.out" 2>"$res/gdr-initiator-$mem.err"
		rc=$?
		tap_relay_cases "$mem: " "$res/gdr-initiator-$mem.out" "$ncases" "verbs case" \
			"initiator exit $rc"
		[ -s "$res/gdr-initiator-$mem.err" ] && diag "$(tail -n 20 "$res/gdr-initiator-$mem.err")"
		diag "$mem: integrity and protection cases: $((SECONDS - t0)) s, exit $rc"
	fi
done

# --- 3: bandwidth and 64 MiB verified, GPU and host -----------------------
# bw_pair TAG MEM ARGS...: guest 0 passive, guest 1 active, on port 18700.
bw_pair() {
	local tag=$1 mem=$2 out=$res/gdr-bw-$1.out
	shift 2
	barrier "bw-$tag"
	if [ "$me" = 0 ]; then
		timeout 300 "$wvt" bw --passive --listen 18700 --mem "$mem" "$@" >"$out" 2>&1
		rc=$?
		check "bandwidth $tag: passive side, $mem memory, exit 0" test "$rc" = 0 ||
			diag "$(tail -n 5 "$out")"
		grep '^gpu_expect ' "$out" >>"$res/gpu-expect"
	else
		timeout 300 "$wvt" bw --active --connect "$peer_ctl:18700" --mem "$mem" "$@" >"$out" 2>&1
		rc=$?
		check "bandwidth $tag: active side, $mem memory, exit 0" test "$rc" = 0 ||
			diag "$(tail -n 5 "$out")"
		bw=$(sed -n 's/^# bw: .* \([0-9.]* MB\/s\).*/\1/p' "$out")
		diag "bw $tag: ${bw:-?} ($(grep -h 'verified' "$out" | head -n 1))"
		echo "$tag ${bw:-?}" >>"$res/gdr-bw.txt"
	fi
}
: >"$res/gpu-expect"
bw_pair host-write host --op write --size 65536 --seconds "$bw_secs" --depth 16 --mr-mib 4
bw_pair gpu-write gpu-peer --op write --size 65536 --seconds "$bw_secs" --depth 16 --mr-mib 4
if [ "$me" = 1 ]; then
	diag "RDMA WRITE 64 KiB, $bw_secs s: host->host $(sed -n 's/^host-write //p' "$res/gdr-bw.txt"), GPU->GPU $(sed -n 's/^gpu-write //p' "$res/gdr-bw.txt")"
fi
bw_pair read-64m gpu-peer --op read --size $((64 << 20)) --iters 1 --verify --mr-mib 64

# --- 4: GPU memory freed under a live MR, under traffic -----------------
barrier invalidate
if [ "$me" = 0 ]; then
	before=$(peer_counters)
	timeout 300 "$wvt" bw --passive --listen 18701 --mem gpu-peer --free-under-traffic \
		--size 65536 --depth 16 --mr-mib 4 >"$res/gdr-inval.out" 2>&1
	rc=$?
	after=$(peer_counters)
	check "free under traffic: passive side (freed, overwritten, nothing landed, MR deregistered), exit 0" \
		test "$rc" = 0 || diag "$(tail -n 8 "$res/gdr-inval.out")"
	diag "$(grep -h 'freed under traffic' "$res/gdr-inval.out")"
	check "free under traffic: nv_mem's num_free_callbacks rose by 1 ($(counter "$before" num_free_callbacks) -> $(counter "$after" num_free_callbacks))" \
		test "$(counter "$after" num_free_callbacks)" = $(($(counter "$before" num_free_callbacks) + 1))
else
	timeout 300 "$wvt" bw --active --connect "$peer_ctl:18701" --mem host --until-error \
		--size 65536 --depth 16 --seconds 120 --mr-mib 4 >"$res/gdr-inval.out" 2>&1
	rc=$?
	check "free under traffic: the WRITEs stop with a remote access error, the target saw nothing land, exit 0" \
		test "$rc" = 0 || diag "$(tail -n 8 "$res/gdr-inval.out")"
	diag "$(grep -h 'stopped by\|nothing landed' "$res/gdr-inval.out")"
fi

# --- 5: killed with live GPU MRs --------------------------------------------
barrier kill
pids=
for k in "gpu-peer 18702" "gpu-dmabuf 18703"; do
	read -r kmem kport <<<"$k"
	if [ "$me" = 0 ]; then
		"$wvt" bw --passive --listen "$kport" --mem "$kmem" --size 65536 --depth 16 \
			--mr-mib 4 --hold >"$res/gdr-kill-$kmem.out" 2>&1 &
	else
		"$wvt" bw --active --connect "$peer_ctl:$kport" --mem "$kmem" --size 65536 --depth 16 \
			--seconds 600 --mr-mib 4 --hold --ready-file "$res/gdr-kill-$kmem.ready" \
			>"$res/gdr-kill-$kmem.out" 2>&1 &
	fi
	pids+="$! "
done
if [ "$me" = 1 ]; then
	wait_for 120 test -e "$res/gdr-kill-gpu-peer.ready" -a -e "$res/gdr-kill-gpu-dmabuf.ready"
fi
barrier kill-traffic
# shellcheck disable=SC2086 # a list of pids
kill -9 $pids 2>/dev/null
# shellcheck disable=SC2086
wait $pids 2>/dev/null
mrs=$(rdma res show mr dev "$dev" 2>/dev/null | grep -c .)
if [ "$me" = 0 ]; then
	check "processes with live GPU MRs (peer and dma-buf) killed mid-traffic: no MR left ($mrs)" test "$mrs" = 0
	pc=$(peer_counters)
	diag "memory_peers/nv_mem: $pc"
	check "memory_peers counters balance (MRs, pages, bytes)" \
		test "$(counter "$pc" num_alloc_mrs)" = "$(counter "$pc" num_dealloc_mrs)" -a \
		"$(counter "$pc" num_reg_pages)" = "$(counter "$pc" num_dereg_pages)" -a \
		"$(counter "$pc" num_reg_bytes)" = "$(counter "$pc" num_dereg_bytes)" -a \
		"$(counter "$pc" num_alloc_mrs)" -gt 0
	gc=$(gpu_counters)
	diag "wren_test_gpu: $gc"
	check "the GPU driver got every page back (no allocation, p2p table, dma map or dma-buf left)" \
		test "$(counter "$gc" allocs)" = 0 -a "$(counter "$gc" p2p_tables)" = 0 -a \
		"$(counter "$gc" p2p_pages)" = 0 -a "$(counter "$gc" p2p_dma_maps)" = 0 -a \
		"$(counter "$gc" dmabufs)" = 0 -a "$(counter "$gc" dmabuf_maps)" = 0
else
	check "its peer's processes killed: the active processes killed too, no MR left ($mrs)" test "$mrs" = 0
fi

# --- 6: 64 MiB into GPU memory, checked again from the host ----------------
# The last users of the GPU in this boot: what they leave in GPU memory
# stays there for gpu_mem_check on the host after the guests stopped.
# The GPU driver allocates first-fit: the peer-memory run holds 64 MiB
# below its buffer, which the dma-buf run then takes.
bw_pair write-64m-peer gpu-peer --op write --size $((64 << 20)) --iters 1 --verify \
	--mr-mib 64 --gpu-pad-mib 64
bw_pair write-64m gpu-dmabuf --op write --size $((64 << 20)) --iters 1 --verify --mr-mib 64

# --- teardown -------------------------------------------------------------
barrier end
check "rmmod nvidia-peermem, wren_test_gpu, wren_ib, wren_peer_mem, wren" \
	sh -c "rmmod nvidia_peermem && rmmod wren_test_gpu && rmmod wren_ib && rmmod wren_peer_mem && rmmod wren"
check_dmesg "dmesg clean"
tap_done
