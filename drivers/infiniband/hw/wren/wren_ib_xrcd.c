// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC domains (WREN_CAP_RDMA_XRC with WREN_CAP_RDMA_SRQ), and the XRC
 * target QPs that belong to one.  A target QP is an RC responder and
 * nothing else: it has no rings, no doorbell page, no PD and no CQs, and
 * each request it takes lands on the XRC SRQ of its domain that the
 * request names (admin-queue.rst).  ib_core creates it without udata and
 * without a PD, whichever process asks, and shares it through
 * ib_open_qp(); its async events go to the handler ib_core installs,
 * which passes them on to every process that opened it.
 *
 * XRC is user space's: a kernel XRC domain is -EOPNOTSUPP, so no kernel
 * XRC SRQ or target QP can exist either (rdma.rst).  XRC SRQs are
 * wren_ib_srq.c's, XRC initiator QPs wren_ib_qp.c's.
 */
#include "wren_ib.h"

/**
 * wren_ib_alloc_xrcd() - ib_device_ops.alloc_xrcd
 * @ibxrcd: the domain, ib_core's part filled in
 * @udata: the request; none for a kernel domain, which is refused
 *
 * Return: 0, -EOPNOTSUPP for a kernel domain or a non-zero request, or
 * the errno of ALLOC_XRCD (-ENOMEM once max_xrcd exist).
 */
int wren_ib_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibxrcd->device);
	int err;

	if (!udata)
		return -EOPNOTSUPP;
	err = wren_ib_udata_none(udata);
	if (err)
		return err;
	return wren_cmd_alloc_xrcd(dev->cdev, &to_wxrcd(ibxrcd)->xrcdn);
}

/**
 * wren_ib_dealloc_xrcd() - ib_device_ops.dealloc_xrcd
 * @ibxrcd: the domain, which no SRQ or QP names any more (ib_core counts)
 * @udata: unused
 *
 * Return: 0 once the device forgot the domain, else the errno of
 * DEALLOC_XRCD, with the domain still there.
 */
int wren_ib_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	return wren_cmd_dealloc_xrcd(to_wdev(ibxrcd->device)->cdev,
				     to_wxrcd(ibxrcd)->xrcdn);
}

/**
 * wren_ib_create_xrc_tgt() - create an XRC target QP
 * @qp: the QP, ib_core's part filled in (no PD)
 * @attr: its domain; no CQ, SRQ or capacities, which it does not have
 * @udata: none from ib_core; anything in it must be zero
 *
 * CREATE_QP with the type and the domain and all else zero.  The QP goes
 * into the QP table, where the event path finds it.  It is no kernel QP:
 * nothing is posted to it or polled for it here.  The caller holds
 * num_reuse for read.
 *
 * Return: 0 or an errno; the capacities are reported as 0.
 */
int wren_ib_create_xrc_tgt(struct wren_ib_qp *qp, struct ib_qp_init_attr *attr,
			   struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(qp->ibqp.device);
	struct wren_create_qp_in in = { .type = WREN_QPT_XRC_TGT };
	int err;

	err = wren_ib_udata_none(udata);
	if (err)
		return err;
	if (!attr->xrcd || attr->send_cq || attr->recv_cq || attr->srq ||
	    attr->rwq_ind_tbl)
		return -EINVAL;
	in.xrcdn = cpu_to_le32(to_wxrcd(attr->xrcd)->xrcdn);
	err = wren_cmd_create_qp(dev->cdev, &in, &qp->qpn);
	if (err)
		return err;

	qp->ibqp.qp_num = qp->qpn;
	qp->state = IB_QPS_RESET;
	memset(&attr->cap, 0, sizeof(attr->cap));
	qp->cap = attr->cap;
	err = wren_ib_qp_publish(dev, qp);
	if (err)
		wren_cmd_destroy_qp(dev->cdev, qp->qpn);
	return err;
}
