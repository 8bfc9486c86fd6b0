// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The completer: what comes back to an RC requester.  An ACK for PSN p
 * completes every WQE whose packets all lie at or before p (an ACK or
 * NAK also implies every earlier PSN); READ responses are scattered into
 * the READ's local buffers in PSN order, atomic ACKs deliver the
 * original value and an empty READ response completes a FLUSH or ATOMIC
 * WRITE; each of them moves the requester's send window on.  A READ or atomic that a later ACK passes lost its
 * response: implied NAK, go back.  NAKs: PSN sequence error (go back to
 * the PSN, costing a retry), RNR (wait the timer the responder asked
 * for, rnr_retry times, 7 = for ever), invalid request / remote access /
 * remote operational error (the WQE fails, the QP goes to ERR).  No
 * progress for 4.096 us * 2^timeout: go back to the oldest unacknowledged
 * PSN, retry_cnt times, then RETRY_EXC_ERR.  Completions are written in
 * SQ order; an unsignalled WQE is covered by the next CQE.
 */
#include <string.h>

#include "../core/whw_events.h"
#include "../core/whw_services.h"
#include "../core/whw_timer.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

/* rnr_retry timer codes (IBTA table 45), in microseconds. */
static const uint32_t rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

static void wqe_done(struct whw_roce_qp *r, struct whw_swqe *w, uint8_t status,
		     uint8_t vendor)
{
	if (w->done)
		return;
	w->done = true;
	w->status = status;
	w->vendor = vendor;
	if (wren_wqe_is_rd_atomic(w->opcode) && r->rd_out)
		r->rd_out--;
}

/* The oldest started WQE not yet done, or NULL. */
static struct whw_swqe *oldest(struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;

	for (uint32_t i = qp->sq_ci; r->sw && i != r->sq_fetch; i++) {
		struct whw_swqe *w = whw_swqe(r, i);

		if (!w->done)
			return w;
	}
	return NULL;
}

/* The started WQE whose PSNs hold @psn. */
static struct whw_swqe *wqe_of(struct whw_qp *qp, uint32_t psn)
{
	struct whw_roce_qp *r = qp->roce;

	for (uint32_t i = qp->sq_ci; r->sw && i != r->sq_fetch; i++) {
		struct whw_swqe *w = whw_swqe(r, i);
		int32_t d = whw_psn_diff(psn, w->first_psn);

		if (w->npkts && d >= 0 && (uint32_t)d < w->npkts)
			return w;
	}
	return NULL;
}

void whw_comp_retire(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	bool sig_all = qp->flags & WREN_QP_F_SQ_SIG_ALL;

	while (r->sw && qp->sq_ci != r->sq_fetch) {
		struct whw_swqe *w = whw_swqe(r, qp->sq_ci);

		if (!w->done)
			break;
		if (w->status) {
			whw_roce_send_cqe(hw, qp, w->idx, w->opcode, w->status,
					  w->vendor, 0);
			qp->sq_ci++;
			whw_roce_qp_error(hw, qp);
			return;
		}
		if (sig_all || (w->flags & WREN_WQE_F_SIGNALED))
			whw_roce_send_cqe(hw, qp, w->idx, w->opcode, 0, 0,
					  w->opcode == WREN_WQE_RDMA_READ ?
					  w->len : 0);
		qp->sq_ci++;
	}
	/*
	 * The send cursor may still name a WQE that was fully sent when the
	 * budget ran out and has now retired; its slot of the window is the
	 * next start's, 64 WQEs on, whose packets would leave out of turn.
	 */
	if (r->sw && (int32_t)(r->tx_idx - qp->sq_ci) < 0)
		r->tx_idx = qp->sq_ci;
	if (r->drain_notify && qp->state == WREN_QPS_SQD &&
	    qp->sq_ci == r->sq_fetch) {
		r->drain_notify = false;
		whw_aeq_post(hw, WREN_EVENT_QP_SQ_DRAINED, 0, qp->hdr.id, 0);
	}
}

