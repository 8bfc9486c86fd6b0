#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Boot N bench guests under TCG, run one script in each, collect the results.
#
# usage: vmrun.sh SCRIPT
# Environment (mk/bench.mk sets these from make variables):
#   QEMU QEMU_FW_ARGS  QEMU binary and its firmware search path options
#   KERNEL_ENV         build/kernel-<KVER>.env (KABI, VMLINUZ, KMODDIR)
#   KVER N IOMMU       kernel series, guest count (2), intel-iommu on (1)
#   SMP                vCPUs per guest (1), or a comma list of one count
#                      per guest index (SMP=2,1: guest 0 two, guest 1 one;
#                      guests past the list get its last count); maxcpus
#                      is at least 2 (see start_guest)
#   MEM                guest memory in MiB (1024)
#   CPU                QEMU -cpu model (max without AVX: see start_guest)
#   TIMEOUT            seconds before a guest is killed (600)
#   RUN_DIR            host directory for logs and the results share
#   FABRIC             wren-fabric binary
#   PCAP=1             capture every fabric port to RUN_DIR/pcap-*/
#   APPEND             extra kernel command-line words
#   KARGS              more of them, comma separated (one word in a boot
#                      line of selftests/plan, e.g. KARGS=page_poison=1)
#   GUEST_ENV          VAR=value words added to every guest's environment
#   RXE                guest indices (space or comma separated) that get a
#                      plain virtio-net NIC on the Wren fabric port instead
#                      of a Wren NIC, for rdma_rxe there (interop tests)
#   GPU=1              a wren-gpu (test GPU, 256 MiB BAR2 backed by
#                      RUN_DIR/gpu<i>.mem, readable on the host afterwards)
#                      and the guest's fabric NIC under one PCIe switch:
#                      pcie-root-port -> x3130-upstream -> two
#                      xio3130-downstream ports, NIC on the first, GPU on
#                      the second
#   DCB=0              Wren NICs without the DCB and ECN/DCQCN engines
#                      (-device wren,dcb=off: their capability bits off)
#   CABLE              how a Wren NIC reaches its fabric port: wire (the
#                      default: `-device wren,wire=<socket>`, frames
#                      batched by the device, hw/qemu/wren_wire.c) or
#                      netdev (`-netdev stream`, a system call a frame;
#                      for comparing the two)
#   HANG_DUMP=S        S seconds before TIMEOUT, if a guest still runs,
#                      write what a hang leaves to RUN_DIR/hang/: both
#                      fabrics' port stats, each QEMU's virtio queues
#                      (qmp-virtio.py over a QMP socket each guest then
#                      has), the unix sockets' queues (ss) and, with
#                      gdb installed, the backtrace of every thread of
#                      the QEMUs and fabrics and each QEMU's net clients
#                      and virtio-net rings (qemu-net.gdb)
#   PKG=1              a package boot: the guests' /usr and module
#                      directory are writable (tmpfs overlays), for tests
#                      that install the .debs of `make deb` with dpkg;
#                      the module tree under the overlay is a read-only
#                      ext4 disk (modules-image.sh)
#   ROOTFS=SUITE       the guests boot a root filesystem of that Debian
#                      release (trixie) instead of the host's /: the
#                      SUITE-guest root of scripts/kernel/root.sh, made
#                      once and cached, shared read-only over 9p under a
#                      tmpfs overlay; the tree, BUILD and the kernel's
#                      modules are bound into it at their host paths from
#                      a second read-only share of the host's /
#                      (guest-init.sh).  Empty: the host's / (Debian 12)
#
# Fabric agent: guests cannot reach the fabrics' control sockets (unix
# sockets do not cross 9p), so a host loop runs `wren-fabric ctl` for them.
# A guest writes one command line to $WREN_RESULTS/fabric-req.<seq> (first
# word the fabric, wren or virtio; rename it into place), the agent answers
# in fabric-rep.<seq> (first line the exit status, then the output, renamed
# into place) and deletes the request.  selftests/lib/fabric.sh wraps this
# as fabric_ctl.  With PCAP=1 the guests find the Wren fabric's captures
# in $WREN_PCAP_DIR (the results share's pcap-wren/).
#
# RUN_DIR afterwards: guest<i>.log (console), guest<i>.qemu.log, guest<i>.rc
# (the script's exit status, written by the guest), guest<i>.out (its stdout),
# guest<i>.boot (seconds from kernel start to the script), guest<i>.result
# ("ok", "failed RC", "timeout ...", "error ...", "crashed ..."), g<i>/ (the
# script's WREN_RESULTS), with GPU=1 gpu<i>.mem (the GPU's memory, sparse);
# a QEMU that died of a signal leaves guest<i>.core (when core_pattern is a
# plain file name: QEMU runs in guest<i>.cwd/) and guest<i>.qemu-bt.txt
# (gdb's backtrace of every thread).  Exit status: 0 only if every guest's
# script exited 0 within TIMEOUT.
set -euo pipefail
# A QEMU that crashes leaves a core (crash_report), as far as the hard
# limit allows.
ulimit -c unlimited 2>/dev/null || ulimit -c "$(ulimit -H -c)" 2>/dev/null || true

