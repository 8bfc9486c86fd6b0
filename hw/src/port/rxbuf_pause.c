// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What the receive buffers make this port send: PFC (802.1Qbb) for the
 * lossless priorities of a buffer above XOFF, or, with no priority
 * lossless and SET_PORT's WREN_PAUSE_TX, 802.3x pause for the whole link.
 *
 * XOFF carries the longest pause time (0xffff quanta) and is refreshed at
 * half of it while the buffer stays above XON, so the peer never resumes
 * on its own while the buffer is still filling; at or below XON the port
 * sends time 0 (XON) at once rather than let the peer wait out the quanta.
 * Control frames go straight to the wire: they bypass the transmit
 * scheduler and count only in the pause counters, not in tx_packets.
 */
#include "../core/whw_services.h"
#include "../core/whw_timer.h"
#include "../eth/whw_eth.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "whw_mac_ctrl.h"
#include "whw_rxbuf.h"

#define XOFF_QUANTA	0xffffu
#define ALL_PRIOS	0xffu

/* Priorities whose buffer is above XOFF (@xon: above XON) now. */
static uint8_t over(const struct wrenhw *hw, bool xon)
{
	const struct wren_buffer *bc = &hw->dcb.state.buffer;
	uint8_t m = 0;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		unsigned int b = bc->prio2buffer[p] & (WREN_NUM_PRIO - 1);
		uint32_t lim = whw_le32(xon ? bc->xon[b] : bc->xoff[b]);

		if (hw->rxbuf.occ[b] > lim)
			m |= (uint8_t)(1u << p);
	}
	return m;
}

/* Refresh period: half the XOFF time at the link's speed, at least 1 us. */
static uint64_t refresh_ns(const struct wrenhw *hw)
{
	uint64_t ns = whw_pause_quanta_ns(XOFF_QUANTA, hw->port.phys_speed) / 2;

	return ns < 1000 ? 1000 : ns;
}

/* Sends one control frame naming @named, pausing @on, releasing the rest. */
static void send(struct wrenhw *hw, bool global, uint8_t named, uint8_t on)
{
	uint8_t f[WHW_MAC_CTRL_FRAME_LEN];
	uint16_t q[WREN_NUM_PRIO];
	size_t n;

	if (!named || !whw_link_active(hw) || !hw->ops->tx_frame)
		return;
	if (global) {
		n = whw_mac_ctrl_build_pause(f, hw->port.mac,
					     on ? XOFF_QUANTA : 0);
		hw->cnt_port[WREN_CNT_TX_PAUSE]++;
	} else {
		for (unsigned int p = 0; p < WREN_NUM_PRIO; p++)
			q[p] = (on & (1u << p)) ? XOFF_QUANTA : 0;
		n = whw_mac_ctrl_build_pfc(f, hw->port.mac, named, q);
		for (unsigned int p = 0; p < WREN_NUM_PRIO; p++)
			if (named & (1u << p))
				hw->cnt_prio[p][WREN_PRIO_CNT_TX_PFC_FRAMES]++;
	}
	hw->ops->tx_frame(hw->opaque, f, n);
}

/* TX_PAUSE_US: the paused priorities' time since the last call. */
static void account(struct wrenhw *hw, uint64_t now)
{
	struct whw_rxbuf *rb = &hw->rxbuf;
	uint64_t dt = now > rb->acct_at ? now - rb->acct_at : 0;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		uint64_t ns;

		if (!(rb->paused & (1u << p)))
			continue;
		ns = rb->pause_rem_ns[p] + dt;
		hw->cnt_pfc[p][WREN_PFC_CNT_TX_PAUSE_US] += ns / 1000;
		rb->pause_rem_ns[p] = (uint32_t)(ns % 1000);
	}
	rb->acct_at = now;
}

/*
 * The priorities to hold XOFF now: above XOFF, or still above XON once
 * paused (the hysteresis), less those the watchdog took out.  @need gets
 * the priorities whose buffer needs a pause, storm or not.
 */
