// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues, with the limit event: armed by
 * modify_srq(IB_SRQ_LIMIT), fired once (IB_EVENT_SRQ_LIMIT_REACHED) when
 * fewer WQEs remain posted, then disarmed; and, with WREN_CAP_SRQ_RESIZE,
 * user SRQs grow (IB_SRQ_MAX_WR: RESIZE_SRQ).  User SRQs live in the
 * provider's memory; kernel SRQs are wren_ib_ksrq.c's, and do not grow.
 * With XRC (wren_ib_has_xrc()) a user SRQ may be an XRC SRQ: of an XRC
 * domain, with a CQ of its own on the same doorbell page, which every
 * receive it completes goes to, whichever target QP took the WQE.
 */
#include <rdma/uverbs_ioctl.h>
#include <rdma/wren-abi.h>

#include "wren_ib.h"

static int wren_ib_srq_req(struct wren_ib_dev *dev, struct ib_udata *udata,
			   struct ib_srq_attr *sattr,
			   struct wren_ib_create_srq *req)
{
	const struct wren_device_attr *a = dev->attr;
	u32 max_wr = le32_to_cpu(a->max_srq_wr);
	u32 dev_sge = le16_to_cpu(a->max_sge);
	unsigned int max_log;
	int err;

	err = wren_ib_udata_in(udata, req, sizeof(*req));
	if (err)
		return err;
	if (req->comp_mask)
		return -EOPNOTSUPP;
	if (memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	max_log = wren_wq_log_size_max(max_wr);
	if (req->log_size < WREN_WQ_LOG_SIZE_MIN || req->log_size > max_log ||
	    req->wqe_shift < WREN_WQE_SHIFT_MIN ||
	    req->wqe_shift > a->max_rq_wqe_shift)
		return -EINVAL;
	if (!sattr->max_wr || sattr->max_wr > BIT(req->log_size) ||
	    sattr->max_sge > dev_sge ||
	    sattr->max_sge > wren_rq_max_sge(req->wqe_shift) ||
	    sattr->srq_limit > BIT(req->log_size))
		return -EINVAL;
	sattr->max_wr = BIT(req->log_size);
	sattr->max_sge = min_t(u32, dev_sge, wren_rq_max_sge(req->wqe_shift));
	return 0;
}

static int __wren_ib_create_srq(struct ib_srq *ibsrq,
				struct ib_srq_init_attr *attr,
				struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibsrq->device);
	struct wren_ib_srq *srq = to_wsrq(ibsrq);
	struct wren_ib_create_srq_resp resp = {};
	struct wren_create_srq_in in = {};
	struct wren_ib_ucontext *uctx;
	struct wren_ib_create_srq req;
	size_t list_size;
	dma_addr_t list_dma;
	void *list;
	u64 bytes;
	int err;

	if (!(dev->caps & WREN_CAP_RDMA_SRQ))
		return -EOPNOTSUPP;
	switch (attr->srq_type) {
	case IB_SRQT_BASIC:
		break;
	case IB_SRQT_XRC:
		/* XRC is user space's (rdma.rst). */
		if (!wren_ib_has_xrc(dev) || !udata)
			return -EOPNOTSUPP;
		if (!attr->ext.xrc.xrcd || !attr->ext.cq)
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;	/* tag matching: rdma.rst */
	}
	if (!udata)
		return wren_ib_create_ksrq(srq, attr);
	err = wren_ib_srq_req(dev, udata, &attr->attr, &req);
	if (err)
		return err;
	uctx = rdma_udata_to_drv_context(udata, struct wren_ib_ucontext, ibuctx);

