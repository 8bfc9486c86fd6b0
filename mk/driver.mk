# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Driver tests in the bench guests (selftests/driver/):
#
#   make check-driver   the guest pairs of the driver layer in selftests/plan
#                       (`make check-plan` prints them: kernel, IOMMU, SMP,
#                       and which guest runs which test), one boot each
#                       (make vmtest B=<boot>); TAP in $(BUILD)/check

# One test by hand: make vmtest T=driver/wren-probe.sh KVER=6.12 IOMMU=1
# (after `make modules KVER=6.12`); one boot of the plan: make vmtest B=d612.

.PHONY: check-driver

## check-driver: the driver layer: its guest pairs of selftests/plan, TAP in check/
check-driver:
	$(TOP)/scripts/check/driver.sh
