# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Driver tests in the bench guests (selftests/driver/):
#
#   make check-driver   selftests/driver/run-all.sh (wren-probe, wren-load-loop,
#                       wren-fatal, wren-aq-timeout, wren-eth) in two 6.1 guests;
#                       run-core.sh (no peer) in one 6.12 and one 6.1+IOMMU guest;
#                       $(BUILD)/check
#
# One test by hand: make vmtest T=driver/wren-probe.sh KVER=6.12 IOMMU=1
# (after `make modules KVER=6.12`).

.PHONY: check-driver

check-driver:
	$(TOP)/scripts/kernel-check-driver.sh
