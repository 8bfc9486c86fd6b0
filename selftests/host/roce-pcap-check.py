#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Check the RoCEv2 frames of the Wren fabric's captures; TAP on stdout.

usage: roce-pcap-check.py [--label MAC=NAME]... [--expect NAME:OP,OP...]...
                          [--prefix TEXT] [--min-roce N] PCAP...

PCAP are the fabric's port<N>.pcap files (tools/fabric, PCAP=1 of the
bench).  Port N's file holds both directions of guest N's link; a frame
is counted once, in the file of the port whose guest sent it, found by the
bench's MAC convention (guest N's NIC on the Wren fabric has
52:54:00:00:00:<N+1>).  For each capture:

  1. Wireshark's dissector (tshark, Debian's 4.0) decodes every frame,
     RoCEv2 on UDP port 4791 included: no frame is malformed
     (_ws.malformed) and none has an expert item of severity error, with
     IPv4 and UDP checksum validation switched on.  The heuristic
     sub-dissectors that guess which protocol a SEND's payload carries
     (those of the infiniband.payload table: RPC-over-RDMA, Mellanox EoIB,
     iSER, SMC, ...) are disabled: the payload is whatever the test wrote,
     and they misread it - RPC-over-RDMA calls RC SEND test data malformed
     (DESIGN.md), the EoIB one throws on every UD SEND without payload,
     from rxe as from Wren.  The RoCE headers themselves are all checked.
  2. The ICRC of every RoCEv2 frame is right.  tshark shows the ICRC but
     does not check it, so it is computed here from the IBA rules for
     RoCEv2 (IBA A17.3.3 / rxe_icrc.c): CRC-32 over 8 bytes of ones (the
     masked LRH), the IP header with ToS, TTL and checksum (IPv6: traffic
     class, flow label, hop limit) set to ones, the UDP header with its
     checksum set to ones, the BTH with its reserved byte (FECN, BECN,
     resv6a) set to ones, then the rest up to the ICRC, which follows it
     least significant byte first.  Also: the IPv4 header checksum, the
     IP and UDP lengths against the frame, and the BTH's pad count.

