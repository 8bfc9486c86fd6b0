// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues: CREATE_CQ (32-byte entries, or 64-byte ones with the
 * device clock: WREN_CQ_F_CQE64), DESTROY_CQ, MODIFY_CQ, and RESIZE_CQ
 * (WREN_CAP_CQ_RESIZE), which moves the entries software has not consumed
 * into the new ring and restarts the indexes (wren_admin.h).
 */
#include <stdlib.h>

#include "../core/whw_events.h"
#include "../core/whw_ring.h"
#include "../core/whw_table.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

#define SYND_CQ(f)	WHW_SYND_IN(struct wren_create_cq_in, f)
#define SYND_RESIZE(f)	WHW_SYND_IN(struct wren_resize_cq_in, f)

struct whw_err whw_cmd_create_cq(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_create_cq_in *in = (const void *)c->in;
	uint64_t dbrec = whw_le64(in->dbrec_addr);
	struct whw_err err;
	struct whw_uar *uar;
	struct whw_eq *eq;
	struct whw_cq *cq;

	if (in->flags & ~WREN_CQ_F_ALL)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CQ(flags));
	if ((in->flags & WREN_CQ_F_CQE64) && !(hw->caps & WREN_CAP_TIMESTAMP))
		return WHW_ERR(WREN_AQ_STATUS_NOT_SUPPORTED, SYND_CQ(flags));
	err = whw_check_rsvd_in(c, offsetof(struct wren_create_cq_in, rsvd0),
				sizeof(in->rsvd0) + sizeof(in->rsvd));
	if (err.status)
		return err;
	if (in->log_size < WREN_CQ_LOG_SIZE_MIN ||
	    in->log_size > WREN_CQ_LOG_SIZE_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_CQ(log_size));
	if (!dbrec || (dbrec & 7))
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_CQ(dbrec_addr));
	eq = whw_table_get(&hw->eqs, whw_le32(in->eqn));
	if (!eq)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_CQ(eqn));
	uar = whw_lookup_uar(hw, whw_le32(in->uar));
	if (!uar)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_CQ(uar));
	if (hw->cqs.used >= hw->cqs.size)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	cq->stride = wren_cqe_stride(in->flags);
	err = whw_ring_load(hw, &cq->ring, &in->ring,
			    (uint64_t)cq->stride << in->log_size,
			    SYND_CQ(ring));
	if (!err.status && whw_ring_overlaps_live(hw, &cq->ring, NULL))
		err = WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_CQ(ring.addr));
	if (!err.status && whw_table_alloc(&hw->cqs, &cq->hdr) < 0)
		err = WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	if (err.status) {
		whw_ring_free(hw, &cq->ring);
		free(cq);
		return err;
	}
	cq->log_size = in->log_size;
	cq->dbrec_addr = dbrec;
	cq->eq = eq;
	cq->uar = uar;
	whw_ref(&eq->hdr);
	whw_ref(&uar->hdr);
	cq->moderation_usec = whw_le16(in->moderation_usec);
	cq->moderation_count = whw_le16(in->moderation_count);
	whw_cq_mod_init(cq);
	whw_ring_link(hw, &cq->ring);
	c->result = cq->hdr.id;
	return WHW_OK;
}

void whw_cq_free(struct wrenhw *hw, struct whw_cq *cq)
{
	whw_cq_mod_fini(hw, cq);
	whw_unref(&cq->eq->hdr);
	whw_unref(&cq->uar->hdr);
	whw_table_remove(&hw->cqs, cq->hdr.id);
	whw_ring_free(hw, &cq->ring);
	free(cq);
}

struct whw_err whw_cmd_destroy_cq(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_cq *cq = whw_cmd_handle_obj(c, &hw->cqs, &err);

	if (!cq)
		return err;
	if (cq->hdr.refs)
		return WHW_ERR(WREN_AQ_STATUS_BUSY,
			       WHW_SYND_CMD(u.handle.handle));
	whw_cq_free(hw, cq);
	return WHW_OK;
}

struct whw_err whw_cmd_modify_cq(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_modify_cq *m = &c->cmd->u.modify_cq;
	uint32_t mask = whw_le32(m->mask);
	struct whw_err err;
	struct whw_cq *cq;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.modify_cq.rsvd),
				 sizeof(m->rsvd));
	if (err.status)
		return err;
	cq = whw_table_get(&hw->cqs, whw_le32(m->cqn));
	if (!cq)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE,
			       WHW_SYND_CMD(u.modify_cq.cqn));
	if (mask & ~WREN_MODIFY_CQ_MODERATION)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
			       WHW_SYND_CMD(u.modify_cq.mask));
	if (mask & WREN_MODIFY_CQ_MODERATION) {
		cq->moderation_usec = whw_le16(m->moderation_usec);
		cq->moderation_count = whw_le16(m->moderation_count);
	}
	return WHW_OK;
}

