// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Creating and destroying QPs.  For user contexts (RC, UC, UD and XRC
 * initiators) the provider chooses the layout of its SQ+RQ buffer
 * (uapi.rst); this file checks that the layout holds what the consumer
 * asked for and fits the device, pins it, and reports the capacities it
 * really has.  An XRC initiator has an SQ only, as a QP on an SRQ has.
 * Kernel QPs (RC, UC, UD and the GSI QP) are wren_ib_kqp.c's, XRC target
 * QPs, which have no queues, wren_ib_xrcd.c's.  At the end: attaching
 * a UD QP to a multicast group.
 */
#include <rdma/uverbs_ioctl.h>
#include <rdma/wren-abi.h>

#include "wren_ib.h"

static int wren_ib_check_sq(struct wren_ib_dev *dev,
			    const struct wren_ib_create_qp *req,
			    struct ib_qp_cap *cap, u32 *max_inline)
{
	const struct wren_device_attr *a = dev->attr;
	u32 dev_inline = le16_to_cpu(a->max_inline);
	u32 dev_sge = le16_to_cpu(a->max_sge);

	if (req->sq_wqe_shift < WREN_WQE_SHIFT_MIN ||
	    req->sq_wqe_shift > a->max_sq_wqe_shift ||
	    req->sq_log_size < WREN_WQ_LOG_SIZE_MIN ||
	    req->sq_log_size > wren_wq_log_size_max(le32_to_cpu(a->max_qp_wr)))
		return -EINVAL;
	if (cap->max_send_wr > BIT(req->sq_log_size) ||
	    cap->max_send_sge > dev_sge || cap->max_inline_data > dev_inline)
		return -EINVAL;
	if (cap->max_send_sge > wren_sq_max_sge(req->sq_wqe_shift) ||
	    cap->max_inline_data > wren_sq_max_inline(req->sq_wqe_shift))
		return -EINVAL;

	cap->max_send_wr = BIT(req->sq_log_size);
	cap->max_send_sge = min_t(u32, dev_sge,
				  wren_sq_max_sge(req->sq_wqe_shift));
	*max_inline = min_t(u32, dev_inline,
			    wren_sq_max_inline(req->sq_wqe_shift));
	cap->max_inline_data = *max_inline;
	return 0;
}

static int wren_ib_check_rq(struct wren_ib_dev *dev,
			    const struct wren_ib_create_qp *req,
			    struct ib_qp_init_attr *attr, u64 sq_bytes)
{
	const struct wren_device_attr *a = dev->attr;
	struct ib_qp_cap *cap = &attr->cap;
	u32 dev_sge = le16_to_cpu(a->max_sge);
	unsigned int stride;

	/* No RQ: a QP on an SRQ, and an XRC initiator, which only sends. */
	if (attr->srq || attr->qp_type == IB_QPT_XRC_INI) {
		if (req->rq_wqe_shift || req->rq_log_size || req->rq_offset)
			return -EINVAL;
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
		return 0;
	}
	if (req->rq_wqe_shift < WREN_WQE_SHIFT_MIN ||
	    req->rq_wqe_shift > a->max_rq_wqe_shift ||
	    req->rq_log_size < WREN_WQ_LOG_SIZE_MIN ||
	    req->rq_log_size > wren_wq_log_size_max(le32_to_cpu(a->max_qp_wr)))
		return -EINVAL;
	stride = BIT(req->rq_wqe_shift);
	if (req->rq_offset < sq_bytes || req->rq_offset % stride)
		return -EINVAL;
	if (cap->max_recv_wr > BIT(req->rq_log_size) ||
	    cap->max_recv_sge > dev_sge ||
	    cap->max_recv_sge > wren_rq_max_sge(req->rq_wqe_shift))
		return -EINVAL;
	cap->max_recv_wr = BIT(req->rq_log_size);
	cap->max_recv_sge = min_t(u32, dev_sge,
				  wren_rq_max_sge(req->rq_wqe_shift));
	return 0;
}

static int wren_ib_qp_type(struct wren_ib_dev *dev, enum ib_qp_type type,
			   u8 *wtype)
{
	switch (type) {
	case IB_QPT_RC:
		*wtype = WREN_QPT_RC;
		return dev->caps & WREN_CAP_RDMA_RC ? 0 : -EOPNOTSUPP;
	case IB_QPT_UC:
		*wtype = WREN_QPT_UC;
		return dev->caps & WREN_CAP_RDMA_UC ? 0 : -EOPNOTSUPP;
	case IB_QPT_UD:
		*wtype = WREN_QPT_UD;
		return dev->caps & WREN_CAP_RDMA_UD ? 0 : -EOPNOTSUPP;
	case IB_QPT_GSI:
		*wtype = WREN_QPT_GSI;
		return dev->caps & WREN_CAP_RDMA_GSI ? 0 : -EOPNOTSUPP;
	case IB_QPT_XRC_INI:
		*wtype = WREN_QPT_XRC_INI;
		return wren_ib_has_xrc(dev) ? 0 : -EOPNOTSUPP;
	case IB_QPT_XRC_TGT:
		*wtype = WREN_QPT_XRC_TGT;
		return wren_ib_has_xrc(dev) ? 0 : -EOPNOTSUPP;
	default:
		return -EOPNOTSUPP;
	}
}

