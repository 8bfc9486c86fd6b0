// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "pfc.h"

#include <string.h>

void pfc_init(struct pfc *pfc, const struct pfc_ops *ops)
{
	memset(pfc, 0, sizeof(*pfc));
	pfc->ops = *ops;
}

void pfc_add_port(struct pfc *pfc, struct pfc_port *pp,
		  struct egress_port *ep)
{
	memset(pp, 0, sizeof(*pp));
	pp->index = pfc->nports;
	pp->egress = ep;
	pfc->ports[pfc->nports++] = pp;
}

void pfc_port_mac(unsigned port, uint8_t mac[ETH_ALEN])
{
	static const uint8_t base[ETH_ALEN] = { 0x02, 0x57, 0x52, 0x45, 0x50 };

	memcpy(mac, base, ETH_ALEN);
	mac[5] = (uint8_t)port;
}

static uint64_t now_ns(const struct pfc *pfc)
{
	return pfc->ops.now_ns(pfc->ops.ctx);
}

bool pfc_ingress_admit(struct pfc *pfc, struct frame *fr)
{
	struct pfc_port *in = pfc->ports[fr->ingress_port];
	struct pfc_prio *pp = &in->prio[fr->prio];

	if (!pp->lossless)
		return true;
	if (in->ingress_bytes[fr->prio] + fr->len > pp->xoff + pp->headroom) {
		pp->drop_lossless_frames++;
		pp->drop_lossless_bytes += fr->len;
		return false;
	}
	fr->lossless = true;
	return true;
}

static uint64_t pause_ns(const struct pfc_port *p, uint16_t quanta)
{
	return pfc_quanta_ns(quanta, p->egress->rate_mbps);
}

static void send_pfc(struct pfc *pfc, struct pfc_port *p, uint8_t cev,
		     const uint16_t quanta[FABRIC_PRIOS])
{
	uint8_t frame[PFC_FRAME_LEN], src[ETH_ALEN];

	pfc_port_mac(p->index, src);
	pfc_frame_build(frame, src, cev, quanta);
	pfc->ops.send(pfc->ops.ctx, p->index, frame, sizeof(frame));
}

static void xoff_close(struct pfc_prio *pp, uint64_t now_ns)
{
	if (!pp->xoff_active)
		return;
	pp->tx_pause_ns += now_ns - pp->xoff_since_ns;
	pp->xoff_active = false;
}

uint64_t pfc_tx_pause_ns(const struct pfc_port *p, unsigned prio,
			 uint64_t now_ns)
{
	const struct pfc_prio *pp = &p->prio[prio];

	return pp->tx_pause_ns +
	       (pp->xoff_active ? now_ns - pp->xoff_since_ns : 0);
}

void pfc_evaluate(struct pfc *pfc, unsigned port, uint64_t now_ns)
{
	struct pfc_port *p = pfc->ports[port];
	uint16_t quanta[FABRIC_PRIOS] = { 0 };
	uint8_t cev = 0;

	for (unsigned prio = 0; prio < FABRIC_PRIOS; prio++) {
		struct pfc_prio *pp = &p->prio[prio];
		uint64_t occ = p->ingress_bytes[prio];

		if (pp->xoff_active && (!pp->lossless || occ <= pp->xon)) {
			xoff_close(pp, now_ns);
			pp->tx_xon++;
			cev |= (uint8_t)(1u << prio); /* time 0: XON */
		} else if (pp->lossless && (pp->xoff_active ?
					    now_ns >= pp->refresh_at_ns :
					    occ >= pp->xoff)) {
			if (pp->xoff_active) {
				pp->tx_refresh++;
			} else {
				pp->xoff_active = true;
				pp->xoff_since_ns = now_ns;
			}
			pp->tx_xoff++;
			/* refresh at half the pause: it never lapses */
			pp->refresh_at_ns = now_ns +
					    pause_ns(p, pp->quanta) / 2;
			quanta[prio] = pp->quanta;
			cev |= (uint8_t)(1u << prio);
		}
	}
	/* the fabric sends it only while the port is operational */
	if (cev)
		send_pfc(pfc, p, cev, quanta);
}

void pfc_ingress_charge(struct pfc *pfc, const struct frame *fr)
{
	struct pfc_port *in = pfc->ports[fr->ingress_port];
	struct pfc_prio *pp = &in->prio[fr->prio];

	in->ingress_bytes[fr->prio] += fr->len;
	if (in->ingress_bytes[fr->prio] > pp->ingress_max_bytes)
		pp->ingress_max_bytes = in->ingress_bytes[fr->prio];
	if (pp->lossless && !pp->xoff_active &&
	    in->ingress_bytes[fr->prio] >= pp->xoff)
		pfc_evaluate(pfc, fr->ingress_port, now_ns(pfc));
}

