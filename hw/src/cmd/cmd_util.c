// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Checks that many admin command handlers share: reserved bytes and the
 * object an inline handle names.  A leaf below the cmd_*.c handlers, so
 * that they never call back into the dispatcher.
 */
#include "../core/whw_table.h"
#include "../whw_byteorder.h"
#include "../whw_err.h"
#include "whw_cmd.h"

bool whw_all_zero(const void *p, size_t len, size_t *first_nonzero)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++) {
		if (b[i]) {
			if (first_nonzero)
				*first_nonzero = i;
			return false;
		}
	}
	return true;
}

struct whw_err whw_check_rsvd_cmd(const struct whw_cmd *c, size_t off,
				  size_t len)
{
	size_t bad;

	if (whw_all_zero((const uint8_t *)c->cmd + off, len, &bad))
		return WHW_OK;
	return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
		       WREN_SYND_CMD | (uint32_t)(off + bad));
}

struct whw_err whw_check_rsvd_in(const struct whw_cmd *c, size_t off,
				 size_t len)
{
	size_t bad;

	if (whw_all_zero(c->in + off, len, &bad))
		return WHW_OK;
	return WHW_ERR(WREN_AQ_STATUS_BAD_PARAM,
		       WREN_SYND_IN | (uint32_t)(off + bad));
}

void *whw_cmd_handle_obj(const struct whw_cmd *c, const struct whw_table *t,
			 struct whw_err *err)
{
	const struct wren_aq_handle *h = &c->cmd->u.handle;
	void *obj;

	*err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd, u.handle.rsvd),
				  sizeof(h->rsvd));
	if (err->status)
		return NULL;
	obj = whw_table_get(t, whw_le32(h->handle));
	if (!obj)
		*err = WHW_ERR(WREN_AQ_STATUS_BAD_HANDLE,
			       WHW_SYND_CMD(u.handle.handle));
	return obj;
}