	bytes = BIT_ULL(req.log_size + req.wqe_shift);
	err = wren_ib_uring_get(dev, &srq->ring, req.buf_addr, bytes,
				req.dbrec_addr);
	if (err)
		return err;
	err = wren_ib_buf_desc(dev, srq->ring.umem, req.buf_addr, bytes,
			       &in.buf, &list, &list_dma, &list_size);
	if (err)
		goto err_ring;
	in.pdn = cpu_to_le32(to_wpd(ibsrq->pd)->pdn);
	in.uar = cpu_to_le32(uctx->uar);
	in.log_size = req.log_size;
	in.wqe_shift = req.wqe_shift;
	in.limit = cpu_to_le32(attr->attr.srq_limit);
	in.dbrec_addr = cpu_to_le64(srq->ring.dbrec_dma);
	if (attr->srq_type == IB_SRQT_XRC) {
		/* The device checks that the CQ is on the SRQ's page. */
		in.flags = WREN_SRQ_F_XRC;
		in.xrcdn = cpu_to_le32(to_wxrcd(attr->ext.xrc.xrcd)->xrcdn);
		in.cqn = cpu_to_le32(to_wcq(attr->ext.cq)->cqn);
	}
	err = wren_cmd_create_srq(dev->cdev, &in, &srq->srqn);
	if (err != -ETIMEDOUT)
		wren_ib_buf_desc_free(dev, list, list_dma, list_size);
	if (err)
		goto err_ring;

	/* What ib_core answers for an XRC SRQ: its number, for senders. */
	if (attr->srq_type == IB_SRQT_XRC)
		ibsrq->ext.xrc.srq_num = srq->srqn;
	srq->max_wr = attr->attr.max_wr;
	srq->max_sge = attr->attr.max_sge;
	srq->log_size = req.log_size;
	srq->wqe_shift = req.wqe_shift;
	mutex_init(&srq->resize_lock);
	wren_ib_obj_ref_init(&srq->ref);
	err = xa_insert_irq(&dev->srqs, srq->srqn, srq, GFP_KERNEL);
	if (err)
		goto err_destroy;
	resp.srqn = srq->srqn;
	err = wren_ib_udata_out(udata, &resp, sizeof(resp));
	if (err)
		goto err_erase;
	return 0;

err_erase:
	xa_erase_irq(&dev->srqs, srq->srqn);
err_destroy:
	mutex_destroy(&srq->resize_lock);
	wren_cmd_destroy_srq(dev->cdev, srq->srqn);
err_ring:
	wren_ib_uring_put(&srq->ring);
	return err;
}

int wren_ib_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *attr,
		       struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibsrq->device);
	int err;

	down_read(&dev->num_reuse);
	err = __wren_ib_create_srq(ibsrq, attr, udata);
	up_read(&dev->num_reuse);
	return err;
}

/*
 * IB_SRQ_MAX_WR of a user SRQ: the provider's new ring and record, what
 * it holds copied there, and the device moves to them (RESIZE_SRQ).  A
 * max_wr the SRQ holds already changes nothing and needs no request.
 * The old ring is released once the device reads the new one; on failure
 * the new one, and the SRQ is as it was.  A timeout leaves it unknown
 * which ring the device reads: both stay pinned until the SRQ goes, and
 * further resizes are refused.
 */
