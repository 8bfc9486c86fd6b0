# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Driver tests in the bench guests (selftests/driver/):
#
#   make check-driver   selftests/driver/run-all.sh (probe, load loop, fatal,
#                       AQ timeout, wren-ib, rdma-core's python suite,
#                       rdma/wren-rdma, wren-cm, wren-nvmeof, and the Ethernet
#                       tests: fabric, UDP, TCP) in a 6.12 pair with PCAP=1;
#                       run-net.sh (wren-ib, the RDMA tests with pingpongs and
#                       perftest, TCP) in a 6.1 pair; run-core.sh (probe,
#                       load loop, fatal, AQ timeout, python suite) in a 6.1
#                       pair behind intel-iommu; run-rss.sh (RSS) in a 6.1
#                       pair with SMP=2; TAP in $(BUILD)/check

# One test by hand: make vmtest T=driver/wren-probe.sh KVER=6.12 IOMMU=1
# (after `make modules KVER=6.12`).

.PHONY: check-driver

check-driver:
	$(TOP)/scripts/kernel-check-driver.sh
