// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory regions: the MPT entry (CREATE/MODIFY/QUERY/DESTROY_MR) and its
 * translation table (WRITE_MTT), with the FREE -> VALID -> FREE lifecycle
 * of ACTIVATE_MR and DEACTIVATE_MR.  Pages are 4 KiB to 1 GiB, any of them
 * anywhere on the bus (e.g. discontiguous 64 KiB GPU BAR pages).  An MR
 * with memory windows bound to it (cmd_mw.c) is neither destroyed nor
 * modified (BUSY): the windows' ranges and rights were checked against
 * what it is; DEACTIVATE_MR still works, and the windows then fail.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/whw_table.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_err.h"
#include "../whw_objects.h"
#include "whw_cmd.h"
#include "whw_handlers.h"

#define SYND_CMR(f)	WHW_SYND_IN(struct wren_create_mr_in, f)
#define SYND_MMR(f)	WHW_SYND_IN(struct wren_modify_mr_in, f)
#define SYND_WMTT(f)	WHW_SYND_CMD(u.write_mtt.f)
#define MR_FLAGS	(WREN_MR_F_FAST_REG | WREN_MR_F_ZERO_BASED)
#define ACCESS_KNOWN	(WREN_ACCESS_LOCAL_WRITE | WREN_ACCESS_REMOTE_WRITE | \
			 WREN_ACCESS_REMOTE_READ | WREN_ACCESS_REMOTE_ATOMIC)
#define MODIFY_KNOWN	(WREN_MODIFY_MR_PD | WREN_MODIFY_MR_ACCESS | \
			 WREN_MODIFY_MR_RANGE | WREN_MODIFY_MR_KEY)

bool whw_mr_access_ok(const struct wrenhw *hw, uint32_t access)
{
	uint32_t known = ACCESS_KNOWN;

	/* Windows may be bound to it: only where the device has windows. */
	if (hw->caps & WREN_CAP_RDMA_MW)
		known |= WREN_ACCESS_MW_BIND;
	/* Never WREN_ACCESS_FLUSH_PERSISTENT: wren_admin.h's FLUSH rights. */
	if (hw->caps & WREN_CAP_RDMA_FLUSH)
		known |= WREN_ACCESS_FLUSH_GLOBAL;
	if (access & ~known)
		return false;
	/* As IB: remote write or atomic needs local write. */
	if ((access & (WREN_ACCESS_REMOTE_WRITE | WREN_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & WREN_ACCESS_LOCAL_WRITE))
		return false;
	return true;
}

/* Do num_mtt pages of 1 << shift cover [iova, iova + length)? */
static bool range_ok(uint64_t iova, uint64_t length, uint8_t shift,
		     uint32_t num_mtt)
{
	uint64_t first = iova & ((1ull << shift) - 1);
	uint64_t need;

	if (!length || length > WHW_MAX_MR_SIZE || iova + length < iova)
		return false;
	need = (first + length + (1ull << shift) - 1) >> shift;
	return need <= num_mtt;
}

struct whw_err whw_cmd_create_mr(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_create_mr_in *in = (const void *)c->in;
	uint32_t access = whw_le32(in->access);
	uint64_t iova = whw_le64(in->iova);
	uint64_t length = whw_le64(in->length);
	uint32_t num_mtt = whw_le32(in->num_mtt);
	struct whw_err err;
	struct whw_pd *pd;
	struct whw_mr *mr;

	if (in->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(rsvd0));
	err = whw_check_rsvd_in(c, offsetof(struct wren_create_mr_in, rsvd),
				sizeof(in->rsvd));
	if (err.status)
		return err;
	pd = whw_table_get(&hw->pds, whw_le32(in->pdn));
	if (!pd)
		return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_CMR(pdn));
	if (!whw_mr_access_ok(hw, access))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(access));
	if (in->flags & ~MR_FLAGS)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(flags));
	if (in->page_shift < WREN_PAGE_SHIFT_MIN ||
	    in->page_shift > WREN_PAGE_SHIFT_MAX ||
	    !(WHW_PAGE_SIZE_CAP & (1ull << in->page_shift)))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(page_shift));
	if (!num_mtt || num_mtt > WHW_MAX_MTT_PER_MR)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_CMR(num_mtt));
	/* Fast-registration MRs get their range from the REG_MR WQE. */
	if (!(in->flags & WREN_MR_F_FAST_REG) &&
	    !range_ok(iova, length, in->page_shift, num_mtt))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_CMR(length));
	if (num_mtt > hw->max_mtt - hw->mtt_used)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, SYND_CMR(num_mtt));
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	mr->mtt = calloc(num_mtt, sizeof(*mr->mtt));
	mr->valid = calloc((num_mtt + 63) / 64, sizeof(*mr->valid));
	if (!mr->mtt || !mr->valid || whw_table_alloc(&hw->mrs, &mr->hdr) < 0) {
		free(mr->mtt);
		free(mr->valid);
		free(mr);
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	hw->mtt_used += num_mtt;
	mr->pd = pd;
	whw_ref(&pd->hdr);
	mr->state = WREN_MR_FREE;
	mr->page_shift = in->page_shift;
	mr->key_tag = in->key_tag;
	mr->flags = in->flags;
	mr->access = access;
	mr->iova = iova;
	mr->length = length;
	mr->num_mtt = num_mtt;
	c->result = mr->hdr.id;
	c->result2 = mr->hdr.id << 8 | mr->key_tag;
	return WHW_OK;
}

