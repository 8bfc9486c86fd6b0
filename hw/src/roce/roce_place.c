// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Where a request's payload lands, for the RC and UC responders alike: a
 * SEND into the receive WQE it holds, a WRITE into the MR its RETH names
 * (checked whole at the FIRST packet, each packet again before its DMA).
 * These only check and place; what a failure costs is the transport's -
 * RC NAKs and breaks the QP (rc_resp.c), UC drops the message (uc_resp.c).
 */
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

bool whw_place_write_start(struct wrenhw *hw, struct whw_qp *qp,
			   const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	struct whw_mr *mr;

	hw->cnt_rdma[WREN_RDMA_CNT_RX_WRITE_REQUESTS]++;
	if (!(qp->attr.access_flags & WREN_ACCESS_REMOTE_WRITE) ||
	    (p->dmalen &&
	     whw_mem_check(hw, qp, p->rkey, p->va, p->dmalen,
			   WREN_ACCESS_REMOTE_WRITE | WHW_MEM_REMOTE, &mr)))
		return false;
	r->w_va = p->va;
	r->w_rkey = p->rkey;
	r->w_len = p->dmalen;
	r->w_off = 0;
	return true;
}

bool whw_place_write_fits(const struct whw_roce_qp *r, const struct whw_pkt *p)
{
	uint64_t end = r->w_off + (uint64_t)p->paylen;

	return end <= r->w_len && (!(p->info & WHW_K_LAST) || end == r->w_len);
}

enum whw_mem_err whw_place_write(struct wrenhw *hw, struct whw_qp *qp,
				 const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint64_t va = r->w_va + r->w_off;
	struct whw_mr *mr;
	enum whw_mem_err e;

	if (p->paylen) {
		/* The MR may have changed since the FIRST packet: again. */
		e = whw_mem_check(hw, qp, r->w_rkey, va, p->paylen,
				  WREN_ACCESS_REMOTE_WRITE | WHW_MEM_REMOTE,
				  &mr);
		if (!e)
			e = whw_mem_dma(hw, mr, va, (void *)p->payload,
					p->paylen, true);
		if (e)
			return e;
	}
	r->w_off += p->paylen;
	return WHW_MEM_OK;
}

uint8_t whw_place_send(struct wrenhw *hw, struct whw_qp *qp,
		       const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	enum whw_mem_err e;

	if ((uint64_t)r->rcv_off + p->paylen > r->rwqe.total) {
		hw->cnt_rdma[WREN_RDMA_CNT_RESP_LOCAL_LENGTH_ERROR]++;
		return WREN_CQE_LOC_LEN_ERR;
	}
	e = whw_sgl_copy(hw, qp, r->rwqe.sge, r->rwqe.nsge, r->rcv_off,
			 (void *)p->payload, p->paylen, true);
	if (e)
		return whw_mem_local_status(e);
	r->rcv_off += p->paylen;
	return WREN_CQE_SUCCESS;
}
