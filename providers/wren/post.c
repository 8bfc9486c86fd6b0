// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The data path's posting side: ibv_post_send, ibv_post_recv,
 * ibv_post_srq_recv and the extended ibv_wr_* API.  WQEs are written into
 * the rings in host memory in the contract's format; a send batch ends
 * with one doorbell (a 64-bit MMIO write to the context's page), a receive
 * batch with the producer index in the doorbell record.  No syscalls.
 */
#include <errno.h>
#include <string.h>

#include <util/mmio.h>
#include <linux/wren/wren_regs.h>

#include "wren.h"

static uint8_t wren_wr_opcode(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND:
		return WREN_WQE_SEND;
	case IBV_WR_SEND_WITH_IMM:
		return WREN_WQE_SEND_IMM;
	case IBV_WR_SEND_WITH_INV:
		return WREN_WQE_SEND_INV;
	case IBV_WR_RDMA_WRITE:
		return WREN_WQE_RDMA_WRITE;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return WREN_WQE_RDMA_WRITE_IMM;
	case IBV_WR_RDMA_READ:
		return WREN_WQE_RDMA_READ;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return WREN_WQE_ATOMIC_CMP_SWP;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return WREN_WQE_ATOMIC_FETCH_ADD;
	case IBV_WR_LOCAL_INV:
		return WREN_WQE_LOCAL_INV;
	case IBV_WR_BIND_MW:
		return WREN_WQE_BIND_MW;
	default:
		return 0xff;
	}
}

static bool wren_opcode_ok(const struct wren_qp *qp, uint8_t op)
{
	/* An XRC initiator is an RC requester that binds no windows. */
	if (qp->xrc_send && op == WREN_WQE_BIND_MW)
		return false;
	if (qp->ud)
		return op == WREN_WQE_SEND || op == WREN_WQE_SEND_IMM;
	if (qp->uc)
		return op == WREN_WQE_SEND || op == WREN_WQE_SEND_IMM ||
		       op == WREN_WQE_RDMA_WRITE ||
		       op == WREN_WQE_RDMA_WRITE_IMM ||
		       op == WREN_WQE_LOCAL_INV || op == WREN_WQE_BIND_MW;
	return op != 0xff && op != WREN_WQE_NOP && op != WREN_WQE_REG_MR;
}

static bool wren_opcode_inline_ok(uint8_t op)
{
	switch (op) {
	case WREN_WQE_SEND:
	case WREN_WQE_SEND_IMM:
	case WREN_WQE_SEND_INV:
	case WREN_WQE_RDMA_WRITE:
	case WREN_WQE_RDMA_WRITE_IMM:
		return true;
	default:
		return false;
	}
}

static uint8_t wren_send_flags(const struct wren_qp *qp, unsigned int flags)
{
	uint8_t f = 0;

	if ((flags & IBV_SEND_SIGNALED) || qp->sq_sig_all)
		f |= WREN_WQE_F_SIGNALED;
	if (flags & IBV_SEND_FENCE)
		f |= WREN_WQE_F_FENCE;
	if (flags & IBV_SEND_SOLICITED)
		f |= WREN_WQE_F_SOLICITED;
	if (flags & IBV_SEND_INLINE)
		f |= WREN_WQE_F_INLINE;
	return f;
}

static bool wren_sq_full(struct wren_qp *qp)
{
	uint32_t tail = __atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE);

	return qp->sq.pi - tail >= qp->sq.entries;
}

/* No data segments: the contract refuses any (WREN_VERR_SQ_STRIDE). */
static bool wren_wqe_no_ds(uint8_t op)
{
	return op == WREN_WQE_LOCAL_INV || op == WREN_WQE_BIND_MW ||
	       wren_wqe_is_iba15(op);
}

/*
 * A window's rights: the remote ones only.  Anything else a caller names
 * (pyverbs' tests pass IBV_ACCESS_LOCAL_WRITE, which mlx5 ignores too) is
 * dropped; IBV_ACCESS_ZERO_BASED is refused by the caller.
 */
