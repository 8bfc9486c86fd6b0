# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# selftests/ as a kselftest tree, and the plan of `make check`:
#
#   make check-plan          the check layers and the guest matrix, as
#                            selftests/plan declares them
#   make kselftest-install   selftests/ installed the kernel's way
#                            (lib.mk's install, run_kselftest.sh,
#                            kselftest-list.txt) into $(KSFT_INSTALL); the
#                            guests run their tests from there
#   make kselftest-src       the kernel's kselftest files ($(KSFT_SRC))
#   $(BUILD)/contract/wren-contract.sh
#                            the contract headers' numbers as NAME=value
#                            lines, which the guest tests source
#                            (selftests/lib/wren.sh); built with the bench
#
# C test programs take their TAP from selftests/lib/tap.h, which sits on
# the kernel's kselftest.h: they depend on $(TAP_DEPS) and compile with
# $(TAP_CFLAGS) (both in the top Makefile).

KSFT_INSTALL := $(BUILD)/kselftest

export KSFT_SRC KSFT_INSTALL

.PHONY: check-plan kselftest-src kselftest-install

## check-plan: print what make check runs: layers, guest pairs, guest matrix (selftests/plan)
check-plan:
	@$(TOP)/scripts/check/plan.sh

# The script is cheap when the link is current; as a file target it only
# runs when the link is missing (the version is checked by kselftest-src).
$(KSFT_SRC)/kselftest.h:
	@$(TOP)/scripts/kernel/kselftest-tree.sh $(KSFT_SRC)

## kselftest-src: link the kernel's kselftest files into $(BUILD)/kselftest-src
kselftest-src:
	@$(TOP)/scripts/kernel/kselftest-tree.sh $(KSFT_SRC)

## kselftest-install: selftests/ installed the kernel's way into $(BUILD)/kselftest
kselftest-install: kselftest-src
	@$(MAKE) --no-print-directory -C $(TOP)/selftests install \
		KSFT_SRC=$(KSFT_SRC) INSTALL_PATH=$(KSFT_INSTALL) >/dev/null

# Written by the tree's one reader of the headers (dcb/lib/wrenqos/
# contract.py): a file the guests source once costs no Python exec per
# value, which under TCG is 0.2 s each.
$(BUILD)/contract/wren-contract.sh: $(TOP)/dcb/lib/wrenqos/contract.py \
		$(wildcard $(TOP)/include/linux/wren/*.h)
	@mkdir -p $(@D)
	python3 $< $(TOP)/include/linux/wren >$@.tmp && mv $@.tmp $@
