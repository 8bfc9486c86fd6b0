// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Completion event queues: CREATE_EQ and DESTROY_EQ. */
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

#define SYND_EQ(f)	WHW_SYND_CMD(u.create_eq.f)

struct whw_err whw_cmd_create_eq(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_create_eq *in = &c->cmd->u.create_eq;
	uint32_t vector = whw_le16(in->msix_vector);
	struct whw_err err;
	struct whw_eq *eq;
	int64_t id;

	if (in->rsvd0)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(rsvd0));
	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.create_eq.rsvd1),
				 sizeof(in->rsvd1));
	if (err.status)
		return err;
	if (in->log_size < WREN_EQ_LOG_SIZE_MIN ||
	    in->log_size > WREN_EQ_LOG_SIZE_MAX)
		return WHW_ERR(WREN_AQ_STATUS_BAD_SIZE, SYND_EQ(log_size));
	if (vector >= hw->num_msix)
		return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM, SYND_EQ(msix_vector));
	if (hw->eqs.used >= hw->eqs.size)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	eq = calloc(1, sizeof(*eq));
	if (!eq)
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	err = whw_ring_load(hw, &eq->ring, &in->ring,
			    (uint64_t)WREN_EQE_SIZE << in->log_size,
			    WHW_SYND_CMD(u.create_eq.ring));
	if (!err.status && whw_ring_overlaps_live(hw, &eq->ring, NULL))
		err = WHW_ERR(WREN_AQ_STATUS_BAD_ADDR,
			      WHW_SYND_CMD(u.create_eq.ring.addr));
	if (err.status) {
		whw_ring_free(hw, &eq->ring);
		free(eq);
		return err;
	}
	id = whw_table_alloc(&hw->eqs, &eq->hdr);
	if (id < 0) {
		whw_ring_free(hw, &eq->ring);
		free(eq);
		return WHW_ERR(WREN_AQ_STATUS_NO_RESOURCES, 0);
	}
	eq->log_size = in->log_size;
	eq->vector = vector;
	eq->moderation_usec = whw_le16(in->moderation_usec);
	eq->moderation_count = whw_le16(in->moderation_count);
	whw_eq_mod_init(eq);
	whw_ring_link(hw, &eq->ring);
	c->result = (uint64_t)id;
	return WHW_OK;
}

struct whw_err whw_cmd_destroy_eq(struct wrenhw *hw, struct whw_cmd *c)
{
	struct whw_err err;
	struct whw_eq *eq = whw_cmd_handle_obj(c, &hw->eqs, &err);

	if (!eq)
		return err;
	if (eq->hdr.refs)
		return WHW_ERR(WREN_AQ_STATUS_BUSY,
			       WHW_SYND_CMD(u.handle.handle));
	whw_eq_free(hw, eq);
	return WHW_OK;
}

void whw_eq_free(struct wrenhw *hw, struct whw_eq *eq)
{
	whw_eq_mod_fini(hw, eq);
	whw_table_remove(&hw->eqs, eq->hdr.id);
	whw_ring_free(hw, &eq->ring);
	free(eq);
}
