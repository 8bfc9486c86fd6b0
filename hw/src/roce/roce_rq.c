// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive WQEs: the next one of a QP's RQ or of its SRQ, read by DMA when
 * a message needs it (the producer index comes from the doorbell record,
 * so posting receives costs no MMIO), validated (ds_count within the
 * stride and max_sge, reserved bytes zero, wqe_idx matching its slot),
 * and the SRQ limit event.  Also the flush of an RQ in ERR.
 *
 * XRC target QPs (wren_admin.h "XRC") have no SRQ, PD or CQ of their own.
 * For each request, and for the response or flush that comes of one, the
 * QP is bound to the XRC SRQ the request named and takes that SRQ's PD
 * and CQ, so that the responder's memory checks and receive completions
 * work as for any QP with an SRQ.  A binding lasts one call of the
 * engine, never across calls: the SRQ may be destroyed between packets,
 * so a QP keeps only its number and generation, and finds it again.
 */
#include <string.h>

#include "../core/whw_events.h"
#include "../core/whw_ring.h"
#include "../core/whw_table.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

static int read_pi(struct wrenhw *hw, uint64_t dbrec, uint32_t *pi)
{
	uint32_t v;

	if (hw->ops->dma_read(hw->opaque, dbrec, &v, sizeof(v)))
		return -1;
	*pi = whw_le32(v);
	return 0;
}

/* Reads and checks the WQE at @off of @ring into @w. */
static int load(struct wrenhw *hw, const struct whw_ring *ring, uint64_t off,
		uint32_t stride_shift, uint32_t idx, struct whw_rwqe *w,
		uint8_t *vendor)
{
	uint8_t buf[16 + WHW_MAX_SGE * 16];
	const struct wren_rqe *h = (const void *)buf;
	uint32_t n;

	w->idx = idx;
	if (hw->ops->dma_read(hw->opaque, whw_ring_addr(ring, off), buf, 16)) {
		*vendor = WREN_VERR_RQ_DMA;
		return -1;
	}
	n = h->ds_count;
	if (n > WHW_MAX_SGE || n > wren_rq_max_sge(stride_shift)) {
		*vendor = WREN_VERR_RQ_SGES;
		return -1;
	}
	if (h->rsvd0 || h->rsvd[0] || h->rsvd[1] || h->rsvd[2]) {
		*vendor = WREN_VERR_RQ_RSVD;
		return -1;
	}
	if (whw_le16(h->wqe_idx) != (uint16_t)idx) {
		*vendor = WREN_VERR_RQ_IDX;
		return -1;
	}
	if (n && hw->ops->dma_read(hw->opaque, whw_ring_addr(ring, off + 16),
				   buf + 16, n * 16u)) {
		*vendor = WREN_VERR_RQ_DMA;
		return -1;
	}
	w->nsge = (uint8_t)n;
	w->total = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct wren_wqe_sge *s = (const void *)(buf + 16 + i * 16);

		w->sge[i].addr = whw_le64(s->addr);
		w->sge[i].len = whw_le32(s->length);
		w->sge[i].lkey = whw_le32(s->lkey);
		w->total += w->sge[i].len;
	}
	return 0;
}

static int srq_fetch(struct wrenhw *hw, struct whw_srq *srq,
		     struct whw_rwqe *w, uint8_t *vendor)
{
	uint32_t size = 1u << srq->log_size, pi, idx;
	int rc;

	if (read_pi(hw, srq->dbrec_addr, &pi)) {
		*vendor = WREN_VERR_RQ_DMA;
		return -1;
	}
	if (pi == srq->ci)
		return 1;
	if (pi - srq->ci > size) {
		whw_aeq_post(hw, WREN_EVENT_SRQ_ERR, WREN_WQ_SYND_BAD_INDEX,
			     srq->hdr.id, pi);
		return 1;
	}
	idx = srq->ci++;
	w->srq = true;
	rc = load(hw, &srq->buf, (uint64_t)(idx & (size - 1)) << srq->wqe_shift,
		  srq->wqe_shift, idx, w, vendor);
	/* Armed limit: one event when fewer WQEs than it remain, disarmed. */
	if (srq->limit && pi - srq->ci < srq->limit) {
		srq->limit = 0;
		whw_aeq_post(hw, WREN_EVENT_SRQ_LIMIT, 0, srq->hdr.id, 0);
	}
	return rc;
}

int whw_rq_fetch(struct wrenhw *hw, struct whw_qp *qp, struct whw_rwqe *w,
		 uint8_t *vendor)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t size, pi, idx;

	*vendor = 0;
	if (qp->srq)
		return srq_fetch(hw, qp->srq, w, vendor);
	if (!qp->rq_log_size)
		return 1;
	size = 1u << qp->rq_log_size;
	if (read_pi(hw, qp->dbrec_addr, &pi)) {
		*vendor = WREN_VERR_RQ_DMA;
		return -1;
	}
	if (pi == r->rq_ci)
		return 1;
	if (pi - r->rq_ci > size) {
		*vendor = WREN_VERR_RQ_INDEX;
		return -1;
	}
	idx = r->rq_ci++;
	w->srq = false;
	return load(hw, &qp->buf,
		    qp->rq_offset +
		    ((uint64_t)(idx & (size - 1)) << qp->rq_wqe_shift),
		    qp->rq_wqe_shift, idx, w, vendor);
}

void whw_rq_flush(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	struct wren_cqe cqe;
	uint32_t pi;

	if (qp->srq || !qp->rq_log_size || read_pi(hw, qp->dbrec_addr, &pi))
		return;
	if (pi - r->rq_ci > (1u << qp->rq_log_size))
		return;
	memset(&cqe, 0, sizeof(cqe));
	cqe.opcode = WREN_CQE_OP_RECV;
	cqe.status = WREN_CQE_WR_FLUSH_ERR;
	while (r->rq_ci != pi) {
		cqe.wqe_idx = whw_le16((uint16_t)r->rq_ci);
		r->rq_ci++;
		whw_roce_recv_cqe(hw, qp, &cqe, false);
	}
}

struct whw_srq *whw_xrc_srq(struct wrenhw *hw, const struct whw_qp *qp,
			    uint32_t srqn, const uint32_t *gen)
{
	struct whw_srq *srq = gen ? whw_table_get_gen(&hw->srqs, srqn, *gen) :
				    whw_table_get(&hw->srqs, srqn);

	/* An SRQ of the target's own domain: never another domain's. */
	if (!srq || !srq->xrcd || srq->xrcd != qp->xrcd)
		return NULL;
	return srq;
}

void whw_xrc_bind(struct whw_qp *qp, struct whw_srq *srq)
{
	qp->srq = srq;
	qp->pd = srq->pd;
	qp->recv_cq = srq->cq;
}

void whw_xrc_unbind(struct whw_qp *qp)
{
	qp->srq = NULL;
	qp->pd = NULL;
	qp->recv_cq = NULL;
}
