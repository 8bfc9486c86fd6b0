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
read -r capslo aq_timeout < <(wren_regs "$bdf" 0x10 0x38 | tr '\n' ' ')
if [ $(($(printf '%d' "$capslo") >> 29 & 1)) = 0 ]; then
	for _ in $(seq 9); do skip "admin command timeout" "device lacks DIAG_FAULT"; done
	tap_done
	exit 0
fi

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
insmod "$mods/wren.ko" || diag "insmod wren.ko failed"
# The state that needs a reset itself: devlink health would otherwise
# reset the device at once (wren-recover.sh tests that).
devlink health set "pci/$bdf" reporter fw_fatal auto_recover false ||
	diag "devlink health set auto_recover false failed"
inject=/sys/kernel/debug/wren/$bdf/inject_fault
check "debugfs has $inject" test -w "$inject"

start=$(date +%s%N)
out=$(echo aq_stall 2>&1 >"$inject")
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
floor=$(($(printf '%d' "$aq_timeout") > 1000 ? $(printf '%d' "$aq_timeout") : 1000))
check "the stalled NOP fails with ETIMEDOUT after ${ms} ms (timeout ${floor} ms)" \
	bash -c "[ $rc != 0 ] && grep -q 'timed out' <<<'$out' && [ $ms -ge $floor ]"
[ $rc != 0 ] || diag "write succeeded: $out"

check "the log names the hung command: NOP, opcode 0x00, its cmd_id" \
	bash -c 'dmesg | grep -qE "admin command NOP \(opcode 0x00, cmd_id 0x[0-9a-f]{4}\) timed out"'
diag "$(dmesg | grep -E 'timed out|needs a reset|fail until')"

# Marked as needing a reset: the next command fails at once, no new wait.
start=$(date +%s%N)
out=$(echo aq_stall 2>&1 >"$inject")
ms=$((($(date +%s%N) - start) / 1000000))
check "later commands fail at once (${ms} ms): the device needs a reset" \
	bash -c "grep -q 'Input/output error' <<<'$out' && [ $ms -lt $floor ]"

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