static uint64_t timeout_ns(const struct whw_qp *qp)
{
	return qp->attr.timeout ? 4096ull << qp->attr.timeout : 0;
}

void whw_comp_timer_update(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	bool outstanding = wren_qpt_reliable(qp->type) && oldest(qp) &&
			   (qp->state == WREN_QPS_RTS ||
			    qp->state == WREN_QPS_SQD);

	if (!outstanding || r->rnr_wait || !timeout_ns(qp)) {
		whw_timer_del(hw, &r->ack_timer);
		return;
	}
	if (!r->ack_timer.pending)
		whw_timer_add(hw, &r->ack_timer, whw_now(hw) + timeout_ns(qp));
}

/* Something was acknowledged: the retry budgets and the timer restart. */
static void progress(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;

	r->retry_left = qp->attr.retry_cnt;
	r->rnr_left = qp->attr.rnr_retry;
	r->rewind_pending = false;
	whw_timer_del(hw, &r->ack_timer);
}

/*
 * Go back to @psn for an implied NAK (a later ACK or READ response showed
 * a response missing) - once: the packets already on their way would
 * each imply the same loss again, and a storm of re-requests follows.
 */
static void implied_nak(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn)
{
	struct whw_roce_qp *r = qp->roce;

	hw->cnt_rdma[WREN_RDMA_CNT_IMPLIED_NAK_SEQ_ERR]++;
	if (r->rewind_pending && r->rewind_psn == psn)
		return;
	r->rewind_pending = true;
	r->rewind_psn = psn;
	whw_req_retransmit(hw, qp, psn);
}

/*
 * Everything strictly before @psn is acknowledged.  Returns false when a
 * READ or atomic there has not had its response: an implied NAK, the
 * requester went back to it.
 */
static bool ack_before(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn)
{
	struct whw_roce_qp *r = qp->roce;
	bool moved = false;

	for (uint32_t i = qp->sq_ci; r->sw && i != r->sq_fetch; i++) {
		struct whw_swqe *w = whw_swqe(r, i);
		int32_t d = whw_psn_diff(psn, w->first_psn);

		if (w->done || !w->npkts)
			continue;
		if (d <= 0)
			break;
		if (wren_wqe_is_rd_atomic(w->opcode) && (uint32_t)d < w->npkts)
			break;	/* a response of this READ itself */
		if (wren_wqe_is_rd_atomic(w->opcode)) {
			/* Its response never came, yet later PSNs were ACKed. */
			if (moved)
				progress(hw, qp);
			implied_nak(hw, qp, whw_psn_add(w->first_psn, w->acked));
			return false;
		}
		if ((uint32_t)d >= w->npkts) {
			wqe_done(r, w, 0, 0);
			moved = true;
		} else {
			if ((uint32_t)d > w->acked) {
				w->acked = (uint32_t)d;
				moved = true;
			}
			break;
		}
	}
	if (moved)
		progress(hw, qp);
	return true;
}

/* The WQE holding @psn (else the oldest) fails with @status. */
static void fail_at(struct whw_qp *qp, uint32_t psn, uint8_t status,
		    uint8_t vendor)
{
	struct whw_swqe *w = wqe_of(qp, psn);

	if (!w)
		w = oldest(qp);
	if (w)
		wqe_done(qp->roce, w, status, vendor);
}