void pfc_ingress_release_quiet(void *ctx, const struct frame *fr)
{
	struct pfc *pfc = ctx;

	pfc->ports[fr->ingress_port]->ingress_bytes[fr->prio] -= fr->len;
}

void pfc_ingress_release(void *ctx, const struct frame *fr)
{
	struct pfc *pfc = ctx;
	struct pfc_port *in = pfc->ports[fr->ingress_port];
	struct pfc_prio *pp = &in->prio[fr->prio];

	pfc_ingress_release_quiet(ctx, fr);
	if (pp->xoff_active && in->ingress_bytes[fr->prio] <= pp->xon)
		pfc_evaluate(pfc, fr->ingress_port, now_ns(pfc));
}

enum mac_ctrl_kind pfc_receive(struct pfc *pfc, unsigned port,
			       const uint8_t *frame, uint32_t len,
			       uint64_t now_ns)
{
	struct pfc_port *p = pfc->ports[port];
	struct mac_ctrl c = mac_ctrl_parse(frame, len);

	if (c.kind == MAC_CTRL_NONE || c.kind == MAC_CTRL_OTHER)
		return c.kind;
	/* the guest on @port asks us to stop sending to it */
	for (unsigned prio = 0; prio < FABRIC_PRIOS; prio++) {
		uint64_t ns = pause_ns(p, c.quanta[prio]);

		if (!(c.class_enable & (1u << prio)))
			continue;
		/* a quantum shorter than a nanosecond is still a pause */
		if (c.quanta[prio] && !ns)
			ns = 1;
		egress_pause(p->egress, prio, ns, now_ns);
	}
	return c.kind;
}

/* One queue's watchdog; returns when it next needs to look. */
static uint64_t watchdog(struct pfc *pfc, struct pfc_port *p, unsigned qi,
			 uint64_t now_ns)
{
	struct egress_queue *q = &p->egress->q[qi];

	if (!q->wd.detect_ns) {
		q->storm = false; /* turned off: nothing to restore from */
		q->stalled = false;
		return UINT64_MAX;
	}
	if (q->storm) {
		if (now_ns - q->last_xoff_ns < q->wd.restore_ns)
			return q->last_xoff_ns + q->wd.restore_ns;
		q->storm = false;
		q->stalled = false;
		q->st.wd_restores++;
	}
	if (!q->head || !egress_queue_paused(q, now_ns)) {
		q->stalled = false;
		return UINT64_MAX;
	}
	if (!q->stalled) {
		q->stalled = true;
		q->stalled_since_ns = now_ns;
	}
	if (now_ns - q->stalled_since_ns < q->wd.detect_ns)
		return q->stalled_since_ns + q->wd.detect_ns;
	q->storm = true;
	q->st.wd_storms++;
	if (q->wd.action == PFCWD_DROP)
		egress_flush_queue(p->egress, qi, true, pfc_ingress_release,
				   pfc);
	return q->last_xoff_ns + q->wd.restore_ns;
}

uint64_t pfc_timers(struct pfc *pfc, uint64_t now_ns)
{
	uint64_t next = UINT64_MAX, t;

	for (unsigned i = 0; i < pfc->nports; i++) {
		struct pfc_port *p = pfc->ports[i];

		pfc_evaluate(pfc, i, now_ns);
		for (unsigned prio = 0; prio < FABRIC_PRIOS; prio++) {
			const struct pfc_prio *pp = &p->prio[prio];

			if (pp->xoff_active && pp->refresh_at_ns < next)
				next = pp->refresh_at_ns;
			t = watchdog(pfc, p, prio, now_ns);
			if (t < next)
				next = t;
		}
	}
	return next;
}

void pfc_port_reset(struct pfc_port *p, uint64_t now_ns)
{
	for (unsigned prio = 0; prio < FABRIC_PRIOS; prio++) {
		struct egress_queue *q = &p->egress->q[prio];

		xoff_close(&p->prio[prio], now_ns);
		if (egress_queue_paused(q, now_ns)) {
			q->st.pause_ns += now_ns - q->pause_start_ns;
			q->pause_open = false;
			q->paused_until_ns = now_ns;
		}
		q->storm = false;
		q->stalled = false;
	}
}
