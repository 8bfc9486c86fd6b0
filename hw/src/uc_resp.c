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
#include <string.h>

#include "roce.h"
#include "whw_device.h"
#include "whw_le.h"
#include "whw_objects.h"

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
	struct whw_roce_qp *r = qp->roce;
	struct wren_cqe cqe;

	memset(&cqe, 0, sizeof(cqe));
	cqe.wqe_idx = whw_le16((uint16_t)r->rwqe.idx);
	cqe.opcode = WREN_CQE_OP_RECV;
	cqe.status = status;
	cqe.vendor_err = vendor;
	cqe.byte_len = whw_le32(r->rcv_off);
	r->in_send = false;
	r->uc_sending = false;
	whw_roce_recv_cqe(hw, qp, &cqe, true);
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
	enum whw_mem_err e;

	if (p->info & WHW_K_FIRST) {
		if (!hold_rqe(hw, qp))
			return false;
		r->uc_sending = true;
	}
	if ((uint64_t)r->rcv_off + p->paylen > r->rwqe.total) {
		hw->cnt_rdma[WREN_RDMA_CNT_RESP_LOCAL_LENGTH_ERROR]++;
		recv_fail(hw, qp, WREN_CQE_LOC_LEN_ERR, 0);
		return false;
	}
	e = whw_sgl_copy(hw, qp, r->rwqe.sge, r->rwqe.nsge, r->rcv_off,
			 (void *)p->payload, p->paylen, true);
	if (e) {
		recv_fail(hw, qp, whw_mem_local_status(e), WREN_VERR_RECV_PROT);
		return false;
	}
	r->rcv_off += p->paylen;
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
	struct whw_mr *mr = NULL;
	enum whw_mem_err e;

	if (p->info & WHW_K_FIRST) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_WRITE_REQUESTS]++;
		if (!(qp->attr.access_flags & WREN_ACCESS_REMOTE_WRITE) ||
		    (p->dmalen &&
		     whw_mem_check(hw, qp, p->rkey, p->va, p->dmalen,
				   WREN_ACCESS_REMOTE_WRITE | WHW_MEM_REMOTE,
				   &mr))) {
			hw->cnt_rdma[WREN_RDMA_CNT_RESP_REMOTE_ACCESS_ERRORS]++;
			return false;
		}
		r->w_va = p->va;
		r->w_rkey = p->rkey;
		r->w_len = p->dmalen;
		r->w_off = 0;
		r->in_write = true;
	}
	if (r->w_off + (uint64_t)p->paylen > r->w_len ||
	    ((p->info & WHW_K_LAST) && r->w_off + p->paylen != r->w_len)) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
		return false;
	}
	/* With immediate: the receive WQE is needed before any byte lands. */
	if ((p->info & WHW_H_IMM) && !hold_rqe(hw, qp))
		return false;
	if (p->paylen) {
		e = whw_mem_check(hw, qp, r->w_rkey, r->w_va + r->w_off,
				  p->paylen,
				  WREN_ACCESS_REMOTE_WRITE | WHW_MEM_REMOTE,
				  &mr);
		if (!e)
			e = whw_mem_dma(hw, mr, r->w_va + r->w_off,
					(void *)p->payload, p->paylen, true);
		if (e) {
			hw->cnt_rdma[WREN_RDMA_CNT_RESP_REMOTE_ACCESS_ERRORS]++;
			return false;
		}
	}
	r->w_off += p->paylen;
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
