#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Check the 802.1Q tags of ICMP echo frames in a fabric port capture.

usage: pcap_vlan.py PCAP --mac MAC --vid VID --pcp PCP --size BYTES
                    [--net A.B.C.] [--min N] [--start OFFSET]

Looks at the IPv4 ICMP echo request/reply frames of the capture whose ICMP
payload is BYTES long (each test phase pings with its own size, so phases
are told apart) and whose addresses are both in --net (default any).
Every such frame must carry one 802.1Q tag with VLAN id VID and priority
PCP; at least N of them must come from MAC (what the guest sent) and at
least N go to MAC (what it was given).  Prints one summary line and exits
0 when all holds, 1 when not, 2 on an unreadable capture.

The capture is classic pcap as wren-fabric writes it (LINKTYPE_ETHERNET,
either byte order, micro- or nanosecond stamps); it may still be growing.
"""
import argparse
import struct
import sys

LINKTYPE_ETHERNET = 1
MAGICS = {
    b"\xd4\xc3\xb2\xa1": "<", b"\xa1\xb2\xc3\xd4": ">",      # microseconds
    b"\x4d\x3c\xb2\xa1": "<", b"\xa1\xb2\x3c\x4d": ">",      # nanoseconds
}


def frames(path, start=0):
    """Yield each record's bytes, reading record by record from byte
    offset START (a record boundary, or 0 for the first record): captures
    of a long run reach gigabytes.  A record cut short at the end is
    skipped (the fabric may be writing it right now)."""
    with open(path, "rb") as f:
        head = f.read(24)
        if len(head) < 24 or head[:4] not in MAGICS:
            raise ValueError("not a classic pcap file")
        bo = MAGICS[head[:4]]
        linktype = struct.unpack(bo + "I", head[20:24])[0]
        if linktype != LINKTYPE_ETHERNET:
            raise ValueError("link type %d, not Ethernet" % linktype)
        if start > 24:
            f.seek(start)
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            incl = struct.unpack(bo + "I", rec[8:12])[0]
            if incl > 262144:
                raise ValueError("record of %d bytes: not at a record "
                                 "boundary" % incl)
            data = f.read(incl)
            if len(data) < incl:
                return
            yield data


def icmp_echo(frame, size, net):
    """(tci or None, src mac, dst mac) for a matching ICMP echo frame,
    else None.  tci is None when the frame is untagged."""
    if len(frame) < 14:
        return None
    etype = struct.unpack(">H", frame[12:14])[0]
    tci = None
    l3 = 14
    if etype == 0x8100:
        if len(frame) < 18:
            return None
        tci = struct.unpack(">H", frame[14:16])[0]
        etype = struct.unpack(">H", frame[16:18])[0]
        l3 = 18
    if etype != 0x0800 or len(frame) < l3 + 20:
        return None
    ip = frame[l3:]
    ihl = (ip[0] & 0xF) * 4
    total = struct.unpack(">H", ip[2:4])[0]
    src = ".".join(str(b) for b in ip[12:16])
    dst = ".".join(str(b) for b in ip[16:20])
    if ip[0] >> 4 != 4 or ip[9] != 1 or len(ip) < ihl + 8:
        return None
    if ip[ihl] not in (0, 8) or total != ihl + 8 + size:
        return None
    if net and not (src.startswith(net) and dst.startswith(net)):
        return None
    return tci, frame[6:12], frame[0:6]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pcap")
    ap.add_argument("--mac", required=True)
    ap.add_argument("--vid", type=int, required=True)
    ap.add_argument("--pcp", type=int, required=True)
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--net", default="")
    ap.add_argument("--min", type=int, default=1)
    ap.add_argument("--start", type=int, default=0,
                    help="byte offset of the first record to read (the "
                    "file's size when capture was switched on)")
    a = ap.parse_args()
    mac = bytes(int(x, 16) for x in a.mac.split(":"))
    want = a.pcp << 13 | a.vid
    sent = given = bad = 0
    bad_tcis = set()
    try:
        for fr in frames(a.pcap, a.start):
            m = icmp_echo(fr, a.size, a.net)
            if not m:
                continue
            tci, src, dst = m
            # The DEI bit (0x1000) must be clear as well.
            if tci != want:
                bad += 1
                bad_tcis.add("untagged" if tci is None else "0x%04x" % tci)
            elif src == mac:
                sent += 1
            elif dst == mac:
                given += 1
    except (OSError, ValueError) as e:
        print("pcap_vlan: %s: %s" % (a.pcap, e))
        return 2
    print("%d sent and %d received ICMP echo frames of %d bytes with VID %d "
          "PCP %d; %d with another tag%s" %
          (sent, given, a.size, a.vid, a.pcp, bad,
           " (%s)" % ", ".join(sorted(bad_tcis)) if bad_tcis else ""))
    return 0 if sent >= a.min and given >= a.min and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
