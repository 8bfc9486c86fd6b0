# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# RoCEv2 engine benchmark (not part of `make check`: it prints figures):
#
#   make bench-engine [BENCH_ENGINE_SECONDS=1] [BENCH_ENGINE_ONLY="WRITE 64 KiB"]
#
# Host only, no guests: two libwrenhw models in one process joined by an
# in-memory wire (hw/bench), RC WRITE, READ and SEND of 4 KiB, 64 KiB and
# 1 MiB at path MTU 1024 and 4096, each BENCH_ENGINE_SECONDS long: bytes/s,
# ns a wire frame, the ratio to memcpy measured in the same run, ns a data
# frame against the floor measured in the same run (two payload copies and
# two ICRC passes of the frame), allocations and DMA a data frame, and the
# targets; CRC-32 against zlib.  Built -O2 -DNDEBUG without sanitizers;
# the figures are printed and kept in $(BUILD)/bench/bench-engine.txt.
# BENCH_ENGINE_ONLY runs the streams whose name ("READ 4 KiB MTU 1024")
# has it in, e.g. for perf record on $(BUILD)/hw/engine-bench.
# A data mismatch, an error completion or a stall fails it; a target not
# met does not.  make check-hw runs the same program with --smoke (a few
# messages a stream, data checked, no timing) under ASan and UBSan.
#
# mk/*.mk are read in name order, before hw.mk: paths are spelled out,
# and only recipes (expanded late) use hw.mk's flags.

BENCH_ENGINE_SECONDS ?= 1
BENCH_ENGINE_HW   := $(TOP)/hw
BENCH_ENGINE_OUT  := $(BUILD)/hw/bench
BENCH_ENGINE_BIN  := $(BUILD)/hw/engine-bench
BENCH_ENGINE_RUN   = $(BUILD)/bench/bench-engine
# The smoke run links hw.mk's sanitized test objects.
BENCH_ENGINE_SMOKE := $(BUILD)/hw/engine-bench-smoke

BENCH_ENGINE_SRC  := $(wildcard $(BENCH_ENGINE_HW)/bench/*.c)
# The model: hw/src and its block folders.
BENCH_ENGINE_MODEL := $(wildcard $(BENCH_ENGINE_HW)/src/*.c \
				 $(BENCH_ENGINE_HW)/src/*/*.c)
# The host stub (hw/host) and the parts of hw/tests it reuses: the RC
# pair harness and TAP.
BENCH_ENGINE_LIB  := host/host host/drv host/rdma
BENCH_ENGINE_HOST := tests/roce_util tests/tap
BENCH_ENGINE_HDR  := $(wildcard $(BENCH_ENGINE_HW)/src/*.h \
			       $(BENCH_ENGINE_HW)/src/*/*.h) \
		     $(BENCH_ENGINE_HW)/include/wrenhw.h \
		     $(wildcard $(TOP)/include/linux/wren/*.h) \
		     $(wildcard $(BENCH_ENGINE_HW)/host/*.h) \
		     $(wildcard $(BENCH_ENGINE_HW)/tests/*.h) \
		     $(wildcard $(BENCH_ENGINE_HW)/bench/*.h) $(TAP_DEPS)
BENCH_ENGINE_CFLAGS = -std=c11 $(HW_WARN) -D_DEFAULT_SOURCE -DWHW_TEST_HOOKS \
		      -DNDEBUG -O2 -g -I$(TOP)/include \
		      -I$(BENCH_ENGINE_HW)/include -I$(BENCH_ENGINE_HW)/src \
		      -I$(BENCH_ENGINE_HW)/host -I$(BENCH_ENGINE_HW)/tests \
		      -I$(BENCH_ENGINE_HW)/bench \
		      $(TAP_CFLAGS)

# The bench counts allocations a frame (bench_ref.c): the model's, the
# host stub's and its own calls reach it through the linker.
BENCH_ENGINE_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc

BENCH_ENGINE_OBJ := \
	$(patsubst $(BENCH_ENGINE_HW)/src/%.c,$(BENCH_ENGINE_OUT)/src/%.o, \
		   $(BENCH_ENGINE_MODEL)) \
	$(patsubst %,$(BENCH_ENGINE_OUT)/%.o,$(BENCH_ENGINE_LIB) \
		   $(BENCH_ENGINE_HOST)) \
	$(patsubst $(BENCH_ENGINE_HW)/bench/%.c,$(BENCH_ENGINE_OUT)/bench/%.o, \
		   $(BENCH_ENGINE_SRC))
BENCH_ENGINE_SMOKE_OBJ := \
	$(patsubst $(BENCH_ENGINE_HW)/src/%.c,$(BUILD)/hw/tobj/src/%.o, \
		   $(BENCH_ENGINE_MODEL)) \
	$(patsubst %,$(BUILD)/hw/tobj/%.o,$(BENCH_ENGINE_LIB) \
		   $(BENCH_ENGINE_HOST)) \
	$(patsubst $(BENCH_ENGINE_HW)/bench/%.c,$(BUILD)/hw/tobj/bench/%.o, \
		   $(BENCH_ENGINE_SRC))

.PHONY: bench-engine

$(BENCH_ENGINE_OUT)/%.o: $(BENCH_ENGINE_HW)/%.c $(BENCH_ENGINE_HDR)
	@mkdir -p $(@D)
	$(HW_CC) $(BENCH_ENGINE_CFLAGS) -c -o $@ $<

$(BENCH_ENGINE_BIN): $(BENCH_ENGINE_OBJ)
	$(HW_CC) $(BENCH_ENGINE_CFLAGS) $(BENCH_ENGINE_WRAP) -o $@ $^ -lz

$(BUILD)/hw/tobj/bench/%.o: $(BENCH_ENGINE_HW)/bench/%.c $(BENCH_ENGINE_HDR)
	@mkdir -p $(@D)
	$(HW_CC) $(HW_TEST_CFLAGS) -I$(BENCH_ENGINE_HW)/bench -c -o $@ $<

$(BENCH_ENGINE_SMOKE): $(BENCH_ENGINE_SMOKE_OBJ)
	$(HW_CC) $(HW_TEST_CFLAGS) $(BENCH_ENGINE_WRAP) -o $@ $^ -lz

## bench-engine: figures: the RoCEv2 engine on the host, two models joined by an in-memory wire
bench-engine: $(BENCH_ENGINE_BIN)
	@mkdir -p $(BUILD)/bench
	@{ BENCH_ENGINE_SECONDS="$(BENCH_ENGINE_SECONDS)" \
	   BENCH_ENGINE_ONLY="$(BENCH_ENGINE_ONLY)" $(BENCH_ENGINE_BIN); \
	   echo $$? >$(BENCH_ENGINE_RUN).rc; } | tee $(BENCH_ENGINE_RUN).txt; \
	exit "$$(cat $(BENCH_ENGINE_RUN).rc)"