script=$(realpath "${1:?usage: vmrun.sh SCRIPT}")
here=$(cd "$(dirname "$0")" && pwd)
top=${TOP:-$(cd "$here/../.." && pwd)}
: "${QEMU:?QEMU not set}" "${KERNEL_ENV:?KERNEL_ENV not set}" "${RUN_DIR:?RUN_DIR not set}"
: "${FABRIC:?FABRIC not set}"
N=${N:-2}
IOMMU=${IOMMU:-0}
GPU=${GPU:-0}
DCB=${DCB:-1}
TIMEOUT=${TIMEOUT:-600}
KVER=${KVER:-6.1}
read -r -a fw_args <<<"${QEMU_FW_ARGS:-}"

[ -f "$script" ] || { echo "vmrun: no such script: $script" >&2; exit 2; }
[ -x "$QEMU" ] || { echo "vmrun: QEMU binary $QEMU missing (make qemu)" >&2; exit 2; }
[ -x "$FABRIC" ] || { echo "vmrun: $FABRIC missing (make fabric)" >&2; exit 2; }
# shellcheck disable=SC1090 # generated by kernel-fetch.sh
. "$KERNEL_ENV"
initrd=$("$here/initramfs-build.sh" "$KERNEL_ENV")
# A package boot's module tree on a disk of its own (modules-image.sh).
modimg=
if [ "${PKG:-0}" = 1 ]; then
	modimg=$("$here/modules-image.sh" "$KERNEL_ENV") || exit 1