static int wren_ib_resize_srq(struct wren_ib_dev *dev, struct wren_ib_srq *srq,
			      u32 max_wr, struct ib_udata *udata)
{
	u32 dev_max = le32_to_cpu(dev->attr->max_srq_wr);
	struct wren_resize_srq_in in = {};
	struct wren_ib_uring ring = {};
	struct wren_ib_resize_srq req;
	size_t list_size;
	dma_addr_t list_dma;
	void *list;
	u64 bytes;
	int err;

	if (!(dev->caps & WREN_CAP_SRQ_RESIZE) || srq->kernel || !udata)
		return -EOPNOTSUPP;
	if (!max_wr || max_wr > dev_max)
		return -EINVAL;
	if (udata->inlen) {
		err = wren_ib_udata_in(udata, &req, sizeof(req));
		if (err)
			return err;
		if (req.comp_mask)
			return -EOPNOTSUPP;
		if (memchr_inv(req.reserved, 0, sizeof(req.reserved)))
			return -EINVAL;
		if (req.log_size > wren_wq_log_size_max(dev_max) ||
		    max_wr > BIT(req.log_size))
			return -EINVAL;
	}

	/* The size is a resize's to change: read it under the same lock. */
	mutex_lock(&srq->resize_lock);
	if (!udata->inlen) {
		err = max_wr <= BIT(srq->log_size) ? 0 : -EINVAL;
		goto out;
	}
	if (srq->stale_ring.umem) {
		err = -EBUSY;
		goto out;
	}
	if (req.log_size <= srq->log_size) {
		err = -EINVAL;
		goto out;
	}
	bytes = BIT_ULL(req.log_size + srq->wqe_shift);
	err = wren_ib_uring_get(dev, &ring, req.buf_addr, bytes,
				req.dbrec_addr);
	if (err)
		goto out;
	err = wren_ib_buf_desc(dev, ring.umem, req.buf_addr, bytes, &in.buf,
			       &list, &list_dma, &list_size);
	if (err)
		goto put_ring;
	in.srqn = cpu_to_le32(srq->srqn);
	in.log_size = req.log_size;
	in.dbrec_addr = cpu_to_le64(ring.dbrec_dma);
	err = wren_cmd_resize_srq(dev->cdev, &in);
	if (err == -ETIMEDOUT) {
		srq->stale_ring = ring;
		goto out;
	}
	wren_ib_buf_desc_free(dev, list, list_dma, list_size);
	if (err)
		goto put_ring;
	swap(srq->ring, ring);
	srq->log_size = req.log_size;
	srq->max_wr = BIT(req.log_size);
put_ring:
	wren_ib_uring_put(&ring);
out:
	mutex_unlock(&srq->resize_lock);
	return err;
}

int wren_ib_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		       enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibsrq->device);
	struct wren_ib_srq *srq = to_wsrq(ibsrq);
	int err;

	if (mask & ~(IB_SRQ_LIMIT | IB_SRQ_MAX_WR))
		return -EOPNOTSUPP;
	if (mask & IB_SRQ_MAX_WR)
		err = wren_ib_resize_srq(dev, srq, attr->max_wr, udata);
	else
		err = wren_ib_udata_none(udata);
	if (err || !(mask & IB_SRQ_LIMIT))
		return err;
	if (attr->srq_limit > srq->max_wr)
		return -EINVAL;
	return wren_cmd_modify_srq_limit(dev->cdev, srq->srqn, attr->srq_limit);
}

int wren_ib_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct wren_ib_dev *dev = to_wdev(ibsrq->device);
	struct wren_ib_srq *srq = to_wsrq(ibsrq);
	struct wren_query_srq_out out;
	int err;

	err = wren_cmd_query_srq(dev->cdev, srq->srqn, &out);
	if (err)
		return err;
	attr->max_wr = srq->max_wr;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = le32_to_cpu(out.limit);
	return 0;
}

int wren_ib_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct wren_ib_dev *dev = to_wdev(ibsrq->device);
	struct wren_ib_srq *srq = to_wsrq(ibsrq);
	int err;

	down_write(&dev->num_reuse);
	err = wren_cmd_destroy_srq(dev->cdev, srq->srqn);
	if (err) {
		up_write(&dev->num_reuse);
		return err;
	}
	xa_erase_irq(&dev->srqs, srq->srqn);
	up_write(&dev->num_reuse);
	wren_ib_obj_wait(&srq->ref);
	if (srq->kernel) {
		wren_ib_destroy_ksrq(srq);
	} else {
		wren_ib_uring_put(&srq->ring);
		wren_ib_uring_put(&srq->stale_ring);
		mutex_destroy(&srq->resize_lock);
	}
	return 0;
}

int wren_ib_fill_res_srq_entry(struct sk_buff *msg, struct ib_srq *ibsrq)
{
	struct wren_ib_srq *srq = to_wsrq(ibsrq);
	struct nlattr *nest = wren_ib_res_nest(msg);
	bool overflow;

	if (!nest)
		return -EMSGSIZE;

	overflow = rdma_nl_put_driver_u32(msg, "srqn", srq->srqn) ||
		   rdma_nl_put_driver_u32(msg, "wqe_size", BIT(srq->wqe_shift)) ||
		   rdma_nl_put_driver_u32(msg, "entries", BIT(srq->log_size));
	return wren_ib_res_end(msg, nest, overflow);
}
