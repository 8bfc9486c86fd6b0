// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues of kernel consumers (ib_alloc_cq() and friends): the
 * ring lives in coherent memory, is bound to the kernel's doorbell page
 * (WREN_KERNEL_UAR) and is polled here, in any context, under a spinlock.
 * Arming follows queues.rst: the consumer index travels with the arm, and
 * IB_CQ_REPORT_MISSED_EVENTS is answered by looking at the next slot.
 * A receive CQE of a QP on an SRQ names the SRQ's slot, which it frees.
 */
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/io.h>

#include "wren_ib.h"

int wren_ib_create_kcq(struct wren_ib_cq *cq, const struct ib_cq_init_attr *attr)
{
	struct wren_ib_dev *dev = to_wdev(cq->ibcq.device);
	u32 max_cqe = le32_to_cpu(dev->attr->max_cqe);
	struct wren_create_cq_in in = {};
	unsigned int log_size, max_log;
	size_t list_size;
	dma_addr_t list_dma;
	void *list;
	int err;

	max_log = min_t(unsigned int, WREN_CQ_LOG_SIZE_MAX,
			ilog2(max_t(u32, max_cqe, 2)));
	log_size = max_t(unsigned int, WREN_CQ_LOG_SIZE_MIN,
			 order_base_2(attr->cqe));
	if (!attr->cqe || log_size > max_log)
		return -EINVAL;

	err = wren_ib_kring_alloc(dev, &cq->kring,
				  (size_t)WREN_CQE_SIZE << log_size);
	if (err)
		return err;
	err = wren_ib_kring_desc(dev, &cq->kring, &in.ring, &list, &list_dma,
				 &list_size);
	if (err)
		goto err_ring;
	cq->kernel = true;
	cq->eq_index = attr->comp_vector;
	cq->log_size = log_size;
	cq->ci = 0;
	spin_lock_init(&cq->lock);
	INIT_WORK(&cq->kick_work, wren_ib_kick_work);
	in.dbrec_addr = cpu_to_le64(cq->kring.dbrec_dma);
	in.eqn = cpu_to_le32(wren_core_comp_eqn(dev->wadev, cq->eq_index));
	in.uar = cpu_to_le32(WREN_KERNEL_UAR);
	in.log_size = log_size;
	err = wren_cmd_create_cq(dev->cdev, &in, &cq->cqn);
	if (err == -ETIMEDOUT)
		return err;	/* the device may still use the ring */
	wren_ib_buf_desc_free(dev, list, list_dma, list_size);
	if (err)
		goto err_ring;
	cq->ibcq.cqe = BIT(log_size);

	wren_ib_obj_ref_init(&cq->ref);
	err = xa_insert_irq(&dev->cqs, cq->cqn, cq, GFP_KERNEL);
	if (err)
		goto err_destroy;
	return 0;

err_destroy:
	if (wren_cmd_destroy_cq(dev->cdev, cq->cqn))
		return err;	/* leave the ring to the device */
err_ring:
	wren_ib_kring_free(dev, &cq->kring);
	return err;
}

void wren_ib_destroy_kcq(struct wren_ib_cq *cq)
{
	cancel_work_sync(&cq->kick_work);
	wren_ib_kring_free(to_wdev(cq->ibcq.device), &cq->kring);
}

static struct wren_cqe *wren_ib_kcqe(struct wren_ib_cq *cq, u32 index)
{
	return cq->kring.buf +
	       (size_t)(index & (BIT(cq->log_size) - 1)) * WREN_CQE_SIZE;
}

static bool wren_ib_kcqe_owned(struct wren_ib_cq *cq, u32 index)
{
	return wren_cqe_owned(READ_ONCE(wren_ib_kcqe(cq, index)->owner), index,
			      cq->log_size);
}

/* The next written CQE, copied out, or false when there is none. */
static bool wren_ib_kcq_next(struct wren_ib_cq *cq, struct wren_cqe *out)
{
	lockdep_assert_held(&cq->lock);
	if (!wren_ib_kcqe_owned(cq, cq->ci))
		return false;
	/* The owner byte is written last: read the rest after it. */
	dma_rmb();
	memcpy(out, wren_ib_kcqe(cq, cq->ci), sizeof(*out));
	cq->ci++;
	return true;
}

