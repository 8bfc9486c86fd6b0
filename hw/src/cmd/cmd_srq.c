// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Shared receive queues: CREATE, MODIFY, QUERY and DESTROY_SRQ, and
 * RESIZE_SRQ (WREN_CAP_SRQ_RESIZE), which only points the SRQ at a new
 * ring and record: the device reads a WQE when it takes it, so the WQEs
 * still to be taken are software's to copy.  An XRC SRQ (WREN_SRQ_F_XRC)
 * also names its domain and the CQ its receives complete to; target QPs
 * find it by number (roce_rq.c), so nothing holds it but its own refs.
 */
#include <stdlib.h>

#include "../core/whw_ring.h"
#include "../core/whw_table.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

#define SYND_SRQ(f)	WHW_SYND_IN(struct wren_create_srq_in, f)
#define SYND_MSRQ(f)	WHW_SYND_CMD(u.modify_srq.f)
#define SYND_RSRQ(f)	WHW_SYND_IN(struct wren_resize_srq_in, f)

/* An XRC SRQ's domain and CQ; both NULL (and 0 given) for a plain one. */
static struct whw_err srq_xrc(struct wrenhw *hw,
			      const struct wren_create_srq_in *in,
			      const struct whw_uar *uar, struct whw_xrcd **xrcd,
			      struct whw_cq **cq)
{
	*xrcd = NULL;
	*cq = NULL;
	if (!(in->flags & WREN_SRQ_F_XRC)) {
		if (in->xrcdn)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
				       SYND_SRQ(xrcdn));
		if (in->cqn)
			return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SRQ(cqn));
		return WHW_OK;
	}
	if (!(hw->caps & WREN_CAP_RDMA_XRC))
		return WHW_ERR(WREN_AQ_STATUS_NOT_SUPPORTED, SYND_SRQ(flags));
	*xrcd = whw_table_get(&hw->xrcds, whw_le32(in->xrcdn));
	if (!*xrcd)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_SRQ(xrcdn));
	*cq = whw_table_get(&hw->cqs, whw_le32(in->cqn));
	if (!*cq)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_SRQ(cqn));
	/* No context may make the device feed another context's CQ. */
	if ((*cq)->uar != uar)
		return WHW_ERR(WREN_AQ_STATUS_PERM, SYND_SRQ(cqn));
	return WHW_OK;
}

struct whw_err whw_cmd_create_srq(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_create_srq_in *in = (const void *)c->in;
	uint64_t dbrec = whw_le64(in->dbrec_addr);
	uint32_t limit = whw_le32(in->limit);
	struct whw_xrcd *xrcd;
	struct whw_err err;
	struct whw_uar *uar;
	struct whw_srq *srq;
	struct whw_cq *cq;
	struct whw_pd *pd;

	if (in->flags & ~WREN_SRQ_F_XRC)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SRQ(flags));
	if (in->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SRQ(rsvd0));
	err = whw_check_rsvd_in(c, offsetof(struct wren_create_srq_in, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	pd = whw_table_get(&hw->pds, whw_le32(in->pdn));
	if (!pd)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_SRQ(pdn));
	uar = whw_lookup_uar(hw, whw_le32(in->uar));
	if (!uar)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_SRQ(uar));
	err = srq_xrc(hw, in, uar, &xrcd, &cq);
	if (err.status)
		return err;
	if (in->log_size < 1 || in->log_size > WHW_MAX_QP_LOG_SIZE)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_SRQ(log_size));
	if (in->wqe_shift < WREN_WQE_SHIFT_MIN ||
	    in->wqe_shift > WHW_MAX_RQ_WQE_SHIFT)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SRQ(wqe_shift));
	if (limit >= (1u << in->log_size))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_SRQ(limit));
	if (!dbrec || (dbrec & 7))
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_SRQ(dbrec_addr));
	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	err = whw_ring_load(hw, &srq->buf, &in->buf,
			    1ull << (in->log_size + in->wqe_shift),
			    SYND_SRQ(buf));
	if (!err.status && whw_ring_overlaps_live(hw, &srq->buf, NULL))
		err = WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_SRQ(buf.addr));
	if (!err.status && whw_table_alloc(&hw->srqs, &srq->hdr) < 0)
		err = WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	if (err.status) {
		whw_ring_free(hw, &srq->buf);
		free(srq);
		return err;
	}
	srq->pd = pd;
	srq->uar = uar;
	srq->xrcd = xrcd;
	srq->cq = cq;
	whw_ref(&pd->hdr);
	whw_ref(&uar->hdr);
	whw_ref(xrcd ? &xrcd->hdr : NULL);
	whw_ref(cq ? &cq->hdr : NULL);
	srq->log_size = in->log_size;
	srq->wqe_shift = in->wqe_shift;
	srq->limit = limit;
	srq->dbrec_addr = dbrec;
	c->result = srq->hdr.id;
	return WHW_OK;
}

