# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# dcb/: wren-qos, the lossless-RoCE profiles and the tool that applies
# them with dcb, ethtool and devlink (Documentation/.../wren/dcb.rst).
#   make check-dcb  -> dcb/tests/wren-qos-host.sh against fakes of the
#                      tools (no guest), TAP in $(BUILD)/check/dcb.tap

.PHONY: check-dcb
## check-dcb: wren-qos and its profiles against fakes of dcb, ethtool, devlink, TAP in check/dcb.tap
check-dcb:
	@$(TOP)/scripts/check/dcb.sh

# lldpad (Debian's openlldp) unpacked for the guests' DCBX exchange test,
# selftests/driver/wren-lldp.sh (scripts/deb/lldpad-fetch.sh says why it is
# not installed on the host).
.PHONY: lldpad
## lldpad: Debian's lldpad unpacked into $(BUILD)/lldpad for the guests' DCBX test
lldpad:
	@$(TOP)/scripts/deb/lldpad-fetch.sh $(BUILD)/lldpad