/*
 * The QP is gone (or reset): make its CQEs still in the ring name QP 0,
 * which never exists, so that pollers drop them rather than hand a later
 * QP of the same number a stale completion.  The SRQ slots its receive
 * CQEs name are free again (their buffers stay the consumer's, as posted).
 * Taking the lock also waits for a poller that may have looked the QP up
 * already.
 */
void wren_ib_kcq_clean(struct wren_ib_cq *cq, struct wren_ib_qp *qp)
{
	struct wren_ib_srq *srq = qp->ibqp.srq ? to_wsrq(qp->ibqp.srq) : NULL;
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&cq->lock, flags);
	for (i = cq->ci; i - cq->ci < BIT(cq->log_size) &&
	     wren_ib_kcqe_owned(cq, i); i++) {
		struct wren_cqe *cqe = wren_ib_kcqe(cq, i);

		dma_rmb();
		if ((le32_to_cpu(cqe->qpn) & WREN_QPN_MASK) != qp->qpn)
			continue;
		if (srq && wren_cqe_is_recv(cqe->opcode))
			wren_ib_ksrq_complete(srq, le16_to_cpu(cqe->wqe_idx));
		cqe->qpn = 0;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
}

static enum ib_wc_opcode wren_ib_wc_opcode(u8 opcode)
{
	switch (opcode) {
	case WREN_WQE_RDMA_WRITE:
	case WREN_WQE_RDMA_WRITE_IMM:
		return IB_WC_RDMA_WRITE;
	case WREN_WQE_RDMA_READ:
		return IB_WC_RDMA_READ;
	case WREN_WQE_ATOMIC_CMP_SWP:
		return IB_WC_COMP_SWAP;
	case WREN_WQE_ATOMIC_FETCH_ADD:
		return IB_WC_FETCH_ADD;
	case WREN_WQE_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case WREN_WQE_REG_MR:
		return IB_WC_REG_MR;
	case WREN_CQE_OP_RECV:
		return IB_WC_RECV;
	case WREN_CQE_OP_RECV_RDMA_IMM:
		return IB_WC_RECV_RDMA_WITH_IMM;
	default:
		return IB_WC_SEND;
	}
}

/* The contract uses the ib_wc_status values themselves. */
static enum ib_wc_status wren_ib_wc_status(u8 status)
{
	return wren_cqe_status_known(status) ? (enum ib_wc_status)status :
					       IB_WC_GENERAL_ERR;
}

/* The wr_id of the WQE a CQE completes; retires it and earlier ones. */
static u64 wren_ib_kwq_complete(struct wren_ib_kwq *wq, u16 idx16)
{
	u32 tail = wq->tail;
	u32 idx = tail + (u16)(idx16 - (u16)tail);
	u64 wr_id = wq->wrid[idx & wq->mask];

	/* Posters read tail to find free slots: after the wr_id is read. */
	smp_store_release(&wq->tail, idx + 1);
	return wr_id;
}

static void wren_ib_fill_ud_wc(const struct wren_cqe *cqe, struct ib_wc *wc)
{
	u16 f = le16_to_cpu(cqe->flags);

	wc->src_qp = le32_to_cpu(cqe->src_qp) & WREN_QPN_MASK;
	memcpy(wc->smac, cqe->smac, ETH_ALEN);
	wc->wc_flags |= IB_WC_WITH_SMAC | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc->network_hdr_type = f & WREN_CQE_F_IPV4 ? RDMA_NETWORK_IPV4 :
						     RDMA_NETWORK_IPV6;
	if (f & WREN_CQE_F_GRH)
		wc->wc_flags |= IB_WC_GRH;
	if (f & WREN_CQE_F_VLAN) {
		u16 tci = le16_to_cpu(cqe->vlan_tci);

		wc->wc_flags |= IB_WC_WITH_VLAN;
		wc->vlan_id = tci & VLAN_VID_MASK;
		wc->sl = tci >> VLAN_PRIO_SHIFT;
	}
}

