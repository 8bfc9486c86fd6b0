// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "fabric.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pfc.h"
#include "pfc_frame.h"

_Static_assert(PFC_MAX_PORTS >= FABRIC_MAX_PORTS,
	       "every port of the fabric is a port of its PFC");

void fabric_config_default(struct fabric_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nports = 2;
	cfg->rate_mbps = FABRIC_DEFAULT_RATE_MBPS;
	cfg->seed = 1;
	cfg->mac_age_ns = (uint64_t)FABRIC_DEFAULT_MAC_AGE_S * 1000000000u;
	cfg->queue_limit_frames = EGRESS_DEFAULT_LIMIT_FRAMES;
	cfg->queue_limit_bytes = EGRESS_DEFAULT_LIMIT_BYTES;
	cfg->pfc_xoff = PFC_DEFAULT_XOFF;
	cfg->pfc_xon = PFC_DEFAULT_XON;
	cfg->pfc_headroom = PFC_DEFAULT_HEADROOM;
	cfg->wd.detect_ns = PFCWD_DEFAULT_DETECT_MS * 1000000ull;
	cfg->wd.restore_ns = PFCWD_DEFAULT_RESTORE_MS * 1000000ull;
	cfg->wd.action = PFCWD_DROP;
}

int fabric_check_lossless(uint64_t xoff, uint64_t xon, uint64_t headroom,
			  char *err, size_t errlen)
{
	if (!xoff || xon >= xoff || xoff > FABRIC_MAX_BUFFER ||
	    headroom > FABRIC_MAX_BUFFER) {
		snprintf(err, errlen,
			 "need 0 <= xon < xoff <= %u and headroom <= %u bytes",
			 FABRIC_MAX_BUFFER, FABRIC_MAX_BUFFER);
		return -1;
	}
	return 0;
}

int fabric_check_red(const struct red_config *red, char *err, size_t errlen)
{
	if (red->kmin > red->kmax || red->kmax > FABRIC_MAX_BUFFER ||
	    !(red->pmax >= 0.0 && red->pmax <= 1.0)) {
		snprintf(err, errlen,
			 "need kmin <= kmax <= %u bytes and pmax within 0..1",
			 FABRIC_MAX_BUFFER);
		return -1;
	}
	return 0;
}

int fabric_check_pfcwd(const struct pfcwd_config *wd, char *err,
		       size_t errlen)
{
	if (wd->detect_ns > FABRIC_MAX_PFCWD_NS ||
	    wd->restore_ns > FABRIC_MAX_PFCWD_NS ||
	    (wd->detect_ns && !wd->restore_ns)) {
		snprintf(err, errlen, "watchdog times must be 1..%u ms",
			 (unsigned)(FABRIC_MAX_PFCWD_NS / 1000000u));
		return -1;
	}
	return 0;
}

void fabric_set_lossless(struct fabric *f, unsigned port, unsigned prio,
			 bool on, uint64_t xoff, uint64_t xon,
			 uint64_t headroom)
{
	struct pfc_prio *pp = &f->ports[port].pfc.prio[prio];

	pp->lossless = on;
	pp->xoff = xoff;
	pp->xon = xon;
	pp->headroom = headroom;
	pfc_evaluate(&f->pfc, port, f->io.now_ns(f->io.ctx));
}

