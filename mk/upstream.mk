# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The drivers and the provider in upstream form (scripts/upstream/):
#
#   make upstream        $(BUILD)/upstream/linux/*.patch, the drivers as a
#                        series against Linux 7.3 (linux-source-7.3), and
#                        $(BUILD)/upstream/rdma-core/*.patch, the provider
#                        as a series against rdma-core 56.1
#   make check-upstream  both applied to pristine trees and built there:
#                        checkpatch --strict, W=1 and C=1, coccicheck,
#                        the same objects in and out of tree, rdma-core
#                        with warnings as errors; TAP in check/upstream.tap
#
# Not part of make check: see Documentation/.../driver.rst, "Upstream
# form", for its cold and warm times.

.PHONY: upstream check-upstream

## upstream: the drivers as a Linux 7.3 patch series and the provider as an rdma-core one, in $(BUILD)/upstream
upstream:
	$(TOP)/scripts/deps/upstream.sh
	$(TOP)/scripts/upstream/linux.sh
	$(TOP)/scripts/upstream/rdma-core.sh

## check-upstream: both series applied to pristine trees and built there (checkpatch, W=1, C=1, coccicheck, -Werror)
check-upstream:
	$(TOP)/scripts/upstream/check.sh $(BUILD)/check/upstream.tap
