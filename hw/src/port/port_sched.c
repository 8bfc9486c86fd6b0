// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port scheduler: every data frame (Ethernet queues, RoCE) enters a
 * per-priority output FIFO and leaves onto the wire at the link's speed.
 * The wire is a virtual "free at" time: each frame occupies it for its
 * bytes plus preamble, FCS and gap at hw->port.phys_speed.  Which frame
 * goes next: the priorities' TCs (ets.prio_tc); strict TCs first, the
 * highest first; then ETS TCs by deficit round robin on bytes with a
 * quantum proportional to tc_bw; priorities of one TC in turn.  Every TC
 * is shaped to its maxrate (a virtual-time token bucket, 0 = unlimited),
 * priorities the peer paused (pause.c) are skipped, and the scheduler is
 * work-conserving: whatever may go, goes.  A whw_timer brings it back
 * when the wire frees, a shaper refills or a pause ends.
 *
 * When nothing waits and the wire is free the frame leaves at once,
 * without a copy, so an idle port adds no latency.  Sources ask
 * whw_port_tx_room() before they start a frame and are woken
 * (ops->schedule, whw_port_tx_woken()) when room appears; frames that
 * would pass the hard limit are dropped and counted in tx_errors.
 * Times are kept in picoseconds so small frames at high speeds keep
 * their exact share of the wire.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/whw_services.h"
#include "../core/whw_timer.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "whw_sched.h"

/*
 * Frames wait with nothing to wait for (see sched_run): look again after
 * half the slack, or this long without one.
 */
#define RETRY_MIN_PS	1000u
/* Bounds DRR's search: enough rounds for a max frame at the least quantum. */
#define DRR_VISITS	(2u * WREN_NUM_TC * \
			 (WHW_SCHED_MAX_FRAME / WHW_DRR_MIN + 2u))

/* Picoseconds the wire needs for a frame of @len bytes at @mbps. */
static uint64_t wire_ps(uint32_t len, uint32_t mbps)
{
	if (!mbps)
		return 0;
	return (uint64_t)(len + WHW_WIRE_OVERHEAD) * 8000000u / mbps;
}

/* Picoseconds a frame costs a shaper of @kbps. */
static uint64_t shape_ps(uint32_t len, uint64_t kbps)
{
	return (uint64_t)len * 8000000000ull / kbps;
}

static void ring_in(struct whw_fifo *q, const void *src, uint32_t n)
{
	uint32_t first = WHW_SCHED_RING_BYTES - q->wr;

	if (first > n)
		first = n;
	memcpy(q->buf + q->wr, src, first);
	memcpy(q->buf, (const uint8_t *)src + first, n - first);
	q->wr = (q->wr + n) % WHW_SCHED_RING_BYTES;
}

static void ring_out(struct whw_fifo *q, void *dst, uint32_t n)
{
	uint32_t first = WHW_SCHED_RING_BYTES - q->rd;

	if (first > n)
		first = n;
	memcpy(dst, q->buf + q->rd, first);
	memcpy((uint8_t *)dst + first, q->buf, n - first);
	q->rd = (q->rd + n) % WHW_SCHED_RING_BYTES;
}

/* Length of the oldest frame (the FIFO is not empty). */
static uint32_t fifo_head_len(const struct whw_fifo *q)
{
	uint32_t v = 0;

	for (uint32_t i = 0; i < 4; i++)
		v |= (uint32_t)q->buf[(q->rd + i) % WHW_SCHED_RING_BYTES]
		     << (8 * i);
	return v;
}

static bool fifo_push(struct whw_fifo *q, const uint8_t *frame, uint32_t len)
{
	uint8_t hdr[4] = { (uint8_t)len, (uint8_t)(len >> 8),
			   (uint8_t)(len >> 16), (uint8_t)(len >> 24) };

	if (len > WHW_SCHED_MAX_FRAME ||
	    q->bytes + len > WHW_SCHED_HARD_BYTES ||
	    q->used + 4 + len > WHW_SCHED_RING_BYTES)
		return false;
	if (!q->buf) {
		q->buf = malloc(WHW_SCHED_RING_BYTES);
		if (!q->buf)
			return false;
	}
	ring_in(q, hdr, 4);
	ring_in(q, frame, len);
	q->used += 4 + len;
	q->bytes += len;
	q->frames++;
	return true;
}

