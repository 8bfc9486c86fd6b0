#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: a timed-out admin command whose device writes its output
# buffer late.  Through debugfs ("aq_late") the device is told to run the
# next command half a second after the driver's timeout (DIAG_FAULT
# AQ_LATE), and a QUERY_DEVICE with an output buffer is sent.  The driver
# must give up with ETIMEDOUT but keep the buffer (debugfs cmd_orphans
# lists it), the device's late write must land in that buffer, which the
# driver still holds, and nothing freed may be written: booted with
# page_poison=1, the kernel checks every page it hands out again for
# writes after it was freed ("pagealloc: memory corruption").  The buffer
# is released after the device's reset, at rmmod.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
plan 11
dmesg -C

wren_require_nic 10 "late admin write"
wren_need_diag_fault 10 "late admin write"
# No reset before the late write.
wren_load_no_recover "$mods"
dir=/sys/kernel/debug/wren/$bdf
check "debugfs lists no orphaned command buffers on a healthy device" \
	grep -qx 'orphans 0' "$dir/cmd_orphans"

wren_inject "$dir/inject_fault" aq_late
check "the late QUERY_DEVICE fails with ETIMEDOUT after ${inject_ms} ms (timeout ${aq_floor} ms)" \
	bash -c "[ $inject_rc != 0 ] && grep -q 'timed out' <<<'$inject_out' && [ $inject_ms -ge $aq_floor ]"
diag "cmd_orphans right after the timeout: $(tr '\n' ';' <"$dir/cmd_orphans")"

check "the driver kept the timed-out command's output buffer" \
	bash -c "grep -qx 'orphans 1' '$dir/cmd_orphans' &&
		 grep -qE '^QUERY_DEVICE in 0 out [1-9][0-9]* ' '$dir/cmd_orphans'"

# The device writes QUERY_DEVICE's answer (caps, limits, MAC ...) into
# coherent memory that started zeroed: non-zero bytes are its late write.
written() {
	grep -qE '^QUERY_DEVICE .* out_written [1-9]' "$dir/cmd_orphans"
}
wait_for 20 written
check "the device's late write landed in the buffer the driver still holds" written
diag "cmd_orphans after the late write: $(tr '\n' ';' <"$dir/cmd_orphans")"
check "the driver reaped the late completion" \
	bash -c 'dmesg | grep -qE "late admin completion for cmd_id 0x[0-9a-f]{4}"'

# Hand out plenty of pages, so that any page freed under the device is
# allocated again and checked for a write after its free.
if grep -qw 'page_poison=1' /proc/cmdline; then
	mkdir -p /tmp/wren-poison
	mount -t tmpfs -o size=96m none /tmp/wren-poison &&
		dd if=/dev/zero of=/tmp/wren-poison/fill bs=1M count=64 2>/dev/null
	umount /tmp/wren-poison
	bad=$(dmesg | grep -iE 'pagealloc: memory corruption|poison' || true)
	check "page poisoning found no write into freed memory" test -z "$bad"
	[ -z "$bad" ] || diag "$bad"
else
	skip "page poisoning found no write into freed memory" \
		"booted without page_poison=1"
fi

start=$SECONDS
check "rmmod wren after the timeout" timeout 60 rmmod wren
diag "rmmod took $((SECONDS - start)) s"
check "the orphaned buffer was released after the device's reset" \
	bash -c 'dmesg | grep -q "releasing the buffers of 1 unanswered admin command(s) after the reset"'
check_leftovers "$bdf"
# The timeout and the late completion are expected; nothing else is.
bad=$(dmesg | grep -E 'WARNING:|BUG:|Call Trace|hung_task|without an interrupt' || true)
check "dmesg has no warnings or oopses" test -z "$bad"
[ -z "$bad" ] || diag "$bad"
tap_done
