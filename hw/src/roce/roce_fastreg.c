// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Fast registration work requests (WREN_CAP_RDMA_FAST_REG): REG_MR makes a
 * FREE fast-registration MR of the QP's PD VALID with a new key, range,
 * rights and page list (copied from pbl_addr when the WQE executes);
 * LOCAL_INV makes it FREE again.  Both run when the SQ reaches them, in
 * order with the WQEs around them.  Anything that does not fit the MR is
 * WREN_CQE_LOC_PROT_ERR, and the MR stays FREE.  An MR with memory
 * windows bound to it is neither registered again nor invalidated; a
 * LOCAL_INV of a window's key is roce_mw_bind.c's (type 2 windows only).
 */
#include <string.h>

#include "../core/whw_table.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

#define PBL_CHUNK	512u	/* page addresses per DMA */

/* The fast-registration MR @key names for @qp, or NULL. */
static struct whw_mr *fr_mr(struct wrenhw *hw, const struct whw_qp *qp,
			    uint32_t key)
{
	struct whw_mr *mr = whw_table_get(&hw->mrs, key >> 8);

	if (!mr || !(mr->flags & WREN_MR_F_FAST_REG) || mr->pd != qp->pd)
		return NULL;
	return mr;
}

uint8_t whw_fastreg_reg(struct wrenhw *hw, struct whw_qp *qp,
			const struct wren_wqe_reg_mr *w)
{
	uint32_t key = whw_le32(w->key), npages = whw_le32(w->npages);
	uint32_t access = whw_le32(w->access);
	uint64_t iova = whw_le64(w->iova), len = whw_le64(w->length);
	uint64_t pbl = whw_le64(w->pbl_addr), mask;
	uint8_t shift = w->page_shift;
	struct whw_mr *mr = fr_mr(hw, qp, key);
	uint64_t chunk[PBL_CHUNK];

	if (!mr || mr->state != WREN_MR_FREE || mr->mw_bound ||
	    !whw_mr_access_ok(hw, access) ||
	    shift < WREN_PAGE_SHIFT_MIN || shift > WREN_PAGE_SHIFT_MAX ||
	    !npages || npages > mr->num_mtt || !len ||
	    len > WHW_MAX_MR_SIZE || iova + len < iova || !pbl || (pbl & 7))
		return WREN_CQE_LOC_PROT_ERR;
	mask = (1ull << shift) - 1;
	if (((iova & mask) + len + mask) >> shift > npages)
		return WREN_CQE_LOC_PROT_ERR;
	for (uint32_t i = 0; i < npages; i += PBL_CHUNK) {
		uint32_t n = npages - i < PBL_CHUNK ? npages - i : PBL_CHUNK;

		if (hw->ops->dma_read(hw->opaque, pbl + (uint64_t)i * 8, chunk,
				      n * 8u))
			return WREN_CQE_LOC_ACCESS_ERR;
		for (uint32_t k = 0; k < n; k++) {
			uint64_t a = whw_le64(chunk[k]);

			if (!a || (a & mask) || a + mask < a)
				return WREN_CQE_LOC_PROT_ERR;
			mr->mtt[i + k] = a;
		}
	}
	mr->page_shift = shift;
	mr->iova = iova;
	mr->length = len;
	mr->access = access;
	mr->key_tag = (uint8_t)key;
	mr->state = WREN_MR_VALID;
	return WREN_CQE_SUCCESS;
}

uint8_t whw_fastreg_inv(struct wrenhw *hw, struct whw_qp *qp, uint32_t key)
{
	struct whw_mr *mr;

	if (whw_key_is_mw(hw, key))
		return whw_mw_invalidate(hw, qp, key, false) ?
		       WREN_CQE_SUCCESS : WREN_CQE_LOC_PROT_ERR;
	mr = fr_mr(hw, qp, key);
	if (!mr || mr->key_tag != (uint8_t)key || mr->mw_bound)
		return WREN_CQE_LOC_PROT_ERR;
	mr->state = WREN_MR_FREE;
	return WREN_CQE_SUCCESS;
}
