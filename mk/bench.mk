# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Test bench: Debian kernels for the guests, and TCG guests that run scripts.
#
#   make kernel-info KVER=6.1|6.12   resolved ABI, headers, vmlinuz, modules dir
#   $(BUILD)/kernel-$(KVER).env      KABI= KDIR= VMLINUZ= VMLINUX= KMODDIR= for other rules
#   make vmrun SCRIPT=path [KVER=] [N=2] [IOMMU=1] [SMP=1] [MEM=1024] [TIMEOUT=600] [PCAP=1]
#                                    [RXE=i]  guest i: virtio-net + rdma_rxe on the Wren fabric
#                                    [GPU=1]  NIC and a wren-gpu under one PCIe switch
#                                    [DCB=0] NICs without DCB and ECN/DCQCN (dcb=off)
#                                    [HANG_DUMP=S] state of a hung run in RUN_DIR/hang/
#   make vmtest T=dir/test [KVER=] [N=2] [IOMMU=1]  selftests/<dir>/<test> in the guests,
#                                    through kselftest's runner (selftests/Makefile)
#   make vmtest B=boot               one guest pair of selftests/plan (its kernel,
#                                    bench variables and each guest's tests)
#   make vmtest-deps [KVER=]         what vmtest needs built (QEMU, fabric, the
#                                    kernel, kselftest, lldpad); then vmtest
#                                    VMTEST_DEPS=0 skips those checks (about 8 s
#                                    a boot), as the check layers do
#   make check-bench [KVER=]         the bench's own test, TAP in check/bench.tap
#   make remap-race [BOOTS=10] [RACE_SECONDS=20]  guests of two vCPUs whose
#                                    QEMU rebuilds the memory map under MMIO
#
# QEMU defaults to our own build (mk/qemu.mk); QEMU=/path on the command line
# uses another binary and skips building ours.

BENCH_DIR  := $(TOP)/tools/testbench
KERNEL_ENV  = $(BUILD)/kernel-$(KVER).env
BENCH_SFX   = $(if $(filter 1,$(IOMMU)),-iommu)$(if $(filter 1,$(GPU)),-gpu)

# Building our QEMU takes minutes: only when the default binary is used.
BENCH_QEMU_DEP = $(if $(filter command line,$(origin QEMU)),,qemu)
BENCH_DEPS     = bench-deps $(BENCH_QEMU_DEP) fabric $(KERNEL_ENV) \
		 $(BUILD)/tools/wren-pattern $(BUILD)/contract/wren-contract.sh

# What vmrun.sh / vmtest.sh / selftests/bench/run.sh read.
BENCH_ENV = QEMU="$(QEMU)" QEMU_FW_ARGS="$(QEMU_FW_ARGS)" \
	KERNEL_ENV="$(KERNEL_ENV)" FABRIC="$(BUILD)/fabric/wren-fabric" \
	KVER="$(KVER)" N="$(or $(N),2)" IOMMU="$(or $(IOMMU),0)" GPU="$(or $(GPU),0)" DCB="$(or $(DCB),1)" PKG="$(or $(PKG),0)" SMP="$(or $(SMP),1)" MEM="$(or $(MEM),1024)" CPU="$(CPU)" \
	TIMEOUT="$(or $(TIMEOUT),600)" PCAP="$(PCAP)" HANG_DUMP="$(HANG_DUMP)" APPEND="$(APPEND)" KARGS="$(KARGS)" RXE="$(RXE)" ROOTFS="$(ROOTFS)" \
	GUEST_ENV="$(GUEST_ENV)" KSFT_INSTALL="$(KSFT_INSTALL)"

.PHONY: kernel kernel-info bench-always bench-deps vmrun vmtest vmtest-deps vmtest-plan \
	vmtest-run check-bench remap-race

# Always asked again (cheap once cached): apt metadata decides the ABI.  The
# script rewrites the file only when its content changes.
$(BUILD)/kernel-%.env: bench-always
	$(BENCH_DIR)/kernel-fetch.sh $* $@