static void wren_ib_fill_wc(struct wren_ib_qp *qp, const struct wren_cqe *cqe,
			    struct ib_wc *wc)
{
	bool recv = wren_cqe_is_recv(cqe->opcode);
	u16 idx16 = le16_to_cpu(cqe->wqe_idx);
	u16 f;

	memset(wc, 0, sizeof(*wc));
	if (recv && qp->ibqp.srq)
		wc->wr_id = wren_ib_ksrq_complete(to_wsrq(qp->ibqp.srq), idx16);
	else
		wc->wr_id = wren_ib_kwq_complete(recv ? &qp->rq : &qp->sq,
						 idx16);
	wc->status = wren_ib_wc_status(cqe->status);
	wc->vendor_err = cqe->vendor_err;
	wc->opcode = wren_ib_wc_opcode(cqe->opcode);
	wc->qp = &qp->ibqp;
	wc->port_num = WREN_IB_PORT;
	if (wc->status != IB_WC_SUCCESS)
		return;
	wc->byte_len = le32_to_cpu(cqe->byte_len);
	f = le16_to_cpu(cqe->flags);
	if (f & WREN_CQE_F_IMM) {
		wc->wc_flags |= IB_WC_WITH_IMM;
		wc->ex.imm_data = cqe->imm_data;
	} else if (f & WREN_CQE_F_INV) {
		wc->wc_flags |= IB_WC_WITH_INVALIDATE;
		wc->ex.invalidate_rkey = le32_to_cpu(cqe->inv_rkey);
	}
	if (recv && wren_ib_qp_datagram(qp))
		wren_ib_fill_ud_wc(cqe, wc);
}

int wren_ib_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct wren_ib_dev *dev = to_wdev(ibcq->device);
	struct wren_ib_cq *cq = to_wcq(ibcq);
	u32 start, qpn;
	struct wren_cqe cqe;
	struct wren_ib_qp *qp;
	unsigned long flags;
	int n = 0;

	/* A user CQ's ring is the provider's (uverbs' poll command). */
	if (!cq->kernel)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&cq->lock, flags);
	start = cq->ci;
	while (n < num_entries && wren_ib_kcq_next(cq, &cqe)) {
		qpn = le32_to_cpu(cqe.qpn) & WREN_QPN_MASK;
		/* destroy_qp erases the QP, then cleans under this lock. */
		qp = xa_load(&dev->qps, qpn);
		if (!qp || !qp->kernel)
			continue;
		wren_ib_fill_wc(qp, &cqe, &wc[n++]);
	}
	if (n < num_entries && READ_ONCE(dev->dead))
		n += wren_ib_kcq_flush(dev, cq, wc + n, num_entries - n);
	if (cq->ci != start) {
		/* Done reading the slots before the device may reuse them. */
		mb();
		WRITE_ONCE(*cq->kring.dbrec, cpu_to_le32(cq->ci));
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

int wren_ib_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct wren_ib_dev *dev = to_wdev(ibcq->device);
	struct wren_ib_cq *cq = to_wcq(ibcq);
	u32 arm = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED ?
		  WREN_DB_CQ_ARM_SOLICITED : WREN_DB_CQ_ARM_NEXT;
	unsigned long irqflags;
	int missed = 0;

	/* User CQs are armed by the provider on the context's page. */
	if (!cq->kernel)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&cq->lock, irqflags);
	if (READ_ONCE(dev->dead)) {
		/* No interrupt will come: flushes due are missed events. */
		if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
		    (wren_ib_kcqe_owned(cq, cq->ci) ||
		     wren_ib_kcq_flushable(dev, cq)))
			missed = 1;
		spin_unlock_irqrestore(&cq->lock, irqflags);
		return missed;
	}
	/* The consumer index travels with the arm: the device signals at
	 * once for entries already beyond it.
	 */
	writeq(WREN_DB_VAL(cq->cqn, arm, cq->ci), dev->kdb + WREN_DB_CQ);
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    wren_ib_kcqe_owned(cq, cq->ci))
		missed = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return missed;
}