static void rx_nak(struct wrenhw *hw, struct whw_qp *qp,
		   const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint8_t syn = p->syndrome;

	if (!ack_before(hw, qp, p->psn))
		return;
	if ((syn & 0xe0) == WHW_AETH_RNR) {
		hw->cnt_rdma[WREN_RDMA_CNT_RNR_NAK_RECEIVED]++;
		if (!r->rnr_left) {
			hw->cnt_rdma[WREN_RDMA_CNT_RNR_RETRY_EXCEEDED]++;
			fail_at(qp, p->psn, WREN_CQE_RNR_RETRY_EXC_ERR, 0);
			return;
		}
		if (qp->attr.rnr_retry != 7)
			r->rnr_left--;
		r->rnr_wait = true;
		r->rnr_psn_pending = p->psn;
		whw_timer_del(hw, &r->ack_timer);
		whw_timer_add(hw, &r->rnr_timer,
			      whw_now(hw) + rnr_us[syn & 0x1f] * 1000ull);
		return;
	}
	switch (syn) {
	case WHW_AETH_NAK_SEQ:
		hw->cnt_rdma[WREN_RDMA_CNT_PACKET_SEQ_ERR]++;
		if (!r->retry_left) {
			fail_at(qp, p->psn, WREN_CQE_RETRY_EXC_ERR, 0);
			return;
		}
		r->retry_left--;
		whw_timer_del(hw, &r->ack_timer);
		whw_req_retransmit(hw, qp, p->psn);
		return;
	case WHW_AETH_NAK_INV:
		hw->cnt_rdma[WREN_RDMA_CNT_REQ_REMOTE_INVALID_REQUEST]++;
		fail_at(qp, p->psn, WREN_CQE_REM_INV_REQ_ERR, 0);
		return;
	case WHW_AETH_NAK_ACC:
		hw->cnt_rdma[WREN_RDMA_CNT_REQ_REMOTE_ACCESS_ERRORS]++;
		fail_at(qp, p->psn, WREN_CQE_REM_ACCESS_ERR, 0);
		return;
	case WHW_AETH_NAK_OP:
		fail_at(qp, p->psn, WREN_CQE_REM_OP_ERR, 0);
		return;
	default:
		fail_at(qp, p->psn, WREN_CQE_BAD_RESP_ERR, WREN_VERR_BAD_RESP);
		return;
	}
}

/*
 * FLUSH and ATOMIC WRITE are answered by an RDMA READ response ONLY of no
 * payload at their PSN; anything else there is a response we cannot take.
 */
static void rx_empty_resp(struct wrenhw *hw, struct whw_qp *qp,
			  struct whw_swqe *w, const struct whw_pkt *p)
{
	if (p->psn != w->first_psn)
		return;		/* stale: not this WQE's response */
	progress(hw, qp);
	if (p->op != WHW_OP_READ_RESP_ONLY || p->paylen)
		wqe_done(qp->roce, w, WREN_CQE_BAD_RESP_ERR, WREN_VERR_BAD_RESP);
	else
		wqe_done(qp->roce, w, 0, 0);
}

static void rx_read_resp(struct wrenhw *hw, struct whw_qp *qp,
			 const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t mtu = whw_roce_pmtu(hw, qp);
	struct whw_swqe *w;
	uint32_t i, want;
	enum whw_mem_err e;
	int32_t d;
	bool ok;

	if (!ack_before(hw, qp, p->psn))
		return;
	w = oldest(qp);
	if (w && wren_wqe_is_iba15(w->opcode)) {
		rx_empty_resp(hw, qp, w, p);
		return;
	}
	if (!w || w->opcode != WREN_WQE_RDMA_READ)
		return;		/* stale: that READ completed already */
	d = whw_psn_diff(p->psn, whw_psn_add(w->first_psn, w->acked));
	if (d < 0)
		return;		/* duplicate */
	if (d > 0) {
		/* A response was lost: ask again from the missing one. */
		implied_nak(hw, qp, whw_psn_add(w->first_psn, w->acked));
		return;
	}
	i = w->acked;
	/*
	 * The READ went out as requests ending at chunk boundaries, and a
	 * request asked again from the middle may be answered from the
	 * middle (re-executed) or as a new response: the last response of a
	 * request is LAST or ONLY, any other FIRST or MIDDLE.
	 */
	if (i + 1 == whw_rc_read_req_end(i, w->npkts, whw_rc_read_chunk(mtu)))
		ok = p->op == WHW_OP_READ_RESP_LAST ||
		     p->op == WHW_OP_READ_RESP_ONLY;
	else
		ok = p->op == WHW_OP_READ_RESP_FIRST ||
		     p->op == WHW_OP_READ_RESP_MIDDLE;
	want = w->len - i * mtu < mtu ? w->len - i * mtu : mtu;
	if (!ok || p->paylen != want) {
		wqe_done(r, w, WREN_CQE_BAD_RESP_ERR, WREN_VERR_BAD_RESP);
		return;
	}
	e = whw_sgl_copy(hw, qp, w->sge, w->nsge, i * mtu, (void *)p->payload,
			 want, true);
	if (e) {
		wqe_done(r, w, whw_mem_local_status(e), WREN_VERR_RESP_DMA);
		return;
	}
	w->acked++;
	/* A response still on its way after a rewind: not asked again. */
	if (w->sent < w->acked)
		w->sent = w->acked;
	progress(hw, qp);
	if (w->acked == w->npkts)
		wqe_done(r, w, 0, 0);
}