void whw_mr_free(struct wrenhw *hw, struct whw_mr *mr)
{
	whw_unref(&mr->pd->hdr);
	hw->mtt_used -= mr->num_mtt;
	whw_table_remove(&hw->mrs, mr->hdr.id);
	free(mr->mtt);
	free(mr->valid);
	free(mr);
}

uint32_t whw_write_mtt_in_size(const struct wren_aq_cmd *cmd)
{
	uint64_t bytes = (uint64_t)whw_le32(cmd->u.write_mtt.count) * 8;

	/* Anything beyond one buffer fails the length check as is. */
	return bytes > WREN_AQ_MAX_BUF_LEN ? WREN_AQ_MAX_BUF_LEN + 8
					   : (uint32_t)bytes;
}

static struct whw_mr *mr_by_index(struct wrenhw *hw, const struct whw_cmd *c,
				  uint32_t index, uint32_t synd,
				  struct whw_err *err)
{
	struct whw_mr *mr = whw_table_get(&hw->mrs, index);

	if (!mr)
		*err = WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, synd);
	(void)c;
	return mr;
}

struct whw_err whw_cmd_write_mtt(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_write_mtt *w = &c->cmd->u.write_mtt;
	uint32_t first = whw_le32(w->first);
	uint32_t count = whw_le32(w->count);
	struct whw_err err;
	struct whw_mr *mr;
	uint64_t mask;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.write_mtt.rsvd),
				 sizeof(w->rsvd));
	if (err.status)
		return err;
	mr = mr_by_index(hw, c, whw_le32(w->mr_index), SYND_WMTT(mr_index),
			 &err);
	if (!mr)
		return err;
	if (mr->state != WREN_MR_FREE || (mr->flags & WREN_MR_F_FAST_REG))
		return WHW_ERR(WREN_AQ_STATUS_BAD_STATE, SYND_WMTT(mr_index));
	if (!count)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_WMTT(count));
	if (first >= mr->num_mtt)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_WMTT(first));
	if (count > mr->num_mtt - first)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_WMTT(count));
	mask = (1ull << mr->page_shift) - 1;
	/* All or nothing: check every entry before writing any. */
	for (uint32_t i = 0; i < count; i++) {
		uint64_t a;

		memcpy(&a, c->in + (size_t)i * 8, 8);
		a = whw_le64(a);
		if (!a || (a & mask) || a + mask < a)
			return WHW_ERR(WREN_AQ_STATUS_BAD_ADDR,
				       WREN_SYND_IN | ((i * 8) & 0xffff));
	}
	for (uint32_t i = 0; i < count; i++) {
		uint32_t e = first + i;
		uint64_t a;

		memcpy(&a, c->in + (size_t)i * 8, 8);
		mr->mtt[e] = whw_le64(a);
		if (!(mr->valid[e / 64] & (1ull << (e % 64)))) {
			mr->valid[e / 64] |= 1ull << (e % 64);
			mr->written++;
		}
	}
	return WHW_OK;
}

