// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DCQCN's reaction point (Zhu et al., "Congestion Control for Large-Scale
 * RDMA Deployments", SIGCOMM 2015, and the authors' ns-3 code), in integer
 * arithmetic, as admin-queue.rst ("Congestion control") states it:
 *
 * - A handled CNP: on the first one (not rate limited) Rc = first_kbps,
 *   Rt = Rc, alpha = initial_alpha.  Then Rt = Rc (every CNP with clamp,
 *   else only the first one and the first after an increase event),
 *   Rc = max(Rc - Rc * alpha / 2^gd, Rc * min_dec_fac / 100, min_kbps),
 *   alpha = (1 - g) alpha + g, and the increase counters, the byte count
 *   and both periods restart from this time.  A CNP less than reduce_ns
 *   after the last cut changes nothing.
 * - Every alpha_ns after the last cut: alpha = (1 - g) alpha.
 * - Increase events, every timer_ns (timer) and every byte_reset bytes
 *   sent (byte counter) after the last cut.  Each looks at the counts of
 *   the earlier events since the cut: both below F, fast recovery; one at
 *   F or more, additive increase Rt += R_AI; both, hyper increase
 *   Rt += R_HAI; Rt at most max_kbps; then Rc = (Rc + Rt) / 2, rounded
 *   up so that Rc reaches Rt; then its own counter counts it.  So F
 *   timer events alone are F rounds of fast recovery, then additive
 *   increase, as in the paper.
 * - Rc at max_kbps ends rate limiting.
 */
#include <linux/wren/wren_hw.h>

#include "whw_dcqcn.h"

/* Timer events caught up with in one call at most (a stalled host). */
#define MAX_CATCH_UP	4096u
/* Byte-counter events one packet makes at most (a tiny rp_byte_reset). */
#define MAX_BYTE_EVENTS	64u

static uint32_t alpha_decay(uint32_t alpha, uint32_t g)
{
	return (uint32_t)(((uint64_t)alpha * (1024 - g)) >> 10);
}

static uint32_t alpha_raise(uint32_t alpha, uint32_t g)
{
	uint32_t a = alpha_decay(alpha, g) + g;

	return a > WREN_DCQCN_ALPHA_MAX ? WREN_DCQCN_ALPHA_MAX : a;
}

static uint32_t ceiling(const struct whw_dcqcn_params *p)
{
	return p->max_kbps ? p->max_kbps : 1;
}

/* Rc reached the ceiling: Rc, Rt and alpha stay as they were, to report. */
static void stop(struct whw_dcqcn *s)
{
	s->active = false;
	s->t_events = s->b_events = 0;
	s->bytes = 0;
	s->alpha_next = s->timer_next = UINT64_MAX;
}

/* One increase event (@timer: the timer's, else the byte counter's). */
static unsigned int increase(struct whw_dcqcn *s,
			     const struct whw_dcqcn_params *p, bool timer)
{
	uint32_t f = p->threshold, max = ceiling(p);
	uint64_t rt = s->rt;

	if (s->t_events >= f && s->b_events >= f)
		rt += p->hai_kbps;
	else if (s->t_events >= f || s->b_events >= f)
		rt += p->ai_kbps;
	s->rt = rt > max ? max : (uint32_t)rt;
	s->rc = (uint32_t)(((uint64_t)s->rc + s->rt + 1) / 2);
	if (timer) {
		if (s->t_events < UINT32_MAX)
			s->t_events++;
	} else if (s->b_events < UINT32_MAX) {
		s->b_events++;
	}
	if (s->rc >= max) {
		s->rc = max;
		stop(s);
		return WHW_DCQCN_RECOVERED;
	}
	return 0;
}

unsigned int whw_dcqcn_advance(struct whw_dcqcn *s,
			       const struct whw_dcqcn_params *p, uint64_t now)
{
	unsigned int n = 0;

	if (!s->active)
		return 0;
	/* alpha: independent of the rates, so caught up with at once. */
	if (s->alpha_next <= now && p->alpha_ns) {
		uint64_t k = (now - s->alpha_next) / p->alpha_ns + 1;

		s->alpha_next += k * p->alpha_ns;
		/* Each decay takes at least 1 off a non-zero alpha. */
		for (uint64_t i = 0; i < k && s->alpha && p->g; i++)
			s->alpha = alpha_decay(s->alpha, p->g);
	}
	while (s->timer_next <= now && p->timer_ns) {
		s->timer_next += p->timer_ns;
		if (increase(s, p, true))
			return WHW_DCQCN_RECOVERED;
		if (++n >= MAX_CATCH_UP && s->timer_next <= now) {
			/* Far behind: the missed events are lost. */
			s->timer_next = now + p->timer_ns;
			break;
		}
	}
	return 0;
}

unsigned int whw_dcqcn_cnp(struct whw_dcqcn *s,
			   const struct whw_dcqcn_params *p, uint64_t now)
{
	unsigned int res = whw_dcqcn_advance(s, p, now);
	uint32_t max = ceiling(p), floor, keep;
	uint64_t rc, cut;
	bool clamp = p->clamp;

	if (s->active && now - s->last_cut < p->reduce_ns)
		return res | WHW_DCQCN_IGNORED;
	if (!s->active) {
		s->active = true;
		s->rc = p->first_kbps && p->first_kbps < max ? p->first_kbps
							      : max;
		s->rt = s->rc;
		s->alpha = p->initial_alpha > WREN_DCQCN_ALPHA_MAX ?
			   WREN_DCQCN_ALPHA_MAX : p->initial_alpha;
		clamp = true;
	} else if (s->t_events || s->b_events) {
		clamp = true;	/* the first CNP after an increase */
	}
	if (clamp)
		s->rt = s->rc;
	cut = ((uint64_t)s->rc * s->alpha) >> (p->gd < 63 ? p->gd : 63);
	rc = cut < s->rc ? s->rc - cut : 0;
	keep = (uint32_t)((uint64_t)s->rc * p->min_dec_fac / 100);
	floor = p->min_kbps < max ? p->min_kbps : max;
	if (rc < keep)
		rc = keep;
	if (rc < floor)
		rc = floor;
	/* Never 0: the rate limiter divides by it. */
	s->rc = rc ? (uint32_t)rc : 1;
	s->alpha = alpha_raise(s->alpha, p->g);
	s->t_events = s->b_events = 0;
	s->bytes = 0;
	s->last_cut = now;
	s->alpha_next = p->alpha_ns ? now + p->alpha_ns : UINT64_MAX;
	s->timer_next = p->timer_ns ? now + p->timer_ns : UINT64_MAX;
	return (res & WHW_DCQCN_RECOVERED) | WHW_DCQCN_CUT;
}

unsigned int whw_dcqcn_sent(struct whw_dcqcn *s,
			    const struct whw_dcqcn_params *p, uint64_t now,
			    uint32_t bytes)
{
	unsigned int res = whw_dcqcn_advance(s, p, now), n = 0;

	if (!s->active || !p->byte_reset)
		return res;
	s->bytes += bytes;
	while (s->bytes >= p->byte_reset) {
		s->bytes -= p->byte_reset;
		if (increase(s, p, false))
			return res | WHW_DCQCN_RECOVERED;
		if (++n == MAX_BYTE_EVENTS) {
			s->bytes %= p->byte_reset;	/* the rest is lost */
			break;
		}
	}
	return res;
}

uint64_t whw_dcqcn_deadline(const struct whw_dcqcn *s)
{
	return s->active ? s->timer_next : UINT64_MAX;
}
