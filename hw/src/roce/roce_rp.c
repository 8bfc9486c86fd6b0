// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DCQCN reaction point of each QP: CNPs received for it go to its
 * DCQCN state (dcqcn.c) with the parameters of the priority of its latest
 * data frame; cuts and the return to full rate are reported on the AEQ
 * (WREN_EVENT_CC_RATE), the state read by QUERY_QP.  While the QP is rate
 * limited its requester is gated: a frame may go only once the QP's next
 * send time has come, and each frame of len bytes moves that time on by
 * len * 8 / Rc; a timer per QP wakes the requester when the gate opens and
 * runs DCQCN's timer events.  READ responses are gated too, ACKs not.
 */
#include <string.h>

#include "../core/whw_events.h"
#include "../core/whw_services.h"
#include "../core/whw_timer.h"
#include "../whw_byteorder.h"
#include "../whw_device.h"
#include "../whw_objects.h"
#include "whw_roce.h"
#include "whw_roce_api.h"

static uint32_t kbps(uint64_t mbps)
{
	uint64_t v = mbps * 1000;

	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* SET_CC's parameters of @prio in the DCQCN core's units. */
static void params(const struct wrenhw *hw, uint8_t prio,
		   struct whw_dcqcn_params *p)
{
	const struct wren_cc_params *c = &hw->dcb.cc[prio & 7];
	uint32_t link = hw->port.phys_speed ? hw->port.phys_speed
					    : hw->link_speed;
	uint32_t max = whw_le32(c->rp_max_rate_mbps);
	uint32_t first = whw_le32(c->rp_rate_on_first_cnp_mbps);

	memset(p, 0, sizeof(*p));
	p->max_kbps = kbps(max ? max : link);
	p->min_kbps = kbps(whw_le32(c->rp_min_rate_mbps));
	p->first_kbps = kbps(first ? first : link);
	p->ai_kbps = kbps(whw_le32(c->rp_ai_rate_mbps));
	p->hai_kbps = kbps(whw_le32(c->rp_hai_rate_mbps));
	p->initial_alpha = whw_le32(c->rp_initial_alpha);
	p->g = whw_le32(c->rp_g);
	p->alpha_ns = (uint64_t)whw_le32(c->rp_alpha_update_us) * 1000;
	p->timer_ns = (uint64_t)whw_le32(c->rp_time_reset_us) * 1000;
	p->reduce_ns = (uint64_t)whw_le32(c->rp_rate_reduce_period_us) * 1000;
	p->byte_reset = whw_le32(c->rp_byte_reset);
	p->threshold = whw_le32(c->rp_threshold);
	p->min_dec_fac = c->rp_min_dec_fac;
	p->gd = c->rp_gd;
	p->clamp = c->rp_clamp_tgt_rate;
}

/* WREN_EVENT_CC_RATE: data qpn, data2 Rc in kb/s, data3 alpha. */
static void report(struct wrenhw *hw, struct whw_qp *qp, uint8_t sub)
{
	const struct whw_dcqcn *s = &qp->roce->cc.dcqcn;

	whw_aeq_post3(hw, WREN_EVENT_CC_RATE, sub, qp->hdr.id, s->rc,
		      s->alpha);
}

/* The QP's timer: DCQCN's next event, or the gate's opening if waited on. */
static void arm(struct wrenhw *hw, struct whw_cc_qp *c)
{
	uint64_t dl = whw_dcqcn_deadline(&c->dcqcn);

	if (c->waiting && c->dcqcn.active && c->next_tx_ns < dl)
		dl = c->next_tx_ns;
	if (dl == UINT64_MAX)
		whw_timer_del(hw, &c->timer);
	else if (!c->timer.pending || c->timer.deadline != dl)
		whw_timer_add(hw, &c->timer, dl);
}

/* Runs what DCQCN has due by @now; reports a return to full rate. */
static void rp_sync(struct wrenhw *hw, struct whw_qp *qp, uint64_t now)
{
	struct whw_cc_qp *c = &qp->roce->cc;
	struct whw_dcqcn_params p;

	if (!c->dcqcn.active)
		return;
	params(hw, c->prio, &p);
	if (whw_dcqcn_advance(&c->dcqcn, &p, now))
		report(hw, qp, WREN_CC_RATE_RECOVERED);
}

void whw_rp_cnp(struct wrenhw *hw, struct whw_qp *qp, const struct whw_pkt *p)
{
	struct whw_cc_qp *c = &qp->roce->cc;
	struct whw_dcqcn_params prm;
	uint64_t now = whw_now(hw);
	unsigned int res;
	uint32_t old;
	bool was;

	/* Without DCQCN a CNP is an unknown opcode; RC, UC: the peer's. */
	if (!whw_roce_cap(hw, WREN_CAP_DCQCN) ||
	    (!wren_qpt_datagram(qp->type) &&
	     memcmp(p->sgid, qp->attr.av.dgid, 16))) {
		hw->cnt_rdma[WREN_RDMA_CNT_RX_ROCE_DISCARDS]++;
		return;
	}
	if (!c->prio_valid || !hw->dcb.cc[c->prio].rp_enable) {
		hw->cnt_cc[WREN_CC_CNT_RP_CNP_IGNORED]++;
		return;
	}
	/* What was due first: a return to full rate is reported as such. */
	rp_sync(hw, qp, now);
	params(hw, c->prio, &prm);
	was = c->dcqcn.active;
	old = c->dcqcn.rc;
	res = whw_dcqcn_cnp(&c->dcqcn, &prm, now);
	if (res & WHW_DCQCN_IGNORED) {
		hw->cnt_cc[WREN_CC_CNT_RP_CNP_IGNORED]++;
		return;
	}
	hw->cnt_cc[WREN_CC_CNT_RP_CNP_HANDLED]++;
	c->cnps++;
	/* A reduction is a cut below the rate the QP had (line rate first). */
	if (!was || c->dcqcn.rc < old)
		hw->cnt_cc[WREN_CC_CNT_RP_RATE_REDUCTIONS]++;
	if (!was) {
		c->next_tx_ns = now;
		c->next_tx_ps = 0;
	}
	/*
	 * A congested QP is cut thousands of times a second: one event per
	 * QP and millisecond keeps the event queue and the host's interrupt
	 * rate bounded; QUERY_QP has every cut.
	 */
	if (!was ||
	    now - c->cut_reported_ns >= WREN_CC_RATE_CUT_GAP_US * 1000ull) {
		c->cut_reported_ns = now;
		report(hw, qp, WREN_CC_RATE_CUT);
	}
	arm(hw, c);
}

bool whw_rp_may_send(struct wrenhw *hw, struct whw_qp *qp)
{
	struct whw_cc_qp *c = &qp->roce->cc;
	uint64_t now;

	if (!c->dcqcn.active)
		return true;
	now = whw_now(hw);
	rp_sync(hw, qp, now);
	if (!c->dcqcn.active || now >= c->next_tx_ns) {
		c->waiting = false;
		arm(hw, c);
		return true;
	}
	c->waiting = true;
	arm(hw, c);
	return false;
}

void whw_rp_sent(struct wrenhw *hw, struct whw_qp *qp,
		 const struct whw_frame *f)
{
	struct whw_cc_qp *c = &qp->roce->cc;
	struct whw_dcqcn_params p;
	uint64_t now, ps;

	c->prio = f->prio & 7;
	c->prio_valid = true;
	if (!c->dcqcn.active)
		return;
	now = whw_now(hw);
	rp_sync(hw, qp, now);
	if (!c->dcqcn.active)
		goto out;
	if (c->next_tx_ns < now) {
		c->next_tx_ns = now;
		c->next_tx_ps = 0;
	}
	/* len * 8 bits at Rc kb/s, in ps; the fraction of a ns carried. */
	ps = (uint64_t)f->len * 8 * 1000000000ull / c->dcqcn.rc + c->next_tx_ps;
	c->next_tx_ns += ps / 1000;
	c->next_tx_ps = (uint32_t)(ps % 1000);
	params(hw, c->prio, &p);
	if (whw_dcqcn_sent(&c->dcqcn, &p, now, f->len))
		report(hw, qp, WREN_CC_RATE_RECOVERED);
out:
	arm(hw, c);
}

void whw_rp_timer_fn(struct wrenhw *hw, struct whw_timer *t)
{
	struct whw_cc_qp *c = WHW_CONTAINER_OF(t, struct whw_cc_qp, timer);
	struct whw_roce_qp *r = WHW_CONTAINER_OF(c, struct whw_roce_qp, cc);
	uint64_t now = whw_now(hw);

	rp_sync(hw, r->qp, now);
	if (c->waiting && (!c->dcqcn.active || now >= c->next_tx_ns)) {
		c->waiting = false;
		whw_roce_kick(hw, r->qp);
	}
	arm(hw, c);
}

void whw_roce_qp_cc(struct wrenhw *hw, struct whw_qp *qp,
		    struct wren_query_qp_out *o)
{
	struct whw_cc_qp *c;

	if (!qp->roce)
		return;
	c = &qp->roce->cc;
	rp_sync(hw, qp, whw_now(hw));
	o->cc_cnps_handled = whw_le32(c->cnps);
	if (!c->dcqcn.active)
		return;
	o->cc_rate_kbps = whw_le32(c->dcqcn.rc);
	o->cc_target_kbps = whw_le32(c->dcqcn.rt);
	o->cc_alpha = whw_le16((uint16_t)c->dcqcn.alpha);
	o->cc_flags = WREN_QP_CC_RP_ACTIVE;
	arm(hw, c);
}
