# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The NIC at datacenter scale on ns-3 (sim/): the product's NIC logic
# (libwrenhw) and the host stub that programs it through the contract
# (hw/host), in ns-3 devices built against Debian's libns3-dev.
#   make sim      -> $(BUILD)/sim/<experiment>
#   make sim-e0   -> E0, two NICs back to back, its figures
#   make sim-e1   -> E1, N senders converging on one receiver [E1_ARGS=]
#   make sim-e2   -> E2, PFC's harm (parking lot, victim) and DCQCN's cure [E2_ARGS=]
#   make sim-e3   -> E3, incast, PFC alone against DCQCN [E3_ARGS=]
#   make sim-e5   -> E5, PFC deadlock on a ring and a Clos, broken and avoided [E5_ARGS=]
#   $(BUILD)/sim/hpcc-run --topology= --flows= --fct=
#                 -> HPCC's topology and flow files on Wren, FCTs in its columns
#   make sim-mpi  -> $(BUILD)/sim-mpi/hpcc-run, the same against ns-3 built
#                    with MPI (scripts/sim/ns3-mpi.sh, cached), for mpirun
#   make sim-e4-mpi -> E4 over RANKS MPI ranks, the FCTs compared with one

SIM_DIR   := $(TOP)/sim
SIM_OUT   := $(BUILD)/sim
SIM_CXX   ?= $(CCACHE) g++
# ns-3's headers are C++17 and warn on -Wextra's unused parameters of
# their own inline code; ours are checked with the same flags.
SIM_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -Werror \
		-I$(SIM_DIR)/model -I$(HW_DIR)/host -I$(HW_DIR)/include \
		-I$(TOP)/include -I$(FABRIC_DIR)/lib
