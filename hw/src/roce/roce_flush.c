// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A QP going to ERR: every posted send and receive completes with
 * WR_FLUSH_ERR and the engine drops what it was doing.  Any part of the
 * engine may find the error, so this sits below them all.
 */

#include "../core/whw_events.h"
#include "../core/whw_ring.h"
#include "../core/whw_services.h"
#include "../core/whw_timer.h"
#include "../whw_board.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

/*
 * The receive WQE of a message cut short completes flushed; an XRC
 * target's to the SRQ it came from, if that still exists.
 */
void whw_roce_flush_rwqe(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	struct whw_srq *srq;

	if (qp->type != WREN_QPT_XRC_TGT || qp->srq) {
		whw_roce_recv_error(hw, qp, WREN_CQE_WR_FLUSH_ERR, 0, 0);
		return;
	}
	srq = whw_xrc_srq(hw, qp, r->xrc_srqn, &r->xrc_gen);
	if (!srq) {
		r->in_send = false;	/* lost with its SRQ */
		return;
	}
	whw_xrc_bind(qp, srq);
	whw_roce_recv_error(hw, qp, WREN_CQE_WR_FLUSH_ERR, 0, 0);
	whw_xrc_unbind(qp);
}

static uint8_t sq_opcode(struct wrenhw *hw, struct whw_qp *qp, uint32_t idx)
{
	uint64_t off = (uint64_t)(idx & ((1u << qp->sq_log_size) - 1))
		       << qp->sq_wqe_shift;
	uint8_t op = 0;

	/* Only for the CQE's opcode: a ring read that fails leaves 0. */
	if (hw->ops->dma_read(hw->opaque, whw_ring_addr(&qp->buf, off), &op, 1))
		op = 0;
	return op;
}

void whw_roce_flush(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t n = qp->sq_pi - qp->sq_ci;

	whw_timer_del(hw, &r->ack_timer);
	whw_timer_del(hw, &r->rnr_timer);
	r->rnr_wait = false;
	if (n > (1u << qp->sq_log_size))
		n = 0;	/* a doorbell beyond the ring never counted */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t idx = qp->sq_ci + i;
		uint8_t op;

		if (r->sw && idx - qp->sq_ci < r->sq_fetch - qp->sq_ci)
			op = whw_swqe(r, idx)->opcode;
		else
			op = sq_opcode(hw, qp, idx);
		whw_roce_send_cqe(hw, qp, idx, op, WREN_CQE_WR_FLUSH_ERR, 0, 0);
	}
	qp->sq_ci = qp->sq_pi;
	r->sq_fetch = qp->sq_pi;
	r->tx_idx = qp->sq_pi;
	r->rd_out = 0;
	if (r->in_send)
		whw_roce_flush_rwqe(hw, qp);
	r->in_write = false;
	r->ack_pending = false;
	for (uint32_t i = 0; i < WHW_MAX_RD_ATOM; i++)
		r->res[i].valid = false;
	whw_rq_flush(hw, qp);
}

void whw_roce_qp_error(struct wrenhw *hw, struct whw_qp *qp)
{
	uint8_t cur = qp->state;

	if (cur == WREN_QPS_RESET)
		return;
	qp->state = WREN_QPS_ERR;
	whw_roce_flush(hw, qp);
	if (cur != WREN_QPS_ERR && qp->srq && qp->type != WREN_QPT_XRC_TGT)
		whw_aeq_post(hw, WREN_EVENT_QP_LAST_WQE, 0, qp->hdr.id, 0);
	/* Receives need no doorbell: look for new ones now and then. */
	if (!qp->srq && qp->rq_log_size && !qp->roce->flush_timer.pending)
		whw_timer_add(hw, &qp->roce->flush_timer,
			      whw_now(hw) + WHW_RQ_FLUSH_NS);
}