static int __wren_ib_create_qp(struct ib_qp *ibqp,
			       struct ib_qp_init_attr *attr,
			       struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibqp->device);
	struct wren_ib_qp *qp = to_wqp(ibqp);
	struct wren_ib_create_qp_resp resp = {};
	struct wren_create_qp_in in = {};
	struct wren_ib_ucontext *uctx;
	struct wren_ib_create_qp req;
	u64 sq_bytes, bytes;
	size_t list_size;
	dma_addr_t list_dma;
	u32 max_inline;
	bool has_rq;
	void *list;
	int err;

	err = wren_ib_qp_type(dev, attr->qp_type, &in.type);
	if (err)
		return err;
	if (attr->create_flags)
		return -EOPNOTSUPP;
	/* ib_core's, without udata, PD or CQs, for whichever process. */
	if (in.type == WREN_QPT_XRC_TGT)
		return wren_ib_create_xrc_tgt(qp, attr, udata);
	/* XRC is user space's (rdma.rst). */
	if (in.type == WREN_QPT_XRC_INI && !udata)
		return -EOPNOTSUPP;
	if (attr->srq && !(dev->caps & WREN_CAP_RDMA_SRQ))
		return -EOPNOTSUPP;
	/* An XRC initiator only sends: no receive CQ, no SRQ. */
	if (!attr->send_cq ||
	    (in.type == WREN_QPT_XRC_INI ? attr->recv_cq || attr->srq :
					   !attr->recv_cq))
		return -EINVAL;
	if (!udata)
		return wren_ib_create_kqp(qp, attr, in.type);
	if (in.type == WREN_QPT_GSI)
		return -EINVAL;		/* the kernel's own */
	err = wren_ib_udata_in(udata, &req, sizeof(req));
	if (err)
		return err;
	if (req.comp_mask)
		return -EOPNOTSUPP;
	if (req.reserved)
		return -EINVAL;
	err = wren_ib_check_sq(dev, &req, &attr->cap, &max_inline);
	if (err)
		return err;
	sq_bytes = BIT_ULL(req.sq_log_size + req.sq_wqe_shift);
	err = wren_ib_check_rq(dev, &req, attr, sq_bytes);
	if (err)
		return err;
	has_rq = !attr->srq && in.type != WREN_QPT_XRC_INI;
	bytes = !has_rq ? sq_bytes :
		req.rq_offset + BIT_ULL(req.rq_log_size + req.rq_wqe_shift);
	uctx = rdma_udata_to_drv_context(udata, struct wren_ib_ucontext, ibuctx);

	err = wren_ib_uring_get(dev, &qp->ring, req.buf_addr, bytes,
				req.dbrec_addr);
	if (err)
		return err;
	err = wren_ib_buf_desc(dev, qp->ring.umem, req.buf_addr, bytes,
			       &in.buf, &list, &list_dma, &list_size);
	if (err)
		goto err_ring;

	if (attr->sq_sig_type == IB_SIGNAL_ALL_WR)
		in.flags |= WREN_QP_F_SQ_SIG_ALL;
	in.sq_wqe_shift = req.sq_wqe_shift;
	in.sq_log_size = req.sq_log_size;
	in.max_inline = cpu_to_le16(max_inline);
	in.pdn = cpu_to_le32(to_wpd(ibqp->pd)->pdn);
	in.send_cqn = cpu_to_le32(to_wcq(attr->send_cq)->cqn);
	if (attr->recv_cq)
		in.recv_cqn = cpu_to_le32(to_wcq(attr->recv_cq)->cqn);
	if (attr->srq) {
		in.flags |= WREN_QP_F_USE_SRQ;
		in.srqn = cpu_to_le32(to_wsrq(attr->srq)->srqn);
	} else if (has_rq) {
		in.rq_wqe_shift = req.rq_wqe_shift;
		in.rq_log_size = req.rq_log_size;
		in.rq_offset = cpu_to_le32(req.rq_offset);
	}
	in.uar = cpu_to_le32(uctx->uar);
	in.dbrec_addr = cpu_to_le64(qp->ring.dbrec_dma);
	err = wren_cmd_create_qp(dev->cdev, &in, &qp->qpn);
	if (err != -ETIMEDOUT)
		wren_ib_buf_desc_free(dev, list, list_dma, list_size);
	if (err)
		goto err_ring;

	ibqp->qp_num = qp->qpn;
	qp->sq_wqe_shift = req.sq_wqe_shift;
	qp->sq_log_size = req.sq_log_size;
	qp->rq_wqe_shift = in.rq_wqe_shift;
	qp->rq_log_size = in.rq_log_size;
	qp->sq_sig_all = attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->state = IB_QPS_RESET;
	qp->cap = attr->cap;
	err = wren_ib_qp_publish(dev, qp);
	if (err)
		goto err_destroy;

	resp.qpn = qp->qpn;
	resp.max_inline = max_inline;
	err = wren_ib_udata_out(udata, &resp, sizeof(resp));
	if (err)
		goto err_erase;
	return 0;