static uint8_t wanted(const struct wrenhw *hw, bool *global, uint8_t *need)
{
	const struct whw_rxbuf *rb = &hw->rxbuf;
	uint8_t pfc = hw->dcb.state.pfc.pfc_en;
	uint8_t hi = over(hw, false);
	uint8_t mid = over(hw, true);

	if (pfc) {
		uint8_t cur = rb->global ? 0 : rb->paused;

		*global = false;
		*need = hi & pfc;
		return (hi | (mid & cur)) & pfc & (uint8_t)~hw->dcb.tx_storm;
	}
	*global = true;
	if (!(hw->port.pause & WREN_PAUSE_TX)) {
		*need = 0;
		return 0;
	}
	/* One pause for the whole link: any buffer, all priorities. */
	*need = hi ? ALL_PRIOS : 0;
	if (hw->dcb.tx_storm)
		return 0;
	return hi || (mid && rb->global && rb->paused) ? ALL_PRIOS : 0;
}

static void apply(struct wrenhw *hw, uint64_t now, uint8_t want, bool global)
{
	struct whw_rxbuf *rb = &hw->rxbuf;
	uint8_t newly, released;

	/* PFC turned on or off under a pause: release it the old way. */
	if (rb->paused && rb->global != global) {
		send(hw, rb->global, rb->paused, 0);
		rb->paused = 0;
	}
	newly = want & (uint8_t)~rb->paused;
	released = rb->paused & (uint8_t)~want;
	if (newly) {
		/* One frame: new XOFFs, refreshed ones and any XON. */
		send(hw, global, global ? ALL_PRIOS : want | released, want);
		rb->last_sent = now;
		for (unsigned int p = 0; p < WREN_NUM_PRIO; p++)
			if (newly & (1u << p))
				rb->xoff_since[p] = now;
		whw_rxbuf_wd_xoff(hw, newly);
	} else if (released) {
		send(hw, global, global ? ALL_PRIOS : released, 0);
	} else if (want && now >= rb->last_sent + refresh_ns(hw)) {
		send(hw, global, global ? ALL_PRIOS : want, want);
		rb->last_sent = now;
	}
	rb->paused = want;
	rb->global = global;
}

void whw_rxbuf_account(struct wrenhw *hw)
{
	account(hw, whw_now(hw));
}

void whw_rxbuf_fc_update(struct wrenhw *hw)
{
	struct whw_rxbuf *rb = &hw->rxbuf;
	uint64_t now = whw_now(hw);
	uint64_t next = UINT64_MAX, wd;
	uint8_t want, need;
	bool global;

	account(hw, now);
	wanted(hw, &global, &need);
	whw_rxbuf_wd_run(hw, now, need);
	/* Again: the watchdog may have taken priorities out. */
	want = wanted(hw, &global, &need);
	apply(hw, now, want, global);
	if (rb->paused)
		next = rb->last_sent + refresh_ns(hw);
	wd = whw_rxbuf_wd_next(hw);
	if (wd < next)
		next = wd;
	if (next == UINT64_MAX)
		whw_timer_del(hw, &rb->fc_timer);
	else
		whw_timer_add(hw, &rb->fc_timer, next);
}

static void fc_fn(struct wrenhw *hw, struct whw_timer *t)
{
	(void)t;
	whw_rxbuf_fc_update(hw);
}

void whw_rxbuf_fc_reset(struct wrenhw *hw)
{
	struct whw_rxbuf *rb = &hw->rxbuf;
	uint64_t now = whw_now(hw);

	if (rb->paused)
		send(hw, rb->global, rb->global ? ALL_PRIOS : rb->paused, 0);
	whw_timer_del(hw, &rb->fc_timer);
	rb->fc_timer.fn = fc_fn;
	rb->paused = 0;
	rb->global = false;
	rb->last_sent = 0;
	rb->acct_at = now;
	rb->warned = 0;
	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		rb->pause_rem_ns[p] = 0;
		rb->xoff_since[p] = 0;
		rb->quiet_since[p] = UINT64_MAX;
	}
}