struct whw_err whw_cmd_activate_mr(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_mr *mr = whw_cmd_handle_obj(c, &hw->mrs, &err);

	if (!mr)
		return err;
	if (mr->state != WREN_MR_FREE || (mr->flags & WREN_MR_F_FAST_REG) ||
	    mr->written != mr->num_mtt)
		return WHW_ERR(WREN_AQ_STATUS_BAD_STATE,
			       WHW_SYND_CMD(u.handle.handle));
	mr->state = WREN_MR_VALID;
	return WHW_OK;
}

struct whw_err whw_cmd_deactivate_mr(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_mr *mr = whw_cmd_handle_obj(c, &hw->mrs, &err);

	if (!mr)
		return err;
	/*
	 * Idempotent, and it forgets the translations: after an
	 * invalidation the old pages must never be used again, so the
	 * driver rewrites every entry before the next ACTIVATE_MR.
	 */
	mr->state = WREN_MR_FREE;
	memset(mr->valid, 0, (mr->num_mtt + 63) / 64 * sizeof(*mr->valid));
	mr->written = 0;
	return WHW_OK;
}

struct whw_err whw_cmd_modify_mr(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_modify_mr_in *in = (const void *)c->in;
	uint32_t mask = whw_le32(in->mask);
	uint32_t access = whw_le32(in->access);
	uint64_t iova = whw_le64(in->iova);
	uint64_t length = whw_le64(in->length);
	struct whw_pd *pd = NULL;
	struct whw_err err;
	struct whw_mr *mr;

	err = whw_check_rsvd_in(c, offsetof(struct wren_modify_mr_in, rsvd0),
				sizeof(in->rsvd0) + sizeof(in->rsvd));
	if (err.status)
		return err;
	mr = mr_by_index(hw, c, whw_le32(in->mr_index), SYND_MMR(mr_index),
			 &err);
	if (!mr)
		return err;
	if (mask & ~MODIFY_KNOWN)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MMR(mask));
	if (mr->mw_bound)
		return WHW_ERR(WREN_AQ_STATUS_BUSY, SYND_MMR(mr_index));
	if (mr->state != WREN_MR_FREE)
		return WHW_ERR(WREN_AQ_STATUS_BAD_STATE, SYND_MMR(mr_index));
	if (mask & WREN_MODIFY_MR_PD) {
		pd = whw_table_get(&hw->pds, whw_le32(in->pdn));
		if (!pd)
			return WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE, SYND_MMR(pdn));
	}
	if ((mask & WREN_MODIFY_MR_ACCESS) && !whw_mr_access_ok(hw, access))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MMR(access));
	if ((mask & WREN_MODIFY_MR_RANGE) &&
	    !range_ok(iova, length, mr->page_shift, mr->num_mtt))
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_MMR(length));
	if (pd) {
		whw_unref(&mr->pd->hdr);
		mr->pd = pd;
		whw_ref(&pd->hdr);
	}
	if (mask & WREN_MODIFY_MR_ACCESS)
		mr->access = access;
	if (mask & WREN_MODIFY_MR_RANGE) {
		mr->iova = iova;
		mr->length = length;
	}
	if (mask & WREN_MODIFY_MR_KEY)
		mr->key_tag = in->key_tag;
	c->result2 = mr->hdr.id << 8 | mr->key_tag;
	return WHW_OK;
}

struct whw_err whw_cmd_destroy_mr(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_mr *mr = whw_cmd_handle_obj(c, &hw->mrs, &err);

	if (!mr)
		return err;
	if (mr->mw_bound)
		return WHW_ERR(WREN_AQ_STATUS_BUSY,
			       WHW_SYND_CMD(u.handle.handle));
	whw_mr_free(hw, mr);
	return WHW_OK;
}

struct whw_err whw_cmd_query_mr(struct wrenhw *hw, struct whw_cmd *c)
{
	struct wren_query_mr_out *o = (struct wren_query_mr_out *)c->out;
	struct whw_err err;
	struct whw_mr *mr = whw_cmd_handle_obj(c, &hw->mrs, &err);

	if (!mr)
		return err;
	o->state = mr->state;
	o->page_shift = mr->page_shift;
	o->key_tag = mr->key_tag;
	o->pdn = whw_le32(mr->pd->hdr.id);
	o->access = whw_le32(mr->access);
	o->num_mtt = whw_le32(mr->num_mtt);
	o->iova = whw_le64(mr->iova);
	o->length = whw_le64(mr->length);
	c->out_size = sizeof(*o);
	return WHW_OK;
}
