# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Driver tests in the bench guests (selftests/driver/):
#
#   make check-driver   selftests/driver/run-all.sh (probe, load loop, fatal,
#                       AQ timeout, wren-ib, rdma/wren-rdma, and the Ethernet
#                       tests: fabric, UDP, TCP) in a 6.12 pair with PCAP=1;
#                       run-net.sh (the same less load loop, fatal and AQ
#                       timeout) in a 6.1 pair with PCAP=1; run-core.sh (those
#                       three and probe) in one 6.1 guest behind intel-iommu;
#                       run-rss.sh (RSS) in a 6.1 pair with SMP=2; TAP in
#                       $(BUILD)/check

# One test by hand: make vmtest T=driver/wren-probe.sh KVER=6.12 IOMMU=1
# (after `make modules KVER=6.12`).

.PHONY: check-driver

check-driver:
	$(TOP)/scripts/kernel-check-driver.sh
