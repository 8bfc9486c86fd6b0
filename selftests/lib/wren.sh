# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Helpers for the tests that run in the bench guests and load wren.ko:
# where the modules are, the NIC's PCI address and netdev, its registers,
# and the checks every such test ends with.  Needs tap.sh (the check_* helpers) and wait.sh
# (wren_netdev) sourced.
#
# The hardware contract's numbers (include/linux/wren/: limits, power-on
# values, register offsets and bits) come from one file, sourced here:
# a WREN_<NAME>=<decimal> variable for each #define, enum member and
# capability bit of the headers.  The host writes it with the tree's one
# reader of the headers (dcb/lib/wrenqos/contract.py, mk/selftests.mk)
# before the guests boot; the guests see it through the 9p root.  One
# file sourced, not a Python exec per value: each exec costs a TCG guest
# 0.2 s.
WREN_CONTRACT_SH=${WREN_CONTRACT_SH:-$WREN_TOP/build/contract/wren-contract.sh}
# shellcheck source=/dev/null # generated: NAME=value lines
if ! . "$WREN_CONTRACT_SH"; then
	echo "Bail out! no $WREN_CONTRACT_SH (make vmtest-deps writes it)"
	exit 1
fi

# wren_reg NAME: a register offset or bit of the contract by its name in
# wren_regs.h (WREN_REG_CAPS_LO, WREN_CAP_DCB_ETS, WREN_MAGIC), printed
# as 0x%x (what $((...)) and wren_regs read); fails for a name the
# headers do not define.
wren_reg() {
	if [[ $1 != WREN_* || -z ${!1+set} ]]; then
		echo "wren_reg: $1 is no number of the contract headers" >&2
		return 1
	fi
	printf '0x%x\n' "${!1}"
}

