#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""A TC's max rate in the kernel's own unit, kb/s (struct ieee_maxrate).

iproute2's dcb before its 2024 fix passes tc-maxrate in bytes/s where the
kernel's DCB_ATTR_IEEE_MAXRATE (and mlx5, and wren.ko) mean kb/s, so
`dcb maxrate ... 2:100Mbit` asks 6.1's iproute2 for 12.5 Gb/s.
wren-qos-ets.sh reads back what dcb sent and, if it was bytes/s, sets
the cap it meant through raw netlink:

    wren_maxrate_nl.py IFNAME get TC          prints the TC's kb/s
    wren_maxrate_nl.py IFNAME set TC KBPS     the other TCs kept; prints
                                              the driver's status ("0")
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "driver"))
import wren_dcb_nl as nl  # noqa: E402


def get(ifname):
    reply = nl.request(ifname, nl.DCB_CMD_IEEE_GET, None)
    for kind, payload in nl.attrs(reply, 20, len(reply)):
        if kind != nl.DCB_ATTR_IEEE:
            continue
        for k2, rates in nl.attrs(payload, 0, len(payload)):
            if k2 == nl.IEEE_MAXRATE and len(rates) >= 64:
                return list(struct.unpack_from("=8Q", rates))
    raise SystemExit("no DCB_ATTR_IEEE_MAXRATE in the reply")


def main():
    ifname, op, tc = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rates = get(ifname)
    if op == "get":
        print(rates[tc])
        return
    rates[tc] = int(sys.argv[4])
    kind, payload = nl.maxrate(rates)
    reply = nl.request(ifname, nl.DCB_CMD_IEEE_SET, nl.attr(kind, payload))
    off = 20
    while off + 4 <= len(reply):
        n, kind = struct.unpack_from("=HH", reply, off)
        if kind == nl.DCB_ATTR_IEEE:
            (st,) = struct.unpack_from("b", reply, off + 4)
            print(nl.errname(-st) if st else "0")
            return
        off += (n + 3) & ~3
    print("no-status")


if __name__ == "__main__":
    main()
