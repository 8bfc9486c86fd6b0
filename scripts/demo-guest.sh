#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Runs inside each of the two GPU servers of `make demo` (scripts/demo.sh;
# a GPU=1 pair: the Wren NIC and the emulated GPU under one PCIe switch)
# and, in `make check`, as selftests/rdma/wren-demo.sh on such a boot.
# Each part's output goes to $WREN_RESULTS/demo-part<N>.txt, which the
# host prints in order; demo-status holds "N ok|FAILED" a part.  A step
# that fails says "FAILED: why" in its part, and the script exits 1.
#
#   1. the server as an operator sees it: the PCI tree, devlink dev info,
#      rdma link, the RoCE v2 GID;
#   2. GPUDirect RDMA: server 0 RDMA-WRITEs from its GPU's memory into
#      server 1's GPU memory, registered through dma-buf and through peer
#      memory (nvidia-peermem), verified where it landed; the NIC's and
#      the GPU driver's counters, server 1's CPU time; what NCCL would
#      conclude (wren_nccl_check's probes and PCI distance);
#   3. lossless RoCE: wren-qos apply lossless and show; a congestion
#      episode through fabric port 0 narrowed to 100 Mb/s, ECN/DCQCN on
#      (server 1 sends, server 0 receives), then the same with ECN off
#      and PFC on at the fabric; the counters of both NICs and the
#      fabric.  Server 1 keeps the wren_cc_rate tracepoint's samples
#      (demo-cc.trace) and the fabric queue's (demo-queue.txt) for the
#      host's plot.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/pair.sh"
. "$WREN_TOP/selftests/lib/fabric.sh"
. "$WREN_TOP/selftests/lib/rdma-env.sh"
. "$WREN_TOP/selftests/lib/wren.sh"
. "$WREN_TOP/selftests/lib/rdma-setup.sh"
. "$WREN_TOP/selftests/lib/lossless.sh"

pair_init demo "demo"
mods=$(wren_moddir)
gmods=${mods%/modules/*}/gpu/${mods##*/}
wvt=$WREN_TOP/build/tests/rdma/wren_verbs_test
nccl=$WREN_TOP/build/tests/gpu/wren_nccl_check
qos=$WREN_TOP/dcb/wren-qos
tr=/sys/kernel/tracing
link_kbps=25000000
part=0
part_failed=0
any_failed=0
: >"$res/demo-status"

# part N TITLE: from here on, output goes to part N's file.
part() {
	part_end
	part=$1
	part_failed=0
	exec >"$res/demo-part$part.txt" 2>&1
	echo "== server $me: $2"
}
part_end() {
	[ "$part" = 0 ] && return
	if [ "$part_failed" = 0 ]; then
		echo "$part ok" >>"$res/demo-status"
	else
		echo "$part FAILED" >>"$res/demo-status"
		any_failed=1
	fi
}
fail() {
	echo "FAILED: $*"
	part_failed=1
}
# sync_point NAME: wait for the other server to get to NAME; the demo
# goes on (the part FAILED) when it gave up.
sync_point() {
	: >"$res/barrier-demo-$1"
	wait_for 300 test -e "$peer_res/barrier-demo-$1" -o -e "$peer_res/demo-abort" &&
		[ ! -e "$peer_res/demo-abort" ] && return 0
	fail "server $peer did not reach step '$1'"
	return 1
}
abort() {
	fail "$*"
	: >"$res/demo-abort"
	part_end
	exit 1
}

# --- 1: the server as an operator sees it ---------------------------------
part 1 "the server as an operator sees it"
for m in nvidia_peermem wren_test_gpu; do
	grep -q "^$m " /proc/modules && rmmod "$m"
done
if ! rdma_env_check 2>"$res/demo-env.err" || [ ! -x "$wvt" ] || [ ! -x "$nccl" ] ||
	[ ! -e "$gmods/nvidia-peermem.ko" ]; then
	abort "rdma-core with libwren, the test programs or the GPU modules are not built: $(cat "$res/demo-env.err") (make rdma-core rdma-tests gpu-modules)"