## kernel: the guest kernel of KVER and $(BUILD)/kernel-$(KVER).env
kernel: $(KERNEL_ENV)

## kernel-info: the resolved ABI, headers, vmlinuz and modules dir of KVER
kernel-info: $(KERNEL_ENV)
	@. $(KERNEL_ENV); \
	echo "KVER=$(KVER)"; echo "KABI=$$KABI"; echo "KDIR=$$KDIR"; \
	echo "VMLINUZ=$$VMLINUZ"; echo "VMLINUX=$$VMLINUX"; echo "KMODDIR=$$KMODDIR"

# Guests run it from the shared host root (selftests/lib/pattern.sh).
$(BUILD)/tools/wren-pattern: $(TOP)/tools/pattern/wren-pattern.c $(TOP)/tools/pattern/wren_pattern.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -o $@ $<

# QEMU rebuilding the memory map under a vCPU's MMIO, BOOTS boots of a
# guest of two vCPUs for RACE_SECONDS each (tools/testbench/remap-race.sh;
# the guest program comes with the other guest tests, mk/rdma-tests.mk).
## remap-race: BOOTS boots of a 2-vCPU guest whose QEMU rebuilds the memory map under MMIO
remap-race: $(BENCH_DEPS) $(BUILD)/tests/qemu/remap_race
	$(BENCH_ENV) $(BENCH_DIR)/remap-race.sh $(or $(BOOTS),10) $(or $(RACE_SECONDS),20)

## bench-deps: install the test bench's packages
bench-deps:
	@$(TOP)/scripts/deps/bench.sh

## vmrun: boot the guests and run SCRIPT=path in them (KVER= N= IOMMU= SMP= MEM= PCAP= GPU= ...)
vmrun: $(BENCH_DEPS)
	@test -n "$(SCRIPT)" || { echo "usage: make vmrun SCRIPT=path [KVER=6.1|6.12] [N=2] [IOMMU=1]" >&2; exit 2; }
	$(BENCH_ENV) RUN_DIR="$(BUILD)/bench/vmrun-$(KVER)$(BENCH_SFX)-$(notdir $(SCRIPT))" \
		$(BENCH_DIR)/vmrun.sh "$(SCRIPT)"

## vmtest: T=dir/test: a selftest in the guests; B=boot: one guest pair of selftests/plan
vmtest: $(if $(B),vmtest-plan,vmtest-run)

# A boot of the plan brings its own KVER and bench variables.
vmtest-plan:
	@. $(TOP)/scripts/lib/plan.sh && plan_boot "$(B)" >/dev/null && \
	$(MAKE) --no-print-directory vmtest-run VMTEST="$(B)" KVER="$$PLAN_KVER" $$PLAN_MAKEVARS

## vmtest-deps: what vmtest needs built: QEMU, fabric, kernel, kselftest, lldpad
vmtest-deps: $(BENCH_DEPS) kselftest-install lldpad

vmtest-run: $(if $(filter 0,$(VMTEST_DEPS)),,vmtest-deps)
	@test -n "$(or $(VMTEST),$(T))" || { echo "usage: make vmtest T=<dir/test under selftests/> | B=<boot of selftests/plan> [KVER=6.1|6.12] [IOMMU=1]" >&2; exit 2; }
	$(BENCH_ENV) $(BENCH_DIR)/vmtest.sh "$(or $(VMTEST),$(T))" "$(or $(CHECK_DIR),$(BUILD)/check)"

# 6.1 writes check/bench.tap; another KVER writes check/bench-<KVER>.tap.
BENCH_TAP = $(BUILD)/check/bench$(if $(filter-out 6.1,$(KVER)),-$(KVER)).tap

## check-bench: the test bench's own test (KVER=), TAP in check/bench.tap
check-bench: $(BENCH_DEPS) kselftest-install
	@$(BENCH_ENV) $(TOP)/scripts/check/bench.sh $(BENCH_TAP)
