#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Guest test: the fatal-error path.  `devlink health test ... fw_fatal`
# makes the device go fatal (DIAG_FAULT); wren.ko must log the syndrome the
# device reports, count the error on the fw_fatal health reporter, show it
# in diagnose, unload from the fatal state without waiting for the device,
# and bind again afterwards (the next probe resets the device).  Auto-
# recovery is off here; wren-recover.sh tests recovery.
set -u
. "$WREN_TOP/selftests/lib/tap.sh"
. "$WREN_TOP/selftests/lib/wait.sh"
. "$WREN_TOP/selftests/lib/wren.sh"

mods=$(wren_moddir)
plan 11
dmesg -C

wren_require_nic 10 "fatal path"
capslo=$(wren_regs "$bdf" "$(wren_reg WREN_REG_CAPS_LO)")

# json_get JSON KEY: the first value found under KEY, searching nested
# objects and lists but only the fw_fatal entry of a reporter list.  jq,
# not python3: under TCG python3 takes about 2 s to start.
json_get() {
	jq -r --arg k "$2" 'first(.. | objects |
		select((.reporter // "fw_fatal") == "fw_fatal") |
		select(has($k)) | .[$k])' <<<"$1" 2>/dev/null
}
show() { devlink -j health show "pci/$bdf" reporter fw_fatal 2>&1; }
diagnose() { devlink -j health diagnose "pci/$bdf" reporter fw_fatal 2>&1; }

# The fatal state itself.
wren_load_no_recover "$mods"
h=$(show)
check "fw_fatal health reporter is healthy with no errors" \
	test "$(json_get "$h" state):$(json_get "$h" error)" = healthy:0
[ "$(json_get "$h" state)" = healthy ] || diag "$h"
d=$(diagnose)
check "diagnose: state healthy, fatal_syndrome 0" \
	test "$(json_get "$d" state):$(json_get "$d" fatal_syndrome)" = "healthy:$WREN_FATAL_NONE"
[ "$(json_get "$d" state)" = healthy ] || diag "$d"

if [ $((capslo & WREN_CAP_DIAG_FAULT)) = 0 ]; then
	check "devlink health test is refused without WREN_CAP_DIAG_FAULT" \
		bash -c "! devlink health test pci/$bdf reporter fw_fatal"
	for _ in $(seq 3); do skip "injected fatal error" "device lacks DIAG_FAULT"; done
else
	check "devlink health test injects a fatal error" \
		devlink health test "pci/$bdf" reporter fw_fatal
	check "the syndrome is logged: $WREN_FATAL_INJECTED (injected by DIAG_FAULT)" \
		wait_for 20 bash -c "dmesg | grep -q 'device fatal error: syndrome $WREN_FATAL_INJECTED (injected by DIAG_FAULT)'"
	wait_for 10 bash -c "[ \"\$(devlink -j health show pci/$bdf reporter fw_fatal | grep -o '\"error\":[0-9]*')\" = '\"error\":1' ]"
	h=$(show)
	check "fw_fatal reporter counted one error (state $(json_get "$h" state))" \
		test "$(json_get "$h" error)" = 1
	d=$(diagnose)
	check "diagnose: state fatal, fatal_syndrome $WREN_FATAL_INJECTED" \
		test "$(json_get "$d" state):$(json_get "$d" fatal_syndrome)" = "fatal:$WREN_FATAL_INJECTED"
	[ "$(json_get "$d" state)" = fatal ] || diag "$d"
fi

start=$SECONDS
check "rmmod wren from the fatal state" timeout 60 rmmod wren
diag "rmmod took $((SECONDS - start)) s"
check_leftovers "$bdf" "nothing left behind (irq, devlink, aux device, iomem, MSI-X, module)"

if insmod "$mods/wren.ko" && [ "$(json_get "$(show)" state)" = healthy ]; then
	ok "wren.ko binds again and the device is healthy after its reset"
else
	not_ok "wren.ko binds again and the device is healthy after its reset"
fi
rmmod wren 2>/dev/null

check_dmesg "dmesg has no warnings, oopses or timeouts"
diag "$(dmesg | grep -i wren)"
tap_done
