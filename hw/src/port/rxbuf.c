// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's receive buffers between the wire and the Ethernet engine.
 *
 * A real NIC's buffers fill only when its host side (PCIe, descriptors,
 * the driver) takes frames more slowly than the wire brings them.  Here
 * the host side is as fast as the model, so the normal drain passes each
 * frame straight on with no copy and no delay; DIAG_FAULT RX_DRAIN sets a
 * slower host (arg Mb/s, or none at all) for tests of PFC.  Then frames
 * wait in one FIFO in arrival order, each charged to the buffer of its
 * priority (prio2buffer), and a timer hands them on at the drain rate.  A
 * frame that does not fit its buffer (or the port's memory, should
 * SET_BUFFER have moved the partition under waiting frames) is dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/whw_services.h"
#include "../core/whw_timer.h"
#include "../eth/whw_eth.h"
#include "../whw_board.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "whw_port.h"
#include "whw_rxbuf.h"

#define ETH_P_8021Q	0x8100

/* The priority of a received frame: DSCP under DSCP trust, else PCP. */
static uint8_t classify(const struct wrenhw *hw, const uint8_t *f, size_t len)
{
	bool tagged = len >= 18 && whw_rd16be(f + 12) == ETH_P_8021Q;
	uint8_t dscp;

	/* SET_TRUST: DSCP trust classifies IP by DSCP, the rest by PCP. */
	if (whw_trust_dscp(hw) && whw_frame_dscp(f, len, &dscp))
		return whw_dscp_prio(hw, dscp);
	return tagged ? f[14] >> 5 : 0;
}

static uint32_t charge(uint32_t len)
{
	return len < WHW_RXBUF_CELL ? WHW_RXBUF_CELL : len;
}

/* How long the host side takes for @len bytes at the drain rate. */
static uint64_t drain_ns(const struct whw_rxbuf *rb, uint32_t len)
{
	if (!rb->drain_mbps || rb->drain_mbps == WREN_DIAG_RX_DRAIN_STUCK)
		return 0;
	return (uint64_t)len * 8000u / rb->drain_mbps;
}

static void arm_drain(struct wrenhw *hw)
{
	struct whw_rxbuf *rb = &hw->rxbuf;

	if (!rb->count || rb->drain_mbps == WREN_DIAG_RX_DRAIN_STUCK) {
		whw_timer_del(hw, &rb->drain_timer);
		return;
	}
	whw_timer_add(hw, &rb->drain_timer, rb->drain_at);
}

static void pool_copy_in(struct whw_rxbuf *rb, uint32_t off, const uint8_t *f,
			 uint32_t len)
{
	uint32_t first = WHW_PORT_BUFFER_BYTES - off;

	if (first > len)
		first = len;
	memcpy(rb->pool + off, f, first);
	memcpy(rb->pool, f + first, len - first);
}

/* The slots and the pool, on the first frame that waits. */
static bool store_alloc(struct whw_rxbuf *rb)
{
	if (rb->pool)
		return true;
	rb->slot = calloc(WHW_RXBUF_SLOTS, sizeof(*rb->slot));
	rb->pool = malloc(WHW_PORT_BUFFER_BYTES);
	if (rb->slot && rb->pool)
		return true;
	free(rb->slot);
	free(rb->pool);
	rb->slot = NULL;
	rb->pool = NULL;
	return false;
}

static bool enqueue(struct wrenhw *hw, const uint8_t *f, uint32_t len)
{
	struct whw_rxbuf *rb = &hw->rxbuf;
	uint8_t prio = classify(hw, f, len);
	const struct wren_buffer *bc = &hw->dcb.state.buffer;
	uint8_t b = bc->prio2buffer[prio] & (WREN_NUM_PRIO - 1);
	uint32_t size = whw_le32(bc->size[b]);
	uint32_t c = charge(len);
	struct whw_rxbuf_slot *s;

	/*
	 * Charges are at least a cell and never exceed the port's memory,
	 * so neither the slots nor the pool can run out before this does.
	 */
	if (c > size || rb->occ[b] > size - c ||
	    rb->total > WHW_PORT_BUFFER_BYTES - c ||
	    rb->count >= WHW_RXBUF_SLOTS ||
	    rb->pool_used > WHW_PORT_BUFFER_BYTES - len ||
	    !store_alloc(rb)) {
		hw->cnt_port[WREN_CNT_RX_PACKETS]++;
		hw->cnt_port[WREN_CNT_RX_BYTES] += len;
		hw->cnt_port[WREN_CNT_RX_DROPPED_NO_BUFFER]++;
		hw->cnt_pfc[prio][WREN_PFC_CNT_RX_BUFFER_DISCARDS]++;
		return false;
	}
	s = &rb->slot[(rb->head + rb->count) % WHW_RXBUF_SLOTS];
	s->off = (rb->pool_head + rb->pool_used) % WHW_PORT_BUFFER_BYTES;
	s->len = (uint16_t)len;
	s->buf = b;
	s->prio = prio;
	pool_copy_in(rb, s->off, f, len);
	rb->pool_used += len;
	rb->occ[b] += c;
	rb->total += c;
	if (!rb->count++) {
		/* The host side starts on it now; it is gone when taken. */
		rb->drain_at = whw_now(hw) + drain_ns(rb, len);
		arm_drain(hw);
	}
	return true;
}

