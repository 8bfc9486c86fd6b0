// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory window work requests (WREN_CAP_RDMA_MW, wren_admin.h "MW"):
 * BIND_MW on an RC or UC send queue binds a window of the QP's PD to a
 * range of a VALID MR with WREN_ACCESS_MW_BIND, with a new key tag, in
 * order with the WQEs around it (as REG_MR, roce_fastreg.c).  Type 1
 * windows rebind freely and a bind of length 0 unbinds one; type 2 ones
 * bind only while unbound, to the QP that ran the bind, and come unbound
 * by LOCAL_INV or by a SEND_INV arriving on that QP.  Any refusal leaves
 * the window as it was and is WREN_CQE_MW_BIND_ERR.
 */
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

#define MW_RIGHTS	(WREN_ACCESS_REMOTE_WRITE | WREN_ACCESS_REMOTE_READ | \
			 WREN_ACCESS_REMOTE_ATOMIC)

/* The MR @w may bind to, or NULL: every rule of the contract. */
static struct whw_mr *bind_mr(struct wrenhw *hw, const struct whw_qp *qp,
			      const struct wren_wqe_bind_mw *w)
{
	uint32_t key = whw_le32(w->mr_key), access = whw_le32(w->access);
	uint64_t addr = whw_le64(w->addr), len = whw_le64(w->length);
	/* Window keys fall outside the MR table: they find nothing here. */
	struct whw_mr *mr = whw_table_get(&hw->mrs, key >> 8);

	if (!mr || mr->key_tag != (uint8_t)key ||
	    mr->state != WREN_MR_VALID || mr->pd != qp->pd ||
	    !(mr->access & WREN_ACCESS_MW_BIND) ||
	    (mr->flags & WREN_MR_F_ZERO_BASED))
		return NULL;
	if ((access & ~MW_RIGHTS) ||
	    ((access & (WREN_ACCESS_REMOTE_WRITE | WREN_ACCESS_REMOTE_ATOMIC)) &&
	     !(mr->access & WREN_ACCESS_LOCAL_WRITE)))
		return NULL;
	if (!whw_in_range(addr, len, mr->iova, mr->length))
		return NULL;
	return mr;
}

uint8_t whw_mw_bind(struct wrenhw *hw, struct whw_qp *qp,
		    const struct wren_wqe_bind_mw *w)
{
	uint32_t mw_key = whw_le32(w->mw_key);
	struct whw_mw *mw = whw_mw_get(hw, mw_key >> 8);
	struct whw_mr *mr;

	if (!mw || mw->type != w->type || mw->pd != qp->pd)
		return WREN_CQE_MW_BIND_ERR;
	if (mw->type == WREN_MW_TYPE_1 && !whw_le64(w->length)) {
		/* Unbind: the MR, range and rights are not looked at. */
		whw_mw_unbind(mw);
		mw->key_tag = (uint8_t)mw_key;
		return WREN_CQE_SUCCESS;
	}
	if (mw->type == WREN_MW_TYPE_2 && mw->state != WREN_MR_FREE)
		return WREN_CQE_MW_BIND_ERR;
	mr = bind_mr(hw, qp, w);
	if (!mr)
		return WREN_CQE_MW_BIND_ERR;
	/* A type 1 rebind moves the window from its old MR to this one. */
	whw_mw_unbind(mw);
	mw->mr = mr;
	mr->mw_bound++;
	mw->state = WREN_MR_VALID;
	mw->key_tag = (uint8_t)mw_key;
	mw->addr = whw_le64(w->addr);
	mw->length = whw_le64(w->length);
	mw->access = whw_le32(w->access);
	if (mw->type == WREN_MW_TYPE_2)
		mw->qpn = qp->hdr.id;
	return WREN_CQE_SUCCESS;
}

bool whw_mw_invalidate(struct wrenhw *hw, const struct whw_qp *qp,
		       uint32_t key, bool remote)
{
	struct whw_mw *mw = whw_mw_get(hw, key >> 8);

	if (!(hw->caps & WREN_CAP_RDMA_MW) || !mw ||
	    mw->key_tag != (uint8_t)key || mw->type != WREN_MW_TYPE_2 ||
	    mw->state != WREN_MR_VALID || mw->pd != qp->pd ||
	    (remote && mw->qpn != qp->hdr.id))
		return false;
	whw_mw_unbind(mw);
	return true;
}