static uint32_t wren_mw_access(unsigned int flags)
{
	uint32_t a = 0;

	if (flags & IBV_ACCESS_REMOTE_WRITE)
		a |= WREN_ACCESS_REMOTE_WRITE;
	if (flags & IBV_ACCESS_REMOTE_READ)
		a |= WREN_ACCESS_REMOTE_READ;
	if (flags & IBV_ACCESS_REMOTE_ATOMIC)
		a |= WREN_ACCESS_REMOTE_ATOMIC;
	return a;
}

/*
 * Encode a BIND_MW of @mw with the new key @rkey; 0 or EINVAL.  The WQE
 * names the window by the key's index alone, so @rkey must keep @mw's
 * index (ibv_inc_rkey() does) and change only the tag.  No MR (unbinding a
 * type 1 window) means no range.  Windows on zero-based MRs are not
 * supported.  What only the device knows - the MR's rights and range, the
 * PDs, the window's state - it checks and reports as IBV_WC_MW_BIND_ERR.
 */
static int wren_bind_mw_build(struct wren_wqe_bind_mw *b, struct ibv_mw *mw,
			      uint32_t rkey,
			      const struct ibv_mw_bind_info *bi)
{
	struct ibv_mr *mr = bi->mr;

	if (unlikely(!mw || (mw->type != IBV_MW_TYPE_1 &&
			     mw->type != IBV_MW_TYPE_2)))
		return EINVAL;
	if (unlikely((rkey >> 8) != (mw->rkey >> 8)))
		return EINVAL;
	if (unlikely(bi->mw_access_flags & IBV_ACCESS_ZERO_BASED))
		return EINVAL;
	if (!mr) {
		if (unlikely(bi->addr || bi->length))
			return EINVAL;
	} else if (unlikely(verbs_get_mr(mr)->access & IBV_ACCESS_ZERO_BASED)) {
		return EINVAL;
	}
	wren_wqe_bind_mw_set(b, rkey, mr ? mr->lkey : 0, mr ? bi->addr : 0,
			     mr ? bi->length : 0,
			     wren_mw_access(bi->mw_access_flags),
			     mw->type == IBV_MW_TYPE_1 ? WREN_MW_TYPE_1 :
							 WREN_MW_TYPE_2);
	return 0;
}

/*
 * Fill the fixed segments of the WQE at the SQ's producer index and return
 * where its data segments start.
 */
static uint8_t *wren_build_fixed(struct wren_qp *qp, uint8_t *wqe,
				 uint8_t op, const struct ibv_send_wr *wr)
{
	uint8_t *p = wqe + WREN_CTRL_SIZE;

	switch (op) {
	case WREN_WQE_RDMA_WRITE:
	case WREN_WQE_RDMA_WRITE_IMM:
	case WREN_WQE_RDMA_READ:
		wren_wqe_raddr_set((struct wren_wqe_raddr *)p,
				   wr->wr.rdma.remote_addr, wr->wr.rdma.rkey);
		p += sizeof(struct wren_wqe_raddr);
		break;
	case WREN_WQE_ATOMIC_CMP_SWP:
	case WREN_WQE_ATOMIC_FETCH_ADD:
		wren_wqe_raddr_set((struct wren_wqe_raddr *)p,
				   wr->wr.atomic.remote_addr,
				   wr->wr.atomic.rkey);
		p += sizeof(struct wren_wqe_raddr);
		wren_wqe_atomic_set((struct wren_wqe_atomic *)p,
				    op == WREN_WQE_ATOMIC_CMP_SWP ?
					    wr->wr.atomic.swap :
					    wr->wr.atomic.compare_add,
				    op == WREN_WQE_ATOMIC_CMP_SWP ?
					    wr->wr.atomic.compare_add : 0);
		p += sizeof(struct wren_wqe_atomic);
		break;
	case WREN_WQE_LOCAL_INV:
		break;
	case WREN_WQE_BIND_MW:
		/* Encoded, and checked, by wren_build_send(). */
		p += sizeof(struct wren_wqe_bind_mw);
		break;
	default:
		if (qp->ud) {
			wren_wqe_ud_set((struct wren_wqe_ud *)p,
					to_wren_ah(wr->wr.ud.ah)->handle,
					wr->wr.ud.remote_qpn,
					wr->wr.ud.remote_qkey);
			p += sizeof(struct wren_wqe_ud);
		}
		break;
	}
	return p;
}

