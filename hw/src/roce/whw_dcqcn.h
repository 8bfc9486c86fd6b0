/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The DCQCN reaction point of one QP as a pure state machine (dcqcn.c):
 * parameters, the state and the time come in, the new state and what
 * happened come out.  No device, no timers, no I/O, so that a test can
 * drive it through any schedule of CNPs, sends and time; roce_rp.c wires
 * it to QPs, the model's clock and the AEQ.
 *
 * Rates are in kb/s, alpha in 1/1024 units (0 .. WREN_DCQCN_ALPHA_MAX),
 * times in ns.
 */
#ifndef WHW_DCQCN_H
#define WHW_DCQCN_H

#include <stdbool.h>
#include <stdint.h>

/* The parameters of one priority, in host order and units. */
struct whw_dcqcn_params {
	uint32_t max_kbps;	/* ceiling: Rc there ends rate limiting */
	uint32_t min_kbps;	/* floor of a cut (at most max_kbps) */
	uint32_t first_kbps;	/* Rc on the first CNP, before its cut */
	uint32_t ai_kbps;	/* R_AI */
	uint32_t hai_kbps;	/* R_HAI */
	uint32_t initial_alpha;	/* alpha on the first CNP */
	uint32_t g;		/* alpha gain, 0 .. 1024 */
	uint64_t alpha_ns;	/* alpha decay period */
	uint64_t timer_ns;	/* T: timer increase period */
	uint64_t reduce_ns;	/* CNPs closer than this to a cut: ignored */
	uint32_t byte_reset;	/* B: bytes per byte-counter event, 0 = off */
	uint32_t threshold;	/* F */
	uint32_t min_dec_fac;	/* percent of Rc a cut keeps at least */
	uint32_t gd;		/* cut = Rc * alpha >> gd */
	bool clamp;		/* every CNP sets Rt = Rc */
};

struct whw_dcqcn {
	bool active;		/* rate limited */
	uint32_t rc, rt;	/* current and target rate */
	uint32_t alpha;
	uint32_t t_events;	/* timer increase events since the last cut */
	uint32_t b_events;	/* byte-counter events since the last cut */
	uint64_t bytes;		/* sent toward the next byte-counter event */
	uint64_t last_cut;
	uint64_t alpha_next;	/* next alpha decay */
	uint64_t timer_next;	/* next timer increase event */
};

/* What a call did (bits). */
#define WHW_DCQCN_CUT		0x1u	/* a CNP cut Rc */
#define WHW_DCQCN_IGNORED	0x2u	/* a CNP within reduce_ns of a cut */
#define WHW_DCQCN_RECOVERED	0x4u	/* Rc reached max_kbps: not limited */

/**
 * whw_dcqcn_advance() - run the timer events due by @now
 * @s: the state
 * @p: the parameters
 * @now: the time, never earlier than that of the previous call
 *
 * Alpha decays and timer increase events whose time is <= @now, in time
 * order.  Return: WHW_DCQCN_RECOVERED if the QP left rate limiting, else 0.
 */
unsigned int whw_dcqcn_advance(struct whw_dcqcn *s,
			       const struct whw_dcqcn_params *p, uint64_t now);

/**
 * whw_dcqcn_cnp() - a CNP for this QP arrived at @now
 * @s: the state
 * @p: the parameters
 * @now: the time
 *
 * Runs what is due first (whw_dcqcn_advance()), then reacts.
 * Return: WHW_DCQCN_CUT or WHW_DCQCN_IGNORED, with WHW_DCQCN_RECOVERED if
 * the QP had recovered just before.
 */
unsigned int whw_dcqcn_cnp(struct whw_dcqcn *s,
			   const struct whw_dcqcn_params *p, uint64_t now);

/**
 * whw_dcqcn_sent() - the QP sent @bytes at @now
 * @s: the state
 * @p: the parameters
 * @now: the time
 * @bytes: frame bytes
 *
 * Feeds the byte counter while rate limited (after whw_dcqcn_advance()).
 * Return: WHW_DCQCN_RECOVERED if the QP left rate limiting, else 0.
 */
unsigned int whw_dcqcn_sent(struct whw_dcqcn *s,
			    const struct whw_dcqcn_params *p, uint64_t now,
			    uint32_t bytes);

/**
 * whw_dcqcn_deadline() - when whw_dcqcn_advance() has work next
 * @s: the state
 *
 * Return: the time of the next timer increase event, UINT64_MAX when not
 * rate limited.  Alpha decays need no deadline: they are caught up with
 * at the next call, as nothing else depends on them in between.
 */
uint64_t whw_dcqcn_deadline(const struct whw_dcqcn *s);

#endif
