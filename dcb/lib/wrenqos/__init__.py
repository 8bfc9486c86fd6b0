# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""wren-qos: lossless-RoCE profiles applied with iproute2, ethtool, devlink.

contract reads the hardware contract's numbers from include/linux/wren/
profile  parses and checks a profile file (no device needed)
tools    runs the standard tools, logs what changes the device
port     reads a port's state from the tools and writes it back
apply    compares, changes, reads back and restores on failure
show     prints a port's QoS state as one table
"""

# Exit statuses of the wren-qos command.
EXIT_OK = 0
EXIT_FAILED = 1      # a change failed; the port was restored (or says not)
EXIT_BAD = 2         # bad profile or usage: nothing was changed
EXIT_UNSUPPORTED = 3  # the device lacks what the profile needs: nothing changed