/* Write one WR as a WQE at the producer index; 0 or an errno. */
static int wren_build_send(struct wren_qp *qp, const struct ibv_send_wr *wr)
{
	uint8_t op = wren_wr_opcode(wr->opcode);
	uint8_t flags = wren_send_flags(qp, wr->send_flags);
	uint8_t *wqe, *ds;
	int nds, i;

	if (unlikely(!wren_opcode_ok(qp, op)))
		return EINVAL;
	if (unlikely(wren_sq_full(qp)))
		return ENOMEM;
	if (unlikely(qp->ud && !wr->wr.ud.ah))
		return EINVAL;

	wqe = wren_wq_slot(&qp->sq, qp->sq.pi);
	if (op == WREN_WQE_BIND_MW &&
	    unlikely(wren_bind_mw_build((struct wren_wqe_bind_mw *)
					(wqe + WREN_CTRL_SIZE),
					wr->bind_mw.mw, wr->bind_mw.rkey,
					&wr->bind_mw.bind_info)))
		return EINVAL;
	ds = wren_build_fixed(qp, wqe, op, wr);

	if (wren_wqe_no_ds(op)) {
		nds = 0;
		flags &= ~WREN_WQE_F_INLINE;
	} else if (wren_wqe_is_atomic(op)) {
		/* One 8-byte SGE for the original value. */
		if (unlikely(wr->num_sge != 1 ||
			     wr->sg_list[0].length != WREN_ATOMIC_LEN ||
			     (flags & WREN_WQE_F_INLINE)))
			return EINVAL;
		wren_sge_set((struct wren_wqe_sge *)ds, wr->sg_list[0].addr, 8,
			     wr->sg_list[0].lkey);
		nds = 1;
	} else if (flags & WREN_WQE_F_INLINE) {
		struct wren_inline_buf bufs[qp->sq.max_sge];

		if (unlikely(!wren_opcode_inline_ok(op) || wr->num_sge < 0 ||
			     (uint32_t)wr->num_sge > qp->sq.max_sge))
			return EINVAL;
		for (i = 0; i < wr->num_sge; i++) {
			bufs[i].addr = (void *)(uintptr_t)wr->sg_list[i].addr;
			bufs[i].length = wr->sg_list[i].length;
		}
		nds = wren_inline_write(ds, bufs, wr->num_sge, qp->max_inline);
		if (unlikely(nds < 0))
			return EINVAL;
	} else {
		if (unlikely(wr->num_sge < 0 ||
			     (uint32_t)wr->num_sge > qp->sq.max_sge))
			return EINVAL;
		for (i = 0; i < wr->num_sge; i++)
			wren_sge_set((struct wren_wqe_sge *)ds + i,
				     wr->sg_list[i].addr, wr->sg_list[i].length,
				     wr->sg_list[i].lkey);
		nds = wr->num_sge;
	}

	/* The control segment once ds_count is known. */
	wren_wqe_ctrl_set((struct wren_wqe_ctrl *)wqe, op, flags, nds,
			  qp->sq.pi);
	if (op == WREN_WQE_SEND_IMM || op == WREN_WQE_RDMA_WRITE_IMM)
		wren_wqe_ctrl_set_imm((struct wren_wqe_ctrl *)wqe, wr->imm_data);
	else if (op == WREN_WQE_SEND_INV || op == WREN_WQE_LOCAL_INV)
		wren_wqe_ctrl_set_inv((struct wren_wqe_ctrl *)wqe,
				      wr->invalidate_rkey);
	if (qp->xrc_send)
		wren_wqe_ctrl_set_xrc_srqn((struct wren_wqe_ctrl *)wqe,
					   wr->qp_type.xrc.remote_srqn);
	qp->sq.wrid[qp->sq.pi & (qp->sq.entries - 1)] = wr->wr_id;
	qp->sq.pi++;
	return 0;
}

static void wren_sq_doorbell(struct wren_qp *qp)
{
	struct wren_context *ctx = to_wren_ctx(qp->verbs_qp.qp.context);

	/* WQEs in memory before the NIC hears of them. */
	udma_to_device_barrier();
	wren_ring_db(ctx, WREN_DB_SQ, WREN_DB_VAL(qp->qpn, 0, qp->sq.pi));
}

