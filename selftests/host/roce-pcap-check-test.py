#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Host test of roce-pcap-check.py (TAP): it passes real frames and catches
broken ones.

The frames were captured on the bench's fabric: five sent by Linux's
rdma_rxe (an independent ICRC implementation, so a checker that accepted
only Wren's own mistakes would fail here) and four sent by Wren.  Each case
writes a small pcap and runs the checker on it:

  - all nine as captured: every check passes;
  - the variant fields changed (IPv4 ToS and TTL with the header checksum
    fixed, BTH FECN/BECN): the ICRC masks them, so it still passes;
  - one payload bit flipped: the ICRC check fails;
  - a READ request cut inside its RETH (IP and UDP lengths adjusted): tshark
    calls it malformed and our length/ICRC check fails;
  - a wrong IPv4 header checksum: tshark (checksum validation on) and our
    check both fail.

IBA 1.5's FLUSH (0x1c) and ATOMIC WRITE (0x1d), which Debian 12's tshark
does not decode, were captured between Wren and rxe on 6.12 (i612rxe):

  - Wren's FLUSH and ATOMIC WRITE, the empty READ responses that answer
    them, and rxe's ATOMIC WRITE: every check passes;
  - rxe's FLUSH as captured: the ICRC check fails, since rxe computes it
    over its headers twice (rxe_opcode.c's RC_FLUSH entry has no payload
    offset) - the reason the two cannot FLUSH to each other;
  - an ATOMIC WRITE whose RETH says 4 bytes, and a FLUSH with payload
    (ICRC recomputed): the structural checks fail.
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "roce-pcap-check.py")

sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from tap import Tap  # noqa: E402

RXE = [  # rxe: SEND only, READ request, ACK, CMP_SWAP, UD SEND with imm
    "52540000000152540000000208004500002c835f40004011a35f0a0000020a000001"
    "c03012b7001800000400ffff0000000280e9dbc9209c6912",
    "52540000000152540000000208004500003c96974000401190170a0000020a000001"
    "c03012b7002800000c00ffff0000000280e9eebd00007f5f278cc8b0000001080000"
    "00004ea540dd",
    "525400000001525400000002080045000030422040004011e49a0a0000020a000001"
    "c02412b7001c00001100ffff000000020024f1381f000001fa59c9c4",
    "52540000000152540000000208004500004896b7400040118feb0a0000020a000001"
    "c03012b7003400001300ffff0000000280e9f38000007f5f278cc028000001" +
    "08deadbeefcafef00dfb27e053641c2a4fdce99bbb",
    "52540000000152540000000208004500003c96bf400040118fef0a0000020a000001"
    "e32512b7002800006530ffff00000003009307b71111111100000019abc00001f600"
    "000015df827a",
]
WREN = [  # Wren: WRITE only, READ response only, atomic ACK, UD SEND
    "52540000000252540000000108004500003c00004000401126af0a0000010a000002"
    "c05a12b7002800000a00ffff0000002d80868ba000007f00d897345a00000dda0000"
    "0000b5af7279",
    "52540000000252540000000108004500003000004000401126bb0a0000010a000002"
    "c03012b7001c00001000ffff0000001800e9eebd1f00002e43c9f2c8",
    "52540000000252540000000108004500003800004000401126b30a0000010a000002"
    "c03012b7002400001200ffff0000001800e9f37f1f00004031f811924595a2bc6e37"
    "550e",
    "52540000000252540000000108004500003400004000401126b70a0000010a000002"
    "c08a12b7002000006400ffff0000002e0002f81811111111000000035478d306",
]

IBA15 = [  # Wren: FLUSH, ATOMIC WRITE, empty READ response; rxe: ATOMIC WRITE
    "52540000000252540000000108004500004000004000401126ab0a0000010a000002"
    "c20c12b7002c00001c00ffff0000006a80ed9ecb00000001000056523b51d0200000"
    "19470000ea60f22ea98c",
    "52540000000252540000000108004500004400004000401126a70a0000010a000002"
    "c26a12b7003000001d00ffff000000688087163d00007f95a441b02000000ffa0000"
    "0008efcdab896745230177c39fa6",
    "52540000000252540000000108004500003000004000401126bb0a0000010a000002"
    "c02712b7001c00001000ffff0000001a00b87cd11f00002e20300118",
    "525400000001525400000002080045000044429140004011e4150a0000020a000001"
    "c17712b7003000001d00ffff00010006806fa9aa00007f501227e020000001080000"
    "0008efcdab8967452301133ab8ec",
]
RXE_FLUSH = (  # rxe's FLUSH, its ICRC over the headers twice
    "52540000000152540000000208004500004042d040004011e3da0a0000020a000001"
    "c17312b7002c00001c00ffff0003000680af0288000000010000559540a760200000"
    "09170000ea60abdb25f1")