void whw_srq_free(struct wrenhw *hw, struct whw_srq *srq)
{
	whw_unref(&srq->pd->hdr);
	whw_unref(&srq->uar->hdr);
	whw_unref(srq->xrcd ? &srq->xrcd->hdr : NULL);
	whw_unref(srq->cq ? &srq->cq->hdr : NULL);
	whw_table_remove(&hw->srqs, srq->hdr.id);
	whw_ring_free(hw, &srq->buf);
	free(srq);
}

struct whw_err whw_cmd_destroy_srq(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_srq *srq = whw_cmd_handle_obj(c, &hw->srqs, &err);

	if (!srq)
		return err;
	if (srq->hdr.refs)
		return WHW_ERR(WREN_AQ_STATUS_BUSY,
			       WHW_SYND_CMD(u.handle.handle));
	whw_srq_free(hw, srq);
	return WHW_OK;
}

struct whw_err whw_cmd_modify_srq(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_modify_srq *m = &c->cmd->u.modify_srq;
	uint32_t mask = whw_le32(m->mask);
	uint32_t limit = whw_le32(m->limit);
	struct whw_err err;
	struct whw_srq *srq;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.modify_srq.rsvd),
				 sizeof(m->rsvd));
	if (err.status)
		return err;
	srq = whw_table_get(&hw->srqs, whw_le32(m->srqn));
	if (!srq)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_MSRQ(srqn));
	if (mask & ~WREN_MODIFY_SRQ_LIMIT)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MSRQ(mask));
	if ((mask & WREN_MODIFY_SRQ_LIMIT) && limit >= (1u << srq->log_size))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MSRQ(limit));
	if (mask & WREN_MODIFY_SRQ_LIMIT)
		srq->limit = limit;
	return WHW_OK;
}

struct whw_err whw_cmd_resize_srq(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_resize_srq_in *in = (const void *)c->in;
	uint64_t dbrec = whw_le64(in->dbrec_addr);
	struct wren_srq_dbrec rec;
	struct whw_ring nr;
	struct whw_err err;
	struct whw_srq *srq;

	err = whw_check_rsvd_in(c, offsetof(struct wren_resize_srq_in, rsvd0),
				sizeof(in->rsvd0));
	if (!err.status)
		err = whw_check_rsvd_in(c, offsetof(struct wren_resize_srq_in, rsvd),
					sizeof(in->rsvd));
	if (err.status)
		return err;
	srq = whw_table_get(&hw->srqs, whw_le32(in->srqn));
	if (!srq)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_RSRQ(srqn));
	if (in->log_size < srq->log_size || in->log_size > WHW_MAX_QP_LOG_SIZE)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_RSRQ(log_size));
	if (!dbrec || (dbrec & 7))
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_RSRQ(dbrec_addr));
	if (hw->ops->dma_read(hw->opaque, dbrec, &rec, sizeof(rec)))
		return WHW_ERR(WREN_AQ_STATUS_DMA_ERROR, 0);
	/* More posted than the new ring holds: software lost count. */
	if (whw_le32(rec.pi) - srq->ci > (1u << in->log_size))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_RSRQ(dbrec_addr));

	err = whw_ring_load(hw, &nr, &in->buf,
			    1ull << (in->log_size + srq->wqe_shift),
			    SYND_RSRQ(buf));
	if (!err.status && whw_ring_overlaps_live(hw, &nr, NULL))
		err = WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_RSRQ(buf.addr));
	if (err.status) {
		whw_ring_free(hw, &nr);
		return err;
	}
	whw_ring_free(hw, &srq->buf);
	srq->buf = nr;
	srq->log_size = in->log_size;
	srq->dbrec_addr = dbrec;
	return WHW_OK;
}

struct whw_err whw_cmd_query_srq(struct wrenhw *hw, struct whw_cmd *c)
{
	struct wren_query_srq_out *o = (struct wren_query_srq_out *)c->out;
	struct wren_srq_dbrec rec;
	struct whw_err err;
	struct whw_srq *srq = whw_cmd_handle_obj(c, &hw->srqs, &err);
	uint32_t posted;

	if (!srq)
		return err;
	/* What the doorbell record says, less what the device consumed. */
	if (hw->ops->dma_read(hw->opaque, srq->dbrec_addr, &rec, sizeof(rec)))
		return WHW_ERR(WREN_AQ_STATUS_DMA_ERROR, 0);
	posted = whw_le32(rec.pi) - srq->ci;
	if (posted > (1u << srq->log_size))
		posted = 1u << srq->log_size;
	o->limit = whw_le32(srq->limit);
	o->wqes_posted = whw_le32(posted);
	c->out_size = sizeof(*o);
	return WHW_OK;
}
