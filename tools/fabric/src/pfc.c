// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "pfc.h"

#include <string.h>

#include "pfc_frame.h"

void pfc_port_mac(unsigned port, uint8_t mac[ETH_ALEN])
{
	static const uint8_t base[ETH_ALEN] = { 0x02, 0x57, 0x52, 0x45, 0x50 };

	memcpy(mac, base, ETH_ALEN);
	mac[5] = (uint8_t)port;
}

bool pfc_ingress_admit(struct fabric *f, struct frame *fr)
{
	struct fabric_port *in = &f->ports[fr->ingress_port];
	struct pfc_prio *pp = &in->pfc[fr->prio];

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

static uint64_t pause_ns(const struct fabric_port *p, uint16_t quanta)
{
	return pfc_quanta_ns(quanta, p->egress.rate_mbps);
}

static void send_pfc(struct fabric *f, struct fabric_port *p, uint8_t cev,
		     const uint16_t quanta[FABRIC_PRIOS])
{
	uint8_t frame[PFC_FRAME_LEN], src[ETH_ALEN];

	pfc_port_mac(p->index, src);
	pfc_frame_build(frame, src, cev, quanta);
	if (pcap_is_open(&p->pcap))
		pcap_write(&p->pcap, frame, sizeof(frame),
			   f->io.realtime_ns(f->io.ctx));
	/* like a switch's MAC control, it bypasses the data queues */
	if (f->io.send(f->io.ctx, p->index, frame, sizeof(frame)))
		p->st.tx_pfc_frames++;
	else
		p->st.tx_pfc_fail++;
}

static void xoff_close(struct pfc_prio *pp, uint64_t now_ns)
{
	if (!pp->xoff_active)
		return;
	pp->tx_pause_ns += now_ns - pp->xoff_since_ns;
	pp->xoff_active = false;
}

uint64_t pfc_tx_pause_ns(const struct fabric_port *p, unsigned prio,
			 uint64_t now_ns)
{
	const struct pfc_prio *pp = &p->pfc[prio];

	return pp->tx_pause_ns +
	       (pp->xoff_active ? now_ns - pp->xoff_since_ns : 0);
}

void pfc_evaluate(struct fabric *f, unsigned port, uint64_t now_ns)
{
	struct fabric_port *p = &f->ports[port];
	uint16_t quanta[FABRIC_PRIOS] = { 0 };
	uint8_t cev = 0;

	for (unsigned prio = 0; prio < FABRIC_PRIOS; prio++) {
		struct pfc_prio *pp = &p->pfc[prio];
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
	if (cev && fabric_port_operational(p))
		send_pfc(f, p, cev, quanta);
}

void pfc_ingress_charge(struct fabric *f, const struct frame *fr)
{
	struct fabric_port *in = &f->ports[fr->ingress_port];
	struct pfc_prio *pp = &in->pfc[fr->prio];

	in->ingress_bytes[fr->prio] += fr->len;
	if (in->ingress_bytes[fr->prio] > pp->ingress_max_bytes)
		pp->ingress_max_bytes = in->ingress_bytes[fr->prio];
	if (pp->lossless && !pp->xoff_active &&
	    in->ingress_bytes[fr->prio] >= pp->xoff)
		pfc_evaluate(f, fr->ingress_port, f->io.now_ns(f->io.ctx));
}

void pfc_ingress_release_quiet(void *ctx, const struct frame *fr)
{
	struct fabric *f = ctx;

	f->ports[fr->ingress_port].ingress_bytes[fr->prio] -= fr->len;
}

void pfc_ingress_release(void *ctx, const struct frame *fr)
{
	struct fabric *f = ctx;
	struct fabric_port *in = &f->ports[fr->ingress_port];
	struct pfc_prio *pp = &in->pfc[fr->prio];

	pfc_ingress_release_quiet(ctx, fr);
	if (pp->xoff_active && in->ingress_bytes[fr->prio] <= pp->xon)
		pfc_evaluate(f, fr->ingress_port, f->io.now_ns(f->io.ctx));
}

bool pfc_receive(struct fabric *f, unsigned port, const uint8_t *frame,
		 uint32_t len, uint64_t now_ns)
{
	struct fabric_port *p = &f->ports[port];
	struct mac_ctrl c = mac_ctrl_parse(frame, len);

	switch (c.kind) {
	case MAC_CTRL_NONE:
		return false;
	case MAC_CTRL_OTHER:
		p->st.rx_mac_ctrl_other++;
		return true;
	case MAC_CTRL_PFC:
		p->st.rx_pfc_frames++;
		break;
	case MAC_CTRL_PAUSE:
		p->st.rx_pause_frames++;
		break;
	}
	/* the guest on @port asks us to stop sending to it */
	for (unsigned prio = 0; prio < FABRIC_PRIOS; prio++) {
		uint64_t ns = pause_ns(p, c.quanta[prio]);

		if (!(c.class_enable & (1u << prio)))
			continue;
		/* a quantum shorter than a nanosecond is still a pause */
		if (c.quanta[prio] && !ns)
			ns = 1;
		egress_pause(&p->egress, prio, ns, now_ns);
	}
	return true;
}

/* One queue's watchdog; returns when it next needs to look. */
static uint64_t watchdog(struct fabric *f, struct fabric_port *p, unsigned qi,
			 uint64_t now_ns)
{
	struct egress_queue *q = &p->egress.q[qi];

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
		egress_flush_queue(&p->egress, qi, true, pfc_ingress_release, f);
	return q->last_xoff_ns + q->wd.restore_ns;
}

uint64_t pfc_timers(struct fabric *f, uint64_t now_ns)
{
	uint64_t next = UINT64_MAX, t;

	for (unsigned i = 0; i < f->nports; i++) {
		struct fabric_port *p = &f->ports[i];

		pfc_evaluate(f, i, now_ns);
		for (unsigned prio = 0; prio < FABRIC_PRIOS; prio++) {
			const struct pfc_prio *pp = &p->pfc[prio];

			if (pp->xoff_active && pp->refresh_at_ns < next)
				next = pp->refresh_at_ns;
			t = watchdog(f, p, prio, now_ns);
			if (t < next)
				next = t;
		}
	}
	return next;
}

void pfc_port_reset(struct fabric *f, unsigned port, uint64_t now_ns)
{
	struct fabric_port *p = &f->ports[port];

	for (unsigned prio = 0; prio < FABRIC_PRIOS; prio++) {
		struct egress_queue *q = &p->egress.q[prio];

		xoff_close(&p->pfc[prio], now_ns);
		if (egress_queue_paused(q, now_ns)) {
			q->st.pause_ns += now_ns - q->pause_start_ns;
			q->pause_open = false;
			q->paused_until_ns = now_ns;
		}
		q->storm = false;
		q->stalled = false;
	}
}
