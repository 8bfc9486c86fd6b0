// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Pauses from the peer.  A PFC frame pauses each priority it names that
 * is lossless here (SET_PFC pfc_en) for its quanta x 512 bit times at the
 * link's speed; a time of 0 (XON) resumes it at once and a new pause
 * restarts the time.  An 802.3x pause pauses every priority, only with
 * SET_PORT WREN_PAUSE_RX.  The port scheduler asks whw_pause_mask()
 * which priorities are held.
 *
 * The receive-side PFC watchdog (SET_PFC_WD): a priority the peer keeps
 * paused without a break for timeout_ms enters the storm state, in which
 * its pauses are ignored, until recovery_ms pass without any pause for
 * it.  Everything is evaluated up to "now" whenever it is asked, and a
 * whw_timer makes sure the watchdog runs on time even when nothing is
 * sent.
 */
#include <string.h>

#include "../core/whw_events.h"
#include "../core/whw_services.h"
#include "../core/whw_timer.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "whw_mac_ctrl.h"
#include "whw_sched.h"

#define NS_PER_MS	1000000ull

/* Count the time @p has been held since it was last counted, up to @at. */
static void count_to(struct wrenhw *hw, unsigned int p, uint64_t at)
{
	struct whw_pause *ps = &hw->pause;
	uint64_t t = (at > ps->counted[p] ? at - ps->counted[p] : 0) +
		     ps->rem_ns[p];

	hw->cnt_prio[p][WREN_PRIO_CNT_RX_PFC_PAUSE_US] += t / 1000;
	ps->rem_ns[p] = (uint32_t)(t % 1000);
	if (at > ps->counted[p])
		ps->counted[p] = at;
}

/* A pause of @p ended at @at: count the rest of the time it held. */
static void pause_end(struct wrenhw *hw, unsigned int p, uint64_t at)
{
	count_to(hw, p, at);
	hw->pause.paused &= (uint8_t)~(1u << p);
}

static uint64_t storm_at(const struct wrenhw *hw, unsigned int p)
{
	uint16_t ms = whw_le16(hw->dcb.state.pfc_wd.timeout_ms);

	return ms ? hw->pause.start[p] + ms * NS_PER_MS : UINT64_MAX;
}

static uint64_t recover_at(const struct wrenhw *hw, unsigned int p)
{
	return hw->pause.last_rx[p] +
	       whw_le16(hw->dcb.state.pfc_wd.recovery_ms) * NS_PER_MS;
}

/* The earliest time anything below changes by itself. */
static uint64_t next_change(const struct wrenhw *hw)
{
	const struct whw_pause *ps = &hw->pause;
	uint64_t next = ps->global ? ps->global_until : UINT64_MAX;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		uint64_t t = UINT64_MAX;

		if (ps->paused & (1u << p)) {
			t = storm_at(hw, p);
			if (ps->until[p] < t)
				t = ps->until[p];
		} else if (hw->dcb.rx_storm & (1u << p)) {
			t = recover_at(hw, p);
		}
		if (t < next)
			next = t;
	}
	return next;
}

/* Pauses ending, storms starting and ending, up to @now. */
static void update(struct wrenhw *hw, uint64_t now)
{
	struct whw_pause *ps = &hw->pause;
	uint8_t storm = hw->dcb.rx_storm;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		uint8_t bit = (uint8_t)(1u << p);

		if (ps->paused & bit) {
			uint64_t s = storm_at(hw, p);

			if (s <= now && s < ps->until[p]) {
				pause_end(hw, p, s);
				hw->dcb.rx_storm |= bit;
				hw->cnt_prio[p][WREN_PRIO_CNT_PFC_STORM_EVENTS]++;
			} else if (ps->until[p] <= now) {
				pause_end(hw, p, ps->until[p]);
			}
		} else if ((hw->dcb.rx_storm & bit) &&
			   recover_at(hw, p) <= now) {
			hw->dcb.rx_storm &= (uint8_t)~bit;
		}
	}
	if (ps->global && ps->global_until <= now)
		ps->global = false;
	if (storm != hw->dcb.rx_storm)
		whw_aeq_post(hw, WREN_EVENT_PFC_STORM, WREN_PFC_STORM_RX,
			     hw->dcb.rx_storm, 0);
}

