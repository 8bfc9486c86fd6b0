// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The send queue window that the requester (roce_req.c) fills for every
 * transport and the RC completer (rc_comp.c) walks: its slots, the oldest
 * unacknowledged PSN, and the rewind the completer asks for on a NAK or
 * timeout.  Below both, so that the completer never calls into the
 * requester.
 */
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

struct whw_swqe *whw_swqe(struct whw_roce_qp *r, uint32_t idx)
{
	return &r->sw[idx % WHW_SQ_WINDOW];
}

uint32_t whw_req_una(const struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;

	for (uint32_t i = qp->sq_ci; r->sw && i != r->sq_fetch; i++) {
		const struct whw_swqe *w = whw_swqe(r, i);

		if (!w->done && w->npkts)
			return whw_psn_add(w->first_psn, w->acked);
	}
	return qp->attr.sq_psn;
}

void whw_req_retransmit(struct wrenhw *hw, struct whw_qp *qp, uint32_t psn)
{
	struct whw_roce_qp *r = qp->roce;
	bool first = true;

	if (!r->sw)
		return;
	for (uint32_t i = qp->sq_ci; i != r->sq_fetch; i++) {
		struct whw_swqe *w = whw_swqe(r, i);
		int32_t d = whw_psn_diff(psn, w->first_psn);

		if (w->done || !w->npkts)
			continue;
		if (first) {
			r->tx_idx = i;
			first = false;
		}
		if (d > 0 && (uint32_t)d < w->npkts) {
			/* The PSN falls inside: resume there. */
			if (w->opcode == WREN_WQE_RDMA_READ) {
				/*
				 * Never past a response not received: a
				 * sequence NAK at a later READ request of
				 * this WQE says nothing about the earlier.
				 */
				if ((uint32_t)d < w->acked)
					w->acked = (uint32_t)d;
				w->sent = w->acked;
			} else if (!wren_wqe_is_rd_atomic(w->opcode)) {
				w->sent = w->acked = (uint32_t)d;
			} else {
				w->sent = 0;
			}
		} else if (d <= 0) {
			/* At or after the PSN: from the start. */
			w->sent = 0;
			w->acked = 0;
		}
	}
	whw_roce_kick(hw, qp);
}
