# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The debug kernel and the tests on it:
#
#   make debug-kernel        tools/testbench/kernel-debug-build.sh: Debian's
#                            linux-source-6.1 with KASAN, UBSAN, lockdep,
#                            kmemleak, DMA API debugging and fault injection,
#                            cached in $(WREN_CACHE)/kernels/debug-6.1 (one tree,
#                            rebuilt in place when its inputs change);
#                            $(BUILD)/kernel-6.1-debug.env names it (KVER=6.1-debug
#                            anywhere a kernel series goes)
#   make check-debug         the "debug" boots of selftests/plan on it, each
#                            ending in wren-debug-reports.sh; TAP in
#                            $(BUILD)/check-debug (scripts/check/debug.sh).
#                            Not part of make check (README.md says why).
#   make vmtest B=kd61       one of those boots by hand

.PHONY: debug-kernel check-debug

## debug-kernel: the 6.1 debug kernel (KASAN, UBSAN, lockdep, kmemleak, fault injection)
debug-kernel:
	$(MAKE) --no-print-directory kernel KVER=6.1-debug

## check-debug: the debug boots of selftests/plan on the debug kernel, TAP in $(BUILD)/check-debug
check-debug:
	$(TOP)/scripts/check/debug.sh