fi
# The NIC fresh from its reset, no QoS profile yet: part 3 applies it.
ll_up 2>"$res/demo-up.err" || abort "RDMA on the Wren NIC: ${RDMA_SETUP_ERR:-} $(cat "$res/demo-up.err")"
if ! { insmod "$gmods/wren_test_gpu.ko" && insmod "$gmods/nvidia-peermem.ko" &&
	wait_for 10 test -c /dev/wren_gpu0; }; then
	abort "wren_test_gpu.ko and nvidia-peermem.ko loaded: $(dmesg | tail -n 3)"
fi
gpu=
for d in /sys/bus/pci/drivers/wren_test_gpu/0000:*; do
	[ -e "$d" ] && gpu=${d##*/}
done
nic=$ll_bdf
sw() { # the upstream port of the switch above BDF
	local p
	p=$(readlink -f "/sys/bus/pci/devices/$1")
	basename "$(dirname "$(dirname "$p")")"
}
echo "\$ lspci -tv (the NIC and the GPU under one PCIe switch)"
lspci -tv | grep -v -E 'Host bridge|ISA bridge|IDE interface|SMBus|^ *\|?$'
echo "NIC $nic (wren.ko), GPU ${gpu:-none} (wren_test_gpu.ko): switch upstream port $(sw "$nic") / ${gpu:+$(sw "$gpu")}"
if [ -z "$gpu" ] || [ "$(sw "$nic")" != "$(sw "$gpu")" ]; then
	fail "the NIC and the GPU are not under one switch"
fi
echo "\$ devlink dev info $ll_dl"
devlink dev info "$ll_dl" || fail "devlink dev info"
echo "\$ rdma link"
rdma link || fail "rdma link"
gid=$(cat "/sys/class/infiniband/$ll_dev/ports/1/gids/$ll_gid")
gtype=$(cat "/sys/class/infiniband/$ll_dev/ports/1/gid_attrs/types/$ll_gid")
echo "RoCE GID index $ll_gid: $gid ($gtype, $WREN_IP on $ll_if)"
[ "$gtype" = "RoCE v2" ] || fail "GID $ll_gid is $gtype, not RoCE v2"
# The bench's capture (PCAP=1 boots of make check) stays off.
[ -n "${WREN_PCAP_DIR:-}" ] && fabric_ctl pcap "$me" off >/dev/null
busybox ping -c 1 -W 5 "$WREN_PEER_IP" >/dev/null 2>&1
sync_point up || abort "server $peer is up"

# --- 2: GPUDirect RDMA ------------------------------------------------------
part 2 "GPUDirect RDMA, server 0's GPU -> server 1's GPU"
peers=/sys/kernel/mm/memory_peers/nv_mem
port=18790
pad=0
: >"$res/demo-gpu-expect"
# rstat: rdma statistic of port 1 as "name value" lines.
rstat() { rdma statistic show link "$ll_dev/1" 2>/dev/null | tr ' ' '\n' | paste -d ' ' - -; }
# idle_busy SECONDS: this server's CPU busy % over SECONDS of no traffic,
# counted as wren_verbs_test --cpu counts it (/proc/stat: user, nice,
# system, irq and softirq).
idle_busy() {
	local a b
	a=$(head -n 1 /proc/stat)
	nap "$1"
	b=$(head -n 1 /proc/stat)
	echo "$a $b" | awk '{ for (i = 2; i <= 9; i++) { d = $(i + 11) - $i; t += d; if (i < 5 || i == 7 || i == 8) busy += d }
		printf "%.2f", t ? 100 * busy / t : 0 }'
}
[ "$me" = 1 ] && echo "server 1's CPU with no transfer, over 1 s: $(idle_busy 1)% busy"
for mem in gpu-dmabuf gpu-peer; do
	port=$((port + 1))
	sync_point "gdr-$mem" || continue
	rstat >"$res/demo-gdr.r0"
	reg0=$(cat "$peers/num_reg_bytes" 2>/dev/null || echo 0)
	out=$res/demo-gdr-$mem.out
	if [ "$me" = 1 ]; then
		# The target: its 4 MiB buffer in the GPU, what lands checked
		# through the GPU's BAR (the CPU's view of GPU memory), this
		# server's CPU time over the transfer; its MR as rdma shows it.
		timeout 120 "$wvt" bw --passive --listen "$port" --mem "$mem" --op write \
			--size 1048576 --mr-mib 4 --gpu-pad-mib "$pad" --verify --cpu --timeout 18 \
			>"$out" 2>&1 &
		wpid=$!
		# The MR as the kernel shows it, while the WRITEs land (one
		# rdma command in the CPU window).
		wait_for 60 grep -q '^# bw: ' "$out" &&
			rdma -dd res show mr dev "$ll_dev" 2>/dev/null | tr -s ' \n' '  ' |
			sed -n 's/.*\(mrlen [0-9]*\).*\(drv_kind [a-z-]*\).*/\1 \2/p' >"$res/demo-gdr.mr"
		wait "$wpid"
		rc=$?
		grep '^gpu_expect ' "$out" >>"$res/demo-gpu-expect"
		echo "$mem: server 1's target buffer in its GPU at BAR offset $(awk '$1 == "gpu_expect" { print $2; exit }' "$out"), MR: $(cat "$res/demo-gdr.mr")"
		echo "  server 1's CPU over the transfer: $(sed -n 's/^passive_cpu_busy_pct=//p' "$out")% busy ($(sed -n 's/^# passive cpu over \(.*\)$/\1/p' "$out"))"
		[ "$mem" = gpu-peer ] &&
			echo "  nvidia-peermem (memory_peers/nv_mem) pinned $(($(cat "$peers/num_reg_bytes" 2>/dev/null || echo 0) - reg0)) bytes of GPU memory for the MR"
		if [ "$rc" != 0 ]; then
			fail "$mem: the target (exit $rc)"
			tail -n 5 "$out"
		fi
		grep -q 'drv_kind' "$res/demo-gdr.mr" || fail "$mem: rdma -dd res show mr shows no MR"
	else
		timeout 120 "$wvt" bw --active --connect "$WREN_PEER_VIRTIO_IP:$port" --mem "$mem" \
			--op write --size 1048576 --mr-mib 4 --seconds 1 --verify --timeout 18 >"$out" 2>&1
		rc=$?
		echo "$mem: server 0 RDMA-WRITEs from its GPU: $(sed -n 's/^# bw: \(write .*\)$/\1/p' "$out" | tail -n 1)"
		echo "  server 1 checked its GPU buffer through the BAR: $(grep -h 'WRITE data' "$out" | sed 's/^# //' | head -n 1)"
		if [ "$rc" != 0 ] || ! grep -q 'WRITE data verified' "$out"; then
			fail "$mem: the WRITEs or their check (exit $rc)"
			tail -n 5 "$out"
		fi
	fi
	# The NIC's view: the RoCE bytes, each WRITE into the GPU's MR.
	echo "  rdma statistic (server $me): $(rstat | awk '
		FNR == NR { b[$1] = $2; next }
		$1 ~ /^(tx_roce_bytes|rx_roce_bytes|rx_write_requests|retransmits)$/ { printf "%s +%d ", $1, $2 - b[$1] }' \
		"$res/demo-gdr.r0" -)"
	pad=$((pad + 4))