static int pcap_open_port(struct fabric *f, unsigned port, bool truncate)
{
	char path[600];

	if (!f->pcap_dir[0]) {
		errno = ENOENT;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/port%u.pcap", f->pcap_dir, port);
	return pcap_open(&f->ports[port].pcap, path, truncate);
}

static void capture(struct fabric *f, struct fabric_port *p,
		    const uint8_t *frame, uint32_t len)
{
	if (pcap_is_open(&p->pcap))
		pcap_write(&p->pcap, frame, len, f->io.realtime_ns(f->io.ctx));
}

static uint64_t pfc_now_ns(void *ctx)
{
	struct fabric *f = ctx;

	return f->io.now_ns(f->io.ctx);
}

static void pfc_send(void *ctx, unsigned port, const uint8_t *frame,
		     uint32_t len)
{
	struct fabric *f = ctx;
	struct fabric_port *p = &f->ports[port];

	if (!fabric_port_operational(p))
		return;
	capture(f, p, frame, len);
	/* like a switch's MAC control, it bypasses the data queues */
	if (f->io.send(f->io.ctx, port, frame, len))
		p->st.tx_pfc_frames++;
	else
		p->st.tx_pfc_fail++;
}

int fabric_init(struct fabric *f, const struct fabric_config *cfg,
		const struct fabric_io *io, char *err, size_t errlen)
{
	const struct pfc_ops pfc_ops = {
		.ctx = f,
		.now_ns = pfc_now_ns,
		.send = pfc_send,
	};

	if (cfg->nports < 1 || cfg->nports > FABRIC_MAX_PORTS) {
		snprintf(err, errlen, "ports must be 1..%d", FABRIC_MAX_PORTS);
		return -1;
	}
	if (cfg->rate_mbps < 1 || cfg->rate_mbps > FABRIC_MAX_RATE_MBPS) {
		snprintf(err, errlen, "rate must be 1..%u Mb/s",
			 FABRIC_MAX_RATE_MBPS);
		return -1;
	}
	if (!(cfg->loss >= 0 && cfg->loss <= 1) ||
	    !(cfg->corrupt >= 0 && cfg->corrupt <= 1) ||
	    !(cfg->duplicate >= 0 && cfg->duplicate <= 1) ||
	    !(cfg->reorder >= 0 && cfg->reorder <= 1)) {
		snprintf(err, errlen, "probabilities must be within 0..1");
		return -1;
	}
	if (fabric_check_lossless(cfg->pfc_xoff, cfg->pfc_xon,
				  cfg->pfc_headroom, err, errlen) < 0 ||
	    fabric_check_red(&cfg->red, err, errlen) < 0 ||
	    fabric_check_pfcwd(&cfg->wd, err, errlen) < 0)
		return -1;
	for (int q = 0; q < FABRIC_PRIOS; q++) {
		if (cfg->ets_weight[q] > EGRESS_MAX_WEIGHT) {
			snprintf(err, errlen, "ETS weights must be 0..%u",
				 EGRESS_MAX_WEIGHT);
			return -1;
		}
	}
	if (cfg->pcap_dir && strlen(cfg->pcap_dir) >= sizeof(f->pcap_dir)) {
		snprintf(err, errlen, "pcap directory name too long");
		return -1;
	}
	memset(f, 0, sizeof(*f));
	f->nports = cfg->nports;
	f->io = *io;
	pfc_init(&f->pfc, &pfc_ops);
	mac_table_init(&f->macs, cfg->mac_age_ns);
	dscp_map_default(f->dscp_map);
	if (cfg->pcap_dir)
		snprintf(f->pcap_dir, sizeof(f->pcap_dir), "%s", cfg->pcap_dir);
	for (unsigned i = 0; i < f->nports; i++) {
		struct fabric_port *p = &f->ports[i];

		p->index = i;
		p->link_up = true;
		p->loss = cfg->loss;
		p->corrupt = cfg->corrupt;
		p->duplicate = cfg->duplicate;
		p->reorder = cfg->reorder;
		egress_init(&p->egress, cfg->rate_mbps);
		egress_set_weights(&p->egress, cfg->ets_weight);
		pfc_add_port(&f->pfc, &p->pfc, &p->egress);
		for (int q = 0; q < FABRIC_PRIOS; q++) {
			struct egress_queue *eq = &p->egress.q[q];
			struct pfc_prio *pp = &p->pfc.prio[q];

			eq->limit_frames = cfg->queue_limit_frames;
			eq->limit_bytes = cfg->queue_limit_bytes;
			if (cfg->ecn_queues & (1u << q)) {
				eq->red = cfg->red;
				eq->red.enabled = true;
			}
			if (cfg->pfcwd_prios & (1u << q))
				eq->wd = cfg->wd;
			eq->wd.action = cfg->wd.action;
			eq->wd.restore_ns = cfg->wd.restore_ns;
			pp->lossless = cfg->lossless_prios & (1u << q);
			pp->xoff = cfg->pfc_xoff;
			pp->xon = cfg->pfc_xon;
			pp->headroom = cfg->pfc_headroom;
			pp->quanta = PFC_MAX_QUANTA;
		}
		pcap_writer_init(&p->pcap);
	}
	fabric_reseed(f, cfg->seed);
	for (unsigned i = 0; i < f->nports && cfg->pcap_dir; i++) {
		if (pcap_open_port(f, i, true) < 0) {
			snprintf(err, errlen, "cannot open pcap for port %u in %s",
				 i, cfg->pcap_dir);
			fabric_destroy(f);
			return -1;
		}
	}
	return 0;
}

void fabric_destroy(struct fabric *f)
{
	for (unsigned i = 0; i < f->nports; i++) {
		egress_flush(&f->ports[i].egress, pfc_ingress_release_quiet,
			     &f->pfc);
		frame_free(f->ports[i].held);
		f->ports[i].held = NULL;
		pcap_close(&f->ports[i].pcap);
	}
}

void fabric_reseed(struct fabric *f, uint64_t seed)
{
	/* one stream per port: traffic on one port never shifts another's
	 * drop pattern */
	for (unsigned i = 0; i < f->nports; i++) {
		uint64_t s = seed ^ ((uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull);

		prng_seed(&f->ports[i].prng, s);
		/* RED draws from its own stream: marking never shifts faults */
		prng_seed(&f->ports[i].egress.red_prng, ~s);
	}
}

static void send_phy_status(struct fabric *f, struct fabric_port *p)
{
	uint8_t frame[PHY_FRAME_LEN];

	if (!p->connected)
		return;
	phy_status_build(frame, p->link_up, p->egress.rate_mbps);
	capture(f, p, frame, sizeof(frame));
	/* PHY signalling bypasses the queues and the rate limit */
	if (f->io.send(f->io.ctx, p->index, frame, sizeof(frame)))
		p->st.phy_sent++;
}

/* Flip one bit past the MAC header so the frame still reaches its
 * destination and the receiver's checks (ICRC, checksums) must catch it. */
static bool maybe_corrupt(struct fabric_port *p, uint8_t *data, uint32_t len)
{
	uint32_t off;

	if (len <= ETH_HDR_LEN || !prng_chance(&p->prng, p->corrupt))
		return false;
	off = ETH_HDR_LEN + prng_below(&p->prng, len - ETH_HDR_LEN);
	data[off] ^= (uint8_t)(1u << prng_below(&p->prng, 8));
	return true;
}

static void enqueue_to(struct fabric *f, unsigned out, struct frame *fr,
		       uint64_t now)
{
	struct fabric_port *p = &f->ports[out];

	if (!p->connected) {
		p->st.drop_no_peer++;
		frame_free(fr);
		return;
	}
	if (!p->link_up) {
		p->st.drop_tx_link_down++;
		frame_free(fr);
		return;
	}
	if (!pfc_ingress_admit(&f->pfc, fr)) {
		frame_free(fr);
		return;
	}
	switch (egress_enqueue(&p->egress, fr->prio, fr, now)) {
	case EGRESS_ACCEPT:
		break;
	case EGRESS_DROP_FULL:
		p->st.drop_queue_full++;
		return;
	default: /* RED and watchdog drops are counted by their queue */
		return;
	}
	pfc_ingress_charge(&f->pfc, fr);
	fabric_service_port(f, out);
}

/* To the operational ports of @mask but the ingress port. */
static void send_to_ports(struct fabric *f, unsigned in, struct frame *fr,
			  uint64_t mask, uint64_t now)
{
	int last = -1;

	for (unsigned i = 0; i < f->nports; i++) {
		if (i == in || !(mask & (1ull << i)) ||
		    !fabric_port_operational(&f->ports[i]))
			continue;
		if (last >= 0) {
			struct frame *copy = frame_alloc(fr->data, fr->len);

			if (copy) {
				copy->ingress_port = fr->ingress_port;
				copy->prio = fr->prio;
				enqueue_to(f, (unsigned)last, copy, now);
			} else {
				f->ports[in].st.drop_send_fail++;
			}
		}
		last = (int)i;
	}
	/* the original goes to the last member: no copy for two ports */
	if (last >= 0)
		enqueue_to(f, (unsigned)last, fr, now);
	else
		frame_free(fr);
}

static void flood(struct fabric *f, unsigned in, struct frame *fr,
		  uint64_t now)
{
	f->ports[in].st.flooded++;
	send_to_ports(f, in, fr, ~0ull, now);
}

/*
 * A group-addressed frame: an IGMP or MLD report teaches the snooping
 * table and is flooded; a snooped group's frame goes to its members.
 */
static void group_frame(struct fabric *f, unsigned in, struct frame *fr,
			uint64_t now)
{
	uint64_t members;

	f->ports[in].st.mcast_reports +=
		snoop_learn(&f->snoop, in, fr->data, fr->len);
	if (!snoop_members(&f->snoop, fr->data, fr->len, &members)) {
		flood(f, in, fr, now);
		return;
	}
	f->ports[in].st.mcast_to_members++;
	send_to_ports(f, in, fr, members, now);
}

/* Count a MAC control frame the guest sent; false if @kind is none. */
static bool count_mac_ctrl(struct fabric_port *p, enum mac_ctrl_kind kind)
{
	switch (kind) {
	case MAC_CTRL_NONE:
		return false;
	case MAC_CTRL_OTHER:
		p->st.rx_mac_ctrl_other++;
		break;
	case MAC_CTRL_PFC:
		p->st.rx_pfc_frames++;
		break;
	case MAC_CTRL_PAUSE:
		p->st.rx_pause_frames++;
		break;
	}
	return true;
}

void fabric_receive(struct fabric *f, unsigned port, const uint8_t *data,
		    uint32_t len)
{
	struct fabric_port *p = &f->ports[port];
	uint64_t now = f->io.now_ns(f->io.ctx);
	struct classification cls;
	struct frame *fr;
	int out;

	p->st.rx_frames++;
	p->st.rx_bytes += len;
	capture(f, p, data, len);
	if (len < ETH_HDR_LEN) {
		p->st.drop_runt++;
		return;
	}
	if (!p->link_up) {
		p->st.drop_rx_link_down++;
		return;
	}
	if (phy_status_is(data, len)) {
		p->st.drop_reserved++;
		return;
	}
	if (prng_chance(&p->prng, p->loss)) {
		p->st.drop_rx_loss++;
		return;
	}
	if (count_mac_ctrl(p, pfc_receive(&f->pfc, port, data, len, now))) {
		/* an XON may have let a queue go */
		fabric_service_port(f, port);
		return;
	}
	fr = frame_alloc(data, len);
	if (!fr) {
		p->st.drop_send_fail++;
		return;
	}
	if (maybe_corrupt(p, fr->data, len))
		p->st.rx_corrupted++;
	cls = classify_frame(fr->data, len, f->dscp_map);
	fr->prio = cls.prio;
	fr->ingress_port = (uint8_t)port;

	mac_table_learn(&f->macs, eth_src(fr->data), (int)port, now);
	if (mac_is_group(eth_dst(fr->data))) {
		group_frame(f, port, fr, now);
		return;
	}
	out = mac_table_lookup(&f->macs, eth_dst(fr->data), now);
	if (out == MAC_NO_PORT) {
		flood(f, port, fr, now);
	} else if ((unsigned)out == port) {
		p->st.drop_filtered++;
		frame_free(fr);
	} else {
		enqueue_to(f, (unsigned)out, fr, now);
	}
}

/* The frame leaves on the wire: captured in the order sent, then handed
 * to the port's peer. */
static void wire_send(struct fabric *f, struct fabric_port *p,
		      const struct frame *fr)
{
	capture(f, p, fr->data, fr->len);
	if (f->io.send(f->io.ctx, p->index, fr->data, fr->len)) {
		p->st.tx_frames++;
		p->st.tx_bytes += fr->len;
	} else {
		p->st.drop_send_fail++;
	}
}

static void release_held(struct fabric *f, struct fabric_port *p)
{
	struct frame *fr = p->held;

	p->held = NULL;
	if (p->held_overtaken)
		p->st.tx_reordered++;
	wire_send(f, p, fr);
	frame_free(fr);
}

void fabric_service_port(struct fabric *f, unsigned port)
{
	struct fabric_port *p = &f->ports[port];
	uint64_t now = f->io.now_ns(f->io.ctx);
	struct frame *fr;

	while (fabric_port_operational(p) && f->io.can_send(f->io.ctx, port)) {
		/* a frame held back goes once something overtook it, or its
		 * hold is over */
		if (p->held && (p->held_overtaken || now >= p->held_until_ns)) {
			release_held(f, p);
			continue;
		}
		fr = egress_dequeue(&p->egress, now);
		if (!fr)
			break;
		pfc_ingress_release(&f->pfc, fr);
		/* loss on the wire: the frame used its wire time, then died */
		if (prng_chance(&p->prng, p->loss)) {
			p->st.drop_tx_loss++;
			frame_free(fr);
			continue;
		}
		if (maybe_corrupt(p, fr->data, fr->len))
			p->st.tx_corrupted++;
		if (!p->held && prng_chance(&p->prng, p->reorder)) {
			p->held = fr;
			p->held_until_ns = now + FABRIC_REORDER_HOLD_NS;
			p->held_overtaken = false;
			p->st.tx_held++;
			continue;
		}
		wire_send(f, p, fr);
		if (prng_chance(&p->prng, p->duplicate)) {
			p->st.tx_duplicated++;
			wire_send(f, p, fr);
		}
		frame_free(fr);
		if (p->held)
			p->held_overtaken = true;
	}
}

uint64_t fabric_service(struct fabric *f)
{
	uint64_t next = pfc_timers(&f->pfc, f->io.now_ns(f->io.ctx));

	for (unsigned i = 0; i < f->nports; i++) {
		struct fabric_port *p = &f->ports[i];
		uint64_t t;

		fabric_service_port(f, i);
		/* a port waiting for its peer to drain wakes on POLLOUT */
		if (!fabric_port_operational(p) || !f->io.can_send(f->io.ctx, i))
			continue;
		t = egress_next_event_ns(&p->egress, f->io.now_ns(f->io.ctx));
		if (t < next)
			next = t;
		if (p->held && p->held_until_ns < next)
			next = p->held_until_ns;
	}
	return next;
}

static void port_went_away(struct fabric *f, struct fabric_port *p)
{
	p->st.drop_tx_link_down += egress_flush(&p->egress, pfc_ingress_release,
						&f->pfc);
	if (p->held) {
		frame_free(p->held);
		p->held = NULL;
		p->st.drop_tx_link_down++;
	}
	pfc_port_reset(&p->pfc, f->io.now_ns(f->io.ctx));
	mac_table_flush_port(&f->macs, (int)p->index);
}

void fabric_connect(struct fabric *f, unsigned port)
{
	struct fabric_port *p = &f->ports[port];

	p->connected = true;
	p->st.connects++;
	send_phy_status(f, p);
}

void fabric_disconnect(struct fabric *f, unsigned port, bool bad_stream)
{
	struct fabric_port *p = &f->ports[port];

	if (bad_stream)
		p->st.bad_stream++;
	if (!p->connected)
		return;
	p->connected = false;
	snoop_forget_port(&f->snoop, port);
	port_went_away(f, p);
}

void fabric_set_link(struct fabric *f, unsigned port, bool up)
{
	struct fabric_port *p = &f->ports[port];

	if (p->link_up == up)
		return;
	p->link_up = up;
	if (!up)
		port_went_away(f, p);
	send_phy_status(f, p);
}

void fabric_set_rate(struct fabric *f, unsigned port, uint32_t mbps)
{
	struct fabric_port *p = &f->ports[port];

	if (p->egress.rate_mbps == mbps)
		return;
	p->egress.rate_mbps = mbps;
	/* the NIC learns its new speed the way it would from a PHY */
	send_phy_status(f, p);
}

int fabric_set_pcap(struct fabric *f, unsigned port, bool on)
{
	struct fabric_port *p = &f->ports[port];

	if (!on) {
		pcap_close(&p->pcap);
		return 0;
	}
	if (pcap_is_open(&p->pcap))
		return 0;
	return pcap_open_port(f, port, false);
}