# wren_next_second: nap until just after the wall clock's next second.
# Builtins only (EPOCHREALTIME, printf, nap): an exec costs more under
# TCG than the wait it would time.
wren_next_second() {
	local us=${EPOCHREALTIME#*.} wait_us s
	wait_us=$((1010000 - 10#$us))
	printf -v s '%d.%06d' $((wait_us / 1000000)) $((wait_us % 1000000))
	nap "$s"
}

# wren_dcb ARGS...: `dcb ARGS`, run once more from the start of the next
# second when it fails with "Attribute write: Protocol error".  That is
# iproute2 6.1's dcb, not the NIC: it asks every request for a netlink ACK
# but reads only the reply, so the GET with which a set reads the object
# first leaves its ACK queued, and the set then reads that ACK instead of
# its own answer.  When the GET and the SET fell in different seconds
# (their sequence numbers are time(NULL)) libmnl calls the stale ACK
# EPROTO, though the kernel applied the set; newer iproute2 asks for no
# ACK.  From the start of a second both fall in the same one.  Callers
# read the state back: this dcb never sees the set's own answer.
wren_dcb() {
	local out rc=0
	out=$(dcb "$@" 2>&1) || rc=$?
	if [ "$rc" -ne 0 ] && [ "$out" = "Attribute write: Protocol error" ]; then
		echo "dcb $*: iproute2 6.1's stale netlink ACK (EPROTO), run again" >&2
		wren_next_second
		rc=0
		out=$(dcb "$@" 2>&1) || rc=$?
	fi
	[ -z "$out" ] || printf '%s\n' "$out"
	return "$rc"
}

# Where the modules built for this guest's kernel series are; the host
# root is shared, so the host's build tree is visible at the same path.
wren_moddir() {
	local kver=${WREN_KVER:-}
	if [ -z "$kver" ]; then
		kver=$(uname -r | cut -d. -f1,2)
	fi
	echo "${WREN_MODULES:-$WREN_TOP/build/modules/$kver}"
}

# wren_ib_load [MODDIR]: insmod wren_ib.ko from MODDIR (wren_moddir), and
# before it wren_peer_mem.ko, the peer-memory registry it links against,
# unless that is loaded already.  ib_core and ib_uverbs must be loaded
# (modprobe ib_uverbs), and wren.ko for wren_ib.ko to bind.
wren_ib_load() {
	local mods=${1:-$(wren_moddir)}
	if ! grep -q '^wren_peer_mem ' /proc/modules; then
		insmod "$mods/wren_peer_mem.ko" || return 1
	fi
	insmod "$mods/wren_ib.ko"
}

# wren_ib_unload: rmmod wren_ib, then wren_peer_mem unless a peer-memory
# client (nvidia-peermem, a test client) still holds it.
wren_ib_unload() {
	rmmod wren_ib || return 1
	rmmod wren_peer_mem 2>/dev/null || true
}

# wren_unload: wren_ib_unload, then rmmod wren.
wren_unload() {
	wren_ib_unload && rmmod wren
}

# PCI address of the (first) Wren NIC, empty when there is none.
wren_bdf() {
	local d ven dev
	printf -v ven '0x%04x' "$WREN_PCI_VENDOR_ID"
	printf -v dev '0x%04x' "$WREN_PCI_DEVICE_ID"
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor")" = "$ven" ] && [ "$(cat "$d/device")" = "$dev" ]; then
			basename "$d"
			return 0
		fi
	done
	return 1
}

# wren_require_nic REST WHAT: a driver test's first check.  Sets bdf to
# the Wren NIC's PCI address; without one, fails that check, skips the
# REST checks that would follow ("WHAT") and ends the test.
wren_require_nic() {
	local id
	printf -v id '%04x:%04x' "$WREN_PCI_VENDOR_ID" "$WREN_PCI_DEVICE_ID"
	bdf=$(wren_bdf)
	if [ -z "$bdf" ]; then
		not_ok "a Wren NIC ($id) is on the PCI bus"
		diag "$(lspci -nn 2>&1)"
		for _ in $(seq "$1"); do skip "$2" "no Wren NIC"; done
		tap_done
		exit 1
	fi
	ok "a Wren NIC ($id) is on the PCI bus at $bdf"
}

# wren_regs BDF OFFSET...: read 32-bit BAR0 registers through the sysfs
# resource0 mapping, independently of the driver, one hex value a line.
# Offsets by name: wren_regs "$bdf" "$(wren_reg WREN_REG_CAPS_LO)".
# Only while no driver has claimed BAR0: a strict-devmem kernel refuses to
# map a region a driver has requested.
wren_regs() {
	local bdf=$1
	shift
	python3 - "/sys/bus/pci/devices/$bdf/resource0" "$@" <<'PY'
import ctypes, mmap, sys
with open(sys.argv[1], "r+b") as f:
    m = mmap.mmap(f.fileno(), 4096, mmap.MAP_SHARED,
                  mmap.PROT_READ | mmap.PROT_WRITE)
    for off in sys.argv[2:]:
        # One 32-bit load: registers answer only naturally sized accesses.
        print("0x%08x" % ctypes.c_uint32.from_buffer(m, int(off, 0)).value)
PY
}

# wren_dcb_caps CAPS_LO: the DCB capability bits of a CAPS_LO value
# (WREN_CAP_DCB_ETS, _PFC, _DSCP_TRUST, _BUFFER, _MAXRATE), moved down to
# bit 0; 0 for a NIC without DCB (the bench's DCB=0 board).
wren_dcb_caps() {
	echo $((($1 & (WREN_CAP_DCB_ETS | WREN_CAP_DCB_PFC | WREN_CAP_DCB_DSCP_TRUST |
		WREN_CAP_DCB_BUFFER | WREN_CAP_DCB_MAXRATE)) / WREN_CAP_DCB_ETS))
}

# wren_need_diag_fault N WHAT: the start of the tests that make the
# device misbehave through DIAG_FAULT and debugfs's inject_fault
# (wren-aq-timeout.sh, wren-aq-late.sh), after wren_require_nic and
# before wren.ko claims BAR0.  Sets capslo and aq_timeout (CAPS_LO,
# AQ_TIMEOUT_MS) and aq_floor, how long the driver waits for a command
# (AQ_TIMEOUT_MS, at least its 1 s floor).  A device without
# WREN_CAP_DIAG_FAULT skips the N checks that follow ("WHAT") and ends
# the test; else debugfs is mounted.
# shellcheck disable=SC2034 # capslo, aq_timeout, aq_floor: what callers read
wren_need_diag_fault() {
	read -r capslo aq_timeout < <(wren_regs "$bdf" "$(wren_reg WREN_REG_CAPS_LO)" \
		"$(wren_reg WREN_REG_AQ_TIMEOUT_MS)" | tr '\n' ' ')
	if [ $((capslo & WREN_CAP_DIAG_FAULT)) = 0 ]; then
		for _ in $(seq "$1"); do skip "$2" "device lacks DIAG_FAULT"; done
		tap_done
		exit 0
	fi
	aq_floor=$((aq_timeout > 1000 ? aq_timeout : 1000))
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
}

# wren_load_no_recover [MODDIR]: insmod wren.ko (wren_moddir) and turn
# the fw_fatal health reporter's auto-recovery off, for the tests that
# look at a device left fatal or needing a reset: devlink health would
# otherwise reset it at once (wren-recover.sh tests that).  Failures are
# diagnostics: the checks that follow fail on their own.
wren_load_no_recover() {
	insmod "${1:-$(wren_moddir)}/wren.ko" || diag "insmod wren.ko failed"
	devlink health set "pci/$bdf" reporter fw_fatal auto_recover false ||
		diag "devlink health set auto_recover false failed"
}

# wren_inject FILE FAULT: write FAULT into debugfs's inject_fault FILE
# and time it.  Sets inject_out (the write's error message), inject_rc
# (its status) and inject_ms (how long it took).
# shellcheck disable=SC2034 # inject_*: what callers read
wren_inject() {
	local start
	start=$(date +%s%N)
	inject_rc=0
	inject_out=$(printf '%s\n' "$2" 2>&1 >"$1") || inject_rc=$?
	inject_ms=$((($(date +%s%N) - start) / 1000000))
}

# Kernel messages that must never appear while the driver loads/unloads.
wren_bad_dmesg() {
	local log
	log=$(dmesg)
	# A debug kernel's reports that are not Wren's (known_reports.py);
	# matched in the shell: an exec costs a TCG guest 0.2 s a test.
	if [[ $log == *"cacheline tracking EEXIST"* ||
	      $log == *"possible circular locking"* ]]; then
		log=$(python3 "$WREN_TOP/selftests/lib/known_reports.py" <<<"$log")
	fi
	grep -E 'WARNING:|BUG:|Call Trace|hung|timed out|leak|without an interrupt' <<<"$log" || true
}

# Leftovers of a wren.ko instance, one line each; empty when clean.
wren_leftovers() {
	local bdf=$1 f
	grep -E 'wren' /proc/interrupts | sed 's/^/irq: /'
	[ -e "/sys/bus/pci/devices/$bdf/driver" ] &&
		echo "driver: $(basename "$(readlink "/sys/bus/pci/devices/$bdf/driver")") still bound"
	devlink dev 2>/dev/null | grep -F "pci/$bdf" | sed 's/^/devlink: /'
	for f in /sys/bus/auxiliary/devices/wren.*; do
		[ -e "$f" ] && echo "aux: ${f##*/}"
	done
	grep -i wren /proc/iomem | sed 's/^/iomem: /'
	for f in "/sys/bus/pci/devices/$bdf/msi_irqs"/*; do
		[ -e "$f" ] && echo "msi vector: ${f##*/}"
	done
	grep -E '^(wren|wren_ib) ' /proc/modules | sed 's/^/module: /'
	return 0
}

# wren_netdev BDF [SECONDS]: the name of the netdev wren.ko registered for
# the NIC at BDF, waiting up to SECONDS (20) for it to appear; returns 1
# when none does.
wren_netdev() {
	local n
	wait_for "${2:-20}" test -d "/sys/bus/pci/devices/$1/net" || return 1
	for n in "/sys/bus/pci/devices/$1/net"/*; do
		[ -e "$n" ] || continue
		echo "${n##*/}"
		return 0
	done
	return 1
}

