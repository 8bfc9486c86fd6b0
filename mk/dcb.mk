# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# dcb/: wren-qos, the lossless-RoCE profiles and the tool that applies
# them with dcb, ethtool and devlink (Documentation/.../wren/dcb.rst).
#   make check-dcb  -> dcb/tests/wren-qos-host.sh against fakes of the
#                      tools (no guest), TAP in $(BUILD)/check/dcb.tap

.PHONY: check-dcb
check-dcb:
	@mkdir -p $(BUILD)/check
	@rc=0; $(TOP)/dcb/tests/wren-qos-host.sh >$(BUILD)/check/dcb.tap || rc=$$?; \
	cat $(BUILD)/check/dcb.tap; exit $$rc

# lldpad (Debian's openlldp) unpacked for the guests' DCBX exchange test,
# selftests/driver/wren-lldp.sh (scripts/lldpad-fetch.sh says why it is
# not installed on the host).
.PHONY: lldpad
lldpad:
	@$(TOP)/scripts/lldpad-fetch.sh $(BUILD)/lldpad
