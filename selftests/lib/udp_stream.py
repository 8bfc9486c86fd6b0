#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Numbered UDP datagrams with verifiable payloads, for the guest tests.

  udp_stream.py send --dst IP --port P --count N --seed S [--rate PPS]
  udp_stream.py recv --bind IP --port P --count N --seed S [--idle SEC]
  udp_stream.py digest --count N --seed S [--exclude FILE]

Datagram SEQ is SIZES[SEQ % len(SIZES)] bytes long: a 16-byte header
(magic, seed, seq, length) and then bytes that only the seed and the
sequence number decide, so the receiver can check every byte of every
datagram it gets without being told what was sent.  The sizes include
tiny ones and ones that need IP fragmentation at MTU 1500.

The sender paces itself (--rate datagrams per second) so that a TCG
receiver keeps up, then sends an end marker a few times.  The receiver
checks each datagram, counts the lost, duplicated, corrupted and
truncated ones, and stops at the end marker or after --idle seconds
without traffic.  Both print one JSON object; "digest" is SHA-256 over
the per-datagram SHA-256 of every payload, in sequence order, over the
datagrams that arrived (receiver: as received; sender: all it sent).
The "digest" command recomputes it from the seed alone, leaving out the
sequence numbers listed in FILE, so a receiver's digest can be checked
against what the sender must have sent even when some were lost.
"""
import argparse
import errno
import hashlib
import json
import random
import socket
import struct
import sys
import time

MAGIC = 0x57524455  # "WRDU"
END_MAGIC = 0x57524445  # "WRDE"
HDR = struct.Struct("!IIII")
# 1472 is the largest unfragmented UDP payload at MTU 1500; 1473 the smallest
# fragmented one; 4000 and 8000 take 3 and 6 fragments.
SIZES = (16, 64, 200, 512, 1024, 1472, 1473, 2048, 4000, 8000)
UNFRAG_MAX = 1472


def size_of(seq):
    return SIZES[seq % len(SIZES)]


def payload(seed, seq):
    """The whole datagram for SEQ: header, then seeded pseudo-random bytes."""
    n = size_of(seq)
    body = random.Random(seed * 1000003 + seq).randbytes(n - HDR.size)
    return HDR.pack(MAGIC, seed & 0xFFFFFFFF, seq, n) + body


def fold(digests):
    h = hashlib.sha256()
    for d in digests:
        h.update(d)
    return h.hexdigest()


def cmd_send(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    if a.bind:
        s.bind((a.bind, 0))
    dst = (a.dst, a.port)
    digests = []
    retries = 0
    unfrag = 0
    t0 = time.monotonic()
    for seq in range(a.count):
        if a.rate:
            ahead = t0 + seq / a.rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
        data = payload(a.seed, seq)
        digests.append(hashlib.sha256(data[HDR.size:]).digest())
        if len(data) <= UNFRAG_MAX:
            unfrag += 1
        # A full qdisc answers ENOBUFS: wait and send the same datagram
        # again, so that only the network can lose it.
        for _ in range(1000):
            try:
                s.sendto(data, dst)
                break
            except OSError as e:
                if e.errno not in (errno.ENOBUFS, errno.EAGAIN):
                    raise
                retries += 1
                time.sleep(0.01)
        else:
            raise RuntimeError("send of datagram %d kept failing" % seq)
    elapsed = time.monotonic() - t0
    # The end marker: several copies a little apart, any one will do.
    for _ in range(5):
        time.sleep(0.2)
        s.sendto(HDR.pack(END_MAGIC, a.seed & 0xFFFFFFFF, a.count, HDR.size), dst)
    json.dump({"sent": a.count, "unfragmented": unfrag, "send_retries": retries,
               "bytes": sum(size_of(i) for i in range(a.count)),
               "seconds": round(elapsed, 2), "digest": fold(digests)},
              sys.stdout)
    print()


def cmd_recv(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((a.bind, a.port))
    if a.ready:
        open(a.ready, "w").close()
    s.settimeout(a.first)
    got = [None] * a.count
    stats = {"received": 0, "duplicates": 0, "corrupted": 0, "truncated": 0,
             "foreign": 0, "reordered": 0, "unfragmented": 0, "bytes": 0,
             "end_marker": False}
    bad = []
    last = -1
    t0 = None
    while True:
        try:
            data = s.recv(65536)
        except socket.timeout:
            break
        if t0 is None:
            t0 = time.monotonic()
            s.settimeout(a.idle)
        if len(data) < HDR.size:
            stats["truncated"] += 1
            continue
        magic, seed, seq, n = HDR.unpack_from(data)
        if magic == END_MAGIC and seed == a.seed & 0xFFFFFFFF:
            stats["end_marker"] = True
            break
        if magic != MAGIC or seed != a.seed & 0xFFFFFFFF or seq >= a.count:
            stats["foreign"] += 1
            bad.append("foreign: magic %#x seed %u seq %u len %u" %
                       (magic, seed, seq, len(data)))
            continue
        want = payload(a.seed, seq)
        if len(data) != len(want) or n != len(want):
            stats["truncated"] += 1
            bad.append("seq %u: %u bytes, header says %u, want %u" %
                       (seq, len(data), n, len(want)))
            continue
        if data != want:
            stats["corrupted"] += 1
            first = next(i for i in range(len(data)) if data[i] != want[i])
            bad.append("seq %u: %u bytes, first difference at byte %u" %
                       (seq, len(data), first))
            continue
        if got[seq] is not None:
            stats["duplicates"] += 1
            continue
        if seq < last:
            stats["reordered"] += 1
        last = max(last, seq)
        # The digest is of the bytes that arrived, not of the expectation.
        got[seq] = hashlib.sha256(data[HDR.size:]).digest()
        stats["received"] += 1
        stats["bytes"] += len(data)
        if len(data) <= UNFRAG_MAX:
            stats["unfragmented"] += 1
    lost = [i for i, d in enumerate(got) if d is None]
    stats.update({"count": a.count, "lost": len(lost),
                  "seconds": round(time.monotonic() - t0, 2) if t0 else 0,
                  "digest": fold(d for d in got if d is not None),
                  "lost_seqs": lost, "problems": bad[:20]})
    json.dump(stats, sys.stdout)
    print()


def cmd_digest(a):
    skip = set()
    if a.exclude:
        with open(a.exclude) as f:
            skip = set(json.load(f)["lost_seqs"])
    print(fold(hashlib.sha256(payload(a.seed, i)[HDR.size:]).digest()
               for i in range(a.count) if i not in skip))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("send", "recv", "digest"):
        c = sub.add_parser(name)
        c.add_argument("--count", type=int, required=True)
        c.add_argument("--seed", type=int, required=True)
        if name != "digest":
            c.add_argument("--port", type=int, required=True)
    snd = sub.choices["send"]
    snd.add_argument("--dst", required=True)
    snd.add_argument("--bind", help="source address")
    snd.add_argument("--rate", type=float, default=200,
                     help="datagrams per second (0: as fast as possible)")
    rcv = sub.choices["recv"]
    rcv.add_argument("--bind", required=True)
    rcv.add_argument("--first", type=float, default=300,
                     help="seconds to wait for the first datagram")
    rcv.add_argument("--idle", type=float, default=20,
                     help="seconds without a datagram that end the run")
    rcv.add_argument("--ready", help="file created once the socket is bound")
    sub.choices["digest"].add_argument("--exclude",
                                       help="receiver JSON whose lost_seqs to leave out")
    a = p.parse_args()
    {"send": cmd_send, "recv": cmd_recv, "digest": cmd_digest}[a.cmd](a)


if __name__ == "__main__":
    main()
