# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# libwrenhw, the NIC's logic as plain C11 (hw/src), and its host tests.
#   make hw        -> $(BUILD)/hw/libwrenhw.a (-O2)
#   make check-hw  -> host tests under ASan/UBSan, TAP in $(BUILD)/check/hw.tap
#
# hw/src is also compiled into QEMU by hw/qemu's build, so it is built here
# with QEMU's stricter warnings too (missing prototypes, old-style
# definitions, ...) and must not define main.
#
# hw/src has one folder per block of the NIC (core, cmd, eth, port, roce)
# under the headers every block shares; its files include each other by
# paths relative to themselves, so no -I reaches into it.  The host tests
# name its headers from hw/src (-I$(HW_DIR)/src).

HW_DIR     := $(TOP)/hw
HW_OUT     := $(BUILD)/hw
HW_SRC     := $(wildcard $(HW_DIR)/src/*.c $(HW_DIR)/src/*/*.c)
HW_HDR     := $(wildcard $(HW_DIR)/src/*.h $(HW_DIR)/src/*/*.h) \
	      $(HW_DIR)/include/wrenhw.h \
	      $(wildcard $(TOP)/include/linux/wren/*.h)
# The host stub (hw/host): a host, an admin-queue driver and RDMA objects
# that program the NIC through the contract alone, for the tests, the
# fuzzers, the engine benchmark and the simulation.
HW_HOST_SRC := $(wildcard $(HW_DIR)/host/*.c)
HW_HOST_HDR := $(wildcard $(HW_DIR)/host/*.h)
HW_TEST_SRC := $(wildcard $(HW_DIR)/tests/*.c)
HW_TEST_HDR := $(wildcard $(HW_DIR)/tests/*.h) $(HW_HOST_HDR)
HW_CC      ?= $(CCACHE) gcc
HW_WARN    := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wundef \
	      -Wmissing-prototypes -Wstrict-prototypes -Wredundant-decls \
	      -Wold-style-definition -Wnested-externs -Wvla -Wwrite-strings \
	      -Wimplicit-fallthrough
HW_CFLAGS  := -std=c11 $(HW_WARN) -I$(TOP)/include -I$(HW_DIR)/include
HW_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all \
	      -fno-omit-frame-pointer
HW_OBJ     := $(patsubst $(HW_DIR)/src/%.c,$(HW_OUT)/obj/%.o,$(HW_SRC))

.PHONY: hw check-hw

## hw: $(BUILD)/hw/libwrenhw.a, the NIC model
hw: $(HW_OUT)/libwrenhw.a

$(HW_OUT)/obj/%.o: $(HW_DIR)/src/%.c $(HW_HDR)
	@mkdir -p $(@D)
	$(HW_CC) $(HW_CFLAGS) -O2 -g -c -o $@ $<

$(HW_OUT)/libwrenhw.a: $(HW_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^
	@# Linked into QEMU: every global symbol is ours (whw_/wrenhw_), no main,
	@# and no test hooks (whw_test_*, built only with -DWHW_TEST_HOOKS).
	@bad=$$(nm -g --defined-only $@ | awk 'NF == 3 { print $$3 }' | \
		grep -v -E '^(whw_|wrenhw_)' || true; \
		nm -g --defined-only $@ | awk 'NF == 3 { print $$3 }' | \
		grep -E '^whw_test_' || true); \
	if [ -n "$$bad" ]; then \
		echo "libwrenhw exports foreign symbols: $$bad" >&2; \
		rm -f $@; exit 1; \
	fi

# Tests link the sources directly, sanitized, with the host stub.  One
# object a file, so that make -j and the compiler cache have something
# to work on (a single compile of all of them took 28 s).
HW_TEST_CFLAGS = $(HW_CFLAGS) -D_DEFAULT_SOURCE -DWHW_TEST_HOOKS -O1 -g \
		 $(HW_SAN) -I$(HW_DIR)/src -I$(HW_DIR)/host -I$(HW_DIR)/tests \
		 $(TAP_CFLAGS)
HW_TEST_OBJ := $(patsubst $(HW_DIR)/src/%.c,$(HW_OUT)/tobj/src/%.o,$(HW_SRC)) \
	       $(patsubst $(HW_DIR)/host/%.c,$(HW_OUT)/tobj/host/%.o,$(HW_HOST_SRC)) \
	       $(patsubst $(HW_DIR)/tests/%.c,$(HW_OUT)/tobj/tests/%.o,$(HW_TEST_SRC))

$(HW_OUT)/tobj/src/%.o: $(HW_DIR)/src/%.c $(HW_HDR) $(HW_TEST_HDR) $(TAP_DEPS)
	@mkdir -p $(@D)
	$(HW_CC) $(HW_TEST_CFLAGS) -c -o $@ $<

$(HW_OUT)/tobj/host/%.o: $(HW_DIR)/host/%.c $(HW_HDR) $(HW_HOST_HDR)
	@mkdir -p $(@D)
	$(HW_CC) $(HW_TEST_CFLAGS) -c -o $@ $<

$(HW_OUT)/tobj/tests/%.o: $(HW_DIR)/tests/%.c $(HW_HDR) $(HW_TEST_HDR) $(TAP_DEPS)
	@mkdir -p $(@D)
	$(HW_CC) $(HW_TEST_CFLAGS) -c -o $@ $<

$(HW_OUT)/wrenhw-tests: $(HW_TEST_OBJ)
	@mkdir -p $(@D)
	$(HW_CC) $(HW_TEST_CFLAGS) -o $@ $^

# The engine benchmark's smoke run (mk/bench-engine.mk) keeps it working:
# its own TAP, hw-engine-bench.tap, counted with the tests
# (scripts/check/hw.sh).
## check-hw: libwrenhw host tests under ASan/UBSan, TAP in check/hw.tap
check-hw: $(HW_OUT)/libwrenhw.a $(HW_OUT)/wrenhw-tests $(BENCH_ENGINE_SMOKE)
	@$(TOP)/scripts/check/hw.sh
