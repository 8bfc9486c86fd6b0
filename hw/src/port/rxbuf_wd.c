// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The transmit-side PFC watchdog (SET_PFC_WD, WREN_PFC_STORM_TX): a host
 * that stopped taking frames keeps its buffers full, and the pauses this
 * port sends would then stop the peer - and through it the fabric - for
 * good.  So a priority held XOFF without a break for timeout_ms leaves
 * flow control: rxbuf_pause.c sends its XON and no more pauses, and its
 * frames drop at a full buffer like a lossy priority's.  It comes back
 * after recovery_ms in which its buffer never rose above XOFF.
 */
#include "../core/whw_events.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "whw_rxbuf.h"

static uint64_t timeout_ns(const struct wrenhw *hw)
{
	return (uint64_t)whw_le16(hw->dcb.state.pfc_wd.timeout_ms) * 1000000u;
}

static uint64_t recovery_ns(const struct wrenhw *hw)
{
	return (uint64_t)whw_le16(hw->dcb.state.pfc_wd.recovery_ms) * 1000000u;
}

void whw_rxbuf_wd_xoff(struct wrenhw *hw, uint8_t prios)
{
	hw->rxbuf.warned &= (uint8_t)~prios;
}

void whw_rxbuf_wd_run(struct wrenhw *hw, uint64_t now, uint8_t need)
{
	struct whw_rxbuf *rb = &hw->rxbuf;
	uint64_t t = timeout_ns(hw), r = recovery_ns(hw);
	uint8_t before = hw->dcb.tx_storm, enter = 0, leave = 0, warn = 0;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		uint8_t bit = (uint8_t)(1u << p);

		if (need & bit)
			rb->quiet_since[p] = UINT64_MAX;
		else if (rb->quiet_since[p] == UINT64_MAX)
			rb->quiet_since[p] = now;
		if (!t) {
			/* Watchdog off: nothing stays in the storm state. */
			leave |= before & bit;
			continue;
		}
		if ((rb->paused & bit) && !(before & bit)) {
			uint64_t held = now - rb->xoff_since[p];

			if (held >= t / 2 && !(rb->warned & bit)) {
				rb->warned |= bit;
				warn |= bit;
			}
			if (held >= t)
				enter |= bit;
		}
		if ((before & bit) && rb->quiet_since[p] != UINT64_MAX &&
		    now - rb->quiet_since[p] >= r)
			leave |= bit;
	}
	/* Priorities crossing together count as one event of the port. */
	if (warn)
		hw->cnt_port[WREN_CNT_TX_PAUSE_STORM_WARNING_EVENTS]++;
	if (enter) {
		hw->cnt_port[WREN_CNT_TX_PAUSE_STORM_ERROR_EVENTS]++;
		for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
			if (!(enter & (1u << p)))
				continue;
			hw->cnt_prio[p][WREN_PRIO_CNT_PFC_STORM_EVENTS]++;
			/* Quiet from now on, not from before the storm. */
			rb->quiet_since[p] = (need & (1u << p)) ? UINT64_MAX
								 : now;
		}
	}
	hw->dcb.tx_storm = (uint8_t)((before | enter) & ~leave);
	if (hw->dcb.tx_storm != before)
		whw_aeq_post(hw, WREN_EVENT_PFC_STORM, WREN_PFC_STORM_TX,
			     hw->dcb.tx_storm, 0);
}

uint64_t whw_rxbuf_wd_next(const struct wrenhw *hw)
{
	const struct whw_rxbuf *rb = &hw->rxbuf;
	uint64_t t = timeout_ns(hw), next = UINT64_MAX;

	if (!t)
		return UINT64_MAX;
	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		uint8_t bit = (uint8_t)(1u << p);
		uint64_t d = UINT64_MAX;

		if (hw->dcb.tx_storm & bit) {
			if (rb->quiet_since[p] != UINT64_MAX)
				d = rb->quiet_since[p] + recovery_ns(hw);
		} else if (rb->paused & bit) {
			d = rb->xoff_since[p] +
			    ((rb->warned & bit) ? t : t / 2);
		}
		if (d < next)
			next = d;
	}
	return next;
}
