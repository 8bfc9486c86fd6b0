// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues of kernel consumers (nvmet-rdma's use_srq, for
 * one): the ring lives in coherent memory, the SRQ is bound to the
 * kernel's doorbell page (WREN_KERNEL_UAR, where the reserved lkey is
 * valid), receives are posted here in any context under a spinlock, and
 * poll_cq hands each SRQ completion back through wren_ib_ksrq_complete().
 *
 * The device takes SRQ WQEs in ring order, but the QPs sharing them
 * complete them in any order: a slot is reused only after its own
 * completion was polled (the busy bitmap), not when an older one was.  A
 * ULP that keeps its SRQ full (nvmet-rdma reposts each buffer as its
 * command completes) would then see -ENOMEM whenever one QP's message
 * overtakes another's, and lose the buffer; so a WQE posted while the slot
 * at the producer index is busy waits in a backlog, and the completion
 * that frees that slot moves it into the ring.  -ENOMEM means max_wr WQEs
 * are outstanding, as the verbs say.
 */
#include <linux/bitmap.h>
#include <linux/slab.h>

#include "wren_ib.h"

/* Size the ring for @sattr, and report what it really holds. */
static int wren_ib_ksrq_size(struct wren_ib_dev *dev, struct wren_ib_srq *srq,
			     struct ib_srq_attr *sattr)
{
	const struct wren_device_attr *a = dev->attr;
	u32 max_wr = le32_to_cpu(a->max_srq_wr);
	u32 dev_sge = le16_to_cpu(a->max_sge);
	unsigned int max_log, log, shift;

	max_log = wren_wq_log_size_max(max_wr);
	if (!sattr->max_wr || sattr->max_wr > BIT(max_log) ||
	    sattr->max_sge > dev_sge)
		return -EINVAL;
	log = max_t(unsigned int, WREN_WQ_LOG_SIZE_MIN,
		    order_base_2(sattr->max_wr));
	shift = wren_rq_wqe_shift(max_t(u32, sattr->max_sge, 1));
	if (shift > a->max_rq_wqe_shift)
		return -EINVAL;
	/* The device arms a limit below the ring's size only. */
	if (sattr->srq_limit >= BIT(log))
		return -EINVAL;
	srq->log_size = log;
	srq->wqe_shift = shift;
	srq->max_wr = BIT(log);
	srq->max_sge = min_t(u32, dev_sge, wren_rq_max_sge(shift));
	sattr->max_wr = srq->max_wr;
	sattr->max_sge = srq->max_sge;
	return 0;
}

static void wren_ib_ksrq_free(struct wren_ib_dev *dev, struct wren_ib_srq *srq)
{
	kvfree(srq->backlog);
	kfree(srq->backlog_wrid);
	bitmap_free(srq->busy);
	kfree(srq->wrid);
	wren_ib_kring_free(dev, &srq->kring);
}

static void *wren_ib_ksrq_wqe(struct wren_ib_srq *srq, void *base, u32 slot)
{
	return base + ((size_t)slot << srq->wqe_shift);
}

int wren_ib_create_ksrq(struct wren_ib_srq *srq, struct ib_srq_init_attr *attr)
{
	struct wren_ib_dev *dev = to_wdev(srq->ibsrq.device);
	struct wren_create_srq_in in = {};
	size_t list_size;
	dma_addr_t list_dma;
	void *list;
	int err;

	err = wren_ib_ksrq_size(dev, srq, &attr->attr);
	if (err)
		return err;
	err = wren_ib_kring_alloc(dev, &srq->kring,
				  (size_t)srq->max_wr << srq->wqe_shift);
	if (err)
		return err;
	srq->wrid = kcalloc(srq->max_wr, sizeof(*srq->wrid), GFP_KERNEL);
	srq->busy = bitmap_zalloc(srq->max_wr, GFP_KERNEL);
	srq->backlog_wrid = kcalloc(srq->max_wr, sizeof(*srq->backlog_wrid),
				    GFP_KERNEL);
	srq->backlog = kvzalloc(srq->kring.ring_bytes, GFP_KERNEL);
	if (!srq->wrid || !srq->busy || !srq->backlog_wrid || !srq->backlog) {
		err = -ENOMEM;
		goto err_free;
	}
	spin_lock_init(&srq->lock);
	srq->pi = 0;
	srq->spi = 0;
	srq->outstanding = 0;
	err = wren_ib_kring_desc(dev, &srq->kring, &in.buf, &list, &list_dma,
				 &list_size);
	if (err)
		goto err_free;

	in.pdn = cpu_to_le32(to_wpd(srq->ibsrq.pd)->pdn);
	in.uar = cpu_to_le32(WREN_KERNEL_UAR);
	in.log_size = srq->log_size;
	in.wqe_shift = srq->wqe_shift;
	in.limit = cpu_to_le32(attr->attr.srq_limit);
	in.dbrec_addr = cpu_to_le64(srq->kring.dbrec_dma);
	err = wren_cmd_create_srq(dev->cdev, &in, &srq->srqn);
	if (err == -ETIMEDOUT)
		return err;	/* the device may still use the ring */
	wren_ib_buf_desc_free(dev, list, list_dma, list_size);
	if (err)
		goto err_free;

	srq->kernel = true;
	wren_ib_obj_ref_init(&srq->ref);
	err = xa_insert_irq(&dev->srqs, srq->srqn, srq, GFP_KERNEL);
	if (err) {
		if (wren_cmd_destroy_srq(dev->cdev, srq->srqn))
			return err;	/* leave the ring to the device */
		goto err_free;
	}
	return 0;

err_free:
	wren_ib_ksrq_free(dev, srq);
	return err;
}

