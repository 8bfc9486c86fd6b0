# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Debian packages of the product (scripts/deb/build.sh, packaging/):
#
#   make deb        $(BUILD)/deb/wren-dkms_<ver>-1_all.deb: the module
#                   source under /usr/src/wren-<ver>, built by dkms on install
#   make check-deb  host check of the package, nothing installed on the host:
#                   control, file list, maintainer scripts (shellcheck, run
#                   with dkms stubbed), lintian, dkms build of the packaged
#                   source for $(KVER) in private trees, and the rdma-core
#                   source deb/rdma-core.sh prepares (scripts/check/deb.sh)
#   make deb-rdma-core  rdma-core 56.1 from Debian's source with libwren
#                   (scripts/deb/rdma-core.sh), for each Debian release
#                   the bench's guests run: bookworm's 56.1-1+wren1 in
#                   $(BUILD)/deb/rdma-core/ (libibverbs1, ibverbs-providers,
#                   librdmacm1, ...), built here, and trixie's
#                   56.1-1+wren1+deb13u1 in $(BUILD)/deb/trixie/rdma-core/
#                   (librdmacm1t64, ...), built in a trixie build root;
#                   cached by their inputs in $(WREN_CACHE)/rdma-core/deb-<K>
#                   and deb-trixie-<K>, cold 10+ minutes each on two cores
#
# <ver> is dkms.conf's PACKAGE_VERSION.

.PHONY: deb check-deb deb-rdma-core

## deb: $(BUILD)/deb/wren-dkms_<ver>-1_all.deb, the module source built by dkms on install
deb:
	$(TOP)/scripts/deps/deb.sh
	$(TOP)/scripts/deb/build.sh

## check-deb: the wren-dkms package checked on the host, nothing installed, TAP in check/deb.tap
check-deb:
	$(TOP)/scripts/check/deb.sh

## deb-rdma-core: rdma-core 56.1 packages with libwren for bookworm and trixie in $(BUILD)/deb/[trixie/]rdma-core
deb-rdma-core:
	$(TOP)/scripts/deps/deb.sh --rdma-core
	$(TOP)/scripts/deb/rdma-core.sh --build bookworm
	$(TOP)/scripts/deb/rdma-core.sh --build trixie
