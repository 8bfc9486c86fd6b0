// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion events and interrupt moderation (WREN_CAP_CQ_MODERATION).
 *
 * An armed CQ without moderation (moderation_usec == 0) raises its
 * WREN_EVENT_COMP at the first CQE.  With moderation_usec > 0 the event
 * waits until moderation_count CQEs are pending (0: no count limit) or
 * moderation_usec have passed since the first pending one, whichever comes
 * first.  "Pending" counts the CQEs written since the CQ was armed (plus
 * any already beyond the consumer index when it was armed).  Solicited
 * arming is never delayed: it exists to wake a consumer at once.
 *
 * Completion EQs take the same two fields (CREATE_EQ) for their MSI-X
 * interrupt, counted in EQEs: eq.c, the event code that this file posts
 * to.  Both kinds use the model's timer list.
 */
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_events.h"
#include "whw_services.h"
#include "whw_timer.h"

static void cq_fire(struct wrenhw *hw, struct whw_cq *cq)
{
	cq->arm = 0;
	cq->mod_pending = 0;
	whw_timer_del(hw, &cq->mod_timer);
	whw_eq_post(hw, cq->eq, WREN_EVENT_COMP, 0, cq->hdr.id, 0);
}

static void cq_mod_expired(struct wrenhw *hw, struct whw_timer *t)
{
	struct whw_cq *cq = WHW_CONTAINER_OF(t, struct whw_cq, mod_timer);

	if ((cq->arm & WREN_DB_CQ_ARM_NEXT) && cq->mod_pending)
		cq_fire(hw, cq);
}

void whw_cq_mod_init(struct whw_cq *cq)
{
	cq->mod_timer.fn = cq_mod_expired;
}

void whw_cq_mod_fini(struct wrenhw *hw, struct whw_cq *cq)
{
	whw_timer_del(hw, &cq->mod_timer);
}

/* @n more CQEs are pending on an armed-for-next CQ. */
static void cq_pending(struct wrenhw *hw, struct whw_cq *cq, uint32_t n)
{
	if (!cq->moderation_usec) {
		cq_fire(hw, cq);
		return;
	}
	cq->mod_pending += n;
	if (cq->moderation_count && cq->mod_pending >= cq->moderation_count) {
		cq_fire(hw, cq);
		return;
	}
	if (!cq->mod_timer.pending)
		whw_timer_add(hw, &cq->mod_timer,
			      whw_now(hw) + cq->moderation_usec * 1000ull);
}

void whw_cq_notify(struct wrenhw *hw, struct whw_cq *cq, bool solicited)
{
	if ((cq->arm & WREN_DB_CQ_ARM_SOLICITED) && solicited) {
		cq_fire(hw, cq);
		return;
	}
	if (cq->arm & WREN_DB_CQ_ARM_NEXT)
		cq_pending(hw, cq, 1);
}

void whw_cq_arm(struct wrenhw *hw, struct whw_cq *cq, uint32_t ci,
		uint32_t flags)
{
	bool was_armed = cq->arm & WREN_DB_CQ_ARM_NEXT;

	cq->ci = ci;
	if (!flags)
		return;
	cq->arm |= flags;
	/*
	 * CQEs beyond the consumer index already: the event comes at once
	 * (or, moderated, is held as if they had just been written).  The
	 * device does not remember which CQEs were solicited, so a
	 * solicited arm only fires for new ones.
	 */
	if ((flags & WREN_DB_CQ_ARM_NEXT) && !was_armed && cq->pi != ci)
		cq_pending(hw, cq, cq->pi - ci);
}