/* Sends need RTS (or a later state, where they complete flushed). */
static bool wren_sq_open(const struct ibv_qp *ibqp)
{
	return ibqp->state != IBV_QPS_RESET && ibqp->state != IBV_QPS_INIT &&
	       ibqp->state != IBV_QPS_RTR;
}

int wren_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		   struct ibv_send_wr **bad_wr)
{
	struct wren_qp *qp = to_wren_qp(ibqp);
	uint32_t start;
	int ret = 0;

	/* Not in RTS yet, or no SQ at all (an XRC target). */
	if (unlikely(!wren_sq_open(ibqp) || qp->xrc_recv)) {
		*bad_wr = wr;
		return EINVAL;
	}
	wren_wq_lock(&qp->sq);
	start = qp->sq.pi;
	for (; wr; wr = wr->next) {
		ret = wren_build_send(qp, wr);
		if (unlikely(ret)) {
			*bad_wr = wr;
			break;
		}
	}
	if (qp->sq.pi != start)
		wren_sq_doorbell(qp);
	wren_wq_unlock(&qp->sq);
	return ret;
}

/*
 * ibv_bind_mw(): bind, or with no MR unbind, a type 1 window through @ibqp's
 * send queue.  libibverbs has checked the window's type, that a range
 * comes with an MR and that the MR is of the window's PD.  The WQE carries
 * the next key (ibv_inc_rkey), which is the window's from a successful
 * post on, as rdma-core has it; the completion (IBV_WC_BIND_MW, or
 * IBV_WC_MW_BIND_ERR) follows mw_bind->send_flags like any send's.
 */
int wren_bind_mw(struct ibv_qp *ibqp, struct ibv_mw *mw,
		 struct ibv_mw_bind *mw_bind)
{
	struct wren_qp *qp = to_wren_qp(ibqp);
	struct ibv_send_wr wr = {}, *bad_wr;
	int ret;

	/*
	 * RC and UC only (wren_opcode_ok() would refuse UD and the XRC
	 * initiator as well; post_send refuses an XRC target, with no SQ).
	 */
	if (qp->ud || qp->xrc_send || mw->type != IBV_MW_TYPE_1)
		return EINVAL;
	wr.wr_id = mw_bind->wr_id;
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = mw_bind->send_flags;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = mw_bind->bind_info;
	ret = wren_post_send(ibqp, &wr, &bad_wr);
	if (ret)
		return ret;
	mw->rkey = wr.bind_mw.rkey;
	return 0;
}

/* ----------------------------------------------------------- receives */

static int wren_build_recv(struct wren_wq *wq, const struct ibv_recv_wr *wr,
			   uint32_t idx)
{
	struct wren_wqe_sge *sge;
	uint8_t *rqe;
	int i;

	if (unlikely(wr->num_sge < 0 || (uint32_t)wr->num_sge > wq->max_sge))
		return EINVAL;
	rqe = wren_wq_slot(wq, idx);
	sge = (struct wren_wqe_sge *)(rqe + WREN_RQE_HDR_SIZE);
	for (i = 0; i < wr->num_sge; i++)
		wren_sge_set(&sge[i], wr->sg_list[i].addr, wr->sg_list[i].length,
			     wr->sg_list[i].lkey);
	wren_rqe_set((struct wren_rqe *)rqe, wr->num_sge, idx);
	wq->wrid[idx & (wq->entries - 1)] = wr->wr_id;
	return 0;
}

int wren_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		   struct ibv_recv_wr **bad_wr)
{
	struct wren_qp *qp = to_wren_qp(ibqp);
	struct wren_wq *rq = &qp->rq;
	uint32_t start;
	int ret = 0;

	/* No RQ (the QP receives through its SRQ), or a QP in RESET. */
	if (unlikely(!rq->wrid || ibqp->state == IBV_QPS_RESET)) {
		*bad_wr = wr;
		return EINVAL;
	}
	wren_wq_lock(rq);
	start = rq->pi;
	for (; wr; wr = wr->next) {
		uint32_t tail = __atomic_load_n(&rq->tail, __ATOMIC_ACQUIRE);

		if (unlikely(rq->pi - tail >= rq->entries))
			ret = ENOMEM;
		else
			ret = wren_build_recv(rq, wr, rq->pi);
		if (unlikely(ret)) {
			*bad_wr = wr;
			break;
		}
		rq->pi++;
	}
	if (rq->pi != start) {
		/* RQEs in memory before the producer index that covers them. */
		udma_to_device_barrier();
		qp->dbrec->rq_pi = htole32(rq->pi);
	}
	wren_wq_unlock(rq);
	return ret;
}

