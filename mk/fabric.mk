# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# wren-fabric: the host switch the emulated NICs plug into (tools/fabric).
#   make fabric        -> $(BUILD)/fabric/wren-fabric
#   make check-fabric  -> unit + integration tests, also under ASan/UBSan,
#                         TAP in $(BUILD)/check/fabric.tap; the integration
#                         test's QEMU interop cases use our QEMU when it is
#                         built (`make check` runs the qemu layer first,
#                         selftests/plan), else skip

FABRIC_DIR   := $(TOP)/tools/fabric
FABRIC_OUT   := $(BUILD)/fabric
# lib/: the frame rules (Ethernet classification, ECN and RED, PFC and
# pause frames, the seeded PRNG) with no I/O and no state of their own,
# which the ns-3 switch (mk/sim.mk) compiles too.
FABRIC_LIB   := $(wildcard $(FABRIC_DIR)/lib/*.c)
FABRIC_SRC   := $(wildcard $(FABRIC_DIR)/src/*.c) $(FABRIC_LIB)
FABRIC_HDR   := $(wildcard $(FABRIC_DIR)/src/*.h $(FABRIC_DIR)/lib/*.h)
FABRIC_CORE  := $(filter-out $(FABRIC_DIR)/src/main.c,$(FABRIC_SRC))
FABRIC_TESTH := $(wildcard $(FABRIC_DIR)/tests/*.h) $(TAP_DEPS)
FABRIC_CC    ?= gcc
FABRIC_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror \
		 -Wshadow -Wformat=2 -I$(FABRIC_DIR)/src -I$(FABRIC_DIR)/lib
FABRIC_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer

.PHONY: fabric check-fabric

## fabric: $(BUILD)/fabric/wren-fabric, the switch between the emulated servers
fabric: $(FABRIC_OUT)/wren-fabric

$(FABRIC_OUT)/wren-fabric: $(FABRIC_SRC) $(FABRIC_HDR)
	@mkdir -p $(@D)
	$(FABRIC_CC) $(FABRIC_CFLAGS) -o $@ $(FABRIC_SRC)

$(FABRIC_OUT)/san/wren-fabric: $(FABRIC_SRC) $(FABRIC_HDR)
	@mkdir -p $(@D)
	$(FABRIC_CC) $(FABRIC_CFLAGS) $(FABRIC_SAN) -o $@ $(FABRIC_SRC)

$(FABRIC_OUT)/test-unit: $(FABRIC_DIR)/tests/test_unit.c $(FABRIC_CORE) $(FABRIC_HDR) $(FABRIC_TESTH)
	@mkdir -p $(@D)
	$(FABRIC_CC) $(FABRIC_CFLAGS) $(TAP_CFLAGS) -o $@ $(FABRIC_DIR)/tests/test_unit.c $(FABRIC_CORE)

$(FABRIC_OUT)/san/test-unit: $(FABRIC_DIR)/tests/test_unit.c $(FABRIC_CORE) $(FABRIC_HDR) $(FABRIC_TESTH)
	@mkdir -p $(@D)
	$(FABRIC_CC) $(FABRIC_CFLAGS) $(FABRIC_SAN) $(TAP_CFLAGS) -o $@ $(FABRIC_DIR)/tests/test_unit.c $(FABRIC_CORE)

$(FABRIC_OUT)/test-integration: $(FABRIC_DIR)/tests/test_integration.c $(FABRIC_HDR) $(FABRIC_TESTH)
	@mkdir -p $(@D)
	$(FABRIC_CC) $(FABRIC_CFLAGS) $(TAP_CFLAGS) -o $@ $<

## check-fabric: wren-fabric unit and integration tests, also under ASan/UBSan, TAP in check/fabric.tap
check-fabric: $(FABRIC_OUT)/wren-fabric $(FABRIC_OUT)/san/wren-fabric \
	      $(FABRIC_OUT)/test-unit $(FABRIC_OUT)/san/test-unit \
	      $(FABRIC_OUT)/test-integration
	WREN_QEMU="$(wildcard $(QEMU))" $(TOP)/scripts/check/fabric.sh
