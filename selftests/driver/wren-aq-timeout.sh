#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: the hung-admin-command path.  Through debugfs the device is
# told to swallow the next command (DIAG_FAULT AQ_STALL); the NOP sent
# after it must time out after the device's AQ_TIMEOUT_MS (at least the
# driver's 1 s floor), be logged with its opcode name and cmd_id, mark the
# device as needing a reset (later commands fail at once, fw_fatal counts
# it), and the driver must still unload promptly and bind again.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
plan 10
dmesg -C

wren_require_nic 9 "admin command timeout"
wren_need_diag_fault 9 "admin command timeout"
# The state that needs a reset itself.
wren_load_no_recover "$mods"
inject=/sys/kernel/debug/wren/$bdf/inject_fault
check "debugfs has $inject" test -w "$inject"

wren_inject "$inject" aq_stall
check "the stalled NOP fails with ETIMEDOUT after ${inject_ms} ms (timeout ${aq_floor} ms)" \
	bash -c "[ $inject_rc != 0 ] && grep -q 'timed out' <<<'$inject_out' && [ $inject_ms -ge $aq_floor ]"
[ "$inject_rc" != 0 ] || diag "write succeeded: $inject_out"

check "the log names the hung command: NOP, opcode 0x00, its cmd_id" \
	bash -c 'dmesg | grep -qE "admin command NOP \(opcode 0x00, cmd_id 0x[0-9a-f]{4}\) timed out"'
diag "$(dmesg | grep -E 'timed out|needs a reset|fail until')"

# Marked as needing a reset: the next command fails at once, no new wait.
wren_inject "$inject" aq_stall
check "later commands fail at once (${inject_ms} ms): the device needs a reset" \
	bash -c "grep -q 'Input/output error' <<<'$inject_out' && [ $inject_ms -lt $aq_floor ]"

wait_for 10 bash -c "devlink -j health show pci/$bdf reporter fw_fatal | grep -q '\"error\":1'"
check "fw_fatal counted the hang" \
	bash -c "devlink -j health show pci/$bdf reporter fw_fatal | grep -q '\"error\":1'"

start=$SECONDS
check "rmmod wren after the hang" timeout 60 rmmod wren
diag "rmmod took $((SECONDS - start)) s"
check_leftovers "$bdf" "nothing left behind (irq, devlink, aux device, iomem, MSI-X, module)"

if insmod "$mods/wren.ko" && devlink dev info "pci/$bdf" >/dev/null 2>&1; then
	ok "wren.ko binds again after the device's reset"
else
	not_ok "wren.ko binds again after the device's reset"
fi
rmmod wren 2>/dev/null
# The timeout is expected here; anything else the kernel complains about is not.
bad=$(dmesg | grep -E 'WARNING:|BUG:|Call Trace|hung_task|without an interrupt' || true)
check "dmesg has no warnings or oopses" test -z "$bad"
[ -z "$bad" ] || diag "$bad"
tap_done
