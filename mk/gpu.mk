# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# GPUDirect test pieces: the emulated GPU's test driver and
# NVIDIA's nvidia-peermem on Wren's peer-memory registry.
#
#   make gpu-modules KVER=6.1|6.12|7.3  $(BUILD)/gpu/$(KVER)/wren_test_gpu.ko, and
#                                   nvidia-peermem.ko when the registry of
#                                   `make modules` exports the peer-memory
#                                   symbols (scripts/kernel/gpu-build.sh); plus
#                                   $(BUILD)/tests/gpu/wren_gpu_test
#   make check-gpu-modules          wren_test_gpu.ko W=1 and sparse warning-free
#                                   for every kernel series (sparse not
#                                   for 7.3); 7.3's nvidia-peermem is of
#                                   trixie-backports' nvidia-kernel-dkms
#   make nvidia-src                 NVIDIA's nvidia-peermem/ sources into the cache
#                                   (scripts/kernel/nvidia-fetch.sh; apt, non-free)

GPU_TEST_BIN := $(BUILD)/tests/gpu/wren_gpu_test
GPU_TEST_SRC := $(TOP)/selftests/rdma/gpu/wren_gpu_test.c

.PHONY: gpu-modules check-gpu-modules nvidia-src gpu-tests

## gpu-modules: the emulated GPU's test driver and nvidia-peermem for KVER, and wren_gpu_test
gpu-modules: modules gpu-tests
	$(TOP)/scripts/kernel/gpu-build.sh $(KVER) modules

## check-gpu-modules: wren_test_gpu.ko W=1 and sparse warning-free for 6.1, 6.12 and 7.3
check-gpu-modules:
	$(TOP)/scripts/check/gpu-modules.sh

## nvidia-src: NVIDIA's nvidia-peermem sources into the cache (apt, non-free)
nvidia-src:
	$(TOP)/scripts/kernel/nvidia-fetch.sh

## gpu-tests: $(BUILD)/tests/gpu/wren_gpu_test
gpu-tests: $(GPU_TEST_BIN)

$(GPU_TEST_BIN): $(GPU_TEST_SRC) $(TOP)/selftests/rdma/gpu/wren_test_gpu.h \
		 $(TOP)/tools/pattern/wren_pattern.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(TOP)/selftests/rdma/gpu \
		-I$(TOP)/tools/pattern -o $@ $(GPU_TEST_SRC)