Then the per-sender opcode counts (a NAK counted by its AETH code) go out
as diagnostics, and every --expect NAME:OP,... must have been sent by the
sender labelled NAME (--label MAC=NAME; default "port<N>" for port N's
guest).  Exit status 1 if any check failed, 2 on unusable arguments.
"""
import argparse
import collections
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import tap  # noqa: E402

ROCE_PORT = 4791
MAGICS = {
    b"\xd4\xc3\xb2\xa1": "<", b"\xa1\xb2\xc3\xd4": ">",      # microseconds
    b"\x4d\x3c\xb2\xa1": "<", b"\xa1\xb2\x3c\x4d": ">",      # nanoseconds
}

# IBA opcodes (BTH byte 0) of the RC and UD transports, as names for the
# counts.  Bits 7-5: transport (000 RC, 011 UD); bits 4-0: the operation.
OPS = {
    0x00: "RC_SEND_FIRST", 0x01: "RC_SEND_MIDDLE", 0x02: "RC_SEND_LAST",
    0x03: "RC_SEND_LAST_IMM", 0x04: "RC_SEND_ONLY",
    0x05: "RC_SEND_ONLY_IMM", 0x06: "RC_WRITE_FIRST",
    0x07: "RC_WRITE_MIDDLE", 0x08: "RC_WRITE_LAST",
    0x09: "RC_WRITE_LAST_IMM", 0x0a: "RC_WRITE_ONLY",
    0x0b: "RC_WRITE_ONLY_IMM", 0x0c: "RC_READ_REQUEST",
    0x0d: "RC_READ_RESPONSE_FIRST", 0x0e: "RC_READ_RESPONSE_MIDDLE",
    0x0f: "RC_READ_RESPONSE_LAST", 0x10: "RC_READ_RESPONSE_ONLY",
    0x11: "RC_ACK", 0x12: "RC_ATOMIC_ACK", 0x13: "RC_CMP_SWAP",
    0x14: "RC_FETCH_ADD", 0x16: "RC_SEND_LAST_INV",
    0x17: "RC_SEND_ONLY_INV", 0x1c: "RC_FLUSH", 0x1d: "RC_ATOMIC_WRITE",
    0x64: "UD_SEND_ONLY", 0x65: "UD_SEND_ONLY_IMM",
}
NAK_CODES = {0: "PSN_SEQ_ERR", 1: "INV_REQ", 2: "REM_ACCESS", 3: "REM_OP",
             4: "INV_RD_REQ"}
# Header bytes after the BTH, by opcode (RETH 16, AETH 4, ImmDt 4,
# AtomicETH 28, AtomicAckETH 8, IETH 4, DETH 8; IBA 1.5's FETH 4).
EXT_LEN = {0x03: 4, 0x05: 4, 0x06: 16, 0x09: 4, 0x0a: 16, 0x0b: 20,
           0x0c: 16, 0x0d: 4, 0x0f: 4, 0x10: 4, 0x11: 4, 0x12: 12,
           0x13: 28, 0x14: 28, 0x16: 4, 0x17: 4, 0x1c: 20, 0x1d: 16,
           0x64: 8, 0x65: 12}
# IBA 1.5's opcodes, which Debian 12's tshark (4.0) does not know: the
# payload each must carry (FLUSH none, ATOMIC WRITE its 8 bytes), the
# FETH's reserved bits (31:6) zero and its placement type not 0, and the
# RETH's DMA length 8 for an ATOMIC WRITE - checked here instead.
IBA15_PAYLOAD = {0x1c: 0, 0x1d: 8}
TSHARK_ARGS = ["-n", "-o", "ip.check_checksum:TRUE",
               "-o", "udp.check_checksum:TRUE"]


# Short names (for --disable-heuristic) of the heuristic dissectors that
# Wireshark 4.0 enables on InfiniBand payloads (`tshark -G
# heuristic-decodes`, table infiniband.payload, lists them by protocol):
# RPC-over-RDMA, Mellanox EoIB, raw Ethertype, iSER, SMB Direct, SMC-R,
# SDP, FCoIB, Lustre LNet, NVMe-RDMA.  A tshark that does not know one of
# them fails, and so does the check: this list then needs updating.
PAYLOAD_HEURISTICS = ["rpcrdma_infiniband", "mellanox_eoib", "eth_over_ib",
                      "iser_infiniband", "smb_direct_infiniband",
                      "smcr_infiniband", "sdp_infiniband", "fc_infiniband",
                      "lnet_ib", "nvme_rdma"]


def payload_heuristics():
    """--disable-heuristic arguments for PAYLOAD_HEURISTICS."""
    args = []
    for h in PAYLOAD_HEURISTICS:
        args += ["--disable-heuristic", h]
    return args


def records(path):
    """Yield (number, frame bytes) of each record of a classic pcap."""
    with open(path, "rb") as f:
        head = f.read(24)
        if len(head) < 24 or head[:4] not in MAGICS:
            raise ValueError("not a classic pcap file")
        bo = MAGICS[head[:4]]
        if struct.unpack(bo + "I", head[20:24])[0] != 1:
            raise ValueError("link type is not Ethernet")
        n = 0
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            incl = struct.unpack(bo + "I", rec[8:12])[0]
            if incl > 262144:
                raise ValueError("record %d: %d bytes" % (n + 1, incl))
            data = f.read(incl)
            if len(data) < incl:
                return
            n += 1
            yield n, data


def mac_str(b):
    return ":".join("%02x" % x for x in b)


def ip_csum_ok(hdr):
    s = sum(struct.unpack("!%dH" % (len(hdr) // 2), hdr))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s == 0xffff


class Roce:
    """One RoCEv2 frame taken apart; .error says what is wrong with it."""

    def __init__(self, frame):
        self.error = None
        self.opcode = None
        self.syndrome = None
        off = 12
        etype = struct.unpack("!H", frame[off:off + 2])[0]
        while etype in (0x8100, 0x88a8):
            off += 4
            etype = struct.unpack("!H", frame[off:off + 2])[0]
        l3 = off + 2
        self.is_roce = False
        if etype == 0x0800 and len(frame) >= l3 + 28:
            ihl = (frame[l3] & 0x0f) * 4
            if frame[l3 + 9] != 17 or ihl < 20:
                return
            udp = l3 + ihl
            end = l3 + struct.unpack("!H", frame[l3 + 2:l3 + 4])[0]
            self.v4 = True
        elif etype == 0x86dd and len(frame) >= l3 + 48:
            if frame[l3 + 6] != 17:
                return
            udp = l3 + 40
            end = udp + struct.unpack("!H", frame[l3 + 4:l3 + 6])[0]
            self.v4 = False
        else:
            return
        if len(frame) < udp + 8:
            return
        if struct.unpack("!H", frame[udp + 2:udp + 4])[0] != ROCE_PORT:
            return
        self.is_roce = True
        self.check(frame, l3, udp, end)

    def check(self, frame, l3, udp, end):
        bth = udp + 8
        if end > len(frame):
            self.error = "IP length %d beyond the frame" % (end - l3)
            return
        if self.v4 and not ip_csum_ok(frame[l3:udp]):
            self.error = "bad IPv4 header checksum"
            return
        if struct.unpack("!H", frame[udp + 4:udp + 6])[0] != end - udp:
            self.error = "UDP length %d, IP payload %d" % (
                struct.unpack("!H", frame[udp + 4:udp + 6])[0], end - udp)
            return
        if end < bth + 12 + 4:
            self.error = "too short for BTH and ICRC"
            return
        self.opcode = frame[bth]
        ext = EXT_LEN.get(self.opcode, 0)
        if self.opcode in (0x11, 0x12, 0x0d, 0x0f, 0x10):
            self.syndrome = frame[bth + 12]
        pad = (frame[bth + 1] >> 4) & 3
        payload = end - 4 - (bth + 12 + ext)
        if payload < pad:
            self.error = "opcode 0x%02x: %d bytes after the headers, " \
                "pad count %d" % (self.opcode, payload, pad)
            return
        if payload % 4:
            self.error = "payload plus pad is %d bytes, not a multiple " \
                "of 4" % payload
            return
        if self.opcode in IBA15_PAYLOAD:
            self.error = iba15_error(self.opcode, frame[bth + 12:end - 4],
                                     payload - pad)
            if self.error:
                return
        masked = bytearray(frame[l3:end - 4])
        if self.v4:
            masked[1] = 0xff                       # ToS
            masked[8] = 0xff                       # TTL
            masked[10:12] = b"\xff\xff"            # header checksum
        else:
            masked[0:4] = b"\xff\xff\xff\xff"      # version, class, flow
            masked[7] = 0xff                       # hop limit
        u = udp - l3
        masked[u + 6:u + 8] = b"\xff\xff"          # UDP checksum
        masked[u + 8 + 4] = 0xff                   # FECN, BECN, resv6a
        want = zlib.crc32(bytes(masked), zlib.crc32(b"\xff" * 8))
        got = struct.unpack("<I", frame[end - 4:end])[0]
        if want != got:
            self.error = "ICRC %08x, computed %08x" % (got, want)


def iba15_error(op, hdrs, payload):
    """What is wrong with an RC FLUSH or ATOMIC WRITE after its BTH, or
    None."""
    if payload != IBA15_PAYLOAD[op]:
        return "opcode 0x%02x with %d payload bytes, want %d" % (
            op, payload, IBA15_PAYLOAD[op])
    if op == 0x1c:
        feth = struct.unpack("!I", hdrs[0:4])[0]
        if feth & ~0x3f or not feth & 0x0f:
            return "FLUSH's FETH 0x%08x: reserved bits or no placement " \
                "type" % feth
    else:
        dmalen = struct.unpack("!I", hdrs[12:16])[0]
        if dmalen != 8:
            return "ATOMIC WRITE's RETH DMA length %d, want 8" % dmalen
    return None


def op_name(op, syndrome):
    name = OPS.get(op, "OPCODE_0x%02x" % op)
    if syndrome is not None and op == 0x11:
        kind = (syndrome >> 5) & 3
        if kind == 1:
            name = "RC_RNR_NAK"
        elif kind == 3:
            name = "RC_NAK_" + NAK_CODES.get(syndrome & 0x1f,
                                             "CODE_%d" % (syndrome & 0x1f))
        elif kind == 2:
            name = "RC_ACK_RESERVED_SYNDROME"
    return name


def tshark_bad(tshark, path):
    """([lines of the frames tshark flags], Counter of the BTH opcodes it
    decoded); raises RuntimeError when tshark fails."""
    args = TSHARK_ARGS + payload_heuristics()
    flt = "_ws.malformed || _ws.expert.severity == error"
    p = subprocess.run([tshark, "-r", path] + args +
                       ["-Y", flt, "-T", "fields", "-e", "frame.number",
                        "-e", "_ws.col.Protocol", "-e", "_ws.expert.message",
                        "-e", "_ws.col.Info"],
                       capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise RuntimeError("tshark exit %d: %s" % (p.returncode,
                                                    p.stderr.strip()[-300:]))
    bad = [ln for ln in p.stdout.splitlines() if ln.strip()]
    q = subprocess.run([tshark, "-r", path] + args +
                       ["-Y", "infiniband", "-T", "fields",
                        "-e", "infiniband.bth.opcode"],
                       capture_output=True, text=True, check=False)
    if q.returncode != 0:
        raise RuntimeError("tshark exit %d: %s" % (q.returncode,
                                                    q.stderr.strip()[-300:]))
    return bad, collections.Counter(q.stdout.split())


class Tap(tap.Tap):
    def result(self, good, desc, diag=None):
        """A result and its notes, shown whether or not it passed."""
        self.ok(good, desc)
        self.diag(diag)


def port_of(path):
    m = re.search(r"port(\d+)\.pcap$", path)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pcaps", nargs="+")
    ap.add_argument("--label", action="append", default=[],
                    help="MAC=NAME: call that sender NAME")
    ap.add_argument("--expect", action="append", default=[],
                    help="NAME:OP,OP...: NAME sent each OP at least once")
    ap.add_argument("--prefix", default="")
    ap.add_argument("--min-roce", type=int, default=1,
                    help="RoCEv2 frames the captures must hold in all")
    ap.add_argument("--tshark", default=shutil.which("tshark") or "tshark")
    a = ap.parse_args()
    labels = {}
    for lab in a.label:
        mac, _, name = lab.partition("=")
        labels[mac.lower()] = name
    expect = []
    for e in a.expect:
        name, _, ops = e.partition(":")
        if not ops:
            ap.error("--expect %s: no operations" % e)
        expect.append((name, [o for o in ops.split(",") if o]))

    t = Tap(plan=2 * len(a.pcaps) + 2 + len(expect), prefix=a.prefix)
    counts = collections.defaultdict(collections.Counter)
    total = 0
    for path in a.pcaps:
        name = os.path.basename(path)
        port = port_of(path)
        owner = None if port is None else "52:54:00:00:00:%02x" % (port + 1)
        try:
            bad, ts_ops = tshark_bad(a.tshark, path)
        except (OSError, RuntimeError) as e:
            t.result(False, "%s: tshark decodes every frame" % name, str(e))
            bad, ts_ops = None, collections.Counter()
        frames = roce = 0
        icrc_bad = []
        mine = collections.Counter()
        try:
            for n, fr in records(path):
                frames += 1
                if len(fr) < 14:
                    continue
                r = Roce(fr)
                if not r.is_roce:
                    continue
                roce += 1
                if r.error:
                    icrc_bad.append("frame %d from %s: %s" %
                                    (n, mac_str(fr[6:12]), r.error))
                    continue
                src = mac_str(fr[6:12])
                if owner is None or src == owner:
                    sender = labels.get(src, "port%s" % port
                                        if port is not None else src)
                    counts[sender][op_name(r.opcode, r.syndrome)] += 1
                    mine[r.opcode] += 1
        except (OSError, ValueError) as e:
            if bad is not None:
                t.result(False, "%s: tshark decodes every frame" % name,
                           "not checked: the capture is unreadable")
            t.result(False, "%s: a readable classic pcap capture" % name,
                       str(e))
            continue
        total += roce
        if bad is not None:
            ts_roce = sum(ts_ops.values())
            t.result(not bad and ts_roce == roce,
                       "%s: tshark decodes all %d frames, %d RoCEv2 (%d by "
                       "tshark), no malformed frame and no expert error"
                       % (name, frames, roce, ts_roce),
                       "\n".join(bad[:20]) +
                       ("\n... %d more" % (len(bad) - 20) if len(bad) > 20
                        else ""))
        t.result(not icrc_bad,
                   "%s: ICRC, IP checksum, lengths and pad of all %d RoCEv2 "
                   "frames right" % (name, roce), "\n".join(icrc_bad[:20]))
    t.result(total >= a.min_roce,
               "the captures hold %d RoCEv2 frames (at least %d wanted)"
               % (total, a.min_roce))
    lines = []
    for sender in sorted(counts):
        for op, c in sorted(counts[sender].items()):
            lines.append("%-8s %-26s %8d" % (sender, op, c))
    t.result(bool(counts), "RoCEv2 frames per sender and opcode",
               "\n".join(lines))
    for name, ops in expect:
        missing = [o for o in ops if counts[name][o] == 0]
        t.result(not missing, "%s sent %s" % (name, " ".join(ops)),
                   "missing: " + " ".join(missing) if missing else None)
    return t.exit_code()


if __name__ == "__main__":
    sys.exit(main())