/* After DESTROY_SRQ: WQEs still posted are the consumer's to free. */
void wren_ib_destroy_ksrq(struct wren_ib_srq *srq)
{
	wren_ib_ksrq_free(to_wdev(srq->ibsrq.device), srq);
}

/* The device may read the WQE at pi: it takes the slot's wr_id. */
static void wren_ib_ksrq_ring_one(struct wren_ib_srq *srq, u32 slot, u64 wr_id)
{
	lockdep_assert_held(&srq->lock);
	srq->wrid[slot] = wr_id;
	__set_bit(slot, srq->busy);
	srq->pi++;
}

/*
 * Backlogged WQEs into the ring, oldest first, while the slot at pi is
 * free; a WQE's index is its position, so it moves unchanged.
 */
static void wren_ib_ksrq_drain_backlog(struct wren_ib_srq *srq)
{
	u32 mask = srq->max_wr - 1, slot;
	struct wren_rqe *rqe;

	lockdep_assert_held(&srq->lock);
	while (srq->pi != srq->spi && !test_bit(srq->pi & mask, srq->busy)) {
		slot = srq->pi & mask;
		rqe = wren_ib_ksrq_wqe(srq, srq->backlog, slot);
		memcpy(wren_ib_ksrq_wqe(srq, srq->kring.buf, slot), rqe,
		       sizeof(*rqe) + rqe->ds_count * WREN_WQE_DS_SIZE);
		wren_ib_ksrq_ring_one(srq, slot, srq->backlog_wrid[slot]);
	}
}

static void wren_ib_ksrq_publish(struct wren_ib_srq *srq)
{
	/* WQEs in memory before the producer index that covers them. */
	dma_wmb();
	WRITE_ONCE(*srq->kring.dbrec, cpu_to_le32(srq->pi));
}

int wren_ib_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			  const struct ib_recv_wr **bad_wr)
{
	struct wren_ib_srq *srq = to_wsrq(ibsrq);
	u32 mask = srq->max_wr - 1, start, slot;
	unsigned long flags;
	int err = 0;

	/* A user SRQ's ring is the provider's. */
	if (!srq->kernel) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&srq->lock, flags);
	start = srq->pi;
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || wr->num_sge > srq->max_sge)
			err = -EINVAL;
		else if (srq->outstanding == srq->max_wr)
			err = -ENOMEM;
		if (err) {
			*bad_wr = wr;
			break;
		}
		slot = srq->spi & mask;
		/*
		 * The slot the producer index reaches must have completed:
		 * until then the device may still be filling it.  At most
		 * max_wr are outstanding, so backlog positions never share
		 * a slot.
		 */
		if (srq->spi == srq->pi && !test_bit(slot, srq->busy)) {
			wren_ib_write_rqe(wren_ib_ksrq_wqe(srq, srq->kring.buf,
							   slot), srq->spi, wr);
			wren_ib_ksrq_ring_one(srq, slot, wr->wr_id);
		} else {
			wren_ib_write_rqe(wren_ib_ksrq_wqe(srq, srq->backlog,
							   slot), srq->spi, wr);
			srq->backlog_wrid[slot] = wr->wr_id;
		}
		srq->spi++;
		srq->outstanding++;
	}
	if (srq->pi != start)
		wren_ib_ksrq_publish(srq);
	spin_unlock_irqrestore(&srq->lock, flags);
	return err;
}

/*
 * The wr_id of the SRQ WQE a receive CQE names; its slot is free again,
 * for the backlog first.
 */
u64 wren_ib_ksrq_complete(struct wren_ib_srq *srq, u16 idx16)
{
	u32 slot = idx16 & (srq->max_wr - 1), start;
	unsigned long flags;
	u64 wr_id;

	spin_lock_irqsave(&srq->lock, flags);
	wr_id = srq->wrid[slot];
	/* A confused device's CQE for a free slot frees nothing. */
	if (__test_and_clear_bit(slot, srq->busy)) {
		srq->outstanding--;
		start = srq->pi;
		wren_ib_ksrq_drain_backlog(srq);
		if (srq->pi != start)
			wren_ib_ksrq_publish(srq);
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	return wr_id;
}
