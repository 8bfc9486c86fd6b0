# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Wren top-level entry points.  Each area keeps its own rules in mk/<area>.mk;
# this file only holds the shared variables and the two commands a newcomer
# runs: `make demo` and `make check`.

TOP        := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD      ?= $(TOP)/build
# Caches live outside the clone, keyed by their inputs, and are never required.
WREN_CACHE ?= /var/cache/wren
KVER       ?= 6.1
JOBS       ?= $(shell nproc)

export TOP BUILD WREN_CACHE KVER JOBS

# The compiler cache (scripts/lib/ccache-dir.sh) for the host's C builds that
# compile object by object (HW_CC, FUZZ_CC); empty without one.  kbuild
# gets the same cache through scripts/lib/kbuild.sh.
WREN_CCACHE_DIR := $(shell $(TOP)/scripts/lib/ccache-dir.sh)
CCACHE     := $(if $(WREN_CCACHE_DIR),CCACHE_DIR=$(WREN_CCACHE_DIR) ccache)

# The kernel's kselftest framework (lib.mk, kselftest.h, runner.sh), linked
# here by scripts/kernel/kselftest-tree.sh; every C test program gets its TAP from
# selftests/lib/tap.h on top of kselftest.h (mk/selftests.mk).
KSFT_SRC   := $(BUILD)/kselftest-src
TAP_CFLAGS := -I$(TOP)/selftests/lib -I$(KSFT_SRC)
TAP_DEPS   := $(TOP)/selftests/lib/tap.h $(KSFT_SRC)/kselftest.h

.PHONY: all deps check demo help
# help lists demo and check first; `make` alone is still `make all`.
.DEFAULT_GOAL := all

## demo: build everything, boot two emulated servers, run work between them
# On the demo's own kernel, 7.3 (scripts/demo.sh), unless KVER= is given:
# this file's default KVER, 6.1, is exported to every script.
demo:
	KVER=$(if $(filter command line environment,$(origin KVER)),$(KVER),7.3) $(TOP)/scripts/demo.sh

## check: every test layer of selftests/plan; ends with "N passed, N failed, N skipped"
check:
	$(TOP)/scripts/check.sh

## all: libwrenhw, wren-fabric and the kernel modules (KVER=)
all: hw fabric modules

# Every target a user runs has a "## target: description" line above its
# rule, here and in mk/*.mk; help prints them in the order make reads
# the files (this one first: demo and check lead).
## help: this list
help:
	@awk '/^## [a-z0-9-]+: / { t = $$2; sub(/:$$/, "", t); d = $$0; sub(/^## [^:]*: /, "", d); printf "make %-22s %s\n", t, d }' $(MAKEFILE_LIST)

## deps: install the build and test dependencies with apt-get (root)
deps:
	$(TOP)/scripts/deps.sh

# bench.mk first: bench-*.mk and apps.mk name $(BENCH_DEPS) among their
# rules' prerequisites, which make expands as it reads each rule.
include $(TOP)/mk/bench.mk
include $(filter-out $(TOP)/mk/bench.mk,$(sort $(wildcard $(TOP)/mk/*.mk)))
