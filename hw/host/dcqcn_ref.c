// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DCQCN reaction point's reference (dcqcn_ref.h), from
 * admin-queue.rst's rules: a CNP cuts (or starts limiting), each period
 * counted from the last cut decays alpha or makes a timer increase event,
 * every B bytes sent a byte-counter event.
 */
#include "dcqcn_ref.h"

static uint64_t kbps(uint64_t mbps)
{
	uint64_t v = mbps * 1000;

	return v > UINT32_MAX ? UINT32_MAX : v;
}

void dcqcn_ref_params_cc(struct dcqcn_ref_params *p,
			 const struct wren_cc_params *cc, uint32_t link_mbps,
			 uint64_t tick_ns)
{
	uint32_t max = cc->rp_max_rate_mbps;
	uint32_t first = cc->rp_rate_on_first_cnp_mbps;

	*p = (struct dcqcn_ref_params){
		.max = kbps(max ? max : link_mbps),
		.min = kbps(cc->rp_min_rate_mbps),
		.first = kbps(first ? first : link_mbps),
		.ai = kbps(cc->rp_ai_rate_mbps),
		.hai = kbps(cc->rp_hai_rate_mbps),
		.alpha0 = cc->rp_initial_alpha,
		.g = cc->rp_g,
		.k = cc->rp_alpha_update_us * 1000ull / tick_ns,
		.timer = cc->rp_time_reset_us * 1000ull / tick_ns,
		.reduce = cc->rp_rate_reduce_period_us * 1000ull / tick_ns,
		.b = cc->rp_byte_reset,
		.f = cc->rp_threshold,
		.fac = cc->rp_min_dec_fac,
		.gd = cc->rp_gd,
		.clamp = cc->rp_clamp_tgt_rate,
	};
}

static void increase(struct dcqcn_ref *r, const struct dcqcn_ref_params *p,
		     bool timer)
{
	if (r->t >= p->f && r->bc >= p->f)
		r->rt += p->hai;
	else if (r->t >= p->f || r->bc >= p->f)
		r->rt += p->ai;
	if (r->rt > p->max)
		r->rt = p->max;
	r->rc = (r->rc + r->rt) / 2 + ((r->rc + r->rt) % 2);
	if (timer)
		r->t++;
	else
		r->bc++;
	if (r->rc >= p->max) {
		r->rc = p->max;
		r->active = false;
		r->recovered++;
	}
}

void dcqcn_ref_cnp(struct dcqcn_ref *r, const struct dcqcn_ref_params *p,
		   uint64_t now)
{
	bool clamp = p->clamp;
	uint64_t nrc, floor = p->min < p->max ? p->min : p->max;

	if (r->active && now - r->last_cut < p->reduce) {
		r->ignored++;
		return;
	}
	if (!r->active) {
		r->active = true;
		r->rc = p->first < p->max ? p->first : p->max;
		r->rt = r->rc;
		r->alpha = p->alpha0 > WREN_DCQCN_ALPHA_MAX ?
			   WREN_DCQCN_ALPHA_MAX : p->alpha0;
		clamp = true;
	}
	if (clamp || r->t || r->bc)
		r->rt = r->rc;
	nrc = r->rc - (r->rc * r->alpha) / (1ull << p->gd);
	if (nrc < r->rc * p->fac / 100)
		nrc = r->rc * p->fac / 100;
	if (nrc < floor)
		nrc = floor;
	r->rc = nrc;
	r->alpha = r->alpha * (1024 - p->g) / 1024 + p->g;
	if (r->alpha > WREN_DCQCN_ALPHA_MAX)
		r->alpha = WREN_DCQCN_ALPHA_MAX;
	r->t = r->bc = r->bytes = 0;
	r->last_cut = now;
	r->cuts++;
}

void dcqcn_ref_tick(struct dcqcn_ref *r, const struct dcqcn_ref_params *p,
		    uint64_t now)
{
	uint64_t since;

	if (!r->active || now == r->last_cut)
		return;
	since = now - r->last_cut;
	if (p->k && since % p->k == 0)
		r->alpha = r->alpha * (1024 - p->g) / 1024;
	if (p->timer && since % p->timer == 0)
		increase(r, p, true);
}

void dcqcn_ref_send(struct dcqcn_ref *r, const struct dcqcn_ref_params *p,
		    uint64_t n)
{
	if (!r->active || !p->b)
		return;
	r->bytes += n;
	while (r->active && r->bytes >= p->b) {
		r->bytes -= p->b;
		increase(r, p, false);
	}
}