/*
 * The entries [ci, pi) of @cq's ring into slots 0 .. n-1 of @nr, with
 * the phase of those indexes in a ring of 1 << @log_size.  Nothing of the
 * CQ changes here: a DMA error leaves it as it was.
 */
static int resize_move(struct wrenhw *hw, const struct whw_cq *cq,
		       const struct whw_ring *nr, uint32_t log_size)
{
	uint32_t n = cq->pi - cq->ci;
	uint8_t e[WREN_CQE64_SIZE];

	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = wren_cqe_offset(cq->ci + i, cq->log_size,
					       cq->stride) +
			       WREN_CQE_SIZE - cq->stride;

		if (hw->ops->dma_read(hw->opaque, whw_ring_addr(&cq->ring, off),
				      e, cq->stride) ||
		    whw_cq_write_slot(hw, nr, i, log_size, cq->stride, e))
			return -1;
	}
	return 0;
}

/*
 * Send completions @cq may still get: the WQEs handed to the device
 * (doorbells rung) and not completed, of every QP whose send CQ it is,
 * signalled or not (the device has not read them all).  Commands run as
 * their doorbell is rung, send WQEs later: a resize must not shrink the
 * ring under completions the driver already asked for.
 */
static uint32_t resize_owed(const struct wrenhw *hw, const struct whw_cq *cq)
{
	uint32_t owed = 0;
	struct whw_qp *qp;

	for (uint32_t i = 0; i < hw->qps.size; i++) {
		uint32_t n;

		qp = whw_table_slot(&hw->qps, i);
		if (!qp || qp->send_cq != cq)
			continue;
		n = qp->sq_pi - qp->sq_ci;
		if (n <= (1u << qp->sq_log_size))
			owed += n;
	}
	return owed;
}

struct whw_err whw_cmd_resize_cq(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_resize_cq_in *in = (const void *)c->in;
	uint64_t dbrec = whw_le64(in->dbrec_addr);
	struct whw_ring nr = {};
	struct whw_err err;
	struct whw_cq *cq;

	err = whw_check_rsvd_in(c, offsetof(struct wren_resize_cq_in, rsvd0),
				sizeof(in->rsvd0));
	if (!err.status)
		err = whw_check_rsvd_in(c, offsetof(struct wren_resize_cq_in, rsvd),
					sizeof(in->rsvd));
	if (err.status)
		return err;
	cq = whw_table_get(&hw->cqs, whw_le32(in->cqn));
	if (!cq)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_RESIZE(cqn));
	if (in->log_size < WREN_CQ_LOG_SIZE_MIN ||
	    in->log_size > WREN_CQ_LOG_SIZE_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_RESIZE(log_size));
	if (!dbrec || (dbrec & 7))
		return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_RESIZE(dbrec_addr));
	/* A CQ that overran or lost its ring stays dead. */
	if (cq->error)
		return WHW_ERR(WREN_AQ_STATUS_BAD_STATE, SYND_RESIZE(cqn));

	/* What software has consumed, as its old record says now. */
	if (!whw_cq_refresh_ci(hw, cq))
		return WHW_ERR(WREN_AQ_STATUS_DMA_ERROR, 0);
	if ((uint64_t)(cq->pi - cq->ci) + resize_owed(hw, cq) >
	    (1u << in->log_size))
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_RESIZE(log_size));

	err = whw_ring_load(hw, &nr, &in->ring,
			    (uint64_t)cq->stride << in->log_size,
			    SYND_RESIZE(ring));
	/* The old ring too: the entries move out of it into the new one. */
	if (!err.status && whw_ring_overlaps_live(hw, &nr, NULL))
		err = WHW_ERR(WREN_AQ_STATUS_BAD_ADDR, SYND_RESIZE(ring.addr));
	if (!err.status && resize_move(hw, cq, &nr, in->log_size))
		err = WHW_ERR(WREN_AQ_STATUS_DMA_ERROR, 0);
	if (err.status) {
		whw_ring_free(hw, &nr);
		return err;
	}

	whw_ring_free(hw, &cq->ring);
	cq->ring = nr;
	whw_ring_link(hw, &cq->ring);
	cq->pi -= cq->ci;
	cq->ci = 0;
	cq->log_size = in->log_size;
	cq->dbrec_addr = dbrec;
	return WHW_OK;
}