fi
# ROOTFS=: the guests' root, and the host paths bound into it.
guestroot=/
hostpaths=
if [ -n "${ROOTFS:-}" ]; then
	guestroot=$("$top/scripts/kernel/root.sh" path "$ROOTFS-guest") || exit 1
	hostpaths=$top
	build=$(realpath -m "${BUILD:-$top/build}")
	case $build/ in "$top"/*) ;; *) hostpaths+=" $build" ;; esac
	hostpaths+=" $KMODDIR"
fi

RUN_DIR=$(realpath -m "$RUN_DIR")
case "$RUN_DIR" in
/ | "$top" | "$HOME") echo "vmrun: refusing RUN_DIR=$RUN_DIR (it is emptied)" >&2; exit 2 ;;
esac
rm -rf "$RUN_DIR"
mkdir -p "$RUN_DIR"
# Unix socket paths must stay under 108 bytes: keep the fabric dirs short.
sockdir=$(mktemp -d /tmp/wren-bench.XXXXXX)
pids=()
# shellcheck disable=SC2317 # called through the EXIT trap
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$sockdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two switches, two L2 segments: the Wren NICs on one, virtio-net (the
# control network used by tests to coordinate) on the other.
start_fabric() {
	local name=$1 dir=$sockdir/$1 i
	local args=(serve --dir "$dir" --ports "$N")
	mkdir -p "$dir"
	if [ "${PCAP:-0}" = 1 ]; then
		mkdir -p "$RUN_DIR/pcap-$name"
		args+=(--pcap-dir "$RUN_DIR/pcap-$name")
	fi
	"$FABRIC" "${args[@]}" >"$RUN_DIR/fabric-$name.log" 2>&1 &
	pids+=($!)
	fabric_pids+=($!)
	for ((i = 0; i < 100; i++)); do
		[ -S "$dir/port$((N - 1)).sock" ] && return 0
		sleep 0.1
	done
	echo "vmrun: fabric $name did not come up, see $RUN_DIR/fabric-$name.log" >&2
	exit 1
}
fabric_pids=()
start_fabric wren
start_fabric virtio

# fabric_answer REQ: run one guest request (see the header) and answer it.
# The guest's text is never evaluated: it is split into words and each word
# must be a plain token (letters, digits, . _ : % -), so it can only ever
# become arguments of `wren-fabric ctl` on one of our two fabrics.
fabric_answer() {
	local req=$1 seq=${1##*.} dir=${1%/*} line words w rc out tmp
	line=$(head -c 512 -- "$req" 2>/dev/null | head -n 1) || line=
	rm -f -- "$req"
	read -r -a words <<<"$line" || true
	rc=2
	out="fabric agent: bad request '${line:0:80}'"
	case "${words[0]:-}" in
	wren | virtio)
		if [ ${#words[@]} -ge 2 ] && [ ${#words[@]} -le 16 ]; then
			rc=0
			for w in "${words[@]}"; do
				[[ $w =~ ^[A-Za-z0-9._:%-]{1,40}$ ]] || rc=2
			done
			if [ $rc = 0 ]; then
				out=$(timeout 20 "$FABRIC" ctl "$sockdir/${words[0]}" "${words[@]:1}" 2>&1) || rc=$?
			fi
		fi
		;;
	esac
	# mktemp creates a new file (O_EXCL) and mv replaces the name: a link a
	# guest planted at either name is never written through.
	tmp=$(mktemp "$dir/.fabric-rep.XXXXXX") || return 0
	printf '%s\n%s\n' "$rc" "$out" >"$tmp"
	mv -f -- "$tmp" "$dir/fabric-rep.$seq"
}

fabric_agent() {
	local req
	shopt -s nullglob
	while :; do
		for req in "$RUN_DIR"/g*/fabric-req.*; do
			# Only plain files named by a guest's sequence number.
			[[ ${req##*.} =~ ^[0-9]{1,9}$ ]] || continue
			if [ -f "$req" ] && [ ! -L "$req" ]; then
				fabric_answer "$req"
			else
				rm -f -- "$req"
			fi
		done
		sleep 0.2
	done
}
fabric_agent >"$RUN_DIR/fabric-agent.log" 2>&1 &
pids+=($!)

has_wren=0
if "$QEMU" "${fw_args[@]}" -device help 2>/dev/null | grep -qw '"wren"'; then
	has_wren=1
fi
wren_mac_prop=0
# RXE=1 (or "0 1"): these guests' Wren fabric port gets a virtio-net NIC,
# with the MAC the Wren NIC would have had, for Linux's rdma_rxe.
RXE=${RXE:-}
rxe_guests=" ${RXE//,/ } "
for w in $rxe_guests; do
	if ! [[ $w =~ ^[0-9]+$ ]] || [ "$w" -ge "$N" ]; then
		echo "vmrun: RXE=$RXE: not a guest index below N=$N" >&2
		exit 2
	fi
done
# SMP=2,1: vCPUs by guest index, for a boot where one guest works while
# the other waits (a TCG vCPU is a host thread; an idle one costs nothing).
IFS=, read -r -a smp_list <<<"${SMP:-1}"
for w in "${smp_list[@]}"; do
	if ! [[ $w =~ ^[1-9][0-9]*$ ]]; then
		echo "vmrun: SMP=$SMP: not a vCPU count or a comma list of them" >&2
		exit 2
	fi
done
if ! [[ ${MEM:-1024} =~ ^[1-9][0-9]*$ ]] || [ "${MEM:-1024}" -lt 512 ]; then
	echo "vmrun: MEM=$MEM: guest memory in MiB, at least 512" >&2
	exit 2
fi
# guest_smp I: guest I's vCPUs.
guest_smp() {
	local n=${#smp_list[@]}
	echo "${smp_list[$(($1 < n ? $1 : n - 1))]}"
}
# fabric_nic I: what guest I has on the Wren fabric: wren, virtio or none.
fabric_nic() {
	if [[ $rxe_guests == *" $1 "* ]]; then
		echo virtio
	elif [ $has_wren = 1 ]; then
		echo wren
	else
		echo none
	fi
}
wren_wire_prop=0
if [ $has_wren = 1 ]; then
	props=$("$QEMU" "${fw_args[@]}" -device wren,help 2>/dev/null)
	grep -qw mac <<<"$props" && wren_mac_prop=1
	grep -qw wire <<<"$props" && wren_wire_prop=1
fi
CABLE=${CABLE:-wire}
case $CABLE in
wire) [ $wren_wire_prop = 1 ] || CABLE=netdev ;;
netdev) ;;
*)
	echo "vmrun: CABLE=$CABLE: wire or netdev" >&2
	exit 2
	;;