static void rx_atomic_ack(struct wrenhw *hw, struct whw_qp *qp,
			  const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	struct whw_swqe *w;
	enum whw_mem_err e;
	uint64_t v = whw_le64(p->orig);

	if (!ack_before(hw, qp, p->psn))
		return;
	w = oldest(qp);
	if (!w || !wren_wqe_is_atomic(w->opcode) || w->first_psn != p->psn)
		return;
	e = whw_sgl_copy(hw, qp, w->sge, w->nsge, 0, &v, WREN_ATOMIC_LEN, true);
	progress(hw, qp);
	wqe_done(r, w, whw_mem_local_status(e), e ? WREN_VERR_RESP_DMA : 0);
}

void whw_comp_rx(struct wrenhw *hw, struct whw_qp *qp,
		 const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t una = whw_req_una(qp);

	if ((qp->state != WREN_QPS_RTS && qp->state != WREN_QPS_SQD) || !r->sw)
		return;
	/* Only PSNs in flight mean anything; others are stale duplicates. */
	if (whw_psn_diff(p->psn, una) < 0 ||
	    whw_psn_diff(p->psn, qp->attr.sq_psn) >= 0)
		return;
	switch (p->op) {
	case WHW_OP_ACK:
		if ((p->syndrome & 0xe0) == 0) {
			ack_before(hw, qp, whw_psn_add(p->psn, 1));
		} else {
			rx_nak(hw, qp, p);
		}
		break;
	case WHW_OP_ATOMIC_ACK:
		rx_atomic_ack(hw, qp, p);
		break;
	default:
		rx_read_resp(hw, qp, p);
		break;
	}
	whw_comp_retire(hw, qp);
	if (qp->state == WREN_QPS_ERR)
		return;
	whw_comp_timer_update(hw, qp);
	whw_roce_kick(hw, qp);
}

void whw_comp_timer_fn(struct wrenhw *hw, struct whw_timer *t)
{
	struct whw_roce_qp *r = WHW_CONTAINER_OF(t, struct whw_roce_qp,
						 ack_timer);
	struct whw_qp *qp = r->qp;
	struct whw_swqe *w = oldest(qp);

	if (!w || (qp->state != WREN_QPS_RTS && qp->state != WREN_QPS_SQD))
		return;
	hw->cnt_rdma[WREN_RDMA_CNT_LOCAL_ACK_TIMEOUT_ERR]++;
	if (!r->retry_left) {
		wqe_done(r, w, WREN_CQE_RETRY_EXC_ERR, 0);
		whw_comp_retire(hw, qp);
		return;
	}
	r->retry_left--;
	r->rewind_pending = false;
	whw_req_retransmit(hw, qp, whw_req_una(qp));
}

void whw_comp_rnr_fn(struct wrenhw *hw, struct whw_timer *t)
{
	struct whw_roce_qp *r = WHW_CONTAINER_OF(t, struct whw_roce_qp,
						 rnr_timer);
	struct whw_qp *qp = r->qp;

	if (!r->rnr_wait)
		return;
	r->rnr_wait = false;
	if (qp->state != WREN_QPS_RTS && qp->state != WREN_QPS_SQD)
		return;
	whw_req_retransmit(hw, qp, r->rnr_psn_pending);
}
