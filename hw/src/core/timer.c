// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The host lends the model a single timer (ops->timer_mod).  Engines that
 * need deadlines of their own (interrupt moderation, RC ACK and RNR
 * timeouts, DCQCN, pause, the port scheduler) embed a struct whw_timer and
 * register it here; the list is kept sorted so the host timer is always
 * armed no later than the earliest one.
 *
 * Moving the host timer later is left undone: an RC QP pushes its ACK
 * timeout out with every request it sends, and QEMU wakes its main loop
 * each time its earliest timer changes, one host thread wake-up a message.
 * A timer armed too early fires, finds nothing due and is armed again for
 * the real deadline, once a timeout at most.
 */
#include "../whw_device.h"
#include "whw_timer.h"

void whw_timer_del(struct wrenhw *hw, struct whw_timer *t)
{
	if (!t->pending)
		return;
	for (struct whw_timer **p = &hw->timers; *p; p = &(*p)->next) {
		if (*p == t) {
			*p = t->next;
			break;
		}
	}
	t->pending = false;
	t->next = NULL;
}

void whw_timer_add(struct wrenhw *hw, struct whw_timer *t, uint64_t deadline)
{
	struct whw_timer **p = &hw->timers;

	whw_timer_del(hw, t);
	while (*p && (*p)->deadline <= deadline)
		p = &(*p)->next;
	t->deadline = deadline;
	t->next = *p;
	t->pending = true;
	*p = t;
	/* Only a new earliest deadline changes what the host must do. */
	if (hw->timers == t)
		whw_timer_rearm(hw);
}

uint64_t whw_timers_next(const struct wrenhw *hw)
{
	return hw->timers ? hw->timers->deadline : UINT64_MAX;
}

void whw_timers_run(struct wrenhw *hw, uint64_t now)
{
	/*
	 * One at a time from the head, so a callback may add or delete any
	 * timer.  Bounded: a callback that keeps re-adding itself for "now"
	 * waits for the next expiry once the budget is spent.
	 */
	for (unsigned int n = 0; n < 4096; n++) {
		struct whw_timer *t = hw->timers;

		if (!t || t->deadline > now)
			return;
		hw->timers = t->next;
		t->next = NULL;
		t->pending = false;
		t->fn(hw, t);
	}
}

void whw_timer_rearm(struct wrenhw *hw)
{
	uint64_t deadline = UINT64_MAX;

	if (hw->port.flapping)
		deadline = hw->port.flap_until_ns;
	if (whw_timers_next(hw) < deadline)
		deadline = whw_timers_next(hw);
	if (hw->host_timer_armed && hw->host_timer_ns <= deadline)
		return;
	hw->host_timer_armed = deadline != UINT64_MAX;
	hw->host_timer_ns = deadline;
	if (hw->ops->timer_mod)
		hw->ops->timer_mod(hw->opaque, deadline);
}

void whw_timer_host_expired(struct wrenhw *hw)
{
	hw->host_timer_armed = false;
}
