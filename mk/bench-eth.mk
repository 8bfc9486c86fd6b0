# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Ethernet benchmark (not part of `make check`: it prints figures):
#
#   make bench-eth [KVER=6.1|6.12] [BENCH_ETH_SECONDS=10] [BENCH_ETH_ROUNDS=2] [SMP=1]
#                  [BENCH_ETH_COALESCE=rx-usecs,50,rx-frames,16] [BENCH_ETH_RINGS=rx,1024]
#
# Boots the two bench guests once and runs selftests/bench/eth-throughput.sh:
# iperf3 TCP throughput over Wren and over virtio-net between the same two
# guests, both directions, and the ratio Wren/virtio-net against the 1.0
# target.  The figures are printed and kept in $(BUILD)/bench/bench-eth-$(KVER).txt.

BENCH_ETH_SECONDS ?= 10
BENCH_ETH_ROUNDS  ?= 2
BENCH_ETH_RUN      = $(BUILD)/bench/bench-eth-$(KVER)

.PHONY: bench-eth

## bench-eth: figures: iperf3 over Wren and over virtio-net between two guests
bench-eth: $(BENCH_DEPS) modules
	@rc=0; $(BENCH_ENV) N=2 RUN_DIR="$(BENCH_ETH_RUN)" \
		TIMEOUT="$(or $(TIMEOUT),$$(( $(BENCH_ETH_ROUNDS) * $(BENCH_ETH_SECONDS) * 6 + 300 )))" \
		APPEND="$(APPEND) BENCH_ETH_SECONDS=$(BENCH_ETH_SECONDS) BENCH_ETH_ROUNDS=$(BENCH_ETH_ROUNDS) $(if $(BENCH_ETH_COALESCE),BENCH_ETH_COALESCE=$(BENCH_ETH_COALESCE)) $(if $(BENCH_ETH_RINGS),BENCH_ETH_RINGS=$(BENCH_ETH_RINGS))" \
		$(BENCH_DIR)/vmrun.sh $(TOP)/selftests/bench/eth-throughput.sh || rc=$$?; \
	grep '^bench-eth:' $(BENCH_ETH_RUN)/guest0.out >$(BENCH_ETH_RUN).txt 2>/dev/null; \
	cat $(BENCH_ETH_RUN).txt; \
	[ $$rc = 0 ] || grep -h 'bench-eth:' $(BENCH_ETH_RUN)/guest*.log >&2; \
	exit $$rc
