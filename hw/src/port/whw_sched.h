/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The port's transmit side: per-priority output FIFOs and the scheduler
 * that serialises them onto the wire at the link's speed (port_sched.c),
 * and the pauses received from the peer that hold priorities back, with
 * the receive-side PFC storm watchdog (pause.c).
 */
#ifndef WHW_SCHED_H
#define WHW_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/wren/wren_hw.h>

#include "../core/whw_timer.h"
#include "../whw_board.h"
#include "wrenhw.h"

/*
 * Per priority: sources start a frame only while less than SOFT bytes
 * wait (whw_port_tx_room()); a TSO burst or a reply (ACK, NAK) may go
 * beyond, up to HARD; what would pass HARD is dropped (tx_errors).
 */
#define WHW_SCHED_SOFT_BYTES	(64u * 1024)
#define WHW_SCHED_HARD_BYTES	(WHW_SCHED_SOFT_BYTES + 128u * 1024)
/* Ring bytes: frames plus a 4-byte length each. */
#define WHW_SCHED_RING_BYTES	(WHW_SCHED_HARD_BYTES + WHW_SCHED_HARD_BYTES / 2)
#define WHW_SCHED_MAX_FRAME	WHW_ETH_MAX_FRAME
/* Preamble, start delimiter, FCS and inter-frame gap: wire bytes. */
#define WHW_WIRE_OVERHEAD	24u
/*
 * How far the link (or a TC's shaper) may run ahead of the clock: a
 * frame goes out at once while the virtual "free at" time is within this
 * of now.  The serialiser's own FIFO, as on a real MAC; it lets a burst
 * of a few dozen frames leave in one go instead of one host timer per
 * frame, and the rate stays exact over any longer time.  None on a
 * discrete-event clock (wrenhw_config.discrete_clock): there a frame
 * leaves at its wire start time.
 */
#define WHW_SCHED_SLACK_NS	50000ull
/*
 * DRR quantum per percent of tc_bw (0 % ETS TCs get half of 1 %'s).
 * Small, so a round is short: a TC its shaper held back is visited
 * again before it loses the credit the shaper gave it.
 */
#define WHW_DRR_UNIT		64u
#define WHW_DRR_MIN		32u

struct whw_fifo {
	uint8_t *buf;		/* WHW_SCHED_RING_BYTES, on first use */
	uint32_t rd, wr;	/* ring offsets */
	uint32_t used;		/* ring bytes, length words included */
	uint32_t bytes;		/* frame bytes waiting */
	uint32_t frames;
};

struct whw_sched {
	struct whw_fifo fifo[WREN_NUM_PRIO];
	uint32_t frames;	/* all FIFOs */
	uint64_t link_free_ps;	/* virtual time the wire is free again */
	uint64_t tc_free_ps[WREN_NUM_TC];	/* shapers (maxrate) */
	uint32_t deficit[WREN_NUM_TC];
	uint8_t drr_tc;		/* DRR's current TC */
	bool drr_granted;	/* it got its quantum this visit */
	uint8_t rr_prio[WREN_NUM_TC];	/* round robin inside a TC */
	uint8_t room_wait;	/* priorities a source found full */
	bool wake_roce;		/* room appeared: RoCE senders run again */
	struct whw_timer timer;
	uint64_t due_ps;	/* ps the timer is due; UINT64_MAX: none */
	uint64_t slack_ps;	/* WHW_SCHED_SLACK_NS, or 0 (discrete clock) */
	uint8_t out[WHW_SCHED_MAX_FRAME];
};

struct whw_pause {
	uint8_t paused;		/* PFC XOFF now (pfc_en priorities) */
	uint64_t until[WREN_NUM_PRIO];	/* ns: the pause ends */
	uint64_t start[WREN_NUM_PRIO];	/* ns: XOFF without a break since */
	uint64_t last_rx[WREN_NUM_PRIO];	/* last pause (storm recovery) */
	uint64_t counted[WREN_NUM_PRIO]; /* ns: RX_PFC_PAUSE_US counted up to */
	uint32_t rem_ns[WREN_NUM_PRIO];	/* below 1 us, not counted yet */
	bool global;		/* 802.3x pause */
	uint64_t global_until;
	struct whw_timer timer;
};

/* port_sched.c */

/**
 * whw_port_xmit() - send a data frame through the port scheduler
 * @hw: the device
 * @prio: its priority, 0 .. 7
 * @frame: the frame (no FCS); copied if it has to wait
 * @len: its length
 *
 * The caller has checked the link.  Port and priority TX counters count
 * the frame when it reaches the wire.
 */
void whw_port_xmit(struct wrenhw *hw, uint8_t prio, const uint8_t *frame,
		   uint32_t len);
/**
 * whw_port_tx_room() - may a source start another frame of @prio?
 * @hw: the device
 * @prio: the priority
 *
 * False while the priority's FIFO holds WHW_SCHED_SOFT_BYTES or more; the
 * port then calls ops->schedule once it has drained below that, and
 * whw_port_tx_woken() tells the RoCE engine so.
 */
bool whw_port_tx_room(struct wrenhw *hw, uint8_t prio);
/* True once after room appeared for a source that was refused. */
bool whw_port_tx_woken(struct wrenhw *hw);
/* Pauses changed (a received pause or XON): look at the FIFOs now. */
void whw_sched_kick(struct wrenhw *hw);
/* Link down: everything waiting is dropped (tx_dropped_link_down). */
void whw_sched_flush(struct wrenhw *hw);
/* Reset and destroy: empty, timers off (and the FIFOs freed). */
void whw_sched_reset(struct wrenhw *hw);
void whw_sched_fini(struct wrenhw *hw);

/* pause.c */

/**
 * whw_pause_rx() - a MAC control frame (EtherType 0x8808) from the wire
 * @hw: the device
 * @f: the frame
 * @len: its length
 *
 * PFC pauses the named priorities that are lossless (SET_PFC) for their
 * quanta at the link's speed, 0 resumes them; 802.3x pause (with
 * SET_PORT WREN_PAUSE_RX) pauses every priority.  Returns false for
 * frames it drops (other opcodes, malformed).  The caller kicks the
 * scheduler.
 */
bool whw_pause_rx(struct wrenhw *hw, const uint8_t *f, size_t len);
/**
 * whw_pause_account() - count the running pauses' time up to now
 * @hw: the device
 *
 * QUERY_COUNTERS of the priority set calls it first, so that a pause still
 * running reads as the time it has held the priority so far.
 */
void whw_pause_account(struct wrenhw *hw);

/**
 * whw_pause_mask() - priorities held back by the peer now
 * @hw: the device
 * @now: the time (ns)
 * @next: set to the earliest time the answer may change (UINT64_MAX)
 *
 * Also runs the receive-side storm watchdog up to @now.
 */
uint8_t whw_pause_mask(struct wrenhw *hw, uint64_t now, uint64_t *next);
/* Reset or link down: no pause holds any more (storm state kept on down). */
void whw_pause_clear(struct wrenhw *hw, bool reset);

#endif
