# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# QEMU 7.2 (Debian's source) with the Wren device: `make qemu`, `make check-qemu`.
# scripts/qemu-build.sh decides from its caches whether anything needs
# compiling, so the target is always run and is cheap when nothing changed.

QEMU         := $(BUILD)/qemu/qemu-system-x86_64
# configure's --firmwarepath already finds these; naming them keeps runs
# working with a binary configured elsewhere.
QEMU_FW_ARGS := -L /usr/share/qemu -L /usr/share/seabios -L /usr/lib/ipxe/qemu

export QEMU QEMU_FW_ARGS

.PHONY: qemu check-qemu
qemu:
	$(TOP)/scripts/deps-qemu.sh
	$(TOP)/scripts/qemu-build.sh

check-qemu: qemu
	python3 $(TOP)/scripts/qemu-check.py
