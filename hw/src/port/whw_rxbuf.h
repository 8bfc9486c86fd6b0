/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The port's receive buffers (rxbuf.c), the pause and PFC frames they make
 * the port send (rxbuf_pause.c) and the transmit-side PFC watchdog that
 * stops those pauses when the host is stuck (rxbuf_wd.c).
 *
 * With the normal drain a received frame goes straight on to the Ethernet
 * engine and no buffer fills.  DIAG_FAULT RX_DRAIN slows the host side
 * down: frames then wait, copied, in one arrival-ordered FIFO and are
 * charged to their priority group's buffer (SET_BUFFER), which drives
 * XOFF/XON.
 */
#ifndef WHW_RXBUF_H
#define WHW_RXBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "../core/whw_timer.h"
#include "../whw_board.h"
#include "wrenhw.h"

/* A frame is charged its length, at least one cell, to its buffer. */
#define WHW_RXBUF_CELL		64u
#define WHW_RXBUF_SLOTS		(WHW_PORT_BUFFER_BYTES / WHW_RXBUF_CELL)
/* DIAG RX_DRAIN: the slowest drain is 1 Mb/s, the fastest the top link. */
#define WHW_RXBUF_MAX_DRAIN	400000u
/* Frames one drain timer run hands on before it yields. */
#define WHW_RXBUF_BATCH		64u

struct whw_rxbuf_slot {
	uint32_t off;		/* in pool; a frame may wrap around its end */
	uint16_t len;
	uint8_t buf;		/* the buffer it is charged to */
	uint8_t prio;
};

struct whw_rxbuf {
	uint32_t drain_mbps;	/* 0: normal; WREN_DIAG_RX_DRAIN_STUCK */
	uint64_t drain_at;	/* when the head frame has been taken */
	struct whw_timer drain_timer;
	uint32_t head, count;	/* slots */
	uint32_t pool_head, pool_used;
	uint32_t occ[WREN_NUM_PRIO];	/* bytes charged per buffer */
	uint32_t total;
	/*
	 * Only a host side slower than the wire (DIAG RX_DRAIN) queues
	 * frames, so the slots and the pool (the port's memory, most of the
	 * device's size) are allocated when the first frame waits, and kept.
	 */
	struct whw_rxbuf_slot *slot;	/* WHW_RXBUF_SLOTS */
	uint8_t *pool;			/* WHW_PORT_BUFFER_BYTES */
	uint8_t scratch[WHW_ETH_MAX_FRAME];	/* a wrapped frame, unrolled */

	/* Flow control this port sends (rxbuf_pause.c). */
	uint8_t paused;		/* priorities the peer was told XOFF */
	bool global;		/* ... with 802.3x pause, not PFC */
	uint64_t last_sent;	/* last XOFF or refresh */
	uint64_t acct_at;	/* TX_PAUSE_US counted up to here */
	uint32_t pause_rem_ns[WREN_NUM_PRIO];
	uint64_t xoff_since[WREN_NUM_PRIO];
	struct whw_timer fc_timer;

	/* Transmit-side PFC watchdog (rxbuf_wd.c). */
	uint8_t warned;		/* counted a warning this XOFF spell */
	uint64_t quiet_since[WREN_NUM_PRIO];	/* UINT64_MAX: needs pause */
};

/* rxbuf.c */
/**
 * whw_rxbuf_rx() - a data frame from the wire enters the port
 * @hw: the device
 * @f: the frame, as received (VLAN tag still on)
 * @len: its length
 *
 * With the normal drain and nothing waiting, the frame goes straight to
 * whw_eth_rx().  Otherwise it is classified, charged to its priority
 * group's buffer and queued, or dropped when that buffer is full.
 *
 * Return: false if the frame was dropped.
 */
bool whw_rxbuf_rx(struct wrenhw *hw, const uint8_t *f, size_t len);
/* Frees the slots and the pool (wrenhw_destroy). */
void whw_rxbuf_fini(struct wrenhw *hw);
/**
 * whw_rxbuf_set_drain() - DIAG_FAULT RX_DRAIN
 * @hw: the device
 * @mbps: 0 (normal), 1 .. WHW_RXBUF_MAX_DRAIN, or WREN_DIAG_RX_DRAIN_STUCK
 *
 * Return: false for any other rate (the caller answers BAD_PARAM).
 */
bool whw_rxbuf_set_drain(struct wrenhw *hw, uint32_t mbps);
/**
 * whw_rxbuf_reset() - power-on state: normal drain, buffers empty
 * @hw: the device, after whw_dcb_defaults()
 *
 * Priorities this port had paused are released (XON) first.
 */
void whw_rxbuf_reset(struct wrenhw *hw);

/* rxbuf_pause.c */
/**
 * whw_rxbuf_fc_update() - sends XOFF, XON or a refresh as the buffers say
 * @hw: the device
 *
 * Called whenever a buffer's fill level or the PFC, pause, buffer or
 * watchdog settings change; it also runs the watchdog and re-arms its own
 * timer for the next refresh or watchdog deadline.
 */
void whw_rxbuf_fc_update(struct wrenhw *hw);
/**
 * whw_rxbuf_account() - count the held priorities' pause time up to now
 * @hw: the device
 *
 * QUERY_COUNTERS of a PFC set calls it first, so that TX_PAUSE_US of a
 * priority still held XOFF reads as the time so far.
 */
void whw_rxbuf_account(struct wrenhw *hw);
/* Releases every paused priority (XON) and forgets the pause state. */
void whw_rxbuf_fc_reset(struct wrenhw *hw);

/* rxbuf_wd.c */
/**
 * whw_rxbuf_wd_run() - the transmit-side PFC watchdog at @now
 * @hw: the device
 * @now: the model's time
 * @need: priorities whose buffer needs a pause now
 *
 * Counts warnings at half the timeout, puts priorities held XOFF for the
 * whole timeout into hw->dcb.tx_storm, and takes them out again after
 * recovery_ms without @need; posts WREN_EVENT_PFC_STORM on each change.
 */
void whw_rxbuf_wd_run(struct wrenhw *hw, uint64_t now, uint8_t need);
/* The watchdog's next deadline (UINT64_MAX: none). */
uint64_t whw_rxbuf_wd_next(const struct wrenhw *hw);
/* A priority entered XOFF at @now: a new spell for the watchdog. */
void whw_rxbuf_wd_xoff(struct wrenhw *hw, uint8_t prios);

#endif