done
if [ "$me" = 0 ]; then
	echo "What NCCL would conclude (wren_nccl_check on server 0):"
	timeout 120 "$nccl" -d "$ll_dev" -G /dev/wren_gpu0 >"$res/demo-nccl.out" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL) .*(probe|distance|GID)' "$res/demo-nccl.out"
	echo "the verbs NCCL's transport posts (WRITE_WITH_IMM into zero-SGE receives, the flush READ, MRs with REMOTE_ATOMIC) on host, peer-memory and dma-buf GPU memory: $(grep -c '^PASS' "$res/demo-nccl.out") checks passed, $(grep -c '^FAIL' "$res/demo-nccl.out") failed"
	[ "$rc" = 0 ] || { fail "wren_nccl_check (exit $rc)"; grep -E '^FAIL' "$res/demo-nccl.out"; }
fi
sync_point gdr-done
rmmod nvidia_peermem 2>/dev/null
rmmod wren_test_gpu 2>/dev/null

# --- 3: lossless RoCE -------------------------------------------------------
part 3 "lossless RoCE"
echo "\$ wren-qos apply lossless $ll_if"
"$qos" apply lossless "$ll_if" >"$res/demo-qos-apply.out" 2>&1 || fail "wren-qos apply lossless"
tail -n 1 "$res/demo-qos-apply.out"
echo "\$ wren-qos show $ll_if   (the RoCE priority 3 and the CNPs' 6; ETS, PFC, DSCP trust, ECN/NP/RP)"
"$qos" show "$ll_if" >"$res/demo-qos-show.out" 2>&1 || fail "wren-qos show"
awk '$1 == "prio" || $1 == "3" || $1 == "6" || /^(trust|pfc-prevention-tout|buffer total) /' "$res/demo-qos-show.out"
sync_point qos || abort "server $peer applied its profile"

