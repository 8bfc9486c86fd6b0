#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""RC traffic that neither perftest nor wren_verbs_test makes, for the
packet captures: SEND with invalidate (one packet and three) and an RNR
NAK.  Two processes, one per guest, over pyverbs (the bench's rdma-core
build); they swap QP numbers, PSNs and keys over TCP.  TAP on stdout from
the sender (--connect), a summary line on stderr from the receiver.

usage: roce_extra_traffic.py -d DEV -g GIDX (--listen PORT | --connect HOST:PORT)

Cases, each on a fresh QP pair (an error moves both QPs to ERROR):
  inv-1   SEND_WITH_INV of 64 B naming the receiver's MR: not a fast-reg
          MR, so the receiver refuses (NAK Invalid Request) and the
          sender completes with REM_INV_REQ_ERR;
  inv-3   the same over three packets (FIRST, MIDDLE, LAST_WITH_INV);
  rnr     a SEND before the receiver has posted its receive (posted a
          second later): RNR NAKs, then the retry lands; both succeed and
          the data is the data sent;
  rem-op  a SEND into a receive whose lkey is wrong: the receiver cannot
          place the data (NAK Remote Operational Error), the sender
          completes with REM_OP_ERR.
"""
import argparse
import json
import os
import socket
import sys
import time

import pyverbs.enums as e
from pyverbs.addr import AHAttr, GID, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SendWR, SGE

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from tap import Tap  # noqa: E402

BUF = 8192
CASES = [("inv-1", 64), ("inv-3", 3000), ("rnr", 200), ("rem-op", 100)]


class Line:
    """JSON messages, one a line, over a TCP socket."""

    def __init__(self, sock):
        self.f = sock.makefile("rw")

    def send(self, obj):
        self.f.write(json.dumps(obj) + "\n")
        self.f.flush()

    def recv(self):
        line = self.f.readline()
        if not line:
            raise EOFError("the peer closed the connection")
        return json.loads(line)


class Node:
    def __init__(self, dev, gidx):
        self.ctx = Context(name=dev)
        self.gidx = gidx
        self.gid = str(self.ctx.query_gid(port_num=1, index=gidx))
        self.pd = PD(self.ctx)
        self.cq = CQ(self.ctx, 16)
        acc = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE | \
            e.IBV_ACCESS_REMOTE_READ
        self.mr = MR(self.pd, BUF, acc)
        self.qp = None

    def new_qp(self):
        cap = QPCap(max_send_wr=4, max_recv_wr=4, max_send_sge=1,
                    max_recv_sge=1)
        self.qp = QP(self.pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.cq,
                                         rcq=self.cq, cap=cap))
        return {"qpn": self.qp.qp_num, "psn": 0x1234, "gid": self.gid,
                "rkey": self.mr.rkey}

    def connect(self, peer):
        gid = GID()
        gid.gid = peer["gid"]
        gr = GlobalRoute(dgid=gid, sgid_index=self.gidx, hop_limit=64)
        attr = QPAttr(qp_state=e.IBV_QPS_INIT, cur_qp_state=e.IBV_QPS_RESET)
        attr.qp_access_flags = e.IBV_ACCESS_LOCAL_WRITE | \
            e.IBV_ACCESS_REMOTE_WRITE | e.IBV_ACCESS_REMOTE_READ
        attr.ah_attr = AHAttr(gr=gr, is_global=1, port_num=1)
        attr.path_mtu = e.IBV_MTU_1024
        attr.dest_qp_num = peer["qpn"]
        attr.rq_psn = peer["psn"]
        attr.sq_psn = 0x1234
        attr.max_dest_rd_atomic = 1
        attr.max_rd_atomic = 1
        attr.min_rnr_timer = 14           # 1.28 ms between RNR retries
        attr.timeout = 14
        attr.retry_cnt = 7
        attr.rnr_retry = 7                # retry for ever
        self.qp.to_rts(attr)

    def wait(self, secs=20):
        end = time.time() + secs
        while time.time() < end:
            n, wcs = self.cq.poll()
            if n:
                return wcs[0]
            time.sleep(0.001)
        return None


def pattern(n, seed):
    return bytes((seed + 7 * i) & 0xff for i in range(n))


def receiver(node, line):
    done = []
    for name, size in CASES:
        peer = line.recv()
        line.send(node.new_qp())
        node.connect(peer)
        if name == "rnr":
            line.send({"ready": True})
            time.sleep(1)
        lkey = node.mr.lkey ^ (0x5a if name == "rem-op" else 0)
        node.qp.post_recv(RecvWR(num_sge=1, sg=[SGE(node.mr.buf, BUF, lkey)]))
        if name != "rnr":
            line.send({"ready": True})
        wc = node.wait()
        status = None if wc is None else wc.status
        ok = True
        if name == "rnr" and status == e.IBV_WC_SUCCESS:
            ok = node.mr.read(size, 0) == pattern(size, 3)
        line.send({"recv_status": status, "data_ok": ok})
        done.append("%s: receive status %s%s" % (
            name, status, "" if ok else ", data differs"))
        line.recv()                                  # the sender is done
    print("roce_extra_traffic receiver: " + "; ".join(done), file=sys.stderr)
    return 0


def sender(node, line):
    t = Tap(plan=len(CASES))
    for name, size in CASES:
        line.send(node.new_qp())
        peer = line.recv()
        node.connect(peer)
        line.recv()                                  # receiver ready
        node.mr.write(pattern(size, 3), size)
        inv = name.startswith("inv")
        wr = SendWR(opcode=e.IBV_WR_SEND_WITH_INV if inv else e.IBV_WR_SEND,
                    num_sge=1, sg=[SGE(node.mr.buf, size, node.mr.lkey)])
        if inv:
            wr.imm_data = peer["rkey"]               # invalidate_rkey
        node.qp.post_send(wr)
        wc = node.wait()
        rep = line.recv()
        line.send({"done": True})
        status = None if wc is None else wc.status
        want = e.IBV_WC_REM_INV_REQ_ERR if inv else \
            e.IBV_WC_REM_OP_ERR if name == "rem-op" else e.IBV_WC_SUCCESS
        good = status == want and (name != "rnr" or
                                   (rep["recv_status"] == 0 and
                                    rep["data_ok"]))
        t.ok(good, "%s: %d B, sender status %s (want %d), receiver status "
             "%s%s" % (name, size, status, want, rep["recv_status"],
                       "" if rep["data_ok"] else ", data differs"))
    return t.exit_code()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-d", required=True)
    ap.add_argument("-g", type=int, required=True)
    ap.add_argument("--listen", type=int)
    ap.add_argument("--connect")
    a = ap.parse_args()
    node = Node(a.d, a.g)
    if a.listen:
        ls = socket.socket()
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("", a.listen))
        ls.listen(1)
        ls.settimeout(120)
        s, _ = ls.accept()
        return receiver(node, Line(s))
    host, port = a.connect.rsplit(":", 1)
    end = time.time() + 120
    while True:
        try:
            s = socket.create_connection((host, int(port)), timeout=5)
            break
        except OSError:
            if time.time() > end:
                raise
            time.sleep(0.5)
    s.settimeout(60)
    return sender(node, Line(s))


if __name__ == "__main__":
    sys.exit(main())
