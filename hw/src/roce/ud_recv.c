// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UD and GSI receive: the Q_Key must be the QP's (else the packet is
 * dropped and counted), a receive WQE must be posted (UD has no RNR: the
 * packet is dropped), and the buffer gets the 40-byte GRH area first, as
 * verbs require: the IPv6 header, or for IPv4 twenty zero bytes and then
 * the IPv4 header (WREN_CQE_F_IPV4), as ib_core expects for RoCEv2.
 */
#include <string.h>

#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

void whw_ud_rx(struct wrenhw *hw, struct whw_qp *qp, const struct whw_pkt *p)
{
	struct whw_roce_qp *r = qp->roce;
	uint8_t grh[WHW_GRH_LEN];
	struct wren_cqe cqe;
	enum whw_mem_err e;
	uint16_t flags;
	uint8_t vendor;
	int rc;

	if (p->qkey != qp->attr.qkey || !(p->info & WHW_K_UD)) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
		return;
	}
	rc = whw_rq_fetch(hw, qp, &r->rwqe, &vendor);
	if (rc > 0) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
		return;
	}
	memset(&cqe, 0, sizeof(cqe));
	cqe.wqe_idx = whw_le16((uint16_t)r->rwqe.idx);
	cqe.opcode = WREN_CQE_OP_RECV;
	if (rc < 0) {
		cqe.status = WREN_CQE_LOC_QP_OP_ERR;
		cqe.vendor_err = vendor;
		goto fail;
	}
	if (WHW_GRH_LEN + (uint64_t)p->paylen > r->rwqe.total) {
		hw->cnt_rdma[WREN_RDMA_CNT_RESP_LOCAL_LENGTH_ERROR]++;
		cqe.status = WREN_CQE_LOC_LEN_ERR;
		goto fail;
	}
	memset(grh, 0, sizeof(grh));
	if (p->ipv4)
		memcpy(grh + 20, p->l3, 20);
	else
		memcpy(grh, p->l3, 40);
	e = whw_sgl_copy(hw, qp, r->rwqe.sge, r->rwqe.nsge, 0, grh,
			 WHW_GRH_LEN, true);
	if (!e && p->paylen)
		e = whw_sgl_copy(hw, qp, r->rwqe.sge, r->rwqe.nsge, WHW_GRH_LEN,
				 (void *)p->payload, p->paylen, true);
	if (e) {
		cqe.status = whw_mem_local_status(e);
		goto fail;
	}
	cqe.byte_len = whw_le32(WHW_GRH_LEN + p->paylen);
	cqe.src_qp = whw_le32(p->src_qpn);
	memcpy(cqe.smac, p->frame + 6, 6);
	flags = WREN_CQE_F_GRH | (p->ipv4 ? WREN_CQE_F_IPV4 : 0);
	if (p->vlan) {
		flags |= WREN_CQE_F_VLAN;
		cqe.vlan_tci = whw_le16(p->vlan_tci);
	}
	if (p->info & WHW_H_IMM) {
		flags |= WREN_CQE_F_IMM;
		memcpy(&cqe.imm_data, p->imm, 4);
	}
	cqe.flags = whw_le16(flags);
	whw_roce_recv_cqe(hw, qp, &cqe, p->se);
	return;
fail:
	/* Every error completion leaves the QP in ERR. */
	whw_roce_recv_cqe(hw, qp, &cqe, true);
	whw_roce_qp_error(hw, qp);
}