# RoCE priority 3 (DSCP 24); 4 WRITEs of 64 KiB in flight; a local ACK
# timeout of about 1 s (4.096 us << 18): the 67 ms default passes
# whenever a TCG guest is descheduled on a loaded host, and RC then
# retransmits what was never lost.
prio3=(--sl 3 --tclass 96 --timeout 18)
flow() { # NAME PORT ARGS: server 0 receives, server 1 sends
	local name=$1 p=$2
	shift 2
	if [ "$me" = 0 ]; then
		ll_passive "$p" "$res/demo-$name.out" "$@" --ready-file "$res/demo-ready-$name"
	else
		ll_active "$p" "$res/demo-$name.out" "$@"
	fi
}
# snap NAME: this NIC's counters (ethtool -S, rdma statistic), and with
# server 1 the fabric's, every port in one call (each is a round trip
# through the bench's fabric agent, seconds on a loaded host).
snap() {
	ll_eth_snap "$res/demo-$1.eth"
	rdma statistic show link "$ll_dev/1" 2>/dev/null | tr ' ' '\n' | paste -d ' ' - - |
		awk 'NF == 2 { print $1 ": " $2 }' >"$res/demo-$1.rdma"
	if [ "$me" = 1 ]; then
		fabric_ctl stats >"$res/demo-$1.fab" 2>&1
	fi
}
# val KIND SNAP KEY: a counter of a snapshot (KIND eth, rdma, or f0 and
# f1 for the fabric's ports), 0 if absent.
val() {
	case $1 in
	f*) awk -v p="${1#f}" -v k="$3" '$1 == "port" && $2 == p && $3 == k { print $4; f = 1; exit }
		END { if (!f) print 0 }' "$res/demo-$2.fab" ;;
	*) ll_val "$res/demo-$2.$1" "$3" ;;
	esac
}
# d KIND KEY B A: KEY of snapshot B minus snapshot A.
d() {
	local x y
	x=$(val "$1" "$3" "$2")
	y=$(val "$1" "$4" "$2")
	echo $((${x:-0} - ${y:-0}))
}
# counters EPISODE: each side's counters over the episode, as an
# operator names them.
counters() {
	local a=$1 b=$2
	if [ "$me" = 0 ]; then
		echo "  server 0 (receiver) rdma statistic: rx_roce_packets +$(d rdma rx_roce_packets "$b" "$a"), np_ecn_marked_roce_packets +$(d rdma np_ecn_marked_roce_packets "$b" "$a"), np_cnp_sent +$(d rdma np_cnp_sent "$b" "$a"), out_of_sequence +$(d rdma out_of_sequence "$b" "$a")"
		echo "  server 0 ethtool -S: tx_prio3_pause +$(d eth tx_prio3_pause "$b" "$a"), rx_prio3_buf_discard +$(d eth rx_prio3_buf_discard "$b" "$a")"
	else
		echo "  server 1 (sender) rdma statistic: rp_cnp_handled +$(d rdma rp_cnp_handled "$b" "$a"), retransmits +$(d rdma retransmits "$b" "$a"), local_ack_timeout_err +$(d rdma local_ack_timeout_err "$b" "$a")"
		echo "  server 1 ethtool -S: tx_prio3_packets +$(d eth tx_prio3_packets "$b" "$a"), rx_prio3_pause +$(d eth rx_prio3_pause "$b" "$a"), rx_prio3_pause_duration +$(d eth rx_prio3_pause_duration "$b" "$a") us"
		drops=$(($(d f0 q3_drop_full_frames "$b" "$a") + $(d f0 q3_drop_lossless_frames "$b" "$a") + $(d f0 q3_drop_wd_frames "$b" "$a") + $(d f1 q3_drop_lossless_frames "$b" "$a")))
		echo "  fabric (wren-fabric ctl stats): port 0 q3_ecn_marked +$(d f0 q3_ecn_marked "$b" "$a"), q3 drops +$drops, q3_max_depth_bytes $(val f0 "$b" q3_max_depth_bytes); port 1 q3_pfc_tx_xoff +$(d f1 q3_pfc_tx_xoff "$b" "$a")"
		[ "$drops" = 0 ] || fail "the fabric dropped $drops priority-3 frames"
		[ "$(d rdma retransmits "$b" "$a")" = 0 ] || fail "the sender retransmitted"
	fi
}
# sampler FILE: "UPTIME BYTES KBPS" lines: the fabric's queue 3 towards
# server 0 and the DCQCN rate of the flow's QP (rdma -dd res), until
# demo-sampler.stop exists.
sampler() {
	local up q qpn r
	# fabric.sh numbers requests: this subshell's own range.
	# shellcheck disable=SC2034 # read by fabric_ctl
	FABRIC_SEQ=100000
	while [ ! -e "$res/demo-sampler.stop" ]; do
		read -r up _ </proc/uptime
		q=$(fabric_ctl qdepth 0 3 | awk '$3 == "q3_depth_bytes" { print $4 }')
		qpn=$(ll_qpn "$res/demo-a.out")
		r=
		[ -n "$qpn" ] && read -r r _ < <(ll_qp_cc "$qpn")
		echo "$up ${q:--} ${r:--}"
	done >"$1"
}

