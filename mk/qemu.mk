# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# QEMU 7.2 (Debian's source) with the Wren device: `make qemu`, `make check-qemu`.
# `make check-hostile-asan`: the hostile-guest test (selftests/driver/
# wren-hostile.sh) on a QEMU built with ASan and UBSan (`make qemu-asan`,
# cached like the other; not part of `make check`: a cold build costs
# several minutes the cold check cannot spare).
# scripts/qemu/build.sh decides from its caches whether anything needs
# compiling, so the target is always run and is cheap when nothing changed.

QEMU         := $(BUILD)/qemu/qemu-system-x86_64
# configure's --firmwarepath already finds these; naming them keeps runs
# working with a binary configured elsewhere.
QEMU_FW_ARGS := -L /usr/share/qemu -L /usr/share/seabios -L /usr/lib/ipxe/qemu

export QEMU QEMU_FW_ARGS

QEMU_ASAN_BIN := $(BUILD)/qemu-asan/qemu-system-x86_64
HOSTILE_RUN   := $(BUILD)/bench/vmtest-6.1-driver_wren-hostile.sh

.PHONY: qemu check-qemu qemu-asan check-hostile-asan
## qemu: QEMU 7.2 with the Wren device, $(BUILD)/qemu/qemu-system-x86_64
qemu:
	$(TOP)/scripts/deps/qemu.sh
	$(TOP)/scripts/qemu/build.sh

## check-qemu: build QEMU and run the device checks, TAP in check/qemu.tap
check-qemu: qemu
	$(TOP)/scripts/check/qemu.sh

## qemu-asan: the same QEMU built with ASan and UBSan
qemu-asan:
	$(TOP)/scripts/deps/qemu.sh
	QEMU_ASAN=1 $(TOP)/scripts/qemu/build.sh

# QEMU's own leaks at exit are not the device's: leak detection off.  An
# ASan or UBSan report in either guest's QEMU log fails the run, as does
# a QEMU that died (the guest's test then fails).
## check-hostile-asan: the hostile-guest test on the ASan QEMU; fails on any sanitizer report
check-hostile-asan: qemu-asan rdma-tests
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(MAKE) --no-print-directory vmtest T=driver/wren-hostile.sh KVER=6.1 \
		QEMU=$(QEMU_ASAN_BIN)
	@if grep -E 'AddressSanitizer|runtime error|LeakSanitizer' $(HOSTILE_RUN)/guest*.qemu.log; then \
		echo "check-hostile-asan: sanitizer reports above" >&2; exit 1; \
	else echo "check-hostile-asan: no sanitizer reports in $(HOSTILE_RUN)/guest*.qemu.log"; fi