# wren_qos_up IF: the boot's QoS profile (WREN_QOS_PROFILE, set per boot
# in selftests/plan) on netdev IF, applied with dcb/wren-qos as an
# operator applies it once the port is up, so that the boot's tests run
# on ports set up that way; nothing when the boot sets none.  The NIC
# forgets its DCB state when it resets at remove: a test that reloads
# wren.ko and goes on with traffic calls this again.  Prints "# QoS
# profile P on IF (N ms)" (a TAP diagnostic; the time is what the boot
# pays per test for it); fails with wren-qos's messages in WREN_QOS_ERR.
# shellcheck disable=SC2034 # WREN_QOS_ERR is what callers read
wren_qos_up() {
	local out t0
	WREN_QOS_ERR=
	[ -n "${WREN_QOS_PROFILE:-}" ] || return 0
	t0=${EPOCHREALTIME//[.,]/}
	if ! out=$("$WREN_TOP/dcb/wren-qos" apply "$WREN_QOS_PROFILE" "$1" 2>&1); then
		WREN_QOS_ERR="wren-qos apply $WREN_QOS_PROFILE $1: ${out:-failed}"
		return 1
	fi
	echo "# QoS profile $WREN_QOS_PROFILE on $1 ($(((${EPOCHREALTIME//[.,]/} - t0) / 1000)) ms)"
}

# The end of a test that loaded the driver, one TAP result each (tap.sh):
# check_leftovers BDF [DESC]  nothing of wren.ko is left (wren_leftovers),
#                             what is left as diagnostics
# check_dmesg [DESC]          dmesg has none of wren_bad_dmesg's lines,
#                             those it has as diagnostics
check_leftovers() {
	local left
	left=$(wren_leftovers "$1")
	check "${2:-nothing left behind (irq, devlink, aux device, iomem, MSI-X, module)}" test -z "$left"
	[ -z "$left" ] || diag "$left"
}

check_dmesg() {
	local bad
	bad=$(wren_bad_dmesg)
	check "${1:-dmesg has no warnings, oopses or timeouts}" test -z "$bad"
	[ -z "$bad" ] || diag "$bad"
	[ -n "$bad" ] || return 0
	# What the driver said before it: a failed admin command names the
	# object and the device's status, which a WARN's trace does not.
	bad=$(dmesg | grep -E ' failed: -[0-9]+ \(status [0-9]+\)$' | tail -n 20)
	[ -z "$bad" ] || diag "$bad"
}