static void rearm(struct wrenhw *hw)
{
	uint64_t next = next_change(hw);

	if (next == UINT64_MAX)
		whw_timer_del(hw, &hw->pause.timer);
	else
		whw_timer_add(hw, &hw->pause.timer, next);
}

static void pause_timer_fn(struct wrenhw *hw, struct whw_timer *t)
{
	(void)t;
	update(hw, whw_now(hw));
	rearm(hw);
}

uint8_t whw_pause_mask(struct wrenhw *hw, uint64_t now, uint64_t *next)
{
	struct whw_pause *ps = &hw->pause;

	if (!ps->paused && !ps->global) {
		*next = UINT64_MAX;
		return 0;
	}
	update(hw, now);
	rearm(hw);
	*next = next_change(hw);
	return ps->global ? 0xff : ps->paused;
}

void whw_pause_account(struct wrenhw *hw)
{
	uint64_t now = whw_now(hw);

	update(hw, now);
	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++)
		if (hw->pause.paused & (1u << p))
			count_to(hw, p, now);
	rearm(hw);
}

static void rx_pfc(struct wrenhw *hw, const struct whw_pause_req *req,
		   uint64_t now)
{
	struct whw_pause *ps = &hw->pause;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		uint8_t bit = (uint8_t)(1u << p);

		if (!(req->enable & bit))
			continue;
		hw->cnt_prio[p][WREN_PRIO_CNT_RX_PFC_FRAMES]++;
		if (!(hw->dcb.state.pfc.pfc_en & bit))
			continue;	/* a lossy priority is never paused */
		if (!req->quanta[p]) {
			if (ps->paused & bit)
				pause_end(hw, p, now);
			continue;
		}
		ps->last_rx[p] = now;
		if (hw->dcb.rx_storm & bit)
			continue;	/* the watchdog ignores it */
		if (!(ps->paused & bit)) {
			ps->paused |= bit;
			ps->start[p] = now;
			ps->counted[p] = now;
			hw->cnt_pfc[p][WREN_PFC_CNT_RX_TRANSITIONS]++;
		}
		ps->until[p] = now + whw_pause_quanta_ns(req->quanta[p],
							 hw->port.phys_speed);
	}
}

bool whw_pause_rx(struct wrenhw *hw, const uint8_t *f, size_t len)
{
	struct whw_pause *ps = &hw->pause;
	struct whw_pause_req req;
	uint64_t now = whw_now(hw);

	if (whw_mac_ctrl_parse(f, len, &req)) {
		hw->cnt_port[WREN_CNT_RX_DROPPED_FILTER]++;
		return false;
	}
	update(hw, now);
	if (req.opcode == WHW_MAC_CTRL_PAUSE) {
		hw->cnt_port[WREN_CNT_RX_PAUSE]++;
		if (hw->port.pause & WREN_PAUSE_RX) {
			ps->global = req.quanta[0] != 0;
			ps->global_until = now +
				whw_pause_quanta_ns(req.quanta[0],
						    hw->port.phys_speed);
		}
	} else {
		rx_pfc(hw, &req, now);
	}
	rearm(hw);
	return true;
}

void whw_pause_clear(struct wrenhw *hw, bool reset)
{
	struct whw_pause *ps = &hw->pause;
	uint64_t now = whw_now(hw);

	whw_timer_del(hw, &ps->timer);
	if (reset) {
		memset(ps, 0, sizeof(*ps));
		ps->timer.fn = pause_timer_fn;
		return;
	}
	update(hw, now);
	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++)
		if (ps->paused & (1u << p))
			pause_end(hw, p, now);
	ps->global = false;
	rearm(hw);	/* a storm still recovers on time */
}
