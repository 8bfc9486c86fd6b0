# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The test-only peer-memory client of selftests/driver/peer_mem:
#
#   make peer-test-modules KVER=6.1|6.12
#       $(BUILD)/peer_mem_test/$(KVER)/wren_peer_test.ko, against the
#       wren_peer_mem.ko of `make modules` (built first)
#
# selftests/driver/wren-peer-mem.sh loads it in the guests.

.PHONY: peer-test-modules
## peer-test-modules: the test peer-memory client wren_peer_test.ko for KVER
peer-test-modules: modules
	$(TOP)/selftests/driver/peer_mem/build.sh $(KVER)
