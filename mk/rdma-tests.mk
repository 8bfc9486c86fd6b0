# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Our own RDMA tests between two guests:
#
#   make rdma-tests    $(BUILD)/tests/rdma/wren_verbs_test, built against the
#                      bench's rdma-core (headers and libibverbs of `make rdma-core`)
#                      and $(BUILD)/tests/dmabuf/wren_dmabuf_test (dma-buf MRs
#                      on one device, selftests/rdma/wren-dmabuf.sh),
#                      $(BUILD)/tests/gpu/wren_nccl_check (NCCL's questions to a
#                      NIC, selftests/rdma/wren-gpudirect.sh) and the host's
#                      $(BUILD)/tests/gpu/gpu_mem_check (the GPU memory file) and
#                      $(BUILD)/tests/hostile/wren_hostile (the BARs from userspace,
#                      selftests/driver/wren-hostile.sh) and
#                      $(BUILD)/tests/qemu/remap_race (memory-map changes under
#                      MMIO, selftests/bench/qemu-remap-race.sh) and
#                      $(BUILD)/tests/rdma/wren_tcp_pattern (a plain TCP
#                      program for rsockets' preload, wren-rsockets.sh)
#   make check-rdma    selftests/rdma/wren-rdma.sh in two 6.1 guests: data
#                      integrity per opcode and size, protection, no syscalls on
#                      the data path, passive CPU idle, loss recovery, killed
#                      process cleanup; TAP in $(BUILD)/check
#
# wren_verbs_test works against any verbs device (rxe too), see its main.c.
# The sources sit beside the selftests that run them (kselftest's way:
# selftests/rdma/verbs/, selftests/rdma/gpu/, selftests/rdma/,
# selftests/driver/, selftests/bench/); the programs keep their places
# under $(BUILD)/tests/, where the guest scripts look for them.

RDMA_TESTS_BIN := $(BUILD)/tests/rdma/wren_verbs_test
RDMA_TESTS_SRC := $(wildcard $(TOP)/selftests/rdma/verbs/*.c)
RDMA_TESTS_HDR := $(wildcard $(TOP)/selftests/rdma/verbs/*.h) \
		  $(TOP)/selftests/rdma/gpu/wren_test_gpu.h $(TOP)/tools/pattern/wren_pattern.h \
		  $(TOP)/include/uapi/rdma/wren-abi.h $(wildcard $(TOP)/include/linux/wren/*.h)
DMABUF_TEST_BIN := $(BUILD)/tests/dmabuf/wren_dmabuf_test
DMABUF_TEST_SRC := $(TOP)/selftests/rdma/wren_dmabuf_test.c

HOSTILE_BIN := $(BUILD)/tests/hostile/wren_hostile
HOSTILE_SRC := $(TOP)/selftests/driver/wren_hostile.c

REMAP_RACE_BIN := $(BUILD)/tests/qemu/remap_race
REMAP_RACE_SRC := $(TOP)/selftests/bench/remap_race.c
TCP_PATTERN_BIN := $(BUILD)/tests/rdma/wren_tcp_pattern

NCCL_CHECK_BIN := $(BUILD)/tests/gpu/wren_nccl_check
GPU_MEM_CHECK_BIN := $(BUILD)/tests/gpu/gpu_mem_check
GPU_UAPI := $(TOP)/selftests/rdma/gpu/wren_test_gpu.h

.PHONY: rdma-tests check-rdma

## rdma-tests: the guest test programs in $(BUILD)/tests (wren_verbs_test and others)
rdma-tests: rdma-core
	@$(MAKE) --no-print-directory $(RDMA_TESTS_BIN) $(DMABUF_TEST_BIN) \
		$(NCCL_CHECK_BIN) $(GPU_MEM_CHECK_BIN) $(HOSTILE_BIN) $(REMAP_RACE_BIN) \
		$(TCP_PATTERN_BIN)

# The rpath lets it run without rdma-env.sh; the guests set
# LD_LIBRARY_PATH to the same directory anyway.
$(RDMA_TESTS_BIN): $(RDMA_TESTS_SRC) $(RDMA_TESTS_HDR) $(BUILD)/rdma-core.env $(TAP_DEPS)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-missing-field-initializers \
		-I$(TOP)/include/uapi -I$(TOP)/include -I$(RDMA_CORE)/include $(TAP_CFLAGS) \
		-I$(TOP)/tools/pattern -o $@ $(RDMA_TESTS_SRC) -pthread \
		-L$(RDMA_CORE)/lib -Wl,-rpath,$(RDMA_CORE)/lib -libverbs

# No verbs: the BARs from userspace, with no driver bound.
$(REMAP_RACE_BIN): $(REMAP_RACE_SRC) $(TOP)/selftests/lib/pci_bar.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -pthread -I$(TOP)/selftests/lib \
		-o $@ $(REMAP_RACE_SRC)

$(HOSTILE_BIN): $(HOSTILE_SRC) $(wildcard $(TOP)/include/linux/wren/*.h) $(TAP_DEPS) \
		$(TOP)/selftests/lib/pci_bar.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-missing-field-initializers \
		-I$(TOP)/include $(TAP_CFLAGS) -o $@ $(HOSTILE_SRC)

$(DMABUF_TEST_BIN): $(DMABUF_TEST_SRC) $(BUILD)/rdma-core.env
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-missing-field-initializers \
		-I$(RDMA_CORE)/include -o $@ $(DMABUF_TEST_SRC) \
		-L$(RDMA_CORE)/lib -Wl,-rpath,$(RDMA_CORE)/lib -libverbs

$(NCCL_CHECK_BIN): $(TOP)/selftests/rdma/gpu/wren_nccl_check.c $(GPU_UAPI) \
		   $(BUILD)/rdma-core.env
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-missing-field-initializers \
		-I$(RDMA_CORE)/include -I$(TOP)/selftests/rdma/gpu -o $@ $< \
		-L$(RDMA_CORE)/lib -Wl,-rpath,$(RDMA_CORE)/lib -libverbs

# libc only: rsockets' preload stands in for the sockets at run time.
$(TCP_PATTERN_BIN): $(TOP)/selftests/rdma/wren_tcp_pattern.c $(TOP)/tools/pattern/wren_pattern.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(TOP)/tools/pattern \
		-o $@ $(TOP)/selftests/rdma/wren_tcp_pattern.c

# Host side: needs only the test pattern (header only).
$(GPU_MEM_CHECK_BIN): $(TOP)/selftests/rdma/gpu/gpu_mem_check.c $(TOP)/tools/pattern/wren_pattern.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(TOP)/tools/pattern \
		-o $@ $(TOP)/selftests/rdma/gpu/gpu_mem_check.c

## check-rdma: selftests/rdma/wren-rdma.sh in two 6.1 guests
check-rdma: rdma-tests
	$(MAKE) --no-print-directory modules KVER=6.1
	$(MAKE) --no-print-directory vmtest T=rdma/wren-rdma.sh KVER=6.1 N=2 \
		TIMEOUT=900 APPEND="watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120"