esac
if [ "$GPU" = 1 ] &&
	! "$QEMU" "${fw_args[@]}" -device help 2>/dev/null | grep -qw '"wren-gpu"'; then
	echo "vmrun: GPU=1 but $QEMU lacks -device wren-gpu (make qemu)" >&2
	exit 2
fi

write_guest_env() {
	local i=$1 peer=$(($1 == 0 ? 1 : 0))
	{
		printf '%s=%q\n' \
			WREN_SCRIPT "$script" \
			WREN_GUEST_INDEX "$i" \
			WREN_NGUESTS "$N" \
			WREN_VIRTIO_IP "10.0.1.$((i + 1))" \
			WREN_PEER_VIRTIO_IP "10.0.1.$((peer + 1))" \
			WREN_IP "10.0.0.$((i + 1))" \
			WREN_PEER_IP "10.0.0.$((peer + 1))" \
			WREN_RESULTS "/run/wren/results/g$i" \
			WREN_TOP "$top" \
			WREN_KABI "$KABI" \
			WREN_KVER "$KVER" \
			WREN_KMODDIR "$KMODDIR" \
			WREN_HAS_NIC "$([ "$(fabric_nic "$i")" = wren ] && echo 1 || echo 0)" \
			WREN_FABRIC_NIC "$(fabric_nic "$i")" \
			WREN_PEER_FABRIC_NIC "$(fabric_nic "$peer")" \
			WREN_IOMMU "$IOMMU" \
			WREN_GPU "$GPU" \
			WREN_PKG "${PKG:-0}" \
			WREN_ROOTFS "${ROOTFS:-}" \
			WREN_HOST_PATHS "$hostpaths" \
			WREN_MODULES_DISK "$([ -n "$modimg" ] && echo /dev/vda)" \
			WREN_PCAP_DIR "$([ "${PCAP:-0}" = 1 ] && echo /run/wren/results/pcap-wren)"
		# GUEST_ENV: more VAR=value words (vmtest: the tests to run, the
		# plan's environment); VAR must be a shell name.
		for w in ${GUEST_ENV:-}; do
			case ${w%%=*} in
			"" | *[!A-Za-z0-9_]* | [0-9]*) echo "vmrun: GUEST_ENV word '$w' is not VAR=value" >&2 ;;
			*) printf '%s=%q\n' "${w%%=*}" "${w#*=}" ;;
			esac
		done
	} >"$RUN_DIR/guest$i.env"
}

# The -cpu of every guest unless CPU= says otherwise (start_guest).
cpu_fast=max,avx=off,avx2=off,fma=off,f16c=off