/* The WQE at the producer index goes to the NIC with the next update. */
static void wren_srq_take(struct wren_srq *srq)
{
	srq->busy[srq->wq.pi & (srq->wq.entries - 1)] = 1;
	srq->wq.pi++;
}

/* Backlogged WQEs into the ring, oldest first, while the slot at pi is free. */
static void wren_srq_drain_backlog(struct wren_srq *srq)
{
	struct wren_wq *wq = &srq->wq;
	uint32_t slot;

	for (;;) {
		slot = wq->pi & (wq->entries - 1);
		if (wq->pi == srq->spi || srq->busy[slot])
			break;
		/* A WQE's index is its position: it moves unchanged. */
		memcpy(wren_wq_slot(wq, wq->pi),
		       wren_wq_slot(&srq->backlog, wq->pi),
		       (size_t)1 << wq->wqe_shift);
		wq->wrid[slot] = srq->backlog.wrid[slot];
		wren_srq_take(srq);
	}
}

static void wren_srq_publish(struct wren_srq *srq)
{
	/* WQEs in memory before the producer index that covers them. */
	udma_to_device_barrier();
	srq->dbrec->pi = htole32(srq->wq.pi);
}

int wren_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad_wr)
{
	struct wren_srq *srq = to_wren_srq(ibsrq);
	struct wren_wq *wq = &srq->wq;
	uint32_t start;
	int ret = 0;

	pthread_spin_lock(&wq->lock);
	start = wq->pi;
	for (; wr; wr = wr->next) {
		bool direct = srq->spi == wq->pi &&
			      !srq->busy[srq->spi & (wq->entries - 1)];

		/*
		 * At most entries WQEs are outstanding, so the backlog's
		 * positions never share a slot with one still waiting.
		 */
		if (unlikely(srq->outstanding == wq->entries))
			ret = ENOMEM;
		else
			ret = wren_build_recv(direct ? wq : &srq->backlog, wr,
					      srq->spi);
		if (unlikely(ret)) {
			*bad_wr = wr;
			break;
		}
		if (direct)
			wren_srq_take(srq);
		srq->spi++;
		srq->outstanding++;
	}
	if (wq->pi != start)
		wren_srq_publish(srq);
	pthread_spin_unlock(&wq->lock);
	return ret;
}

/*
 * An SRQ WQE completed (or its completion was dropped): its wr_id, and
 * its slot is free again, for the backlog first.  A confused NIC's
 * completion of a free slot frees nothing.
 */
uint64_t wren_srq_complete(struct wren_srq *srq, uint16_t wqe_idx)
{
	struct wren_wq *wq = &srq->wq;
	uint32_t slot = wqe_idx & (wq->entries - 1), start;
	uint64_t wr_id;

	pthread_spin_lock(&wq->lock);
	wr_id = wq->wrid[slot];
	if (srq->busy[slot]) {
		srq->busy[slot] = 0;
		srq->outstanding--;
		start = wq->pi;
		wren_srq_drain_backlog(srq);
		if (wq->pi != start)
			wren_srq_publish(srq);
	}
	pthread_spin_unlock(&wq->lock);
	return wr_id;
}

/* ------------------------------------------------ ibv_qp_ex (ibv_wr_*) */

static void wren_wr_start(struct ibv_qp_ex *qpx)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);

	wren_wq_lock(&qp->sq);
	qp->session_pi = qp->sq.pi;
	/* As ibv_post_send: the session fails at wr_complete, posting nothing. */
	qp->session_err = wren_sq_open(&qp->verbs_qp.qp) ? 0 : EINVAL;
	qp->cur_ctrl = NULL;
}

/*
 * Start a WQE at the producer index; its data segments are filled by the
 * wr_set_* call that follows.  Errors are remembered for wr_complete.
 */