static uint32_t fifo_pop(struct whw_fifo *q, uint8_t *out)
{
	uint32_t len = fifo_head_len(q);
	uint8_t hdr[4];

	ring_out(q, hdr, 4);
	ring_out(q, out, len);
	q->used -= 4 + len;
	q->bytes -= len;
	q->frames--;
	return len;
}

static void fifo_empty(struct whw_fifo *q)
{
	uint8_t *buf = q->buf;

	memset(q, 0, sizeof(*q));
	q->buf = buf;
}

static uint64_t tc_rate_kbps(const struct wrenhw *hw, unsigned int tc)
{
	return whw_le64(hw->dcb.state.maxrate.tc_maxrate_kbps[tc]);
}

static bool shaper_ok(const struct wrenhw *hw, unsigned int tc, uint64_t nps)
{
	return !tc_rate_kbps(hw, tc) ||
	       hw->sched.tc_free_ps[tc] <= nps + hw->sched.slack_ps;
}

/*
 * How late the scheduler may run for its timer (whichever call brings it
 * back: the timer, a new frame, a pause ending) and still have the
 * waiting frames leave when they were due: a loaded host (TCG) wakes the
 * model milliseconds late, and a MAC never idles while frames wait, nor
 * does a shaper lose its tokens.  Only frames already waiting go early,
 * so a burst is at most the FIFOs; beyond the bound the wire idled for
 * real.
 */
#define LAG_MAX_PS	10000000000ull	/* 10 ms */

/*
 * Onto the wire: occupy it, charge the TC's shaper, count.  @lag: how
 * late the frame goes (its wire time may start up to @lag ago).
 */
static void wire_out(struct wrenhw *hw, uint8_t prio, const uint8_t *frame,
		     uint32_t len, uint64_t nps, uint64_t lag)
{
	struct whw_sched *s = &hw->sched;
	unsigned int tc = hw->dcb.state.ets.prio_tc[prio] & (WREN_NUM_TC - 1);
	uint64_t kbps = tc_rate_kbps(hw, tc);
	uint64_t base = nps > lag ? nps - lag : 0;

	s->link_free_ps = (s->link_free_ps > base ? s->link_free_ps : base) +
			  wire_ps(len, hw->port.phys_speed);
	if (kbps)
		s->tc_free_ps[tc] = (s->tc_free_ps[tc] > base ?
				     s->tc_free_ps[tc] : base) +
				    shape_ps(len, kbps);
	if (hw->ops->tx_frame)
		hw->ops->tx_frame(hw->opaque, frame, len);
	hw->cnt_port[WREN_CNT_TX_PACKETS]++;
	hw->cnt_port[WREN_CNT_TX_BYTES] += len;
	hw->cnt_prio[prio][WREN_PRIO_CNT_TX_PRIO_PACKETS]++;
	hw->cnt_prio[prio][WREN_PRIO_CNT_TX_PRIO_BYTES] += len;
}

/* The next priority of @mask after the one @tc served last. */
static unsigned int rr_next(const struct whw_sched *s, unsigned int tc,
			    uint8_t mask)
{
	for (unsigned int i = 1; i <= WREN_NUM_PRIO; i++) {
		unsigned int p = (s->rr_prio[tc] + i) % WREN_NUM_PRIO;

		if (mask & (1u << p))
			return p;
	}
	return 0;	/* not reached: @mask is not empty */
}

static uint32_t quantum(const struct wrenhw *hw, unsigned int tc)
{
	uint32_t q = hw->dcb.state.ets.tc_bw[tc] * WHW_DRR_UNIT;

	return q ? q : WHW_DRR_MIN;
}

