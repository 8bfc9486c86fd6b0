// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What every part of the RoCE engine asks of a QP: the features it may
 * use, its path MTU, a place in the process loop (the run list, and the
 * list of QPs waiting for room at the port), and its CQEs.  The
 * bottom of the engine, so that requester, responder and completer never
 * call back up into the QP's life (roce_qp.c).
 */
#include <string.h>

#include "../core/whw_events.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

bool whw_roce_cap(const struct wrenhw *hw, uint64_t cap)
{
	return (hw->caps & cap) == cap;
}

static struct whw_roce_list *roce_list(struct wrenhw *hw,
				       enum whw_roce_list_id id)
{
	return id == WHW_ROCE_RUN ? &hw->roce_run : &hw->roce_wait;
}

void whw_roce_list_move(struct wrenhw *hw, struct whw_roce_qp *r,
			enum whw_roce_list_id to)
{
	struct whw_roce_list *l;

	if (r->list == to)
		return;
	if (r->list != WHW_ROCE_OFF) {
		l = roce_list(hw, r->list);
		if (r->list_prev)
			r->list_prev->list_next = r->list_next;
		else
			l->head = r->list_next;
		if (r->list_next)
			r->list_next->list_prev = r->list_prev;
		else
			l->tail = r->list_prev;
		l->count--;
	}
	r->list = (uint8_t)to;
	r->list_prev = NULL;
	r->list_next = NULL;
	if (to == WHW_ROCE_OFF)
		return;
	l = roce_list(hw, to);
	r->list_prev = l->tail;
	if (l->tail)
		l->tail->list_next = r;
	else
		l->head = r;
	l->tail = r;
	l->count++;
}

void whw_roce_kick(struct wrenhw *hw, struct whw_qp *qp)
{
	qp->roce->work = true;
	whw_roce_list_move(hw, qp->roce, WHW_ROCE_RUN);
	if (!hw->roce_work) {
		hw->roce_work = true;
		if (hw->ops->schedule)
			hw->ops->schedule(hw->opaque);
	}
}

uint32_t whw_roce_pmtu(const struct wrenhw *hw, const struct whw_qp *qp)
{
	uint32_t mtu = 4096, port = 256;

	if (!wren_qpt_datagram(qp->type) &&
	    qp->attr.path_mtu >= WREN_MTU_256 &&
	    qp->attr.path_mtu <= WREN_MTU_4096)
		mtu = 256u << (qp->attr.path_mtu - 1);
	/* What the port's MTU carries, as ib_core's iboe_get_mtu() says. */
	while (port < 4096 && hw->port.mtu >= 2 * port + WHW_ROCE_OVERHEAD)
		port *= 2;
	return mtu < port ? mtu : port;
}

void whw_roce_send_cqe(struct wrenhw *hw, struct whw_qp *qp, uint32_t idx,
		       uint8_t opcode, uint8_t status, uint8_t vendor,
		       uint32_t byte_len)
{
	struct wren_cqe cqe;

	memset(&cqe, 0, sizeof(cqe));
	cqe.byte_len = whw_le32(byte_len);
	cqe.qpn = whw_le32(qp->hdr.id);
	cqe.wqe_idx = whw_le16((uint16_t)idx);
	cqe.opcode = opcode;
	cqe.status = status;
	cqe.vendor_err = vendor;
	/* Errors wake a CQ armed for solicited events too. */
	whw_cq_post(hw, qp->send_cq, &cqe, status != WREN_CQE_SUCCESS);
}

void whw_roce_recv_cqe(struct wrenhw *hw, struct whw_qp *qp,
		       struct wren_cqe *cqe, bool solicited)
{
	cqe->qpn = whw_le32(qp->hdr.id);
	/* An XRC target's receive: the SRQ's CQ, and the SRQ named. */
	if (qp->type == WREN_QPT_XRC_TGT) {
		if (!qp->srq)
			return;
		cqe->flags = whw_le16(whw_le16(cqe->flags) | WREN_CQE_F_XRC);
		cqe->src_qp = whw_le32(qp->srq->hdr.id);
	}
	whw_cq_post(hw, qp->recv_cq, cqe,
		    solicited || cqe->status != WREN_CQE_SUCCESS);
}

void whw_roce_recv_error(struct wrenhw *hw, struct whw_qp *qp, uint8_t status,
			 uint8_t vendor, uint32_t len)
{
	struct whw_roce_qp *r = qp->roce;
	struct wren_cqe cqe;

	memset(&cqe, 0, sizeof(cqe));
	cqe.wqe_idx = whw_le16((uint16_t)r->rwqe.idx);
	cqe.opcode = WREN_CQE_OP_RECV;
	cqe.status = status;
	cqe.vendor_err = vendor;
	cqe.byte_len = whw_le32(len);
	r->in_send = false;
	whw_roce_recv_cqe(hw, qp, &cqe, true);
}

void whw_roce_recv_done(struct wrenhw *hw, struct whw_qp *qp,
			const struct whw_pkt *p, uint8_t opcode, uint32_t len)
{
	struct whw_roce_qp *r = qp->roce;
	struct wren_cqe cqe;

	memset(&cqe, 0, sizeof(cqe));
	cqe.byte_len = whw_le32(len);
	cqe.wqe_idx = whw_le16((uint16_t)r->rwqe.idx);
	cqe.opcode = opcode;
	if (p->info & WHW_H_IMM) {
		memcpy(&cqe.imm_data, p->imm, 4);
		cqe.flags = whw_le16(WREN_CQE_F_IMM);
	} else if (p->info & WHW_H_IETH) {
		cqe.inv_rkey = whw_le32(p->ieth);
		cqe.flags = whw_le16(WREN_CQE_F_INV);
	}
	r->in_send = false;
	whw_roce_recv_cqe(hw, qp, &cqe, p->se);
}
