// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The UC responder: no ACKs, no NAKs, nothing is ever sent again.  A
 * packet is taken only at the expected PSN and in the order a message's
 * opcodes must come.  Anything else - a lost packet, a message cut short,
 * a packet of the wrong size - drops the message it belongs to, and the
 * responder resumes at the next FIRST or ONLY packet, whatever its PSN
 * (as the IBTA specifies for UC).  A SEND that finds no receive WQE, and
 * a WRITE to a key, range or right it may not use, are dropped the same
 * way: the requester never hears of them, the counters do
 * (RX_ROCE_DISCARDS, RESP_REMOTE_ACCESS_ERRORS, OUT_OF_SEQUENCE).  A
 * receive WQE that a dropped message had taken is not completed: the next
 * SEND (or WRITE with immediate) fills it from the start.  Errors of the
 * receive WQE itself - too small, a bad local key, a malformed WQE -
 * complete it in error and the QP goes to ERR, as on RC.
 */
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

/* The rest of the message in progress is not taken. */
static void drop_msg(struct whw_roce_qp *r)
{
	r->uc_sending = false;
	r->in_write = false;
	r->uc_drop = true;
}

/* The held receive WQE completes in error and the QP breaks. */
static void recv_fail(struct wrenhw *hw, struct whw_qp *qp, uint8_t status,
		      uint8_t vendor)
{
	qp->roce->uc_sending = false;
	whw_roce_recv_error(hw, qp, status, vendor, qp->roce->rcv_off);
	whw_roce_qp_error(hw, qp);
}

/*
 * A receive WQE for a new message in r->rwqe (in_send: held until it
 * completes): the one a dropped message left, else the next posted.
 * False if there is none (the message is dropped) or the QP broke.
 */
static bool hold_rqe(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_roce_qp *r = qp->roce;
	uint8_t vendor;
	int rc;

	r->rcv_off = 0;
	if (r->in_send)
		return true;
	rc = whw_rq_fetch(hw, qp, &r->rwqe, &vendor);
	if (rc > 0) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
		return false;
	}
	if (rc < 0) {
		recv_fail(hw, qp, WREN_CQE_LOC_QP_OP_ERR, vendor);
		return false;
	}
	r->in_send = true;
	return true;
}

static bool uc_send(struct wrenhw *hw, struct whw_qp *qp,
		    const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint8_t st;

	if (p->info & WHW_K_FIRST) {
		if (!hold_rqe(hw, qp))
			return false;
		r->uc_sending = true;
	}
	st = whw_place_send(hw, qp, p);
	if (st) {
		recv_fail(hw, qp, st,
			  st == WREN_CQE_LOC_LEN_ERR ? 0 : WREN_VERR_RECV_PROT);
		return false;
	}
	if (p->info & WHW_K_LAST) {
		r->uc_sending = false;
		whw_roce_recv_done(hw, qp, p, WREN_CQE_OP_RECV, r->rcv_off);
	}
	return true;
}

static bool uc_write(struct wrenhw *hw, struct whw_qp *qp,
		     const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;

	if (p->info & WHW_K_FIRST) {
		if (!whw_place_write_start(hw, qp, p)) {
			hw->cnt_rdma[WREN_RDMA_CNT_RESP_REMOTE_ACCESS_ERRORS]++;
			return false;
		}
		r->in_write = true;
	}
	if (!whw_place_write_fits(r, p)) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
		return false;
	}
	/* With immediate: the receive WQE is needed before any byte lands. */
	if ((p->info & WHW_H_IMM) && !hold_rqe(hw, qp))
		return false;
	if (whw_place_write(hw, qp, p)) {
		hw->cnt_rdma[WREN_RDMA_CNT_RESP_REMOTE_ACCESS_ERRORS]++;
		return false;
	}
	if (!(p->info & WHW_K_LAST))
		return true;
	r->in_write = false;
	if (p->info & WHW_H_IMM)
		whw_roce_recv_done(hw, qp, p, WREN_CQE_OP_RECV_RDMA_IMM,
				   r->w_len);
	return true;
}

/* Is @info allowed next, given the message in progress? */
static bool in_order(const struct whw_roce_qp *r, uint32_t info)
{
	if (r->uc_sending)
		return (info & WHW_K_SEND) && !(info & WHW_K_FIRST);
	if (r->in_write)
		return (info & WHW_K_WRITE) && !(info & WHW_K_FIRST);
	return (info & WHW_K_FIRST) != 0;
}

void whw_uc_rx(struct wrenhw *hw, struct whw_qp *qp, const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint32_t mtu = whw_roce_pmtu(hw, qp);
	bool ok;

	/* Counted once a loss: later packets of the message are dropped. */
	if (p->psn != qp->attr.rq_psn && !r->uc_drop)
		hw->cnt_rdma[WREN_RDMA_CNT_OUT_OF_SEQUENCE]++;
	if (p->psn != qp->attr.rq_psn || r->uc_drop) {
		if (!(p->info & WHW_K_FIRST)) {
			drop_msg(r);
			return;
		}
		/* A new message: resume here, whatever went before it. */
		r->uc_sending = false;
		r->in_write = false;
		r->uc_drop = false;
	}
	qp->attr.rq_psn = whw_psn_add(p->psn, 1);
	if (!in_order(r, p->info) || p->paylen > mtu ||
	    (!(p->info & WHW_K_LAST) && p->paylen != mtu)) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
		drop_msg(r);
		return;
	}
	if (p->info & WHW_K_SEND)
		ok = uc_send(hw, qp, p);
	else
		ok = uc_write(hw, qp, p);
	if (!ok && qp->state != WREN_QPS_ERR)
		drop_msg(r);
}