/* Deficit round robin over the eligible ETS TCs (@elig); -1 if none. */
static int drr_pick(struct wrenhw *hw, const uint8_t *tcm, uint8_t elig)
{
	struct whw_sched *s = &hw->sched;

	if (!elig)
		return -1;
	if (!(elig & (elig - 1))) {
		/* One TC alone: no one to share with, no rounds to run. */
		unsigned int tc = (unsigned int)__builtin_ctz(elig);
		unsigned int p = rr_next(s, tc, tcm[tc]);

		s->rr_prio[tc] = (uint8_t)p;
		return (int)p;
	}
	for (unsigned int i = 0; i < DRR_VISITS; i++) {
		unsigned int tc = s->drr_tc;

		if (elig & (1u << tc)) {
			unsigned int p = rr_next(s, tc, tcm[tc]);
			uint32_t len = fifo_head_len(&s->fifo[p]);

			if (s->deficit[tc] >= len) {
				s->deficit[tc] -= len;
				s->rr_prio[tc] = (uint8_t)p;
				return (int)p;
			}
			if (!s->drr_granted) {
				s->deficit[tc] += quantum(hw, tc);
				s->drr_granted = true;
				continue;
			}
		}
		s->drr_tc = (uint8_t)((tc + 1) % WREN_NUM_TC);
		s->drr_granted = false;
	}
	return -1;
}

/*
 * The priority whose head frame goes next, or -1 when nothing may go;
 * *next_ps is lowered to when a shaper that held a TC back refills.
 */
static int pick(struct wrenhw *hw, uint8_t paused, uint64_t nps,
		uint64_t *next_ps)
{
	struct whw_sched *s = &hw->sched;
	const struct wren_ets *ets = &hw->dcb.state.ets;
	uint8_t tcm[WREN_NUM_TC] = { 0 }, backlog = 0, elig = 0;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		unsigned int tc = ets->prio_tc[p] & (WREN_NUM_TC - 1);

		if (!s->fifo[p].frames)
			continue;
		backlog |= (uint8_t)(1u << tc);
		if (!(paused & (1u << p)))
			tcm[tc] |= (uint8_t)(1u << p);
	}
	for (unsigned int tc = 0; tc < WREN_NUM_TC; tc++) {
		/* DRR: an idle TC keeps no credit. */
		if (!(backlog & (1u << tc)))
			s->deficit[tc] = 0;
		if (!tcm[tc])
			continue;
		if (!shaper_ok(hw, tc, nps)) {
			uint64_t t = s->tc_free_ps[tc] - s->slack_ps;

			if (t < *next_ps)
				*next_ps = t;
			tcm[tc] = 0;
			continue;
		}
		if (ets->tc_tsa[tc] != WREN_TSA_STRICT)
			elig |= (uint8_t)(1u << tc);
	}
	for (int tc = WREN_NUM_TC - 1; tc >= 0; tc--) {
		if (tcm[tc] && ets->tc_tsa[tc] == WREN_TSA_STRICT) {
			unsigned int p = rr_next(s, (unsigned int)tc, tcm[tc]);

			s->rr_prio[tc] = (uint8_t)p;
			return (int)p;
		}
	}
	return drr_pick(hw, tcm, elig);
}

static void room_check(struct wrenhw *hw, uint8_t prio)
{
	struct whw_sched *s = &hw->sched;

	if (!(s->room_wait & (1u << prio)) ||
	    s->fifo[prio].bytes >= WHW_SCHED_SOFT_BYTES)
		return;
	s->room_wait &= (uint8_t)~(1u << prio);
	s->wake_roce = true;
	if (hw->ops->schedule)
		hw->ops->schedule(hw->opaque);
}

static void sched_run(struct wrenhw *hw, uint64_t now)
{
	struct whw_sched *s = &hw->sched;
	uint64_t nps = now * 1000, next_ps = UINT64_MAX, pnext, lag = 0;
	uint8_t paused;

	if (hw->status & WREN_STATUS_FATAL)
		return;		/* frames wait for the reset */
	/* Frames wait, so the timer is armed: how late are we for it? */
	if (s->frames && nps > s->due_ps)
		lag = nps - s->due_ps < LAG_MAX_PS ? nps - s->due_ps : LAG_MAX_PS;
	paused = whw_pause_mask(hw, now, &pnext);
	if (pnext != UINT64_MAX)
		next_ps = pnext * 1000;
	while (s->frames) {
		uint32_t len;
		int p;

		if (s->link_free_ps > nps + s->slack_ps) {
			/* Back when half the slack is free: frames in batches. */
			next_ps = s->link_free_ps - s->slack_ps / 2;
			break;
		}
		p = pick(hw, paused, nps, &next_ps);
		if (p < 0)
			break;
		len = fifo_pop(&s->fifo[p], s->out);
		s->frames--;
		wire_out(hw, (uint8_t)p, s->out, len, nps, lag);
		room_check(hw, (uint8_t)p);
	}
	if (!s->frames) {
		whw_timer_del(hw, &s->timer);
		s->due_ps = UINT64_MAX;
		return;
	}
	/* Frames wait with nothing to wait for: never stall, look again. */
	if (next_ps == UINT64_MAX || next_ps <= nps)
		next_ps = nps + (s->slack_ps / 2 > RETRY_MIN_PS ?
				 s->slack_ps / 2 : RETRY_MIN_PS);
	s->due_ps = next_ps;
	whw_timer_add(hw, &s->timer, (next_ps + 999) / 1000);
}

