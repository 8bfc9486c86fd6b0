#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""What wren_ib.ko itself decides, through pyverbs and libwren: the RC QP
state machine with a RoCEv2 path to our own IPv4 GID (ib_core resolves the
MAC, the driver builds the address vector), QUERY_QP giving back what was
set, transitions and values the driver must refuse, an AH and the SRQ
limit.  (rereg_mr is tested between two guests by the rereg cases of
selftests/rdma/verbs, in selftests/rdma/wren-rdma.sh.)  TAP on stdout.

usage: wren_ib_verbs.py IBDEV IPV4_GID
"""
import os
import sys

import pyverbs.enums as e
from pyverbs.addr import AH, AHAttr, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
from tap import Tap  # noqa: E402

# Results as they come; the plan after the last.
tap = Tap()


def check(desc, fn, fails=False):
    """Run fn; with fails=True an exception is the expected outcome."""
    try:
        ok = fn() is not False
        err = ''
    except Exception as ex:  # pylint: disable=broad-except
        ok, err = False, f' ({type(ex).__name__}: {ex})'
    if fails:
        ok, err = not ok, ('' if not ok else err)
    return tap.ok(ok, desc + err)


def gid_index(ctx, want):
    for i in range(ctx.query_port(1).gid_tbl_len):
        try:
            if (str(ctx.query_gid(1, i)) == want and
                    ctx.query_gid_type(1, i) == e.IBV_GID_TYPE_SYSFS_ROCE_V2):
                return i
        except Exception:  # pylint: disable=broad-except
            continue
    return None


def path(gid, idx):
    return AHAttr(is_global=1, port_num=1, sl=3,
                  gr=GlobalRoute(dgid=gid, sgid_index=idx, hop_limit=64))


def rc_qp(pd, cq):
    return QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq,
                             cap=QPCap(max_send_wr=16, max_recv_wr=16)))


def main():
    dev, want = sys.argv[1], sys.argv[2]
    ctx = Context(name=dev)
    pd = PD(ctx)
    cq = CQ(ctx, 32)
    idx = gid_index(ctx, want)
    check(f'the IPv4 GID {want} is a RoCE v2 GID of the port', lambda: idx is not None)
    if idx is None:
        return report()
    gid = ctx.query_gid(1, idx)

    qp = rc_qp(pd, cq)
    attr = QPAttr(port_num=1, path_mtu=e.IBV_MTU_1024)
    attr.qp_access_flags = e.IBV_ACCESS_REMOTE_WRITE | e.IBV_ACCESS_REMOTE_READ
    attr.dest_qp_num = qp.qp_num
    attr.rq_psn = 0x123
    attr.sq_psn = 0x456
    attr.max_dest_rd_atomic = 4
    attr.max_rd_atomic = 4
    attr.min_rnr_timer = 12
    attr.timeout = 14
    attr.retry_cnt = 7
    attr.rnr_retry = 7
    attr.ah_attr = path(gid, idx)
    check('RC QP RESET -> INIT -> RTR with a RoCEv2 path to our own GID',
          lambda: qp.to_rtr(attr))
    check('RC QP RTR -> RTS', lambda: qp.to_rts(attr))

    def query_ok():
        a, _ = qp.query(e.IBV_QP_STATE | e.IBV_QP_PATH_MTU | e.IBV_QP_SQ_PSN |
                        e.IBV_QP_RQ_PSN | e.IBV_QP_DEST_QPN | e.IBV_QP_AV |
                        e.IBV_QP_TIMEOUT | e.IBV_QP_MAX_QP_RD_ATOMIC)
        return (a.qp_state == e.IBV_QPS_RTS and a.path_mtu == e.IBV_MTU_1024 and
                a.sq_psn == 0x456 and a.rq_psn == 0x123 and
                a.dest_qp_num == qp.qp_num and a.timeout == 14 and
                a.max_rd_atomic == 4 and a.ah_attr.sl == 3 and
                a.ah_attr.sgid_index == idx and a.ah_attr.hop_limit == 64)
    check('query_qp returns the state and attributes that were set', query_ok)

    back = QPAttr()
    back.qp_state = e.IBV_QPS_RTR
    check('RTS -> RTR is refused', lambda: qp.modify(back, e.IBV_QP_STATE),
          fails=True)
    err = QPAttr()
    err.qp_state = e.IBV_QPS_ERR
    check('RTS -> ERR', lambda: qp.modify(err, e.IBV_QP_STATE))

    qp2 = rc_qp(pd, cq)
    bad = QPAttr(port_num=1, path_mtu=e.IBV_MTU_1024)
    bad.dest_qp_num = qp2.qp_num
    bad.max_dest_rd_atomic = 255
    bad.ah_attr = path(gid, idx)
    check('INIT -> RTR with more responder resources than the device has '
          'is refused', lambda: qp2.to_rtr(bad), fails=True)
    bad.max_dest_rd_atomic = 1
    bad.ah_attr = AHAttr(port_num=1)
    check('INIT -> RTR without a GRH (no RoCE path) is refused',
          lambda: qp2.to_rtr(bad), fails=True)

    check('create an AH for our own GID (UD)',
          lambda: AH(pd, attr=path(gid, idx)).close())

    srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=32, max_sge=1)))
    check('arm the SRQ limit at 8 and read it back',
          lambda: (srq.modify(SrqAttr(srq_limit=8), e.IBV_SRQ_LIMIT),
                   srq.query().srq_limit == 8)[1])
    check('an SRQ limit above its size is refused',
          lambda: srq.modify(SrqAttr(srq_limit=100000), e.IBV_SRQ_LIMIT),
          fails=True)

    for o in (srq, qp2, qp, cq, pd, ctx):
        o.close()
    return report()


def report():
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
