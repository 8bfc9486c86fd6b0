# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Applications over Wren (issue 13): MPI between the bench guests.
#
#   make mpi-check        $(BUILD)/apps/wren_mpi_check (mpicc, Open MPI)
#   make check-apps-host  tests/apps/mpi-host.sh: the checks with Open MPI
#                         on the host itself (shared memory, loopback TCP,
#                         a corrupted rank), TAP in $(BUILD)/check/apps-host.tap
#   make sshd             Debian's sshd unpacked into $(BUILD)/sshd for the
#                         guests' mpirun (selftests/lib/ssh.sh); not installed,
#                         as that would start an sshd on the host

MPICC     ?= mpicc
MPI_CHECK := $(BUILD)/apps/wren_mpi_check

.PHONY: mpi-check check-apps-host sshd

mpi-check: $(MPI_CHECK)

$(MPI_CHECK): $(TOP)/tests/apps/wren_mpi_check.c
	@mkdir -p $(@D)
	$(MPICC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ $<

check-apps-host: $(MPI_CHECK)
	@mkdir -p $(BUILD)/check
	@rc=0; MPI_CHECK=$(MPI_CHECK) $(TOP)/tests/apps/mpi-host.sh \
		>$(BUILD)/check/apps-host.tap || rc=$$?; \
	cat $(BUILD)/check/apps-host.tap; exit $$rc

# libwrap0 is not in every Debian install; the other libraries sshd links
# are in a base system.  A library the host still lacks fails here, not
# in the guests.
SSHD_LIBS = $(BUILD)/sshd/lib/$(MULTIARCH):$(BUILD)/sshd/usr/lib/$(MULTIARCH)
MULTIARCH = $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)

sshd:
	@$(TOP)/scripts/deb-unpack.sh $(BUILD)/sshd openssh-server libwrap0
	@if LD_LIBRARY_PATH=$(SSHD_LIBS) ldd $(BUILD)/sshd/usr/sbin/sshd | grep 'not found'; then \
		echo "sshd: libraries missing from the host and from $(BUILD)/sshd" >&2; exit 1; fi