static uint8_t *wren_wr_begin(struct wren_qp *qp, uint8_t op)
{
	struct ibv_qp_ex *qpx = &qp->verbs_qp.qp_ex;
	struct wren_wqe_ctrl *ctrl;

	if (unlikely(qp->session_err))
		return NULL;
	if (unlikely(!wren_opcode_ok(qp, op) || wren_sq_full(qp))) {
		qp->session_err = wren_sq_full(qp) ? ENOMEM : EINVAL;
		qp->cur_ctrl = NULL;
		return NULL;
	}
	ctrl = wren_wq_slot(&qp->sq, qp->sq.pi);
	wren_wqe_ctrl_set(ctrl, op, wren_send_flags(qp, qpx->wr_flags) &
				    ~WREN_WQE_F_INLINE, 0, qp->sq.pi);
	qp->sq.wrid[qp->sq.pi & (qp->sq.entries - 1)] = qpx->wr_id;
	qp->sq.pi++;
	qp->cur_ctrl = ctrl;
	qp->cur_ds = (uint8_t *)ctrl + wren_sq_fixed_size(op, qp->ud);
	/* Fixed segments the caller may not set (UD address) read as 0. */
	memset(ctrl + 1, 0, qp->cur_ds - (uint8_t *)(ctrl + 1));
	return (uint8_t *)(ctrl + 1);
}

static void wren_wr_send(struct ibv_qp_ex *qpx)
{
	wren_wr_begin(to_wren_qp_ex(qpx), WREN_WQE_SEND);
}

static void wren_wr_send_imm(struct ibv_qp_ex *qpx, __be32 imm)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);

	if (wren_wr_begin(qp, WREN_WQE_SEND_IMM))
		wren_wqe_ctrl_set_imm(qp->cur_ctrl, imm);
}

static void wren_wr_send_inv(struct ibv_qp_ex *qpx, uint32_t rkey)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);

	if (wren_wr_begin(qp, WREN_WQE_SEND_INV))
		wren_wqe_ctrl_set_inv(qp->cur_ctrl, rkey);
}

static void wren_wr_local_inv(struct ibv_qp_ex *qpx, uint32_t rkey)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);

	if (wren_wr_begin(qp, WREN_WQE_LOCAL_INV))
		wren_wqe_ctrl_set_inv(qp->cur_ctrl, rkey);
}

static void wren_wr_bind_mw(struct ibv_qp_ex *qpx, struct ibv_mw *mw,
			    uint32_t rkey,
			    const struct ibv_mw_bind_info *bind_info)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);
	uint8_t *p = wren_wr_begin(qp, WREN_WQE_BIND_MW);

	if (p && unlikely(wren_bind_mw_build((struct wren_wqe_bind_mw *)p, mw,
					     rkey, bind_info)))
		qp->session_err = EINVAL;
}

/*
 * A WQE that starts with wren_wqe_raddr (RDMA, atomics, FLUSH, ATOMIC
 * WRITE).  Return: where the opcode's next fixed segment goes, or NULL if
 * the session has failed.
 */
static uint8_t *wren_wr_rdma(struct ibv_qp_ex *qpx, uint8_t op,
			     uint32_t rkey, uint64_t raddr)
{
	uint8_t *p = wren_wr_begin(to_wren_qp_ex(qpx), op);

	if (!p)
		return NULL;
	wren_wqe_raddr_set((struct wren_wqe_raddr *)p, raddr, rkey);
	return p + sizeof(struct wren_wqe_raddr);
}

static void wren_wr_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey,
			       uint64_t raddr)
{
	wren_wr_rdma(qpx, WREN_WQE_RDMA_WRITE, rkey, raddr);
}

static void wren_wr_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey,
				   uint64_t raddr, __be32 imm)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);

	wren_wr_rdma(qpx, WREN_WQE_RDMA_WRITE_IMM, rkey, raddr);
	if (qp->cur_ctrl)
		wren_wqe_ctrl_set_imm(qp->cur_ctrl, imm);
}

static void wren_wr_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey,
			      uint64_t raddr)
{
	wren_wr_rdma(qpx, WREN_WQE_RDMA_READ, rkey, raddr);
}