start_guest() {
	local i=$1 mac
	mac=$(printf '52:54:00:00:%02x:%02x' 1 $((i + 1)))
	# TCG emulates every instruction, so hardening costs more than on
	# hardware.  mitigations=off: a retpoline is extra emulated branches
	# on every indirect call (a 6.1 guest ran wren-probe and wren-ib in
	# 35 s instead of 51 s).  init_on_alloc=0 (Debian's default is 1): no
	# zeroing of every page and slab allocation (probe, ib and fatal 69 s
	# instead of 88 s; both A/Bs on a host shared with compiles, so rough),
	# and memory the driver forgets to initialise is then not masked.
	# norandmaps: TCG finds translated code by guest virtual address, so
	# with ASLR every exec translated ld.so, libc and the program afresh
	# at their new addresses; without it they are found again (a fork and
	# exec of /bin/true 43-51 ms -> 18-23 ms, nm --version 86 -> 32 ms).
	# no_timer_check: the kernel's check that the IO-APIC timer ticks
	# counts ticks over a busy-wait, and a TCG vCPU descheduled on a
	# loaded host misses them: 7.3 guests panicked with "IO-APIC + timer
	# doesn't work!" in 2 of 12 boots here (virtual machines' images pass
	# it for the same reason).
	local ncpu
	ncpu=$(guest_smp "$i")
	local append="console=ttyS0 quiet panic=-1 mitigations=off init_on_alloc=0 norandmaps no_timer_check nr_cpus=$ncpu wren.guest=$i"
	# Named threads (debug-threads: "CPU 0/TCG", "worker", ...) let a
	# profile (make bench-profile) tell the vCPUs from the main loop.
	# -cpu max without AVX: glibc's string and memory functions then
	# take their SSE2 paths, which TCG emulates faster than the 256-bit
	# ones (d61 190-198 s instead of 211-214 s).  Turning off SSE4 and
	# SSSE3 as well crashed the guest kernel's crypto self-tests.
	#
	# maxcpus of at least 2, even for one vCPU: with a single possible
	# CPU, TCG takes the guest for a uniprocessor and drops its memory
	# barriers (QEMU 7.2's tcg_gen_mb() emits none without CF_PARALLEL,
	# and a LOCK-prefixed instruction becomes a plain load and store).
	# The devices run in other host threads, though.  A guest's
	# smp_mb() between publishing a virtqueue's avail index and reading
	# the device's avail_event then orders nothing, and now and then a
	# kick is lost: the rxe/virtio-net hang (bench.rst).  The kernel is
	# told nr_cpus= the vCPUs: a second possible CPU would make Linux
	# keep the LOCK prefixes of every atomic (each a TCG helper call
	# now) and, on this AMD model without an invariant TSC, mark the
	# TSC unstable, leaving clock_gettime() to system calls and HPET.
	# dump-guest-core=off: a crashed QEMU's core (crash_report) holds
	# QEMU's own memory, not the guest's RAM as well.
	local machine=q35,dump-guest-core=off
	local qargs=(-accel tcg -machine "$machine" -cpu "${CPU:-$cpu_fast}"
		-smp "$ncpu,maxcpus=$((ncpu > 1 ? ncpu : 2))" -m "${MEM:-1024}"
		-nodefaults -no-reboot -display none -nographic -monitor none
		-name "guest$i,debug-threads=on"
		${HANG_DUMP:+-qmp "unix:$sockdir/qmp$i.sock,server=on,wait=off"}
		-chardev "file,id=con,path=$RUN_DIR/guest$i.log" -serial chardev:con
		-kernel "${VMLINUX:-$VMLINUZ}" -initrd "$initrd")
	if [ "$IOMMU" = 1 ]; then
		# Before every other device so that all of them sit behind it.
		qargs+=(-device "intel-iommu,intremap=off")
		append+=" intel_iommu=on iommu=nopt"
	fi
	qargs+=(-virtfs "local,path=$guestroot,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap")
	if [ -n "${ROOTFS:-}" ]; then
		qargs+=(-virtfs "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap")
		append+=" wren.rootfs=1"
	fi
	qargs+=(
		-virtfs "local,path=$RUN_DIR,mount_tag=results,security_model=none,multidevs=remap"
		-netdev "stream,id=v0,server=off,addr.type=unix,addr.path=$sockdir/virtio/port$i.sock"
		-device "virtio-net-pci,netdev=v0,mac=$mac,romfile=")
	# GPU=1: the switch of a GPU server, the fabric NIC on its first
	# downstream port (bus=wsw0 below), the GPU on the second.  Chassis
	# numbers must be unique per machine; nothing else here uses any.
	local nicbus=
	if [ "$GPU" = 1 ]; then
		qargs+=(-device "pcie-root-port,id=wrp0,chassis=1,slot=0"
			-device "x3130-upstream,id=wup0,bus=wrp0"
			-device "xio3130-downstream,id=wsw0,bus=wup0,chassis=2,slot=0"
			-device "xio3130-downstream,id=wsw1,bus=wup0,chassis=3,slot=0"
			-object "memory-backend-file,id=gpumem,size=256M,mem-path=$RUN_DIR/gpu$i.mem,share=on"
			-device "wren-gpu,id=gpu0,memdev=gpumem,bus=wsw1")
		nicbus=,bus=wsw0
	fi
	local wdev
	case $(fabric_nic "$i") in
	wren)
		if [ "$CABLE" = wire ]; then
			wdev="wren,wire=$sockdir/wren/port$i.sock"
		else
			wdev="wren,netdev=w0"
		fi
		[ $wren_mac_prop = 1 ] && wdev+=$(printf ',mac=52:54:00:00:%02x:%02x' 0 $((i + 1)))
		[ "$DCB" = 0 ] && wdev+=",dcb=off"
		;;
	virtio)
		wdev=$(printf 'virtio-net-pci,netdev=w0,romfile=,mac=52:54:00:00:%02x:%02x' 0 $((i + 1)))
		;;
	*) wdev= ;;
	esac
	if [[ $wdev == *netdev=w0* ]]; then
		qargs+=(-netdev "stream,id=w0,server=off,addr.type=unix,addr.path=$sockdir/wren/port$i.sock")
	fi
	[ -z "$wdev" ] || qargs+=(-device "$wdev$nicbus")
	# Last, so that no other device moves: the module disk, shared
	# read-only by every guest of the boot.
	[ -z "$modimg" ] ||
		qargs+=(-drive "file=$modimg,format=raw,if=none,id=mods,readonly=on"
			-device "virtio-blk-pci,drive=mods")
	kargs=${KARGS:-}
	append+=" ${APPEND:-} ${kargs//,/ }"
	mkdir -p "$RUN_DIR/g$i" "$RUN_DIR/guest$i.cwd"
	# Its own working directory: where a core_pattern of a plain file
	# name puts the core if it crashes (crash_report).
	(cd "$RUN_DIR/guest$i.cwd" &&
		exec timeout --kill-after=10 "$TIMEOUT" "$QEMU" "${fw_args[@]}" "${qargs[@]}" \
			-append "$append") >"$RUN_DIR/guest$i.qemu.log" 2>&1 &
	qemu_pids[i]=$!
	pids+=($!)
}

