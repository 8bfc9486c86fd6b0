# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The hardware contract's numbers, read from include/linux/wren/.

The ranges and power-on values of the DCQCN parameters (WREN_DCQCN_*)
and the PFC storm timeouts (WREN_PFC_TOUT_*) are defined once, in the
contract headers the driver and the device model are built from.  This
reads them from there at run time, so that wren-qos judges a profile by the numbers the NIC and the driver
use instead of keeping its own copy.
"""
import os
import re

# dcb/lib/wrenqos/contract.py: the top of the tree is three folders up.
HEADERS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "..", "..", "..", "include", "linux", "wren")


def load(hdrs=HEADERS, names=None):
    """Plain-number #defines and enum members of the contract headers
    (@names: only these files of @hdrs).  The tree's one reader of them:
    hw/qemu/tests/qemu-check.py and Documentation/check-contract.py
    import it too."""
    defs = {}
    for name in names or sorted(os.listdir(hdrs)):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(hdrs, name), encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"^#define\s+(WREN_\w+)\s+(0x[0-9a-fA-F]+|\d+)u?\b",
                             text, re.M):
            defs[m.group(1)] = int(m.group(2), 0)
        for m in re.finditer(r"^\s+(WREN_\w+)\s*=\s*(0x[0-9a-fA-F]+|\d+)\s*,",
                             text, re.M):
            defs[m.group(1)] = int(m.group(2), 0)
    return defs