# Episode A: ECN and DCQCN do the work.
echo "Episode A: fabric port 0 (towards server 0) narrowed to 100 Mb/s, ECN marking on queue 3 (Kmin 16 KiB, Kmax 64 KiB, Pmax 20%)"
if [ "$me" = 1 ]; then
	if ! { fabric_ctl rate 0 100 >/dev/null &&
		fabric_ctl ecn 0 3 on kmin 16384 kmax 65536 pmax 0.2 >/dev/null; }; then
		fail "fabric_ctl rate/ecn"
	fi
fi
sync_point a0
snap a
if [ "$me" = 0 ]; then
	flow a 18780 --op write --size 65536 --depth 4 --mr-mib 4 "${prio3[@]}" || fail "episode A: receiver (exit $?)"
	sync_point a1
	snap b
else
	[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null
	echo boot >"$tr/trace_clock" 2>/dev/null
	: >"$tr/trace"
	echo 1 >"$tr/events/wren/wren_cc_rate/enable"
	rm -f "$res/demo-a.stop" "$res/demo-sampler.stop" "$res/demo-a.out"
	# Before the flow, whose sender polls its CQ at 100% of this vCPU.
	sampler "$res/demo-queue.txt" &
	spid=$!
	renice -n -10 -p "$spid" >/dev/null
	read -r t0 _ </proc/uptime
	flow a 18780 --op write --size 65536 --depth 4 --mr-mib 4 "${prio3[@]}" \
		--seconds 40 --stop-file "$res/demo-a.stop" &
	fpid=$!
	# shellcheck disable=SC2317 # called through wait_for
	have_qpn() { [ -n "$(ll_qpn "$res/demo-a.out")" ]; }
	wait_for 60 have_qpn
	qpn=$(ll_qpn "$res/demo-a.out")
	cc=
	# shellcheck disable=SC2317 # called through wait_for
	cut() {
		local r
		cc=$(ll_qp_cc "$qpn")
		read -r r _ <<<"$cc"
		[ -n "$r" ] && [ "$r" -gt 0 ] && [ "$r" -lt $((link_kbps / 2)) ]
	}
	if wait_for 30 cut; then
		read -r r _ al _ <<<"$cc"
		echo "  DCQCN cut QP $qpn to $r kb/s (link $link_kbps), alpha $al/$WREN_DCQCN_ALPHA_MAX"
	else
		fail "QP ${qpn:-?}'s rate was not cut (${cc:-no QP})"
	fi
	# Some seconds under congestion, then it ends: the port's full rate
	# back (marking stays on, as on a switch).
	nap 3
	read -r t1 _ </proc/uptime
	fabric_ctl rate 0 25000 >/dev/null
	read -r t1b _ </proc/uptime
	# shellcheck disable=SC2317 # called through wait_for
	recovered() {
		local r a
		cc=$(ll_qp_cc "$qpn")
		read -r r _ _ a <<<"$cc"
		[ -n "$r" ] && { [ "$a" = 0 ] || [ "$r" -ge $((link_kbps * 9 / 10)) ]; }
	}
	if wait_for 30 recovered; then
		read -r t2 _ </proc/uptime
		echo "  congestion over (port 0 back to 25 Gb/s): DCQCN let go of QP $qpn (full rate) $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }') s later"
	else
		fail "QP $qpn's rate did not recover (${cc:-no QP})"
	fi
	: >"$res/demo-a.stop"
	wait "$fpid" || fail "episode A: sender (exit $?)"
	: >"$res/demo-sampler.stop"
	wait "$spid"
	echo 0 >"$tr/events/wren/wren_cc_rate/enable"
	grep "wren_cc_rate: .* qpn $qpn " "$tr/trace" >"$res/demo-cc.trace"
	# The flow's start, and the port's rate request sent and answered.
	echo "$t0 $t1 $t1b" >"$res/demo-episode.txt"
	echo "  wren_cc_rate tracepoint: $(grep -c ' cut ' "$res/demo-cc.trace") cuts, $(grep -c ' recovered ' "$res/demo-cc.trace") recoveries; $(wc -l <"$res/demo-queue.txt") queue samples; $(ll_mbs "$res/demo-a.out") MB/s overall"
	snap b
	sync_point a1
fi
counters a b
if [ "$me" = 0 ]; then
	[ "$(d rdma np_cnp_sent b a)" -gt 0 ] || fail "server 0 sent no CNP"
else
	[ "$(d f0 q3_ecn_marked b a)" -gt 0 ] || fail "the fabric marked nothing"
fi
sync_point a2

# Episode B: ECN off, PFC on at the fabric: pauses do the work.
echo "Episode B: ECN off, PFC on priority 3 at the fabric (XOFF 64 KiB, XON 32 KiB), port 0 at 100 Mb/s"
if [ "$me" = 1 ]; then
	ll_param cc_ecn_enable 0
	if ! { fabric_ctl ecn 0 3 off >/dev/null && fabric_ctl pfc all 3 on xoff 65536 xon 32768 >/dev/null &&
		fabric_ctl qlimit 0 3 65536 >/dev/null &&
		fabric_ctl rate 0 100 >/dev/null; }; then
		fail "fabric_ctl pfc/qlimit/rate"
	fi
else
	ll_param cc_ecn_enable 0
fi
sync_point b0
snap c
flow b 18781 --op write --size 65536 --depth 4 --mr-mib 16 --iters 256 --verify "${prio3[@]}"
rc=$?
sync_point b1
snap d
if [ "$me" = 1 ]; then
	echo "  16 MiB sent at $(ll_mbs "$res/demo-b.out") MB/s; server 0: $(grep -h 'WRITE data' "$res/demo-b.out" | head -n 1)"
	if [ "$rc" != 0 ] || ! grep -q 'WRITE data verified' "$res/demo-b.out"; then
		fail "episode B: the sender or the check of the data (exit $rc)"
	fi
else
	[ "$rc" = 0 ] || fail "episode B: the receiver (exit $rc)"
fi
counters c d
if [ "$me" = 1 ]; then
	[ "$(d f1 q3_pfc_tx_xoff d c)" -gt 0 ] || fail "the fabric sent no pause"
	fabric_ctl pfc all all off >/dev/null
	fabric_ctl ecn all all off >/dev/null
	fabric_ctl qlimit 0 all 524288 1024 >/dev/null
	fabric_ctl rate 0 25000 >/dev/null
fi
sync_point end
part_end
part=0
exec >/dev/null 2>&1
wren_unload
exit "$any_failed"
