# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Test bench: Debian kernels for the guests, and (below) booting guests.
#
#   make kernel-info KVER=6.1|6.12   resolved ABI, vmlinuz, modules dir
#   $(BUILD)/kernel-$(KVER).env      KABI= KDIR= VMLINUZ= KMODDIR= for other rules

BENCH_DIR  := $(TOP)/tools/testbench
KERNEL_ENV  = $(BUILD)/kernel-$(KVER).env

.PHONY: kernel kernel-info bench-always

# Always asked again (cheap once cached): apt metadata decides the ABI.  The
# script rewrites the file only when its content changes.
$(BUILD)/kernel-%.env: bench-always
	$(BENCH_DIR)/kernel-fetch.sh $* $@

kernel: $(KERNEL_ENV)

kernel-info: $(KERNEL_ENV)
	@. $(KERNEL_ENV); \
	echo "KVER=$(KVER)"; echo "KABI=$$KABI"; echo "KDIR=$$KDIR"; \
	echo "VMLINUZ=$$VMLINUZ"; echo "KMODDIR=$$KMODDIR"