SIM_LIBS  := -lns3-network -lns3-core
SIM_MODEL := $(wildcard $(SIM_DIR)/model/*.cc)
SIM_HDR   := $(wildcard $(SIM_DIR)/model/*.h) $(HW_HOST_HDR) \
	     $(wildcard $(FABRIC_DIR)/lib/*.h) \
	     $(HW_DIR)/include/wrenhw.h $(wildcard $(TOP)/include/linux/wren/*.h)
SIM_EXPERIMENTS := $(patsubst $(SIM_DIR)/experiments/%.cc,%, \
		     $(wildcard $(SIM_DIR)/experiments/*.cc))
# The host stub, optimised and without sanitizers, beside libwrenhw.a.
SIM_HOST_OBJ := $(patsubst $(HW_DIR)/host/%.c,$(SIM_OUT)/host/%.o,$(HW_HOST_SRC))
SIM_MODEL_OBJ := $(patsubst $(SIM_DIR)/model/%.cc,$(SIM_OUT)/model/%.o,$(SIM_MODEL))
# The fabric's frame rules (tools/fabric/lib): the switch's classification,
# ECN and PFC frames are wren-fabric's, from the same files.
SIM_FABRIC_OBJ := $(patsubst $(FABRIC_DIR)/lib/%.c,$(SIM_OUT)/fabric/%.o,$(FABRIC_LIB))
SIM_BINS  := $(patsubst %,$(SIM_OUT)/%,$(SIM_EXPERIMENTS))
# The experiments' objects are made by a pattern rule for their programs:
# kept, so that a second make links nothing and compiles nothing.
.SECONDARY: $(SIM_BINS:%=%.o)

# The distributed build: the same model and hpcc-run compiled with
# WREN_SIM_MPI against ns-3 3.37 built from Debian's source with its MPI
# module (scripts/sim/ns3-mpi.sh prints its cached prefix; NS3_MPI= given
# to the inner make).  The host stub and fabric objects are $(SIM_OUT)'s.
SIM_MPI_OUT := $(BUILD)/sim-mpi
SIM_MPI_MODEL_OBJ := $(patsubst $(SIM_DIR)/model/%.cc,$(SIM_MPI_OUT)/model/%.o,$(SIM_MODEL))
# Its headers as system ones, as Debian's are (they warn under -Wextra);
# MPI's C interface only.
SIM_MPI_CXXFLAGS = $(SIM_CXXFLAGS) -DWREN_SIM_MPI -DOMPI_SKIP_MPICXX -isystem $(NS3_MPI)/include \
		   $(patsubst -I%,-isystem %,$(shell mpicc --showme:compile 2>/dev/null))
SIM_MPI_LIBS = -L$(NS3_MPI)/lib -Wl,--disable-new-dtags,-rpath,$(NS3_MPI)/lib -lns3-mpi -lns3-network \
	       -lns3-core $(shell mpicc --showme:link 2>/dev/null)
# mpirun as CI runs it: as root, more ranks than cores allowed, and a
# rank that waits for another yields its core rather than spin on it.
MPIRUN ?= mpirun --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1
RANKS  ?= 2

# What make check runs (about 8 s together on this machine).
SIM_CHECK := e0-back-to-back e1-convergence e2-pfc-harm e5-deadlock

.PHONY: sim sim-mpi sim-mpi-bins sim-e4-mpi sim-deps sim-e0 sim-e1 sim-e1-plots sim-e2 sim-e2-plots sim-e3 sim-e3-plots sim-e4 sim-e5 sim-e5-plots sim-plots check-sim

# The figures of the docs' simulation page, made by make sim-*-plots.
SIM_FIGS := $(TOP)/Documentation/networking/device_drivers/wren/sim

## sim: the ns-3 experiments in $(BUILD)/sim (Debian's libns3-dev)
sim: $(SIM_BINS)

sim-deps:
	@$(TOP)/scripts/deps/sim.sh

## sim-mpi: hpcc-run over MPI in $(BUILD)/sim-mpi, against ns-3 with MPI built from Debian's source (cached)
# ns-3's CMake compiles through ccache by itself: in the tree's cache,
# not in $HOME's, so that no cache outside $(WREN_CACHE) speeds a build.
sim-mpi: $(SIM_HOST_OBJ) $(SIM_FABRIC_OBJ) $(HW_OUT)/libwrenhw.a
	@prefix=$$($(if $(WREN_CCACHE_DIR),CCACHE_DIR=$(WREN_CCACHE_DIR)) $(TOP)/scripts/sim/ns3-mpi.sh) && \
		$(MAKE) --no-print-directory sim-mpi-bins NS3_MPI=$$prefix

sim-mpi-bins: $(SIM_MPI_OUT)/hpcc-run

# Rebuilt when the cached ns-3 it is built against moves: the prefix
# file changes (and its time) only then.
$(if $(NS3_MPI),$(shell mkdir -p $(SIM_MPI_OUT) && \
	{ test "$$(cat $(SIM_MPI_OUT)/ns3-prefix 2>/dev/null)" = "$(NS3_MPI)" || \
	  echo "$(NS3_MPI)" >$(SIM_MPI_OUT)/ns3-prefix; }))

$(SIM_MPI_OUT)/model/%.o: $(SIM_DIR)/model/%.cc $(SIM_HDR) $(SIM_MPI_OUT)/ns3-prefix
	@mkdir -p $(@D)
	$(SIM_CXX) $(SIM_MPI_CXXFLAGS) -c -o $@ $<

$(SIM_MPI_OUT)/%.o: $(SIM_DIR)/experiments/%.cc $(SIM_HDR) $(SIM_MPI_OUT)/ns3-prefix
	@mkdir -p $(@D)
	$(SIM_CXX) $(SIM_MPI_CXXFLAGS) -c -o $@ $<

$(SIM_MPI_OUT)/hpcc-run: $(SIM_MPI_OUT)/hpcc-run.o $(SIM_MPI_MODEL_OBJ) $(SIM_HOST_OBJ) \
			 $(SIM_FABRIC_OBJ) $(HW_OUT)/libwrenhw.a
	$(SIM_CXX) -o $@ $(filter-out %/ns3-prefix,$^) $(SIM_MPI_LIBS)

$(SIM_OUT)/host/%.o: $(HW_DIR)/host/%.c $(HW_HOST_HDR) $(HW_HDR)
	@mkdir -p $(@D)
	$(HW_CC) $(HW_CFLAGS) -D_DEFAULT_SOURCE -O2 -g -c -o $@ $<

$(SIM_OUT)/fabric/%.o: $(FABRIC_DIR)/lib/%.c $(wildcard $(FABRIC_DIR)/lib/*.h)
	@mkdir -p $(@D)
	$(FABRIC_CC) $(FABRIC_CFLAGS) -c -o $@ $<

$(SIM_OUT)/model/%.o: $(SIM_DIR)/model/%.cc $(SIM_HDR)
	@mkdir -p $(@D)
	$(SIM_CXX) $(SIM_CXXFLAGS) -c -o $@ $<

$(SIM_OUT)/%.o: $(SIM_DIR)/experiments/%.cc $(SIM_HDR)
	@mkdir -p $(@D)
	$(SIM_CXX) $(SIM_CXXFLAGS) -c -o $@ $<

$(SIM_OUT)/%: $(SIM_OUT)/%.o $(SIM_MODEL_OBJ) $(SIM_HOST_OBJ) $(SIM_FABRIC_OBJ) \
	      $(HW_OUT)/libwrenhw.a
	$(SIM_CXX) -o $@ $^ $(SIM_LIBS)

## sim-e0: E0: two NICs back to back at 100 Gb/s, RC WRITE goodput, a CE-marked stream against the DCQCN reference (E0_ARGS="--cc-mib=256")
sim-e0: $(SIM_OUT)/e0-back-to-back
	$(SIM_OUT)/e0-back-to-back $(E0_ARGS)

## sim-e1: E1: N senders to one receiver through a switch, DCQCN's convergence (E1_ARGS="--senders=8 --profile=hpcc")
sim-e1: $(SIM_OUT)/e1-convergence
	$(SIM_OUT)/e1-convergence $(E1_ARGS)

# E1's runs for the docs: senders and profiles, each beside the DCQCN
# fluid model (sim/plots/dcqcn_fluid.py); about 2 minutes on 2 cores.
E1_PLOT_SENDERS  ?= 2 8 16
E1_PLOT_PROFILES ?= paper hpcc

## sim-e1-plots: E1 at 2, 8 and 16 senders, paper's and HPCC's profiles: rates and queue beside the DCQCN fluid model, plotted into the docs
sim-e1-plots: $(SIM_OUT)/e1-convergence
	@mkdir -p $(SIM_FIGS)
	@for n in $(E1_PLOT_SENDERS); do for p in $(E1_PLOT_PROFILES); do \
		$(SIM_OUT)/e1-convergence --senders=$$n --profile=$$p --join-ms=10 \
			--settle-ms=40 --measure-ms=20 \
			--trace=$(SIM_OUT)/e1-$$n-$$p.csv || true; \
		/usr/bin/python3 $(SIM_DIR)/plots/e1-rates.py $(SIM_OUT)/e1-$$n-$$p.csv \
			$(SIM_FIGS)/e1-$$n-$$p.png "E1: $$n senders, DCQCN profile $$p" || exit 1; \
		echo "sim-e1-plots: $(SIM_FIGS)/e1-$$n-$$p.png"; \
	done; done

## sim-e2: E2: PFC's unfairness and victim flow on a 3-tier mini-Clos, and DCQCN's cure (E2_ARGS="--incast=16")
sim-e2: $(SIM_OUT)/e2-pfc-harm
	$(SIM_OUT)/e2-pfc-harm $(E2_ARGS)

## sim-e2-plots: E2 at 4, 8 and 16 incast senders: the rates and PFC frames plotted into the docs
sim-e2-plots: $(SIM_OUT)/e2-pfc-harm
	@mkdir -p $(SIM_FIGS)
	@for n in 4 8 16; do \
		$(SIM_OUT)/e2-pfc-harm --incast=$$n | tee $(SIM_OUT)/e2-$$n.txt || true; \
	done
	/usr/bin/python3 $(SIM_DIR)/plots/e2-shares.py $(SIM_FIGS)/e2-shares.png \
		$(SIM_OUT)/e2-4.txt $(SIM_OUT)/e2-8.txt $(SIM_OUT)/e2-16.txt
	@echo "sim-e2-plots: $(SIM_FIGS)/e2-shares.png"

## sim-e3: E3: N x 500 KB incast into one 100 Gb/s port, PFC alone against DCQCN (E3_ARGS="--senders=60")
sim-e3: $(SIM_OUT)/e3-incast
	$(SIM_OUT)/e3-incast $(E3_ARGS)

## sim-e3-plots: E3 at 8, 16 and 60 senders (32 MiB) and 60 (8 MiB): FCT and XOFF plotted into the docs
sim-e3-plots: $(SIM_OUT)/e3-incast
	@mkdir -p $(SIM_FIGS)
	@for a in "8 32" "16 32" "60 32" "60 8"; do set -- $$a; \
		$(SIM_OUT)/e3-incast --senders=$$1 --buffer-mb=$$2 | \
			tee $(SIM_OUT)/e3-$$1-$$2.txt || true; \
	done
	/usr/bin/python3 $(SIM_DIR)/plots/e3-incast.py $(SIM_FIGS)/e3-incast.png \
		$(SIM_OUT)/e3-8-32.txt $(SIM_OUT)/e3-16-32.txt $(SIM_OUT)/e3-60-32.txt \
		$(SIM_OUT)/e3-60-8.txt
	@echo "sim-e3-plots: $(SIM_FIGS)/e3-incast.png"

# E4: HPCC's fat-tree (320 hosts) with Poisson traffic for E4_SECONDS of
# arrivals, one run a workload of E4_WORKLOADS: WebSearch at 30 % load,
# and FB_Hadoop at 30 % plus 60 x 500 KB incasts at 2 % of the network's
# capacity.  A workload is a flow-size CDF in sim/traffic/ and its load.
E4_SECONDS   ?= 0.1
E4_WORKLOADS ?= websearch fb-hadoop
E4_ARGS_websearch := --load 0.3
E4_ARGS_fb-hadoop := --load 0.3 --incast-load 0.02
E4_OUT        = $(SIM_OUT)/e4

## sim-e4: E4: HPCC's 320-host fat-tree, WebSearch and FB_Hadoop (E4_WORKLOADS=, E4_SECONDS=), FCT slowdown per size bin plotted
sim-e4: $(SIM_OUT)/hpcc-run
	@mkdir -p $(E4_OUT) $(SIM_FIGS)
	/usr/bin/python3 $(SIM_DIR)/tools/fat-tree.py >$(E4_OUT)/fat.txt
	@for w in $(E4_WORKLOADS); do \
		test -f $(SIM_DIR)/traffic/$$w.cdf || { echo "sim-e4: no workload $$w (sim/traffic/$$w.cdf)" >&2; exit 2; }; \
		case $$w in \
		websearch) args="$(E4_ARGS_websearch)";; \
		fb-hadoop) args="$(E4_ARGS_fb-hadoop)";; \
		*) args="--load 0.3";; \
		esac; \
		echo "sim-e4: $$w: $$args, $(E4_SECONDS) s of arrivals"; \
		/usr/bin/python3 $(SIM_DIR)/tools/traffic.py --hosts 320 \
			--cdf $(SIM_DIR)/traffic/$$w.cdf $$args --seconds $(E4_SECONDS) \
			>$(E4_OUT)/$$w.flows || exit 1; \
		/usr/bin/time -f "sim-e4: $$w: %e s of wall time, %M KB peak memory" \
			$(SIM_OUT)/hpcc-run --topology=$(E4_OUT)/fat.txt \
			--flows=$(E4_OUT)/$$w.flows --fct=$(E4_OUT)/$$w.fct || exit 1; \
		/usr/bin/python3 $(SIM_DIR)/tools/fct-slowdown.py $(E4_OUT)/$$w.fct \
			--png $(SIM_FIGS)/e4-$$w.png \
			--title "E4: $$w, $$args, $(E4_SECONDS) s, DCQCN (HPCC's settings)" || exit 1; \
		echo "sim-e4: $(SIM_FIGS)/e4-$$w.png"; \
	done

# E4 over MPI: one workload, shorter (the pair of runs is for the speed-up
# and the identity, not the figures).
E4_MPI_WORKLOAD ?= websearch
E4_MPI_SECONDS  ?= 0.005

## sim-e4-mpi: E4 on one MPI rank and on RANKS (2): wall times, speed-up, FCT files compared (E4_MPI_WORKLOAD=websearch, E4_MPI_SECONDS=0.005)
sim-e4-mpi: sim-mpi
	@test -f $(SIM_DIR)/traffic/$(E4_MPI_WORKLOAD).cdf || { echo "sim-e4-mpi: no workload $(E4_MPI_WORKLOAD) (sim/traffic/$(E4_MPI_WORKLOAD).cdf)" >&2; exit 2; }
	@mkdir -p $(E4_OUT)
	/usr/bin/python3 $(SIM_DIR)/tools/fat-tree.py >$(E4_OUT)/fat.txt
	/usr/bin/python3 $(SIM_DIR)/tools/traffic.py --hosts 320 \
		--cdf $(SIM_DIR)/traffic/$(E4_MPI_WORKLOAD).cdf $(E4_ARGS_$(E4_MPI_WORKLOAD)) \
		--seconds $(E4_MPI_SECONDS) >$(E4_OUT)/mpi.flows
	@set -e; e4="--topology=$(E4_OUT)/fat.txt --flows=$(E4_OUT)/mpi.flows"; \
	t0=$$(date +%s.%N); $(MPIRUN) -np 1 $(SIM_MPI_OUT)/hpcc-run $$e4 --fct=$(E4_OUT)/fct-1.txt; \
	t1=$$(date +%s.%N); $(MPIRUN) -np $(RANKS) $(SIM_MPI_OUT)/hpcc-run $$e4 --fct=$(E4_OUT)/fct-$(RANKS).txt; \
	t2=$$(date +%s.%N); \
	awk -v a=$$t0 -v b=$$t1 -v c=$$t2 'BEGIN { printf "# sim-e4-mpi: 1 rank %.1f s, $(RANKS) ranks %.1f s of wall time: speed-up %.2fx\n", b - a, c - b, (b - a) / (c - b) }'; \
	if cmp -s $(E4_OUT)/fct-1.txt $(E4_OUT)/fct-$(RANKS).txt; then \
		echo "# sim-e4-mpi: the FCT files of 1 and $(RANKS) ranks are the same bytes ($$(wc -l <$(E4_OUT)/fct-1.txt) flows)"; \
	else echo "sim-e4-mpi: the FCT files of 1 and $(RANKS) ranks differ" >&2; exit 1; fi

## sim-e5: E5: PFC deadlock on a ring and on a 2x2 Clos with a failed link: the cycle found, the watchdog, routing and load that avoid it (E5_ARGS="--fabric=clos")
sim-e5: $(SIM_OUT)/e5-deadlock
	$(SIM_OUT)/e5-deadlock $(E5_ARGS)

## sim-e5-plots: E5 on both fabrics: each run's throughput over time plotted into the docs
sim-e5-plots: $(SIM_OUT)/e5-deadlock
	@mkdir -p $(SIM_FIGS)
	$(SIM_OUT)/e5-deadlock --trace=$(SIM_OUT)/e5.csv || true
	/usr/bin/python3 $(SIM_DIR)/plots/e5-throughput.py $(SIM_OUT)/e5.csv \
		$(SIM_FIGS)/e5-throughput.png
	@echo "sim-e5-plots: $(SIM_FIGS)/e5-throughput.png"

## sim-plots: every experiment's plots but E4's (sim-e4 draws its own): E1, E2, E3, E5
sim-plots: sim-e1-plots sim-e2-plots sim-e3-plots sim-e5-plots

## check-sim: the ns-3 experiments' criteria and the simulation's tests, TAP in check/sim-*.tap
check-sim: sim-deps
	@$(MAKE) --no-print-directory sim sim-mpi
	@$(TOP)/scripts/check/sim.sh $(SIM_CHECK)
