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
