// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory protection and translation for the RDMA engine: a key names an
 * MR (index << 8 | tag); the access must find it VALID, in the QP's PD,
 * inside [start, start + length), with the rights asked for, and then
 * goes through the MR's translation table page by page (any page size of
 * page_size_cap, e.g. 64 KiB GPU pages).  Every refusal has its own
 * reason, so that the right completion status or NAK can be chosen.
 *
 * The reserved lkey (WREN_CAP_RDMA_RESERVED_LKEY) is a bus address 1:1,
 * for local access only, and only for QPs of the kernel's doorbell page.
 *
 * A key whose index is max_mr or above names a memory window
 * (WREN_CAP_RDMA_MW): a remote key only, bound, of the QP's PD (type 2:
 * bound to this very QP), the access inside the window's range and
 * rights; then the MR it is bound to must still be VALID, and the access
 * goes through that MR's translation at the same (iova) address.
 */
#include "../core/whw_table.h"
#include "../whw_board.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"

#define ACCESS_RIGHTS	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC | \
			 WREN_ACCESS_FLUSH_GLOBAL | \
			 WREN_ACCESS_FLUSH_PERSISTENT)

static enum whw_mem_err mw_check(struct wrenhw *hw, const struct whw_qp *qp,
				 uint32_t key, uint64_t addr, uint64_t len,
				 uint32_t access, struct whw_mr **out)
{
	uint32_t rights = access & ACCESS_RIGHTS;
	struct whw_mw *mw = whw_mw_get(hw, key >> 8);
	struct whw_mr *mr;

	/* Window keys are remote keys only: as an lkey they name nothing. */
	if (!(access & WHW_MEM_REMOTE) || !(hw->caps & WREN_CAP_RDMA_MW) ||
	    !mw || mw->key_tag != (uint8_t)key)
		return WHW_MEM_BAD_KEY;
	if (mw->state != WREN_MR_VALID || !mw->mr)
		return WHW_MEM_BAD_STATE;
	if (mw->pd != qp->pd)
		return WHW_MEM_BAD_PD;
	if (mw->type == WREN_MW_TYPE_2 && mw->qpn != qp->hdr.id)
		return WHW_MEM_BAD_QP;
	if (!(access & WHW_MEM_WHOLE) &&
	    !whw_in_range(addr, len, mw->addr, mw->length))
		return WHW_MEM_BOUNDS;
	if ((mw->access & rights) != rights)
		return WHW_MEM_ACCESS;
	/* The MR may have been deactivated since the bind (never changed). */
	mr = mw->mr;
	if (mr->state != WREN_MR_VALID)
		return WHW_MEM_BAD_STATE;
	if (mr->pd != qp->pd)
		return WHW_MEM_BAD_PD;
	if (!(access & WHW_MEM_WHOLE) &&
	    ((mr->flags & WREN_MR_F_ZERO_BASED) ||
	     !whw_in_range(addr, len, mr->iova, mr->length)))
		return WHW_MEM_BOUNDS;
	*out = mr;
	return WHW_MEM_OK;
}

enum whw_mem_err whw_mem_check(struct wrenhw *hw, const struct whw_qp *qp,
			       uint32_t key, uint64_t addr, uint64_t len,
			       uint32_t access, struct whw_mr **out)
{
	bool remote = access & WHW_MEM_REMOTE;
	uint32_t rights = access & ACCESS_RIGHTS;
	struct whw_mr *mr;
	uint64_t start;

	*out = NULL;
	if (!(access & WHW_MEM_WHOLE) && addr + len < addr)
		return WHW_MEM_OVERFLOW;
	if (key == WHW_RESERVED_LKEY &&
	    (hw->caps & WREN_CAP_RDMA_RESERVED_LKEY)) {
		if (remote || qp->uar != &hw->kernel_uar)
			return WHW_MEM_RESERVED;
		return WHW_MEM_OK;
	}
	if (whw_key_is_mw(hw, key))
		return mw_check(hw, qp, key, addr, len, access, out);
	mr = whw_table_get(&hw->mrs, key >> 8);
	if (!mr || mr->key_tag != (uint8_t)key)
		return WHW_MEM_BAD_KEY;
	if (mr->state != WREN_MR_VALID)
		return WHW_MEM_BAD_STATE;
	if (mr->pd != qp->pd)
		return WHW_MEM_BAD_PD;
	start = (mr->flags & WREN_MR_F_ZERO_BASED) ? 0 : mr->iova;
	if (!(access & WHW_MEM_WHOLE) &&
	    !whw_in_range(addr, len, start, mr->length))
		return WHW_MEM_BOUNDS;
	if ((mr->access & rights) != rights)
		return WHW_MEM_ACCESS;
	*out = mr;
	return WHW_MEM_OK;
}

