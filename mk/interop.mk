# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Wren on the wire:
#
#   make check-interop [INTEROP_KVERS="6.1 6.12"]
#       RoCEv2 traffic of every kind between two Wren guests, captured by
#       the fabric and checked on the host with tshark and our own ICRC
#       check (selftests/host/roce-pcap-check.py); then Wren against
#       Linux's rdma_rxe on the same fabric (pingpongs, wren_verbs_test and
#       perftest in both directions), captured and checked the same way.
#       scripts/check/interop.sh; TAP in $(BUILD)/check.
#   make check-roce-pcap-host
#       the checker's own host test (real rxe and Wren frames, and broken
#       ones it must catch), seconds; TAP in $(BUILD)/check/roce-pcap-host.tap
#   make check-roce-pcap PCAPS="a.pcap b.pcap"
#       the host check alone over any fabric captures

.PHONY: check-interop check-roce-pcap check-roce-pcap-host

## check-interop: the interop layer: RoCEv2 captures between Wren guests and against rxe, checked
check-interop:
	$(TOP)/scripts/check/interop.sh

## check-roce-pcap: the RoCE capture check alone over PCAPS="a.pcap b.pcap"
check-roce-pcap:
	@test -n "$(PCAPS)" || { echo "usage: make check-roce-pcap PCAPS='port0.pcap ...'" >&2; exit 2; }
	@$(TOP)/scripts/deps/tshark.sh
	$(TOP)/selftests/host/roce-pcap-check.py $(PCAPS)

## check-roce-pcap-host: the capture checker's own host test, TAP in check/roce-pcap-host.tap
check-roce-pcap-host:
	@$(TOP)/scripts/check/roce-pcap-host.sh
