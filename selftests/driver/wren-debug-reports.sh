#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test, last on a debug kernel (tools/testbench/debug-kernel.config):
# the checkers' verdict over everything the guest ran before it.  Tests
# clear dmesg, so the kernel log is read from /dev/kmsg, which keeps
# every record still in the buffer (the debug boots set log_buf_len large
# enough).  One result per checker: KASAN, UBSAN, lockdep (and whether it
# is still on: it turns itself off after its first report), sleeping in
# atomic context, RCU misuse, DEBUG_OBJECTS, the DMA API's checks,
# kmemleak after a scan, WARN/BUG/oops, and the kernel's taint flags.
# Every report is shown in full as a diagnostic.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"

dbg=/sys/kernel/debug
plan 12
mountpoint -q "$dbg" || mount -t debugfs none "$dbg"

if [ ! -e "$dbg/kmemleak" ]; then
	for _ in $(seq 12); do skip "debug reports" "not a debug kernel (no kmemleak)"; done
	tap_done
	exit 0
fi

# kmemleak reports objects unreferenced for 5 s at a scan; the second
# scan catches those the first found too young.
echo scan >"$dbg/kmemleak"
sleep 6
echo scan >"$dbg/kmemleak"
leaks=$(cat "$dbg/kmemleak")

# Every record still in the buffer, whatever dmesg -C did: a nonblocking
# reader of /dev/kmsg starts at the oldest and ends at the newest (EPIPE
# says records were overwritten: the read goes on after them).
log=$(python3 -c '
import errno, os, sys
fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
while True:
    try:
        rec = os.read(fd, 65536)
    except OSError as e:
        if e.errno == errno.EPIPE:
            print("kmsg: records lost")
            continue
        break
    head, _, text = rec.decode(errors="replace").partition(";")
    sys.stdout.write(text)
')
# Reports that are not Wren's and that no Wren change can avoid
# (known_reports.py says which and why) are taken out before the checks
# and shown as a diagnostic.
known=$(mktemp)
log=$(python3 "$WREN_TOP/selftests/lib/known_reports.py" --known "$known" <<<"$log")
nknown=$(grep -c 'cacheline tracking EEXIST' "$known")
# The known file's reports are blank-line separated: a paragraph each.
numem=$(awk -v RS= '/cacheline tracking EEXIST/ && /ib_umem_get/ { n++ } END { print n + 0 }' "$known")
known_lockdep=$(grep -c 'possible circular locking dependency' "$known")
[ "$nknown" = "$numem" ] ||
	diag "not counted: $((nknown - numem)) DMA-API overlap warning(s) of nvme-rdma's completion capsules: $(awk -v RS= '/cacheline tracking EEXIST/ && /nvme_rdma_alloc_qe/ { print; exit }' "$known")"
[ "$numem" = 0 ] ||
	diag "not counted: $numem DMA-API overlap warning(s) of user pages that ib_umem_get() mapped for two registrations: $(awk -v RS= '/cacheline tracking EEXIST/ && /ib_umem_get/ { print; exit }' "$known")"
[ "$known_lockdep" = 0 ] ||
	diag "not counted: nvmet's config semaphore against the RDMA CM's handler mutex (lockdep stopped there): $(grep -m 1 -A 30 'possible circular locking dependency' "$known")"
rm -f "$known"
first=$(head -n 1 <<<"$log")
diag "kernel log from: ${first:0:80}"
check "the kernel log still holds the boot's first records (log_buf_len large enough)" \
	grep -q 'Linux version' <<<"$first"

# report NAME REGEX [LINES]: no record matches; the matches and LINES (20)
# lines after each as diagnostics.
report() {
	local hits
	hits=$(grep -E -A"${3:-20}" "$2" <<<"$log" | head -n 200)
	check "no $1 report" test -z "$hits"
	[ -z "$hits" ] || diag "$hits"
}

report KASAN 'BUG: KASAN|KASAN: '
report UBSAN 'UBSAN: '
report lockdep 'possible (circular|recursive) locking|inconsistent lock state|possible irq lock inversion|lock held when returning|bad unlock balance|held lock freed|WARNING: .*lockdep'
report 'sleeping in atomic context' 'BUG: (sleeping function called|scheduling while atomic)|Voluntary context switch within RCU'
report 'RCU misuse' 'suspicious RCU usage'
report DEBUG_OBJECTS 'ODEBUG: '
# A report names the driver and the device ("DMA-API: wren 0000:...:");
# the boot's own lines ("DMA-API: preallocated ...") do not.
# Through dma-debug's "Mapped at:" stack, which names the mapping's caller.
report 'DMA API' 'DMA-API: [^ ]+ [^ ]+: ' 70
# Not "Call Trace" alone: injected allocation failures print stacks.
# Through the trace, to what the driver says after it.
report 'WARN, BUG or oops' 'WARNING: CPU|------------\[ cut here \]|BUG: |Oops|general protection fault|kmsg: records lost' 60

# After a known report lockdep is off too: the diagnostic above says
# where its coverage ended.  So after a module whose license the kernel
# does not count as GPL-compatible (NVIDIA's nvidia-peermem: "Linux-
# OpenIB"): its P taint turns lockdep off, which the kernel says right
# after naming the module; selftests/plan runs that test last.
taint_off=$(grep -B1 -m1 'Disabling lock debugging due to kernel taint' <<<"$log" |
	sed -n "s/.*: module license '\([^']*\)' taints kernel.*/\1/p")
taint_mod=$(grep -B1 -m1 'Disabling lock debugging due to kernel taint' <<<"$log" |
	sed -n "s/^\([^:]*\): module license .*/\1/p")
if grep -qE '^ *debug_locks: +1$' /proc/lockdep_stats; then
	ok "lockdep is still on (it turns itself off after a report)"
elif [ "$known_lockdep" != 0 ]; then
	ok "lockdep was on until the known report above"
elif [ -n "$taint_off" ]; then
	ok "lockdep was on until $taint_mod loaded (module license '$taint_off' taints the kernel)"
else
	not_ok "lockdep is still on (it turns itself off after a report)"
fi

nleaks=$(grep -c '^unreferenced object' <<<"$leaks")
check "kmemleak finds no leak after the tests ($nleaks)" test "$nleaks" = 0
[ "$nleaks" = 0 ] || diag "$(head -n 300 <<<"$leaks")"

# Taint bits: B bad page (5), D died (7), W warning (9), L soft lockup
# (14).  O and E (12, 13: our out-of-tree, unsigned modules) are
# expected; W too when every warning was one of the known ones above.
taint=$(cat /proc/sys/kernel/tainted)
bad=$((1 << 5 | 1 << 7 | 1 << 9 | 1 << 14))
if [ "$nknown" != 0 ] && ! grep -qE 'WARNING: CPU|cut here' <<<"$log"; then
	bad=$((bad & ~(1 << 9)))
fi
check "the kernel is not tainted by a report (taint $taint)" \
	test $((taint & bad)) = 0
tap_done