def fix_icrc(fr):
    """The IBA ICRC of an IPv4 RoCEv2 frame, after an edit."""
    m = bytearray(fr[14:-4])
    m[1] = 0xff
    m[8] = 0xff
    m[10:12] = b"\xff\xff"
    m[26:28] = b"\xff\xff"
    m[32] = 0xff
    fr[-4:] = struct.pack("<I", zlib.crc32(bytes(m),
                                           zlib.crc32(b"\xff" * 8)))


def iba15():
    return [bytearray(bytes.fromhex(h)) for h in IBA15]


def rxe_flush():
    return iba15() + [bytearray(bytes.fromhex(RXE_FLUSH))]


def aw_len4():
    out = iba15()
    out[1][42 + 12 + 12:42 + 12 + 16] = struct.pack("!I", 4)
    fix_icrc(out[1])
    return out


def flush_payload():
    out = iba15()
    fr = out[0][:-4] + b"\0\0\0\0" + out[0][-4:]
    fr[16:18] = struct.pack("!H", len(fr) - 14)
    fr[38:40] = struct.pack("!H", len(fr) - 34)
    ip_fix_csum(fr)
    fix_icrc(fr)
    out[0] = fr
    return out


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1000 + i, 0, len(fr), len(fr)))
            f.write(fr)


def ip_fix_csum(fr):
    fr[24:26] = b"\0\0"
    s = sum(struct.unpack("!10H", bytes(fr[14:34])))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    fr[24:26] = struct.pack("!H", ~s & 0xffff)


def frames():
    return [bytearray(bytes.fromhex(h)) for h in RXE + WREN]


def variant_fields():
    out = frames()
    for fr in out:
        fr[15] = 0x62            # DSCP 24, ECN CE
        fr[22] = 7               # TTL
        ip_fix_csum(fr)
        fr[42 + 4] |= 0xc0       # BTH FECN, BECN
    return out


def flip_payload():
    out = frames()
    out[0][-5] ^= 0x10           # the SEND's last payload byte
    return out


def cut_reth():
    out = frames()
    fr = out[1][:-14]            # READ request: RETH cut to 6 bytes, no ICRC
    fr[16:18] = struct.pack("!H", len(fr) - 14)
    fr[38:40] = struct.pack("!H", len(fr) - 34)
    ip_fix_csum(fr)
    out[1] = fr
    return out


def bad_ip_csum():
    out = frames()
    out[5][24] ^= 0x01
    return out


# name, frames, exit status wanted, {TAP line number: ok?}
CASES = [
    ("frames as captured (rxe and Wren)", frames(), 0,
     {1: True, 2: True, 3: True}),
    ("ToS, TTL, FECN/BECN changed: the ICRC masks them", variant_fields(), 0,
     {1: True, 2: True}),
    ("a payload bit flipped: ICRC", flip_payload(), 1, {1: True, 2: False}),
    ("a READ request cut inside its RETH: malformed", cut_reth(), 1,
     {1: False, 2: False}),
    ("a bad IPv4 header checksum", bad_ip_csum(), 1, {1: False, 2: False}),
    ("FLUSH, ATOMIC WRITE, empty READ responses (Wren, rxe)", iba15(), 0,
     {1: True, 2: True}),
    ("rxe's FLUSH: its ICRC covers the headers twice", rxe_flush(), 1,
     {1: True, 2: False}),
    ("an ATOMIC WRITE whose RETH says 4 bytes", aw_len4(), 1,
     {1: True, 2: False}),
    ("a FLUSH with 4 bytes of payload", flush_payload(), 1,
     {1: True, 2: False}),
]


def main():
    t = Tap(plan=len(CASES))
    with tempfile.TemporaryDirectory() as d:
        for name, frs, want_rc, want in CASES:
            path = os.path.join(d, "port0.pcap")
            write_pcap(path, frs)
            p = subprocess.run([CHECKER, path], capture_output=True,
                               text=True, check=False)
            got = {}
            for line in p.stdout.splitlines():
                w = line.split()
                if line.startswith("ok ") and w[1].isdigit():
                    got[int(w[1])] = True
                elif line.startswith("not ok ") and w[2].isdigit():
                    got[int(w[2])] = False
            good = p.returncode == want_rc and \
                all(got.get(k) == v for k, v in want.items())
            t.ok(good, "roce-pcap-check.py: " + name, p.stdout + p.stderr)
    return t.exit_code()


if __name__ == "__main__":
    sys.exit(main())
