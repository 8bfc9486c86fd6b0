# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Coverage-guided fuzzing of libwrenhw with libFuzzer (clang), under ASan,
# UBSan and LeakSanitizer.  Harnesses and seed corpora live in hw/fuzz.
#   make fuzz [FUZZ_SECS=60]  every harness for FUZZ_SECS seconds, nice'd,
#                             one at a time; new corpus entries and crash
#                             artifacts under $(BUILD)/fuzz, never the tree
#   make check-fuzz           replay the in-tree corpora, then a short,
#                             seeded run of each harness; TAP in
#                             $(BUILD)/check/fuzz.tap
#   make fuzz-seeds           rewrite the generated seeds (seed-*) in
#                             hw/fuzz/corpus (regression inputs stay)
#
# mk/*.mk are read in name order, so hw.mk's lists are not set yet when
# this file's rules are read: the paths are spelled out here, and only
# recipes (expanded late) use HW_WARN.
#
# Only hw/src carries libFuzzer's coverage instrumentation, so cov/ft count
# the model's edges, not the harness's or the test host's.

FUZZ_HW      := $(TOP)/hw
FUZZ_DIR     := $(FUZZ_HW)/fuzz
FUZZ_OUT     := $(BUILD)/fuzz
FUZZ_CC      ?= $(CCACHE) clang-14
FUZZ_SECS    ?= 60
# make check's short run is reproducible: a fixed seed and a number of
# inputs, not seconds, so every machine runs the same inputs and a
# failure in CI replays here.  Exploring is make fuzz's job.
FUZZ_CHECK_RUNS ?= 300
FUZZ_CHECK_SEED ?= 1
FUZZ_HARNESSES := admin rings rx mmio
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer
FUZZ_CFLAGS   = -std=c11 $(HW_WARN) -D_DEFAULT_SOURCE -O1 -g \
		-I$(TOP)/include -I$(FUZZ_HW)/include -I$(FUZZ_HW)/host \
		-I$(FUZZ_HW)/tests \
		-I$(FUZZ_DIR) $(FUZZ_HOST_DEFS)