static void wren_wr_atomic(struct ibv_qp_ex *qpx, uint8_t op, uint32_t rkey,
			   uint64_t raddr, uint64_t swap_add, uint64_t compare)
{
	uint8_t *p = wren_wr_rdma(qpx, op, rkey, raddr);

	if (p)
		wren_wqe_atomic_set((struct wren_wqe_atomic *)p, swap_add,
				    compare);
}

static void wren_wr_atomic_cmp_swp(struct ibv_qp_ex *qpx, uint32_t rkey,
				   uint64_t raddr, uint64_t compare,
				   uint64_t swap)
{
	wren_wr_atomic(qpx, WREN_WQE_ATOMIC_CMP_SWP, rkey, raddr, swap, compare);
}

static void wren_wr_atomic_fetch_add(struct ibv_qp_ex *qpx, uint32_t rkey,
				     uint64_t raddr, uint64_t add)
{
	wren_wr_atomic(qpx, WREN_WQE_ATOMIC_FETCH_ADD, rkey, raddr, add, 0);
}

/*
 * IBA 1.5's FLUSH: the placement types and level are the wire's (and the
 * contract's) own values; the device checks them too (WREN_VERR_SQ_FLUSH)
 * but an unknown one fails here, at wr_complete, posting nothing.
 */
static void wren_wr_flush(struct ibv_qp_ex *qpx, uint32_t rkey,
			  uint64_t raddr, size_t len, uint8_t type,
			  uint8_t level)
{
	uint8_t *p = wren_wr_rdma(qpx, WREN_WQE_FLUSH, rkey, raddr);

	if (!p)
		return;
	if (unlikely(!type || (type & ~WREN_FLUSH_TYPES) ||
		     level > WREN_FLUSH_MR || len > UINT32_MAX)) {
		to_wren_qp_ex(qpx)->session_err = EINVAL;
		return;
	}
	wren_wqe_flush_set((struct wren_wqe_flush *)p, (uint32_t)len, type,
			   level);
}

static void wren_wr_atomic_write(struct ibv_qp_ex *qpx, uint32_t rkey,
				 uint64_t raddr, const void *atomic_wr)
{
	uint8_t *p = wren_wr_rdma(qpx, WREN_WQE_ATOMIC_WRITE, rkey, raddr);

	if (p)
		wren_wqe_atomic_write_set((struct wren_wqe_atomic_write *)p,
					  atomic_wr);
}

static void wren_wr_set_ud_addr(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
				uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);

	if (!qp->cur_ctrl || !qp->ud)
		return;
	if (unlikely(!ah)) {
		qp->session_err = EINVAL;
		return;
	}
	wren_wqe_ud_set((struct wren_wqe_ud *)(qp->cur_ctrl + 1),
			to_wren_ah(ah)->handle, remote_qpn, remote_qkey);
}

/* XRC initiators: the remote XRC SRQ of the WQE being built. */
static void wren_wr_set_xrc_srqn(struct ibv_qp_ex *qpx, uint32_t remote_srqn)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);

	if (qp->cur_ctrl)
		wren_wqe_ctrl_set_xrc_srqn(qp->cur_ctrl, remote_srqn);
}

static void wren_wr_set_sge_list(struct ibv_qp_ex *qpx, size_t n,
				 const struct ibv_sge *sg)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);
	struct wren_wqe_ctrl *ctrl = qp->cur_ctrl;
	size_t i;

	if (!ctrl)
		return;
	if (unlikely(wren_wqe_no_ds(ctrl->opcode))) {
		qp->session_err = EINVAL;
		return;
	}
	if (wren_wqe_is_atomic(ctrl->opcode)) {
		if (unlikely(n != 1 || sg[0].length != WREN_ATOMIC_LEN)) {
			qp->session_err = EINVAL;
			return;
		}
	} else if (unlikely(n > qp->sq.max_sge)) {
		qp->session_err = EINVAL;
		return;
	}
	for (i = 0; i < n; i++)
		wren_sge_set((struct wren_wqe_sge *)qp->cur_ds + i, sg[i].addr,
			     sg[i].length, sg[i].lkey);
	ctrl->ds_count = n;
}

static void wren_wr_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey,
			    uint64_t addr, uint32_t length)
{
	struct ibv_sge sge = { .addr = addr, .length = length, .lkey = lkey };

	wren_wr_set_sge_list(qpx, 1, &sge);
}