echo "vmrun: $N guest(s), kernel $KABI${ROOTFS:+, root filesystem $ROOTFS ($guestroot)}$([ "$IOMMU" = 1 ] && echo " +iommu")$([ "$GPU" = 1 ] && echo " +gpu"), Wren NIC $([ $has_wren = 1 ] && echo "yes ($CABLE)" || echo 'no (QEMU lacks -device wren)')${RXE:+, virtio-net on the Wren fabric for guest(s) $RXE}, logs in $RUN_DIR"
qemu_pids=()
for ((i = 0; i < N; i++)); do
	write_guest_env "$i"
	start_guest "$i"
done

# hang_dump: the state of everything a guest's I/O goes through, while
# it still runs (HANG_DUMP above).  Each part is bounded by a timeout,
# and a part that fails leaves its error in its file, not the others.
hang_dump() {
	local d=$RUN_DIR/hang name p i comm
	mkdir -p "$d"
	echo "vmrun: a guest still runs ${HANG_DUMP}s before the timeout; its state goes to $d"
	for name in wren virtio; do
		for ((p = 0; p < N; p++)); do
			timeout 20 "$FABRIC" ctl "$sockdir/$name" stats "$p" 2>&1 || true
		done >"$d/fabric-$name.stats"
	done
	for ((i = 0; i < N; i++)); do
		timeout 30 python3 "$here/qmp-virtio.py" "$sockdir/qmp$i.sock" \
			>"$d/guest$i.virtio.json" 2>&1 || true
	done
	# The unix sockets' queues: frames a process has not read yet.
	ss -xpm >"$d/sockets.txt" 2>&1 || true
	command -v gdb >/dev/null || return 0
	for p in "${qemu_pids[@]}" "${fabric_pids[@]}"; do
		comm=$(cat "/proc/$p/comm" 2>/dev/null) || continue
		# timeout(1) runs each QEMU: its child is the QEMU
		if [ "$comm" = timeout ]; then
			p=$(pgrep -P "$p" || true)
			p=${p%%$'\n'*}
			[ -n "$p" ] || continue
			comm=$(cat "/proc/$p/comm" 2>/dev/null) || continue
		fi
		timeout 60 gdb -batch -p "$p" -ex "thread apply all bt" \
			>"$d/$comm-$p.bt" 2>&1 || true
		[ "$comm" = wren-fabric ] ||
			timeout 60 gdb -batch -p "$p" -x "$here/qemu-net.gdb" \
				>"$d/$comm-$p.net" 2>&1 || true
	done
}
if [ -n "${HANG_DUMP:-}" ] && [ "$HANG_DUMP" -lt "$TIMEOUT" ]; then
	# cleanup() kills this subshell when the guests are done: its sleep
	# goes with it, or the orphan would hold our stdout open until the
	# timeout and with it a pipe the caller reads (make bench-rdma | tee).
	(
		sp=
		trap '[ -z "$sp" ] || kill "$sp" 2>/dev/null; exit 0' TERM
		sleep $((TIMEOUT - HANG_DUMP)) &
		sp=$!
		wait "$sp" && hang_dump
	) &
	pids+=($!)