err_erase:
	xa_erase_irq(&dev->qps, qp->qpn);
	mutex_destroy(&qp->lock);
err_destroy:
	wren_cmd_destroy_qp(dev->cdev, qp->qpn);
err_ring:
	wren_ib_uring_put(&qp->ring);
	return err;
}

int wren_ib_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		      struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibqp->device);
	int err;

	down_read(&dev->num_reuse);
	err = __wren_ib_create_qp(ibqp, attr, udata);
	up_read(&dev->num_reuse);
	return err;
}

int wren_ib_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibqp->device);
	struct wren_ib_qp *qp = to_wqp(ibqp);
	int err;

	down_write(&dev->num_reuse);
	err = wren_cmd_destroy_qp(dev->cdev, qp->qpn);
	if (err) {
		up_write(&dev->num_reuse);
		return err;
	}
	if (qp->kernel)
		wren_ib_kqp_clean(qp);
	xa_erase_irq(&dev->qps, qp->qpn);
	up_write(&dev->num_reuse);
	wren_ib_obj_wait(&qp->ref);
	mutex_destroy(&qp->lock);
	if (qp->kernel)
		wren_ib_destroy_kqp(qp);
	else
		wren_ib_uring_put(&qp->ring);	/* none for XRC targets */
	if (qp->ulp)
		wren_ib_ulp_put(dev);
	return 0;
}

/*
 * The QP's DCQCN reaction point as the NIC runs it now: current and target
 * rate, alpha (0 .. 1023 = 0 .. 1), whether DCQCN limits it, and the CNPs
 * it reacted to.  restrack fills entries in process context, without its
 * lock held, so the query may sleep.  A QP the NIC cannot answer for shows
 * the other attributes only.
 */
static bool wren_ib_fill_res_qp_cc(struct sk_buff *msg, struct wren_ib_qp *qp)
{
	struct wren_ib_dev *dev = to_wdev(qp->ibqp.device);
	struct wren_query_qp_out out;
	int err;

	if (!(dev->caps & WREN_CAP_DCQCN))
		return false;
	mutex_lock(&qp->lock);
	err = wren_cmd_query_qp(dev->cdev, qp->qpn, &out);
	mutex_unlock(&qp->lock);
	if (err)
		return false;
	return rdma_nl_put_driver_u32(msg, "cc_rate_kbps",
				      le32_to_cpu(out.cc_rate_kbps)) ||
	       rdma_nl_put_driver_u32(msg, "cc_target_kbps",
				      le32_to_cpu(out.cc_target_kbps)) ||
	       rdma_nl_put_driver_u32(msg, "cc_alpha",
				      le16_to_cpu(out.cc_alpha)) ||
	       rdma_nl_put_driver_u32(msg, "cc_rp_active",
				      !!(out.cc_flags & WREN_QP_CC_RP_ACTIVE)) ||
	       rdma_nl_put_driver_u32(msg, "cc_cnps_handled",
				      le32_to_cpu(out.cc_cnps_handled));
}

int wren_ib_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct wren_ib_qp *qp = to_wqp(ibqp);
	struct nlattr *nest = wren_ib_res_nest(msg);
	bool overflow;

	if (!nest)
		return -EMSGSIZE;

	/* An XRC target has no queue, an XRC initiator no RQ: 0 entries. */
	overflow = rdma_nl_put_driver_u32(msg, "sq_wqe_size",
					  qp->sq_log_size ? BIT(qp->sq_wqe_shift) : 0) ||
		   rdma_nl_put_driver_u32(msg, "sq_entries",
					  qp->sq_log_size ? BIT(qp->sq_log_size) : 0) ||
		   rdma_nl_put_driver_u32(msg, "rq_wqe_size",
					  qp->rq_log_size ? BIT(qp->rq_wqe_shift) : 0) ||
		   rdma_nl_put_driver_u32(msg, "rq_entries",
					  qp->rq_log_size ? BIT(qp->rq_log_size) : 0) ||
		   wren_ib_fill_res_qp_cc(msg, qp);
	return wren_ib_res_end(msg, nest, overflow);
}

/*
 * UD multicast (WREN_CAP_RDMA_MCAST): a QP joins a group in the device's
 * table.  ib_core has checked that the QP is UD and the GID multicast;
 * ib_uverbs keeps userspace from attaching a QP to a group twice and
 * detaches what a closing process left.  Joining the IP group (IGMP or
 * MLD, the netdev's multicast list) is rdma_cm's, not the QP's: the
 * device receives the group's frames from the attach on.
 */
int wren_ib_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	return wren_cmd_attach_mcast(to_wdev(ibqp->device)->cdev,
				     to_wqp(ibqp)->qpn, gid->raw);
}

int wren_ib_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	return wren_cmd_detach_mcast(to_wdev(ibqp->device)->cdev,
				     to_wqp(ibqp)->qpn, gid->raw);
}
