#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Control-path smoke test of libwren through pyverbs, in a guest with
wren_ib.ko loaded: every object the provider creates (context with its
doorbell page, PD, MR, CQ, extended CQ, RC and UD QPs with rings and
doorbell records, SRQ, QP on an SRQ) is created, taken through the states
that need no peer, queried and destroyed, and posting receives and
polling an empty CQ work.  TAP on stdout.

usage: verbs_smoke.py IBDEV
"""
import os
import sys

import pyverbs.enums as e
from pyverbs.cq import CQ, CQEX, CqInitAttrEx
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr, QPInitAttrEx
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr
from pyverbs.wr import RecvWR, SGE

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', '..', 'selftests', 'lib'))
from tap import Tap  # noqa: E402

# Results as they come; the plan after the last.
tap = Tap(prefix='libwren: ')


def check(desc, fn):
    """Run fn: an exception or a False result is a failure."""
    try:
        ok = fn() is not False
        err = ''
    except Exception as ex:  # pylint: disable=broad-except
        ok, err = False, f' ({type(ex).__name__}: {ex})'
    return tap.ok(ok, desc + err)


def main():
    dev = sys.argv[1]
    objs = {}
    check('open a context on ' + dev + ' (maps the doorbell page)',
          lambda: objs.setdefault('ctx', Context(name=dev)))
    if 'ctx' not in objs:
        return report()
    ctx = objs['ctx']
    check('query_device reports RC QPs and a max_qp_wr',
          lambda: ctx.query_device().max_qp_wr > 0)
    check('query_port 1 is an Ethernet (RoCE) port',
          lambda: ctx.query_port(1).link_layer == e.IBV_LINK_LAYER_ETHERNET)
    check('alloc PD', lambda: objs.setdefault('pd', PD(ctx)))
    pd = objs.get('pd')
    check('register a 64 KiB MR',
          lambda: objs.setdefault('mr', MR(pd, 65536,
                                           e.IBV_ACCESS_LOCAL_WRITE |
                                           e.IBV_ACCESS_REMOTE_WRITE |
                                           e.IBV_ACCESS_REMOTE_READ)))
    check('create CQ (64 entries)',
          lambda: objs.setdefault('cq', CQ(ctx, 64)))
    check('create extended CQ (ibv_create_cq_ex)',
          lambda: objs.setdefault('cqx', CQEX(ctx, CqInitAttrEx(
              cqe=64, wc_flags=e.IBV_WC_EX_WITH_BYTE_LEN |
              e.IBV_WC_EX_WITH_QP_NUM))))
    cq = objs.get('cq')
    check('poll an empty CQ returns nothing',
          lambda: cq.poll(4)[0] == 0)
    cap = QPCap(max_send_wr=64, max_recv_wr=64, max_send_sge=2,
                max_recv_sge=2, max_inline_data=64)
    check('create RC QP (64 WRs, 2 SGEs, 64 B inline)',
          lambda: objs.setdefault('rc', QP(pd, QPInitAttr(
              qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap))))
    rc = objs.get('rc')
    check('RC QP reports at least the capabilities asked for',
          lambda: rc.query(e.IBV_QP_CAP)[1].cap.max_inline_data >= 64)
    check('RC QP to INIT',
          lambda: rc.to_init(QPAttr(port_num=1)))
    mr = objs.get('mr')
    check('post 8 receives on the RC QP',
          lambda: [rc.post_recv(RecvWR(wr_id=i, num_sge=1, sg=[
              SGE(mr.buf, 512, mr.lkey)])) for i in range(8)])
    check('create UD QP',
          lambda: objs.setdefault('ud', QP(pd, QPInitAttr(
              qp_type=e.IBV_QPT_UD, scq=cq, rcq=cq, cap=QPCap(
                  max_send_wr=16, max_recv_wr=16)))))
    check('create SRQ (32 WRs)',
          lambda: objs.setdefault('srq', SRQ(pd, SrqInitAttr(
              SrqAttr(max_wr=32, max_sge=1)))))
    srq = objs.get('srq')
    check('post 8 SRQ receives',
          lambda: [srq.post_recv(RecvWR(wr_id=i, num_sge=1, sg=[
              SGE(mr.buf, 256, mr.lkey)])) for i in range(8)])
    check('create RC QP on the SRQ',
          lambda: objs.setdefault('rcsrq', QP(pd, QPInitAttr(
              qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, srq=srq,
              cap=QPCap(max_send_wr=16, max_recv_wr=0)))))
    check('create RC QP with the extended post-send API',
          lambda: objs.setdefault('rcx', QP(ctx, QPInitAttrEx(
              qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, pd=pd,
              cap=QPCap(max_send_wr=16, max_recv_wr=16),
              comp_mask=e.IBV_QP_INIT_ATTR_PD |
              e.IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
              send_ops_flags=e.IBV_QP_EX_WITH_RDMA_WRITE |
              e.IBV_QP_EX_WITH_SEND))))
    for name in ('rcx', 'rcsrq', 'ud', 'rc', 'srq', 'cqx', 'cq', 'mr', 'pd',
                 'ctx'):
        if name in objs:
            check('destroy ' + name, lambda o=objs[name]: o.close())
    return report()


def report():
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
