// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QPs of kernel consumers: RC and UD for ULPs, and the GSI QP (QP1) that
 * ib_core's MAD layer creates for the CM.  The driver lays out the SQ+RQ
 * buffer itself (coherent memory), binds the QP to the kernel's doorbell
 * page (WREN_KERNEL_UAR, where the reserved lkey is valid) and posts
 * through wren_ib_post.c.  RC and UD QPs may receive through a kernel SRQ
 * instead of an RQ of their own.
 */
#include <linux/slab.h>

#include "wren_ib.h"

/*
 * Size the SQ and RQ for @cap, and report what they really hold.  A QP on
 * an SRQ has no RQ (mask and stride 0).
 */
static int wren_ib_kqp_size(struct wren_ib_dev *dev, struct wren_ib_qp *qp,
			    struct ib_qp_cap *cap, bool srq)
{
	const struct wren_device_attr *a = dev->attr;
	unsigned int max_log = wren_wq_log_size_max(le32_to_cpu(a->max_qp_wr));
	u32 dev_sge = le16_to_cpu(a->max_sge);
	u32 dev_inline = le16_to_cpu(a->max_inline);
	unsigned int sq_log, rq_log;

	if (srq) {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
	}
	if (cap->max_send_sge > dev_sge || cap->max_recv_sge > dev_sge ||
	    cap->max_inline_data > dev_inline)
		return -EINVAL;
	sq_log = max_t(unsigned int, WREN_WQ_LOG_SIZE_MIN,
		       order_base_2(cap->max_send_wr));
	rq_log = max_t(unsigned int, WREN_WQ_LOG_SIZE_MIN,
		       order_base_2(cap->max_recv_wr));
	if (sq_log > max_log || rq_log > max_log)
		return -EINVAL;

	qp->sq.wqe_shift = wren_sq_wqe_shift(max_t(u32, cap->max_send_sge, 1),
					     cap->max_inline_data);
	qp->rq.wqe_shift = wren_rq_wqe_shift(max_t(u32, cap->max_recv_sge, 1));
	if (qp->sq.wqe_shift > a->max_sq_wqe_shift ||
	    qp->rq.wqe_shift > a->max_rq_wqe_shift)
		return -EINVAL;
	qp->sq.mask = BIT(sq_log) - 1;
	qp->rq.mask = BIT(rq_log) - 1;
	if (srq) {
		qp->rq.mask = 0;
		qp->rq.wqe_shift = 0;
		qp->rq.max_sge = 0;
	}

	qp->sq.max_sge = min_t(u32, dev_sge, wren_sq_max_sge(qp->sq.wqe_shift));
	qp->max_inline = min_t(u32, dev_inline,
			       wren_sq_max_inline(qp->sq.wqe_shift));
	if (!srq)
		qp->rq.max_sge = min_t(u32, dev_sge,
				       wren_rq_max_sge(qp->rq.wqe_shift));
	cap->max_send_wr = BIT(sq_log);
	cap->max_recv_wr = srq ? 0 : BIT(rq_log);
	cap->max_send_sge = qp->sq.max_sge;
	cap->max_recv_sge = qp->rq.max_sge;
	cap->max_inline_data = qp->max_inline;
	return 0;
}

static int wren_ib_kwq_init(struct wren_ib_kwq *wq, void *base)
{
	spin_lock_init(&wq->lock);
	wq->base = base;
	wq->pi = 0;
	wq->tail = 0;
	if (!base)
		return 0;	/* the RQ of a QP on an SRQ */
	wq->wrid = kcalloc(wq->mask + 1, sizeof(*wq->wrid), GFP_KERNEL);
	return wq->wrid ? 0 : -ENOMEM;
}

