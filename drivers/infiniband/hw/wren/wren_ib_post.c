// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel data path's posting side: post_send and post_recv of kernel
 * QPs (post_srq_recv is wren_ib_ksrq.c's).  WQEs take the contract's
 * format (queues.rst), the same libwren writes; a send batch ends with one
 * doorbell on the kernel's page, a receive batch with the producer index
 * in the doorbell record.  Both run in any context (ULPs post from
 * softirq and under their own spinlocks): no sleeping, no allocation, a
 * spinlock per queue.
 */
#include <linux/io.h>

#include "wren_ib.h"

#define WREN_IB_CTRL		sizeof(struct wren_wqe_ctrl)
#define WREN_IB_OP_INVALID	0xff

static u8 wren_ib_wr_opcode(const struct wren_ib_qp *qp,
			    enum ib_wr_opcode op)
{
	bool rc = qp->ibqp.qp_type == IB_QPT_RC;
	bool conn = !wren_ib_qp_datagram(qp);

	/* UC: SENDs and RDMA WRITEs, and the local operations. */
	switch (op) {
	case IB_WR_SEND:
		return WREN_WQE_SEND;
	case IB_WR_SEND_WITH_IMM:
		return WREN_WQE_SEND_IMM;
	case IB_WR_SEND_WITH_INV:
		return rc ? WREN_WQE_SEND_INV : WREN_IB_OP_INVALID;
	case IB_WR_RDMA_WRITE:
		return conn ? WREN_WQE_RDMA_WRITE : WREN_IB_OP_INVALID;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return conn ? WREN_WQE_RDMA_WRITE_IMM : WREN_IB_OP_INVALID;
	case IB_WR_RDMA_READ:
		return rc ? WREN_WQE_RDMA_READ : WREN_IB_OP_INVALID;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return rc ? WREN_WQE_ATOMIC_CMP_SWP : WREN_IB_OP_INVALID;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return rc ? WREN_WQE_ATOMIC_FETCH_ADD : WREN_IB_OP_INVALID;
	case IB_WR_LOCAL_INV:
		return conn ? WREN_WQE_LOCAL_INV : WREN_IB_OP_INVALID;
	case IB_WR_REG_MR:
		return conn ? WREN_WQE_REG_MR : WREN_IB_OP_INVALID;
	default:
		return WREN_IB_OP_INVALID;
	}
}

static u8 wren_ib_send_flags(const struct wren_ib_qp *qp, int send_flags)
{
	u8 f = 0;

	if ((send_flags & IB_SEND_SIGNALED) || qp->sq_sig_all)
		f |= WREN_WQE_F_SIGNALED;
	if (send_flags & IB_SEND_FENCE)
		f |= WREN_WQE_F_FENCE;
	if (send_flags & IB_SEND_SOLICITED)
		f |= WREN_WQE_F_SOLICITED;
	if (send_flags & IB_SEND_INLINE)
		f |= WREN_WQE_F_INLINE;
	return f;
}

/* The MR's page list is read by the device when the WQE executes. */
static void wren_ib_build_reg_mr(struct wren_wqe_reg_mr *w,
				 const struct ib_reg_wr *wr)
{
	struct wren_ib_mr *mr = to_wmr(wr->mr);

	memset(w, 0, sizeof(*w));
	w->key = cpu_to_le32(wr->key);
	w->access = cpu_to_le32(wren_ib_access(wr->access));
	w->iova = cpu_to_le64(mr->ibmr.iova);
	w->length = cpu_to_le64(mr->ibmr.length);
	w->pbl_addr = cpu_to_le64(mr->pbl_dma);
	w->npages = cpu_to_le32(mr->npages);
	w->page_shift = ilog2(mr->ibmr.page_size);
}

/* Fixed segments after the control segment; returns the data segments. */
static void *wren_ib_build_fixed(const struct wren_ib_qp *qp, void *wqe, u8 op,
				 const struct ib_send_wr *wr)
{
	void *p = wqe + WREN_IB_CTRL;
	struct wren_wqe_raddr *ra = p;
	struct wren_wqe_atomic *at;
	struct wren_wqe_ud *ud = p;

	switch (op) {
	case WREN_WQE_RDMA_WRITE:
	case WREN_WQE_RDMA_WRITE_IMM:
	case WREN_WQE_RDMA_READ:
		ra->raddr = cpu_to_le64(rdma_wr(wr)->remote_addr);
		ra->rkey = cpu_to_le32(rdma_wr(wr)->rkey);
		ra->rsvd = 0;
		return p + sizeof(*ra);
	case WREN_WQE_ATOMIC_CMP_SWP:
	case WREN_WQE_ATOMIC_FETCH_ADD:
		ra->raddr = cpu_to_le64(atomic_wr(wr)->remote_addr);
		ra->rkey = cpu_to_le32(atomic_wr(wr)->rkey);
		ra->rsvd = 0;
		at = p + sizeof(*ra);
		if (op == WREN_WQE_ATOMIC_CMP_SWP) {
			at->swap_add = cpu_to_le64(atomic_wr(wr)->swap);
			at->compare = cpu_to_le64(atomic_wr(wr)->compare_add);
		} else {
			at->swap_add = cpu_to_le64(atomic_wr(wr)->compare_add);
			at->compare = 0;
		}
		return p + sizeof(*ra) + sizeof(*at);
	case WREN_WQE_LOCAL_INV:
		return p;
	case WREN_WQE_REG_MR:
		wren_ib_build_reg_mr(p, reg_wr(wr));
		return p + sizeof(struct wren_wqe_reg_mr);
	default:
		if (!wren_ib_qp_datagram(qp))
			return p;
		ud->ah = cpu_to_le32(to_wah(ud_wr(wr)->ah)->handle);
		ud->dest_qpn = cpu_to_le32(ud_wr(wr)->remote_qpn &
					   WREN_QPN_MASK);
		ud->qkey = cpu_to_le32(ud_wr(wr)->remote_qkey);
		ud->rsvd = 0;
		return p + sizeof(*ud);
	}
}

/* Inline payload: a header, then the bytes padded to 16; data segments. */
static int wren_ib_build_inline(const struct wren_ib_qp *qp, void *ds,
				const struct ib_send_wr *wr)
{
	struct wren_wqe_inline *h = ds;
	u8 *p = (u8 *)(h + 1);
	u32 total = 0, nds;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		if (wr->sg_list[i].length > qp->max_inline - total)
			return -EINVAL;
		memcpy(p + total, (void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		total += wr->sg_list[i].length;
	}
	nds = wren_inline_ds(total);
	memset(p + total, 0, (nds - 1) * WREN_WQE_DS_SIZE - total);
	memset(h, 0, sizeof(*h));
	h->length = cpu_to_le32(total);
	return nds;
}

static void wren_ib_set_sge(struct wren_wqe_sge *s, const struct ib_sge *sge)
{
	s->addr = cpu_to_le64(sge->addr);
	s->length = cpu_to_le32(sge->length);
	s->lkey = cpu_to_le32(sge->lkey);
}

static int wren_ib_build_send(struct wren_ib_qp *qp, const struct ib_send_wr *wr)
{
	struct wren_ib_kwq *sq = &qp->sq;
	u8 op = wren_ib_wr_opcode(qp, wr->opcode);
	u8 flags = wren_ib_send_flags(qp, wr->send_flags);
	struct wren_wqe_ctrl *ctrl;
	void *wqe, *ds;
	int nds, i;

	if (op == WREN_IB_OP_INVALID)
		return -EINVAL;
	if (wren_ib_qp_datagram(qp) && !ud_wr(wr)->ah)
		return -EINVAL;
	/* Pairs with the poller's smp_store_release() of the tail. */
	if (sq->pi - smp_load_acquire(&sq->tail) > sq->mask)
		return -ENOMEM;

	wqe = sq->base + ((size_t)(sq->pi & sq->mask) << sq->wqe_shift);
	ds = wren_ib_build_fixed(qp, wqe, op, wr);
	if (op == WREN_WQE_LOCAL_INV || op == WREN_WQE_REG_MR) {
		nds = 0;
		flags &= ~WREN_WQE_F_INLINE;
	} else if (wren_wqe_is_atomic(op)) {
		if (wr->num_sge != 1 || wr->sg_list[0].length != WREN_ATOMIC_LEN ||
		    (flags & WREN_WQE_F_INLINE))
			return -EINVAL;
		wren_ib_set_sge(ds, &wr->sg_list[0]);
		nds = 1;
	} else if (flags & WREN_WQE_F_INLINE) {
		if (op == WREN_WQE_RDMA_READ)
			return -EINVAL;
		nds = wren_ib_build_inline(qp, ds, wr);
		if (nds < 0)
			return nds;
	} else {
		if (wr->num_sge < 0 || wr->num_sge > sq->max_sge)
			return -EINVAL;
		for (i = 0; i < wr->num_sge; i++)
			wren_ib_set_sge((struct wren_wqe_sge *)ds + i,
					&wr->sg_list[i]);
		nds = wr->num_sge;
	}

	ctrl = wqe;
	ctrl->opcode = op;
	ctrl->flags = flags;
	ctrl->ds_count = nds;
	ctrl->rsvd0 = 0;
	ctrl->wqe_idx = cpu_to_le16((u16)sq->pi);
	ctrl->rsvd1 = 0;
	ctrl->inv_rkey = 0;
	ctrl->xrc_srqn = 0;
	if (op == WREN_WQE_SEND_IMM || op == WREN_WQE_RDMA_WRITE_IMM)
		ctrl->imm_data = wr->ex.imm_data;
	else if (op == WREN_WQE_SEND_INV || op == WREN_WQE_LOCAL_INV)
		ctrl->inv_rkey = cpu_to_le32(wr->ex.invalidate_rkey);
	sq->wrid[sq->pi & sq->mask] = wr->wr_id;
	sq->pi++;
	return 0;
}

int wren_ib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		      const struct ib_send_wr **bad_wr)
{
	struct wren_ib_dev *dev = to_wdev(ibqp->device);
	struct wren_ib_qp *qp = to_wqp(ibqp);
	u8 state = READ_ONCE(qp->state);
	unsigned long flags;
	bool dead, posted;
	int err = 0;
	u32 start;

	/* Sends need RTS, or a later state where they complete flushed
	 * (ib_drain_sq() posts one to a QP in ERR).  A user QP's rings are
	 * the provider's: the uverbs post commands cannot use them.
	 */
	if (!qp->kernel) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	if (state == IB_QPS_RESET || state == IB_QPS_INIT ||
	    state == IB_QPS_RTR) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->sq.lock, flags);
	start = qp->sq.pi;
	for (; wr; wr = wr->next) {
		err = wren_ib_build_send(qp, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	dead = READ_ONCE(dev->dead);
	posted = qp->sq.pi != start;
	/* writeq() orders the WQE writes before the doorbell. */
	if (posted && !dead)
		writeq(WREN_DB_VAL(qp->qpn, 0, qp->sq.pi), dev->kdb + WREN_DB_SQ);
	spin_unlock_irqrestore(&qp->sq.lock, flags);
	/* Outside the SQ's lock, which the flushing poller takes. */
	if (posted && dead)
		wren_ib_kick_cq(dev, to_wcq(ibqp->send_cq));
	return err;
}

/* A receive WQE of an RQ or SRQ, @idx its free-running index; SGEs checked. */
void wren_ib_write_rqe(void *slot, u32 idx, const struct ib_recv_wr *wr)
{
	struct wren_rqe *rqe = slot;
	struct wren_wqe_sge *sge = (struct wren_wqe_sge *)(rqe + 1);
	int i;

	for (i = 0; i < wr->num_sge; i++)
		wren_ib_set_sge(&sge[i], &wr->sg_list[i]);
	memset(rqe, 0, sizeof(*rqe));
	rqe->ds_count = wr->num_sge;
	rqe->wqe_idx = cpu_to_le16((u16)idx);
}

static int wren_ib_build_recv(struct wren_ib_kwq *rq, const struct ib_recv_wr *wr)
{
	/* Pairs with the poller's smp_store_release() of the tail. */
	if (rq->pi - smp_load_acquire(&rq->tail) > rq->mask)
		return -ENOMEM;
	if (wr->num_sge < 0 || wr->num_sge > rq->max_sge)
		return -EINVAL;
	wren_ib_write_rqe(rq->base + ((size_t)(rq->pi & rq->mask) << rq->wqe_shift),
			  rq->pi, wr);
	rq->wrid[rq->pi & rq->mask] = wr->wr_id;
	rq->pi++;
	return 0;
}

int wren_ib_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct wren_ib_dev *dev = to_wdev(ibqp->device);
	struct wren_ib_qp *qp = to_wqp(ibqp);
	u8 state = READ_ONCE(qp->state);
	unsigned long flags;
	bool dead, posted;
	int err = 0;
	u32 start;

	if (!qp->kernel) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	/* A QP on an SRQ has no RQ of its own: receives go to the SRQ. */
	if (state == IB_QPS_RESET || ibqp->srq) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq.lock, flags);
	start = qp->rq.pi;
	for (; wr; wr = wr->next) {
		err = wren_ib_build_recv(&qp->rq, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	dead = READ_ONCE(dev->dead);
	posted = qp->rq.pi != start;
	if (posted && !dead) {
		/* RQEs in memory before the producer index that covers them. */
		dma_wmb();
		WRITE_ONCE(*qp->kring.dbrec, cpu_to_le32(qp->rq.pi));
		/*
		 * A QP in ERR flushes new receives on its own within 10 ms;
		 * the SQ doorbell with the unchanged index makes it do so at
		 * once (ib_drain_rq() waits for that flush).
		 */
		if (state == IB_QPS_ERR) {
			/* Both locks are of wren_ib_kwq_init()'s class:
			 * the RQ's is taken first, always.
			 */
			spin_lock_nested(&qp->sq.lock, SINGLE_DEPTH_NESTING);
			writeq(WREN_DB_VAL(qp->qpn, 0, qp->sq.pi),
			       dev->kdb + WREN_DB_SQ);
			spin_unlock(&qp->sq.lock);
		}
	}
	spin_unlock_irqrestore(&qp->rq.lock, flags);
	if (posted && dead)
		wren_ib_kick_cq(dev, to_wcq(ibqp->recv_cq));
	return err;
}
