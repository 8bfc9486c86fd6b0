// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device clock (WREN_CAP_TIMESTAMP): nanoseconds since reset on the
 * host's time, or since the value SET_CLOCK gave it.  The registers of
 * its BAR0 page and the 64-byte CQEs read it here.
 */
#include "whw_byteorder.h"
#include "whw_clock.h"
#include "whw_cmd.h"
#include "whw_device.h"
#include "whw_err.h"
#include "whw_handlers.h"
#include "whw_services.h"

uint64_t whw_clock(struct wrenhw *hw)
{
	return hw->clock_base + (whw_now(hw) - hw->clock_set_ns);
}

void whw_clock_reset(struct wrenhw *hw)
{
	hw->clock_base = 0;
	hw->clock_set_ns = whw_now(hw);
}

uint32_t whw_clock_reg_read(struct wrenhw *hw, uint64_t off)
{
	uint64_t ns;

	if (!(hw->caps & WREN_CAP_TIMESTAMP))
		return 0;
	ns = whw_clock(hw);
	return (uint32_t)(off == WREN_REG_CLOCK_HI ? ns >> 32 : ns);
}

struct whw_err whw_cmd_set_clock(struct wrenhw *hw, struct whw_cmd *c)
{
	const struct wren_aq_set_clock *s = &c->cmd->u.set_clock;
	struct whw_err err;

	err = whw_check_rsvd_cmd(c, offsetof(struct wren_aq_cmd,
					     u.set_clock.rsvd),
				 sizeof(s->rsvd));
	if (err.status)
		return err;
	hw->clock_base = whw_le64(s->ns);
	hw->clock_set_ns = whw_now(hw);
	return WHW_OK;
}