/* Hands the oldest frame on to the Ethernet engine and frees it. */
static void deliver_head(struct wrenhw *hw)
{
	struct whw_rxbuf *rb = &hw->rxbuf;
	struct whw_rxbuf_slot s = rb->slot[rb->head];
	const uint8_t *f = rb->pool + s.off;

	if (s.off + s.len > WHW_PORT_BUFFER_BYTES) {
		uint32_t first = WHW_PORT_BUFFER_BYTES - s.off;

		memcpy(rb->scratch, f, first);
		memcpy(rb->scratch + first, rb->pool, s.len - first);
		f = rb->scratch;
	}
	/* whw_eth_rx never comes back here, so the slot stays put. */
	whw_eth_rx(hw, f, s.len);
	rb->head = (rb->head + 1) % WHW_RXBUF_SLOTS;
	rb->count--;
	rb->pool_head = (rb->pool_head + s.len) % WHW_PORT_BUFFER_BYTES;
	rb->pool_used -= s.len;
	rb->occ[s.buf] -= charge(s.len);
	rb->total -= charge(s.len);
	if (!rb->count) {
		rb->pool_head = 0;
		rb->pool_used = 0;
	}
}

static void drain_fn(struct wrenhw *hw, struct whw_timer *t)
{
	struct whw_rxbuf *rb = &hw->rxbuf;
	uint64_t now = whw_now(hw);

	(void)t;

	for (unsigned int n = 0; n < WHW_RXBUF_BATCH && rb->count; n++) {
		if (rb->drain_mbps == WREN_DIAG_RX_DRAIN_STUCK ||
		    rb->drain_at > now)
			break;
		deliver_head(hw);
		if (rb->count)
			rb->drain_at += drain_ns(rb,
						 rb->slot[rb->head].len);
	}
	arm_drain(hw);
	whw_rxbuf_fc_update(hw);
}

bool whw_rxbuf_rx(struct wrenhw *hw, const uint8_t *f, size_t len)
{
	struct whw_rxbuf *rb = &hw->rxbuf;

	/* The normal host: as today, no copy and no delay. */
	if (!rb->drain_mbps && !rb->count)
		return whw_eth_rx(hw, f, len);
	if (len > WHW_ETH_MAX_FRAME)
		return false;	/* port.c allows no more; never trust it */
	if (!enqueue(hw, f, (uint32_t)len))
		return false;
	whw_rxbuf_fc_update(hw);
	return true;
}

bool whw_rxbuf_set_drain(struct wrenhw *hw, uint32_t mbps)
{
	struct whw_rxbuf *rb = &hw->rxbuf;

	if (mbps > WHW_RXBUF_MAX_DRAIN && mbps != WREN_DIAG_RX_DRAIN_STUCK)
		return false;
	rb->drain_mbps = mbps;
	/* The frame being taken starts over at the new rate. */
	if (rb->count)
		rb->drain_at = whw_now(hw) +
			       drain_ns(rb, rb->slot[rb->head].len);
	rb->drain_timer.fn = drain_fn;
	arm_drain(hw);
	return true;
}

void whw_rxbuf_reset(struct wrenhw *hw)
{
	struct whw_rxbuf *rb = &hw->rxbuf;

	whw_rxbuf_fc_reset(hw);
	whw_timer_del(hw, &rb->drain_timer);
	rb->drain_mbps = 0;
	rb->drain_at = 0;
	rb->head = 0;
	rb->count = 0;
	rb->pool_head = 0;
	rb->pool_used = 0;
	memset(rb->occ, 0, sizeof(rb->occ));
	rb->total = 0;
	rb->drain_timer.fn = drain_fn;
}

void whw_rxbuf_fini(struct wrenhw *hw)
{
	struct whw_rxbuf *rb = &hw->rxbuf;

	free(rb->slot);
	free(rb->pool);
	rb->slot = NULL;
	rb->pool = NULL;
}