# A host per input: a small arena (8 MiB of guest memory) and few
# captured frames keep creating and destroying it cheap.
FUZZ_HOST_DEFS := -DTH_MAX_PAGES=2048 -DTH_MAX_TX=4
# The model: coverage (fuzzer-no-link) and sanitizers.
FUZZ_SRC     := $(wildcard $(FUZZ_HW)/src/*.c $(FUZZ_HW)/src/*/*.c)
FUZZ_OBJ     := $(patsubst $(FUZZ_HW)/src/%.c,$(FUZZ_OUT)/obj/%.o,$(FUZZ_SRC))
# The host side: the host stub's host and driver (hw/host) and the shared
# harness code, sanitized but not steering the fuzzer.
FUZZ_HOST_SRC := $(FUZZ_HW)/host/host.c $(FUZZ_HW)/host/drv.c \
		 $(FUZZ_HW)/tests/ref_icrc.c \
		 $(filter-out $(FUZZ_DIR)/fuzz_%.c $(FUZZ_DIR)/gen_seeds.c, \
			      $(wildcard $(FUZZ_DIR)/*.c))
FUZZ_HOST_OBJ := $(patsubst %.c,$(FUZZ_OUT)/host/%.o,$(notdir $(FUZZ_HOST_SRC)))
FUZZ_MODEL_HDR := $(wildcard $(FUZZ_HW)/src/*.h $(FUZZ_HW)/src/*/*.h) \
		$(FUZZ_HW)/include/wrenhw.h \
		$(wildcard $(TOP)/include/linux/wren/*.h)
FUZZ_HDR     := $(FUZZ_MODEL_HDR) $(FUZZ_HW)/host/host.h $(FUZZ_HW)/host/drv.h \
		$(FUZZ_HW)/tests/ref_icrc.h \
		$(wildcard $(FUZZ_DIR)/*.h)
FUZZ_BINS    := $(patsubst %,$(FUZZ_OUT)/fuzz_%,$(FUZZ_HARNESSES))
# Per input: 10 s is a hang (a whole input normally takes milliseconds).
FUZZ_OPTS    := -timeout=10 -rss_limit_mb=2048 -max_len=16384
FUZZ_ENV     := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: fuzz fuzz-build check-fuzz fuzz-seeds

## fuzz-build: the libFuzzer harnesses of libwrenhw in $(BUILD)/fuzz
fuzz-build: $(FUZZ_BINS)

$(FUZZ_OUT)/obj/%.o: $(FUZZ_HW)/src/%.c $(FUZZ_MODEL_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
		-c -o $@ $<

$(FUZZ_OUT)/host/%.o: $(FUZZ_HW)/host/%.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -c -o $@ $<

$(FUZZ_OUT)/host/%.o: $(FUZZ_HW)/tests/%.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -c -o $@ $<

$(FUZZ_OUT)/host/%.o: $(FUZZ_DIR)/%.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -c -o $@ $<

$(FUZZ_OUT)/fuzz_%: $(FUZZ_DIR)/fuzz_%.c $(FUZZ_OBJ) $(FUZZ_HOST_OBJ) $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_OBJ) $(FUZZ_HOST_OBJ)

# Objects are built once for every harness; keep them between runs.
.SECONDARY: $(FUZZ_OBJ) $(FUZZ_HOST_OBJ)

# The seed generator is a plain host program (no sanitizers needed).
$(FUZZ_OUT)/gen_seeds: $(FUZZ_DIR)/gen_seeds.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $<

## fuzz-seeds: rewrite the generated seeds in hw/fuzz/corpus
fuzz-seeds: $(FUZZ_OUT)/gen_seeds
	rm -f $(FUZZ_DIR)/corpus/*/seed-*
	@mkdir -p $(FUZZ_DIR)/corpus
	$(FUZZ_OUT)/gen_seeds $(FUZZ_DIR)/corpus

# make fuzz: one harness after another (never two at once), at the lowest
# CPU priority; new inputs go to $(FUZZ_OUT)/corpus/<h> (the in-tree
# corpus is read, never written), crashes to $(FUZZ_OUT)/artifacts/<h>,
# the log (with libFuzzer's cov/ft/exec figures) to $(FUZZ_OUT)/<h>.log.
## fuzz: every harness for FUZZ_SECS seconds (default 60), one at a time, nice'd
fuzz: $(FUZZ_BINS)
	@for h in $(FUZZ_HARNESSES); do \
		mkdir -p $(FUZZ_OUT)/corpus/$$h $(FUZZ_OUT)/artifacts/$$h; \
		echo "fuzz: $$h for $(FUZZ_SECS) s"; \
		$(FUZZ_ENV) nice -n 19 $(FUZZ_OUT)/fuzz_$$h $(FUZZ_OPTS) \
			-max_total_time=$(FUZZ_SECS) -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_OUT)/artifacts/$$h/ \
			$(FUZZ_OUT)/corpus/$$h $(FUZZ_DIR)/corpus/$$h \
			>$(FUZZ_OUT)/$$h.log 2>&1; rc=$$?; \
		grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units' \
			$(FUZZ_OUT)/$$h.log | sed "s/^/fuzz: $$h: /"; \
		if [ $$rc -ne 0 ]; then \
			echo "fuzz: $$h FAILED (rc $$rc), see $(FUZZ_OUT)/$$h.log"; \
			exit 1; \
		fi; \
	done

## check-fuzz: replay the in-tree corpora and a short seeded run a harness, TAP in check/fuzz.tap
check-fuzz: $(FUZZ_BINS)
	@FUZZ_OPTS="$(FUZZ_OPTS)" $(TOP)/scripts/check/fuzz.sh $(FUZZ_OUT) $(FUZZ_DIR)/corpus $(FUZZ_CHECK_RUNS) $(FUZZ_CHECK_SEED) $(FUZZ_HARNESSES)
