// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Interrupt moderation of completion EQs (WREN_CAP_CQ_MODERATION): the
 * same two CREATE_EQ fields as a CQ's (moderation.c), counted in EQEs,
 * for the EQ's MSI-X vector.  Below the event code, which calls in here
 * when EQEs become pending on an armed EQ.
 */
#include "whw_device.h"
#include "whw_events.h"
#include "whw_objects.h"
#include "whw_services.h"
#include "whw_timer.h"

static void eq_fire(struct wrenhw *hw, struct whw_eq *eq)
{
	eq->armed = false;
	eq->mod_pending = 0;
	whw_timer_del(hw, &eq->mod_timer);
	whw_irq(hw, eq->vector);
}

static void eq_mod_expired(struct wrenhw *hw, struct whw_timer *t)
{
	struct whw_eq *eq = WHW_CONTAINER_OF(t, struct whw_eq, mod_timer);

	if (eq->armed && eq->mod_pending)
		eq_fire(hw, eq);
}

void whw_eq_mod_init(struct whw_eq *eq)
{
	eq->mod_timer.fn = eq_mod_expired;
}

void whw_eq_mod_fini(struct wrenhw *hw, struct whw_eq *eq)
{
	whw_timer_del(hw, &eq->mod_timer);
}

void whw_eq_pending(struct wrenhw *hw, struct whw_eq *eq, uint32_t n)
{
	if (!eq->moderation_usec) {
		eq_fire(hw, eq);
		return;
	}
	eq->mod_pending += n;
	if (eq->moderation_count && eq->mod_pending >= eq->moderation_count) {
		eq_fire(hw, eq);
		return;
	}
	if (!eq->mod_timer.pending)
		whw_timer_add(hw, &eq->mod_timer,
			      whw_now(hw) + eq->moderation_usec * 1000ull);
}