static void sched_timer_fn(struct wrenhw *hw, struct whw_timer *t)
{
	(void)t;
	sched_run(hw, whw_now(hw));
}

void whw_port_xmit(struct wrenhw *hw, uint8_t prio, const uint8_t *frame,
		   uint32_t len)
{
	struct whw_sched *s = &hw->sched;
	uint64_t now = whw_now(hw), nps = now * 1000, next;
	unsigned int tc;

	prio &= WREN_NUM_PRIO - 1;
	tc = hw->dcb.state.ets.prio_tc[prio] & (WREN_NUM_TC - 1);
	/* Nothing waits and the wire is free: out at once, no copy. */
	if (!s->frames && s->link_free_ps <= nps + s->slack_ps &&
	    shaper_ok(hw, tc, nps) &&
	    !(whw_pause_mask(hw, now, &next) & (1u << prio))) {
		wire_out(hw, prio, frame, len, nps, 0);
		return;
	}
	if (!fifo_push(&s->fifo[prio], frame, len)) {
		hw->cnt_port[WREN_CNT_TX_ERRORS]++;
		return;
	}
	s->frames++;
	sched_run(hw, now);
}

bool whw_port_tx_room(struct wrenhw *hw, uint8_t prio)
{
	struct whw_sched *s = &hw->sched;

	prio &= WREN_NUM_PRIO - 1;
	if (s->fifo[prio].bytes < WHW_SCHED_SOFT_BYTES)
		return true;
	s->room_wait |= (uint8_t)(1u << prio);
	return false;
}

bool whw_port_tx_woken(struct wrenhw *hw)
{
	bool w = hw->sched.wake_roce;

	hw->sched.wake_roce = false;
	return w;
}

void whw_sched_kick(struct wrenhw *hw)
{
	if (hw->sched.frames)
		sched_run(hw, whw_now(hw));
}

/* Empties every FIFO; the wire and the shapers start free. */
static uint64_t sched_empty(struct wrenhw *hw)
{
	struct whw_sched *s = &hw->sched;
	uint64_t n = 0;

	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		n += s->fifo[p].frames;
		fifo_empty(&s->fifo[p]);
	}
	s->frames = 0;
	s->link_free_ps = 0;
	memset(s->tc_free_ps, 0, sizeof(s->tc_free_ps));
	memset(s->deficit, 0, sizeof(s->deficit));
	s->drr_tc = 0;
	s->drr_granted = false;
	whw_timer_del(hw, &s->timer);
	s->due_ps = UINT64_MAX;
	s->timer.fn = sched_timer_fn;
	return n;
}

void whw_sched_flush(struct wrenhw *hw)
{
	struct whw_sched *s = &hw->sched;

	hw->cnt_port[WREN_CNT_TX_DROPPED_LINK_DOWN] += sched_empty(hw);
	whw_pause_clear(hw, false);
	/* Sources that waited for room run again (and see the link down). */
	if (s->room_wait) {
		s->room_wait = 0;
		s->wake_roce = true;
		if (hw->ops->schedule)
			hw->ops->schedule(hw->opaque);
	}
}

void whw_sched_reset(struct wrenhw *hw)
{
	sched_empty(hw);
	hw->sched.room_wait = 0;
	hw->sched.wake_roce = false;
	memset(hw->sched.rr_prio, 0, sizeof(hw->sched.rr_prio));
	whw_pause_clear(hw, true);
}

void whw_sched_fini(struct wrenhw *hw)
{
	whw_sched_reset(hw);
	for (unsigned int p = 0; p < WREN_NUM_PRIO; p++) {
		free(hw->sched.fifo[p].buf);
		hw->sched.fifo[p].buf = NULL;
	}
}