static void wren_wr_set_inline_data_list(struct ibv_qp_ex *qpx, size_t n,
					 const struct ibv_data_buf *buf)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);
	struct wren_wqe_ctrl *ctrl = qp->cur_ctrl;
	struct wren_inline_buf bufs[qp->sq.max_sge];
	size_t i;
	int nds;

	if (!ctrl)
		return;
	if (unlikely(!wren_opcode_inline_ok(ctrl->opcode) ||
		     n > qp->sq.max_sge)) {
		qp->session_err = EINVAL;
		return;
	}
	for (i = 0; i < n; i++) {
		bufs[i].addr = buf[i].addr;
		bufs[i].length = buf[i].length;
	}
	nds = wren_inline_write(qp->cur_ds, bufs, n, qp->max_inline);
	if (unlikely(nds < 0)) {
		qp->session_err = EINVAL;
		return;
	}
	ctrl->flags |= WREN_WQE_F_INLINE;
	ctrl->ds_count = nds;
}

static void wren_wr_set_inline_data(struct ibv_qp_ex *qpx, void *addr,
				    size_t length)
{
	struct ibv_data_buf buf = { .addr = addr, .length = length };

	wren_wr_set_inline_data_list(qpx, 1, &buf);
}

static int wren_wr_complete(struct ibv_qp_ex *qpx)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);
	int ret = qp->session_err;

	if (unlikely(ret)) {
		/* Nothing of a failed session reaches the NIC. */
		qp->sq.pi = qp->session_pi;
	} else if (qp->sq.pi != qp->session_pi) {
		wren_sq_doorbell(qp);
	}
	wren_wq_unlock(&qp->sq);
	return ret;
}

static void wren_wr_abort(struct ibv_qp_ex *qpx)
{
	struct wren_qp *qp = to_wren_qp_ex(qpx);

	qp->sq.pi = qp->session_pi;
	wren_wq_unlock(&qp->sq);
}

void wren_qp_fill_wr_ops(struct wren_qp *qp,
			 const struct ibv_qp_init_attr_ex *attr)
{
	struct ibv_qp_ex *qpx = &qp->verbs_qp.qp_ex;
	uint64_t ops = attr->send_ops_flags;

	qpx->wr_start = wren_wr_start;
	qpx->wr_complete = wren_wr_complete;
	qpx->wr_abort = wren_wr_abort;
	if (ops & IBV_QP_EX_WITH_SEND)
		qpx->wr_send = wren_wr_send;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_IMM)
		qpx->wr_send_imm = wren_wr_send_imm;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_INV)
		qpx->wr_send_inv = wren_wr_send_inv;
	if (ops & IBV_QP_EX_WITH_LOCAL_INV)
		qpx->wr_local_inv = wren_wr_local_inv;
	if (ops & IBV_QP_EX_WITH_BIND_MW)
		qpx->wr_bind_mw = wren_wr_bind_mw;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE)
		qpx->wr_rdma_write = wren_wr_rdma_write;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
		qpx->wr_rdma_write_imm = wren_wr_rdma_write_imm;
	if (ops & IBV_QP_EX_WITH_RDMA_READ)
		qpx->wr_rdma_read = wren_wr_rdma_read;
	if (ops & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP)
		qpx->wr_atomic_cmp_swp = wren_wr_atomic_cmp_swp;
	if (ops & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
		qpx->wr_atomic_fetch_add = wren_wr_atomic_fetch_add;
	if (ops & IBV_QP_EX_WITH_FLUSH)
		qpx->wr_flush = wren_wr_flush;
	if (ops & IBV_QP_EX_WITH_ATOMIC_WRITE)
		qpx->wr_atomic_write = wren_wr_atomic_write;
	qpx->wr_set_sge = wren_wr_set_sge;
	qpx->wr_set_sge_list = wren_wr_set_sge_list;
	qpx->wr_set_inline_data = wren_wr_set_inline_data;
	qpx->wr_set_inline_data_list = wren_wr_set_inline_data_list;
	if (qp->ud)
		qpx->wr_set_ud_addr = wren_wr_set_ud_addr;
	if (qp->xrc_send)
		qpx->wr_set_xrc_srqn = wren_wr_set_xrc_srqn;
}