int wren_ib_create_kqp(struct wren_ib_qp *qp, struct ib_qp_init_attr *attr,
		       u8 type)
{
	struct wren_ib_dev *dev = to_wdev(qp->ibqp.device);
	struct wren_ib_srq *srq = attr->srq ? to_wsrq(attr->srq) : NULL;
	struct wren_create_qp_in in = {};
	size_t sq_bytes, rq_offset, list_size;
	dma_addr_t list_dma;
	void *list;
	int err;

	if (!to_wcq(attr->send_cq)->kernel || !to_wcq(attr->recv_cq)->kernel)
		return -EINVAL;
	/* The device has SRQs for RC and UD; QP1 receives on its own RQ. */
	if (srq && (!srq->kernel || type == WREN_QPT_GSI))
		return -EINVAL;
	err = wren_ib_kqp_size(dev, qp, &attr->cap, srq);
	if (err)
		return err;

	sq_bytes = (size_t)(qp->sq.mask + 1) << qp->sq.wqe_shift;
	rq_offset = srq ? 0 : ALIGN(sq_bytes, BIT(qp->rq.wqe_shift));
	err = wren_ib_kring_alloc(dev, &qp->kring, srq ? sq_bytes : rq_offset +
				  ((size_t)(qp->rq.mask + 1) << qp->rq.wqe_shift));
	if (err)
		return err;
	err = wren_ib_kwq_init(&qp->sq, qp->kring.buf);
	if (!err)
		err = wren_ib_kwq_init(&qp->rq, srq ? NULL :
				       qp->kring.buf + rq_offset);
	if (err)
		goto err_free;
	err = wren_ib_kring_desc(dev, &qp->kring, &in.buf, &list, &list_dma,
				 &list_size);
	if (err)
		goto err_free;

	in.type = type;
	if (attr->sq_sig_type == IB_SIGNAL_ALL_WR)
		in.flags |= WREN_QP_F_SQ_SIG_ALL;
	in.sq_wqe_shift = qp->sq.wqe_shift;
	in.sq_log_size = order_base_2(qp->sq.mask + 1);
	if (srq) {
		in.flags |= WREN_QP_F_USE_SRQ;
		in.srqn = cpu_to_le32(srq->srqn);
	} else {
		in.rq_wqe_shift = qp->rq.wqe_shift;
		in.rq_log_size = order_base_2(qp->rq.mask + 1);
	}
	in.max_inline = cpu_to_le16(qp->max_inline);
	in.pdn = cpu_to_le32(to_wpd(qp->ibqp.pd)->pdn);
	in.send_cqn = cpu_to_le32(to_wcq(attr->send_cq)->cqn);
	in.recv_cqn = cpu_to_le32(to_wcq(attr->recv_cq)->cqn);
	in.uar = cpu_to_le32(WREN_KERNEL_UAR);
	in.rq_offset = cpu_to_le32(rq_offset);
	in.dbrec_addr = cpu_to_le64(qp->kring.dbrec_dma);
	err = wren_cmd_create_qp(dev->cdev, &in, &qp->qpn);
	if (err == -ETIMEDOUT)
		return err;	/* the device may still use the buffer */
	wren_ib_buf_desc_free(dev, list, list_dma, list_size);
	if (err)
		goto err_free;

	qp->kernel = true;
	qp->ulp = type != WREN_QPT_GSI;
	qp->ibqp.qp_num = qp->qpn;
	qp->sq_log_size = in.sq_log_size;
	qp->rq_log_size = in.rq_log_size;
	qp->sq_wqe_shift = qp->sq.wqe_shift;
	qp->rq_wqe_shift = qp->rq.wqe_shift;
	qp->sq_sig_all = attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->state = IB_QPS_RESET;
	qp->cap = attr->cap;
	err = wren_ib_qp_publish(dev, qp);
	if (err) {
		if (wren_cmd_destroy_qp(dev->cdev, qp->qpn))
			return err;
		goto err_free;
	}
	if (qp->ulp) {
		wren_ib_ulp_get(dev);
	} else if (to_wpd(qp->ibqp.pd)->ulp) {
		/* The MAD layer's PD: ib_core's, like the GSI QP. */
		to_wpd(qp->ibqp.pd)->ulp = false;
		wren_ib_ulp_put(dev);
	}
	return 0;

err_free:
	kfree(qp->sq.wrid);
	kfree(qp->rq.wrid);
	wren_ib_kring_free(dev, &qp->kring);
	return err;
}

/* Drops the QP's CQEs still in its CQs; frees the SRQ slots they name. */
void wren_ib_kqp_clean(struct wren_ib_qp *qp)
{
	wren_ib_kcq_clean(to_wcq(qp->ibqp.send_cq), qp);
	if (qp->ibqp.recv_cq != qp->ibqp.send_cq)
		wren_ib_kcq_clean(to_wcq(qp->ibqp.recv_cq), qp);
}

/*
 * After DESTROY_QP, wren_ib_kqp_clean() and the xarray erase, in this
 * order: the cleaning needs the QP still findable, so that no poller drops
 * one of its SRQ completions without freeing the slot.
 */
void wren_ib_destroy_kqp(struct wren_ib_qp *qp)
{
	struct wren_ib_dev *dev = to_wdev(qp->ibqp.device);

	kfree(qp->sq.wrid);
	kfree(qp->rq.wrid);
	wren_ib_kring_free(dev, &qp->kring);
}

/*
 * RESET: the device forgot the QP's queues (its SQ indexes restart at 0
 * and it reads rq_pi afresh); so do we, and completions still queued for
 * the old incarnation are dropped.
 */
void wren_ib_kqp_reset(struct wren_ib_qp *qp)
{
	unsigned long flags;

	wren_ib_kqp_clean(qp);
	spin_lock_irqsave(&qp->sq.lock, flags);
	qp->sq.pi = 0;
	/* Tails pair with the posters' smp_load_acquire(). */
	smp_store_release(&qp->sq.tail, 0);
	spin_unlock_irqrestore(&qp->sq.lock, flags);
	spin_lock_irqsave(&qp->rq.lock, flags);
	qp->rq.pi = 0;
	/* As above. */
	smp_store_release(&qp->rq.tail, 0);
	WRITE_ONCE(*qp->kring.dbrec, 0);
	spin_unlock_irqrestore(&qp->rq.lock, flags);
}
