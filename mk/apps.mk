# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Wren as an operator installs it, and the applications users run on it:
#
#   make check-apps   the apps layer's boots of selftests/plan (PKG=1:
#                     guests install the packages of make deb and make
#                     deb-rdma-core with dpkg, then run Debian's UCX,
#                     libfabric, Open MPI and perftest against /usr alone);
#                     scripts/check/apps.sh, TAP in $(BUILD)/check
#   make deb-dkms-binaries [KVER=]  the host's dkms build of the wren-dkms
#                     package for KVER's kernel, as dkms mktarball ships it
#   make mpi-check [ROOTFS=trixie]  $(BUILD)/apps/wren_mpi_check (mpicc,
#                     Open MPI); with ROOTFS also
#                     $(BUILD)/apps/<ROOTFS>/wren_mpi_check, built with
#                     that guest root's own mpicc (kernel/root.sh)
#   make check-apps-host  selftests/host/mpi-host.sh: the checks with Open MPI
#                     on the host itself (shared memory, loopback TCP,
#                     a corrupted rank), TAP in $(BUILD)/check/apps-host.tap
#   make sshd         Debian's sshd unpacked into $(BUILD)/sshd for the
#                     guests' mpirun (selftests/lib/ssh.sh); not installed,
#                     as that would start an sshd on the host
#   make bench-apps [KVER=6.1]  Wren against rxe for UCX, NetPIPE and
#                     MPI_Allreduce between two guests (figures, not a test)

.PHONY: check-apps deb-dkms-binaries

## check-apps: the apps layer: guests on the Debian packages run UCX, libfabric, Open MPI, perftest
check-apps:
	$(TOP)/scripts/check/apps.sh

## deb-dkms-binaries: the host's dkms build of the wren-dkms package for KVER, as dkms mktarball ships it
deb-dkms-binaries: deb
	$(TOP)/scripts/deb/dkms-binaries.sh "$$($(TOP)/scripts/deb/build.sh)" $(KVER)

MPICC     ?= mpicc
MPI_CHECK := $(BUILD)/apps/wren_mpi_check

.PHONY: mpi-check check-apps-host sshd

## mpi-check: $(BUILD)/apps/wren_mpi_check (mpicc, Open MPI); ROOTFS=trixie: also the trixie guests'
mpi-check: $(MPI_CHECK) $(if $(ROOTFS),$(BUILD)/apps/$(ROOTFS)/wren_mpi_check)

MPI_CHECK_FLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(TOP)/tools/pattern

$(MPI_CHECK): $(TOP)/selftests/rdma/wren_mpi_check.c $(TOP)/tools/pattern/wren_pattern.h
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CHECK_FLAGS) -o $@ $<

# A guest root's Open MPI (trixie's 5.0) is not the host's: the program
# is built with its mpicc, in the root (whose compiler is gcc-14, with
# no gcc package to name it gcc).
$(BUILD)/apps/%/wren_mpi_check: $(TOP)/selftests/rdma/wren_mpi_check.c $(TOP)/tools/pattern/wren_pattern.h
	@mkdir -p $(@D)
	$(TOP)/scripts/kernel/root.sh run $*-guest env OMPI_CC=gcc-14 mpicc $(MPI_CHECK_FLAGS) -o $@ $<

## check-apps-host: the Open MPI checks on the host itself, TAP in check/apps-host.tap
check-apps-host: $(MPI_CHECK)
	@MPI_CHECK=$(MPI_CHECK) $(TOP)/scripts/check/apps-host.sh

# libwrap0 is not in every Debian install; the other libraries sshd links
# are in a base system.  A library the host still lacks fails here, not
# in the guests.
SSHD_LIBS = $(BUILD)/sshd/lib/$(MULTIARCH):$(BUILD)/sshd/usr/lib/$(MULTIARCH)
MULTIARCH = $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)

## sshd: Debian's sshd unpacked into $(BUILD)/sshd for the guests' mpirun
sshd:
	@$(TOP)/scripts/deb/unpack.sh $(BUILD)/sshd openssh-server libwrap0
	@if LD_LIBRARY_PATH=$(SSHD_LIBS) ldd $(BUILD)/sshd/usr/sbin/sshd | grep 'not found'; then \
		echo "sshd: libraries missing from the host and from $(BUILD)/sshd" >&2; exit 1; fi

# make bench-apps [KVER=6.1]: one boot, Wren against rxe between the same
# two guests for ucx_perftest tag bandwidth and latency, NetPIPE and
# MPI_Allreduce (selftests/bench/apps-bench.sh); the figures are printed
# and kept in $(BUILD)/bench/bench-apps-$(KVER).txt.  Not part of make
# check: it prints figures.
BENCH_APPS_RUN = $(BUILD)/bench/bench-apps-$(KVER)

.PHONY: bench-apps

## bench-apps: figures: Wren against rxe for UCX, NetPIPE and MPI_Allreduce between two guests
bench-apps: $(BENCH_DEPS) modules rdma-core mpi-check sshd
	@$(TOP)/scripts/deps/apps.sh
	@rc=0; $(BENCH_ENV) N=2 RUN_DIR="$(BENCH_APPS_RUN)" TIMEOUT="$(or $(TIMEOUT),1200)" \
		$(BENCH_DIR)/vmrun.sh $(TOP)/selftests/bench/apps-bench.sh || rc=$$?; \
	grep -h '^bench-apps:' $(BENCH_APPS_RUN)/guest0.out >$(BENCH_APPS_RUN).txt 2>/dev/null; \
	cat $(BENCH_APPS_RUN).txt; \
	exit $$rc
