# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# RDMA benchmark (not part of `make check`: it prints figures):
#
#   make bench-rdma [KVER=6.1|6.12] [BENCH_RDMA_ROUNDS=2]
#                   [BENCH_RDMA_BW_SECS=5] [BENCH_RDMA_LAT_ITERS=1000]
#                   [BENCH_RDMA_MTUS="1500 9000"]
#                   [BENCH_RDMA_TESTS=ib_write_bw,ib_send_lat,ib_read_bw]
#
# Boots the two bench guests once and runs selftests/bench/rdma-bench.sh:
# perftest's ib_write_bw (64 KiB), ib_send_lat (8 B) and ib_read_bw (64 KiB)
# over Wren (wren_0) and over rdma_rxe on virtio-net between the same two
# guests, at each netdev MTU, the ratios Wren/rxe against the bench's
# targets (write >= 20x, read >= 15x, latency <= 1/5) and the passive
# side's CPU use during the bandwidth runs,
# then the control path (a 1 GiB MR, 1000 RC QPs: 2 GiB guests).  The
# figures are printed and kept in $(BUILD)/bench/bench-rdma-$(KVER).txt.
# A run that hangs leaves the fabrics' and QEMUs' state in its run
# directory's hang/, a minute before the guests' timeout (vmrun.sh's
# HANG_DUMP).  BENCH_RDMA_TESTS=ib_write_bw BENCH_RDMA_MTUS=9000 and many
# rounds is the stress that found a lost virtio-net kick (one rxe stream
# in about 150 before vmrun.sh kept the guests' barriers, bench.rst).

BENCH_RDMA_ROUNDS    ?= 2
BENCH_RDMA_BW_SECS   ?= 5
BENCH_RDMA_LAT_ITERS ?= 1000
BENCH_RDMA_MTUS      ?= 1500 9000
BENCH_RDMA_TESTS     ?= ib_write_bw,ib_send_lat,ib_read_bw
BENCH_RDMA_RUN        = $(BUILD)/bench/bench-rdma-$(KVER)
# The MTU list travels as one kernel command-line word: commas.
bench_rdma_empty :=
bench_rdma_mtus   = $(subst $(bench_rdma_empty) $(bench_rdma_empty),$(comma),$(strip $(BENCH_RDMA_MTUS)))
comma            := ,

.PHONY: bench-rdma

## bench-rdma: figures: perftest over Wren and over rxe between two guests, and the control path
bench-rdma: $(BENCH_DEPS) modules rdma-core rdma-tests
	@rc=0; $(BENCH_ENV) N=2 MEM="$(or $(MEM),2048)" RUN_DIR="$(BENCH_RDMA_RUN)" \
		HANG_DUMP="$(or $(HANG_DUMP),60)" \
		TIMEOUT="$(or $(TIMEOUT),$$(( $(BENCH_RDMA_ROUNDS) * $(words $(BENCH_RDMA_MTUS)) * 300 + 300 )))" \
		APPEND="$(APPEND) BENCH_RDMA_ROUNDS=$(BENCH_RDMA_ROUNDS) BENCH_RDMA_BW_SECS=$(BENCH_RDMA_BW_SECS) BENCH_RDMA_LAT_ITERS=$(BENCH_RDMA_LAT_ITERS) BENCH_RDMA_MTUS=$(bench_rdma_mtus) BENCH_RDMA_TESTS=$(BENCH_RDMA_TESTS)" \
		$(BENCH_DIR)/vmrun.sh $(TOP)/selftests/bench/rdma-bench.sh || rc=$$?; \
	grep '^bench-rdma:' $(BENCH_RDMA_RUN)/guest0.out >$(BENCH_RDMA_RUN).txt 2>/dev/null; \
	grep -h '^bench-rdma:' $(BENCH_RDMA_RUN)/guest1.out >>$(BENCH_RDMA_RUN).txt 2>/dev/null; \
	cat $(BENCH_RDMA_RUN).txt; \
	exit $$rc

# make bench-profile [KVER=6.1] [BENCH_PROFILE_SECS=15]
#                    [BENCH_PROFILE_TEST=ib_write_bw|ib_read_bw|ib_send_bw]:
# the host's CPU a RoCE frame of a Wren 64 KiB stream of that perftest, by
# process, thread and symbol, and each thread's sleeps a frame (perf record
# -a over the stream); scripts/bench/profile.sh.  The figures are kept in
# $(BUILD)/bench/bench-profile-$(KVER)/; bench.rst has the tables they
# give.  Not part of make check.
BENCH_PROFILE_SECS ?= 15
BENCH_PROFILE_TEST ?= ib_write_bw

.PHONY: bench-profile

## bench-profile: figures: the host's CPU a RoCE frame of a Wren perftest stream (perf record)
bench-profile: $(BENCH_DEPS) modules rdma-core
	@MAKE="$(MAKE)" KVER="$(KVER)" APPEND="$(APPEND) BENCH_RDMA_PROFILE_TEST=$(BENCH_PROFILE_TEST)" \
		$(TOP)/scripts/bench/profile.sh $(BUILD)/bench/bench-profile-$(KVER) \
		$(BUILD)/bench/bench-profile-run-$(KVER) $(BENCH_PROFILE_SECS)
