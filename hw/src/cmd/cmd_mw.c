// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows (WREN_CAP_RDMA_MW, wren_admin.h "MW"): CREATE_MW makes an
 * unbound window in a PD, DESTROY_MW destroys one, bound or not.  A
 * window's key is (index << 8) | tag like an MR's, its index max_mr + its
 * slot, so that one key never names both; binding is the send queue's
 * work (roce_mw_bind.c), access through the key mr_lookup.c's.
 */
#include <stdlib.h>

#include "../core/whw_table.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

#define SYND_CMW(f)	WHW_SYND_CMD(u.create_mw.f)

struct whw_mw *whw_mw_get(const struct wrenhw *hw, uint32_t index)
{
	if (index < hw->max_mr)
		return NULL;
	return whw_table_get(&hw->mws, index - hw->max_mr);
}

void whw_mw_unbind(struct whw_mw *mw)
{
	if (mw->mr && mw->mr->mw_bound)
		mw->mr->mw_bound--;
	mw->mr = NULL;
	mw->state = WREN_MR_FREE;
	mw->addr = mw->length = 0;
	mw->access = 0;
	mw->qpn = 0;
}

/*
 * A QP is going away: the type 2 windows bound to it go back to unbound,
 * so that their MR can be destroyed and no later QP that happens to get
 * the same number (its slot's tag wraps after 255 reuses) inherits them.
 */
void whw_mw_unbind_qp(struct wrenhw *hw, uint32_t qpn)
{
	for (uint32_t i = 0; hw->mws.used && i < hw->mws.size; i++) {
		struct whw_mw *mw = whw_table_slot(&hw->mws, i);

		if (mw && mw->type == WREN_MW_TYPE_2 &&
		    mw->state == WREN_MR_VALID && mw->qpn == qpn)
			whw_mw_unbind(mw);
	}
}

void whw_mw_free(struct wrenhw *hw, struct whw_mw *mw)
{
	whw_mw_unbind(mw);
	whw_unref(&mw->pd->hdr);
	whw_table_remove(&hw->mws, mw->hdr.id);
	free(mw);
}

struct whw_err whw_cmd_create_mw(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_create_mw *in = &c->cmd->u.create_mw;
	struct whw_err err;
	struct whw_pd *pd;
	struct whw_mw *mw;
	uint32_t index;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.create_mw.rsvd0),
				 sizeof(in->rsvd0) + sizeof(in->rsvd));
	if (err.status)
		return err;
	pd = whw_table_get(&hw->pds, whw_le32(in->pdn));
	if (!pd)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_CMW(pdn));
	if (in->type != WREN_MW_TYPE_1 && in->type != WREN_MW_TYPE_2)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CMW(type));
	mw = calloc(1, sizeof(*mw));
	if (!mw)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	if (whw_table_alloc(&hw->mws, &mw->hdr) < 0) {
		free(mw);
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	mw->pd = pd;
	whw_ref(&pd->hdr);
	mw->type = in->type;
	mw->state = WREN_MR_FREE;
	mw->key_tag = in->key_tag;
	index = hw->max_mr + mw->hdr.id;
	c->result = index;
	c->result2 = index << 8 | mw->key_tag;
	return WHW_OK;
}

struct whw_err whw_cmd_destroy_mw(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_handle *h = &c->cmd->u.handle;
	struct whw_err err;
	struct whw_mw *mw;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd, u.handle.rsvd),
				 sizeof(h->rsvd));
	if (err.status)
		return err;
	mw = whw_mw_get(hw, whw_le32(h->handle));
	if (!mw)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE,
			       WHW_SYND_CMD(u.handle.handle));
	/* One model thread: no access through it starts after this. */
	whw_mw_free(hw, mw);
	return WHW_OK;
}