fi

# crash_report I STATUS: QEMU I died of a signal (exit 128 + signal, as
# timeout(1) passes it on).  Keep its core as guest<i>.core and the
# backtrace of every thread in guest<i>.qemu-bt.txt, and print the
# crashing thread's, so that a crash in CI is diagnosed from its log.
crash_report() {
	local i=$1 sig=$(($2 - 128)) cwd=$RUN_DIR/guest$1.cwd core pattern
	pattern=$(cat /proc/sys/kernel/core_pattern 2>/dev/null || echo '?')
	core=$(find "$cwd" -maxdepth 1 -name 'core*' -type f 2>/dev/null | head -n 1)
	if [ -z "$core" ]; then
		echo "vmrun: guest$i's QEMU died of signal $sig; no core in $cwd (core_pattern '$pattern', ulimit -c $(ulimit -c))"
		return 0
	fi
	mv "$core" "$RUN_DIR/guest$i.core"
	echo "vmrun: guest$i's QEMU died of signal $sig; core in $RUN_DIR/guest$i.core"
	command -v gdb >/dev/null || { echo "vmrun: no gdb for its backtrace"; return 0; }
	timeout 120 gdb -batch -ex 'echo == the thread that crashed\n' -ex bt \
		-ex 'echo == every thread\n' -ex 'thread apply all bt' \
		"$QEMU" "$RUN_DIR/guest$i.core" >"$RUN_DIR/guest$i.qemu-bt.txt" 2>&1 || true
	echo "---- the crashing thread (all threads: $RUN_DIR/guest$i.qemu-bt.txt)"
	sed -n '/^== the thread that crashed/,/^== every thread/p' "$RUN_DIR/guest$i.qemu-bt.txt" |
		grep -E '^#|^\[Current thread|^Program terminated' | head -n 30
	echo "----"
}

# guest<i>.result: one word (and detail) for tools that summarise runs.
failed=0
for ((i = 0; i < N; i++)); do
	qrc=0
	wait "${qemu_pids[i]}" || qrc=$?
	case $qrc in
	132 | 133 | 134 | 135 | 136 | 139) crash_report "$i" "$qrc" ;;
	esac
	rmdir "$RUN_DIR/guest$i.cwd" 2>/dev/null || true
	rcfile=$RUN_DIR/guest$i.rc
	boot=$(cat "$RUN_DIR/guest$i.boot" 2>/dev/null || echo '?')
	if [ $qrc = 124 ] || [ $qrc = 137 ]; then
		result="timeout ${TIMEOUT}s"
		echo "vmrun: guest$i TIMED OUT after ${TIMEOUT}s (killed)"
	elif [ -s "$RUN_DIR/guest$i.error" ]; then
		result="error $(cat "$RUN_DIR/guest$i.error")"
		echo "vmrun: guest$i setup failed: $(cat "$RUN_DIR/guest$i.error")"
	elif [ ! -s "$rcfile" ]; then
		result="crashed (QEMU exit $qrc, no exit status)"
		echo "vmrun: guest$i gave no exit status (QEMU exit $qrc; crashed or failed to boot)"
	elif [ "$(cat "$rcfile")" != 0 ]; then
		result="failed $(cat "$rcfile")"
		echo "vmrun: guest$i script FAILED with exit status $(cat "$rcfile") (booted in ${boot}s)"
	else
		echo ok >"$RUN_DIR/guest$i.result"
		echo "vmrun: guest$i ok (booted in ${boot}s)"
		continue
	fi
	failed=1
	echo "$result" >"$RUN_DIR/guest$i.result"
	echo "---- last lines of $RUN_DIR/guest$i.log"
	tail -n 25 "$RUN_DIR/guest$i.log" || true
	tail -n 5 "$RUN_DIR/guest$i.qemu.log" || true
	echo "----"
done
exit $failed
