# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Kernel modules wren.ko, wren_peer_mem.ko and wren_ib.ko, built out of tree.
#
#   make modules KVER=6.1|6.12|7.3  $(BUILD)/modules/$(KVER)/{wren,wren_peer_mem,wren_ib}.ko
#   make check-modules          W=1 warning-free for every series of
#                               scripts/kernel/series (6.1, 6.12, 7.3), dkms
#                               builds, the GPU test modules
#   make dkms-tree              stage the dkms source ($(BUILD)/dkms/source)
#   make kernel-probes          the feature probes whose answers differ
#                               between the series, side by side
#
# The sources are mirrored into $(BUILD)/modules/$(KVER)/src and built
# there (6.1 cannot put an external module's objects elsewhere), after
# scripts/kernel-config.sh probed the target headers into wren_config.h.
# 7.3 builds in a trixie build root (scripts/kernel/root.sh, cached under
# /var/cache/wren/roots): its headers name gcc-14, which Debian 12 lacks.

.PHONY: modules check-modules dkms-tree kernel-probes

## modules: wren.ko, wren_peer_mem.ko and wren_ib.ko for KVER in $(BUILD)/modules/$(KVER)
modules:
	$(TOP)/scripts/kernel/build.sh $(KVER) modules

## check-modules: the modules W=1 clean for 6.1, 6.12 and 7.3, dkms builds, TAP in check/modules.tap
check-modules:
	$(TOP)/scripts/check/modules.sh

## dkms-tree: stage the dkms source in $(BUILD)/dkms/source
dkms-tree:
	$(TOP)/scripts/kernel/dkms.sh

## kernel-probes: the feature probes whose answers differ between the kernel series, side by side
kernel-probes:
	@$(TOP)/scripts/kernel/probes.sh