enum whw_mem_err whw_mem_dma(struct wrenhw *hw, const struct whw_mr *mr,
			     uint64_t addr, void *buf, uint32_t len,
			     bool write)
{
	uint8_t *b = buf;
	uint64_t off, mask;

	if (!mr) {
		if (write ? hw->ops->dma_write(hw->opaque, addr, b, len)
			  : hw->ops->dma_read(hw->opaque, addr, b, len))
			return WHW_MEM_DMA;
		return WHW_MEM_OK;
	}
	mask = (1ull << mr->page_shift) - 1;
	/* Offset from the start of the MR's first page (checked bounds). */
	off = (mr->iova & mask) +
	      (addr - ((mr->flags & WREN_MR_F_ZERO_BASED) ? 0 : mr->iova));
	while (len) {
		uint64_t page = off >> mr->page_shift;
		uint64_t in = off & mask;
		uint32_t n = len;
		uint64_t bus;
		int rc;

		if (page >= mr->num_mtt)
			return WHW_MEM_BOUNDS;
		if (n > mask + 1 - in)
			n = (uint32_t)(mask + 1 - in);
		bus = mr->mtt[page] + in;
		rc = write ? hw->ops->dma_write(hw->opaque, bus, b, n)
			   : hw->ops->dma_read(hw->opaque, bus, b, n);
		if (rc)
			return WHW_MEM_DMA;
		b += n;
		off += n;
		len -= n;
	}
	return WHW_MEM_OK;
}

uint8_t whw_mem_local_status(enum whw_mem_err e)
{
	switch (e) {
	case WHW_MEM_OK:
		return WREN_CQE_SUCCESS;
	case WHW_MEM_DMA:
		return WREN_CQE_LOC_ACCESS_ERR;
	default:
		return WREN_CQE_LOC_PROT_ERR;
	}
}

enum whw_mem_err whw_sgl_check(struct wrenhw *hw, const struct whw_qp *qp,
			       const struct whw_sge *sge, uint32_t n,
			       uint32_t access)
{
	for (uint32_t i = 0; i < n; i++) {
		struct whw_mr *mr;
		enum whw_mem_err e;

		if (!sge[i].len)
			continue;
		e = whw_mem_check(hw, qp, sge[i].lkey, sge[i].addr,
				  sge[i].len, access, &mr);
		if (e)
			return e;
	}
	return WHW_MEM_OK;
}

enum whw_mem_err whw_sgl_copy(struct wrenhw *hw, const struct whw_qp *qp,
			      const struct whw_sge *sge, uint32_t n,
			      uint32_t off, void *buf, uint32_t len,
			      bool write)
{
	uint8_t *b = buf;

	for (uint32_t i = 0; i < n && len; i++) {
		uint32_t chunk;
		struct whw_mr *mr;
		enum whw_mem_err e;

		if (off >= sge[i].len) {
			off -= sge[i].len;
			continue;
		}
		chunk = sge[i].len - off;
		if (chunk > len)
			chunk = len;
		/* Checked again: the MR may have changed since the WQE began. */
		e = whw_mem_check(hw, qp, sge[i].lkey, sge[i].addr + off,
				  chunk, write ? WREN_ACCESS_LOCAL_WRITE : 0,
				  &mr);
		if (!e)
			e = whw_mem_dma(hw, mr, sge[i].addr + off, b, chunk,
					write);
		if (e)
			return e;
		b += chunk;
		len -= chunk;
		off = 0;
	}
	return len ? WHW_MEM_BOUNDS : WHW_MEM_OK;
}
