# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Wren as an operator installs it, and the applications users run on it:
#
#   make check-apps   the apps layer's boots of selftests/plan (PKG=1:
#                     guests install the packages of make deb and make
#                     deb-rdma-core with dpkg, then run Debian's UCX,
#                     libfabric and Open MPI against /usr alone);
#                     scripts/check-apps.sh, TAP in $(BUILD)/check
#   make deb-dkms-binaries [KVER=]  the host's dkms build of the wren-dkms
#                     package for KVER's kernel, as dkms mktarball ships it

.PHONY: check-apps deb-dkms-binaries

check-apps:
	$(TOP)/scripts/check-apps.sh

deb-dkms-binaries: deb
	$(TOP)/scripts/deb-dkms-binaries.sh "$$($(TOP)/scripts/deb-build.sh)" $(KVER)

# make bench-apps [KVER=6.1]: one boot, Wren against rxe between the same
# two guests for ucx_perftest tag bandwidth and latency, NetPIPE and
# MPI_Allreduce (selftests/bench/apps-bench.sh); the figures are printed
# and kept in $(BUILD)/bench/bench-apps-$(KVER).txt.  Not part of make
# check: it prints figures.
BENCH_APPS_RUN = $(BUILD)/bench/bench-apps-$(KVER)

.PHONY: bench-apps

bench-apps: $(BENCH_DEPS) modules rdma-core mpi-check sshd
	@$(TOP)/scripts/deps-apps.sh
	@rc=0; $(BENCH_ENV) N=2 RUN_DIR="$(BENCH_APPS_RUN)" TIMEOUT="$(or $(TIMEOUT),1200)" \
		$(BENCH_DIR)/vmrun.sh $(TOP)/selftests/bench/apps-bench.sh || rc=$$?; \
	grep -h '^bench-apps:' $(BENCH_APPS_RUN)/guest0.out >$(BENCH_APPS_RUN).txt 2>/dev/null; \
	cat $(BENCH_APPS_RUN).txt; \
	exit $$rc
