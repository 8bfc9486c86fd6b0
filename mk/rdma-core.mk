# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# rdma-core 56.1 (Debian's source) with libwren, the Wren provider, built in
# tree for the bench: `make rdma-core` -> $(BUILD)/rdma-core (bin/, lib/,
# etc/libibverbs.d, python/) and $(BUILD)/rdma-core.env.
# `make check-provider` builds it and runs the provider's host tests, and the
# host test of the parser that turns rdma-core's python suite into TAP.
# scripts/rdma-core/build.sh decides from its cache whether anything needs
# compiling, so the target is always run and is cheap when nothing changed.

RDMA_CORE := $(BUILD)/rdma-core

export RDMA_CORE

.PHONY: rdma-core check-provider
## rdma-core: rdma-core 56.1 with libwren in $(BUILD)/rdma-core, for the guests
rdma-core:
	$(TOP)/scripts/deps/rdma-core.sh
	$(TOP)/scripts/rdma-core/build.sh

## check-provider: rdma-core with libwren built, the provider's host tests, TAP in check/
check-provider:
	$(TOP)/scripts/check/provider.sh
