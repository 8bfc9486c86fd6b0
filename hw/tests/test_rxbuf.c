// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The port's receive buffers in simulated time: classification, a slow
 * or stuck host (DIAG_FAULT RX_DRAIN), the PFC and 802.3x pause frames
 * the buffers make the port send, a peer that honours them losing nothing
 * on its lossless priority, and the transmit-side PFC watchdog.  The test
 * plays the peer: it reads the frames the model sends and parses them with
 * its own code, not the model's.
 */
#include "eth_util.h"
#include "wrenhw_int.h"

#define LINK_MBPS	25000u
#define QUANTUM_NS(q)	((uint64_t)(q) * 512000u / LINK_MBPS)
#define PEER_DELAY_NS	2000u	/* the peer reacts to a pause this late */
#define MAX_LOG		256u

struct ctl {
	uint64_t at;
	bool good;		/* DA, SA, EtherType, length as 802.3 says */
	uint16_t opcode;
	uint16_t vector;
	uint16_t time[8];
};

struct rig {
	struct tenv e;
	/* The peer's view of our pauses: it holds p in [from, until). */
	uint64_t pause_from[8], paused_until[8];
	struct ctl log[MAX_LOG];
	unsigned int nlog;
	unsigned int nctl;		/* control frames sent, all */
	unsigned int other;		/* non-control frames sent */
};

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint64_t now(struct rig *r)
{
	return r->e.d->h->now_ns;
}

static bool peer_paused(struct rig *r, unsigned int p)
{
	return now(r) >= r->pause_from[p] && now(r) < r->paused_until[p];
}

/* Reads what the model sent since the last call, as the peer's MAC. */
static void poll_tx(struct rig *r)
{
	static const uint8_t da[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };
	struct th *h = r->e.d->h;
	unsigned int n = h->tx_frames < TH_MAX_TX ? h->tx_frames : TH_MAX_TX;

	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *f = h->tx[i].data;
		struct ctl c;

		if (h->tx[i].len < 18 || be16(f + 12) != 0x8808) {
			r->other++;
			continue;
		}
		memset(&c, 0, sizeof(c));
		c.at = h->now_ns;
		c.good = h->tx[i].len == 60 && !memcmp(f, da, 6) &&
			 !memcmp(f + 6, dev_mac, 6);
		c.opcode = be16(f + 14);
		if (c.opcode == 0x0001) {
			c.vector = 0xff;
			for (unsigned int p = 0; p < 8; p++)
				c.time[p] = be16(f + 16);
		} else {
			c.vector = be16(f + 16);
			for (unsigned int p = 0; p < 8; p++)
				c.time[p] = be16(f + 18 + 2 * p);
		}
		for (unsigned int p = 0; p < 8; p++) {
			if (!(c.vector & (1u << p)))
				continue;
			if (c.time[p] && r->paused_until[p] <= c.at)
				r->pause_from[p] = c.at + PEER_DELAY_NS;
			r->paused_until[p] = c.at + PEER_DELAY_NS +
					     QUANTUM_NS(c.time[p]);
		}
		r->nctl++;
		if (r->nlog < MAX_LOG)
			r->log[r->nlog++] = c;
	}
	h->tx_frames = 0;
}

/* Simulated time up to @t, running every model deadline on the way. */
static void run_to(struct rig *r, uint64_t t)
{
	struct th *h = r->e.d->h;

	for (unsigned int guard = 0; guard < 1000000; guard++) {
		uint64_t dl = h->timer_deadline;

		if (dl <= h->now_ns) {
			th_advance(h, 0);
			poll_tx(r);
			continue;
		}
		if (h->now_ns >= t)
			return;
		th_advance(h, (dl < t ? dl : t) - h->now_ns);
		poll_tx(r);
	}
	tap_diag("the model never settled before %llu ns",
		 (unsigned long long)t);
}

static void rig_init(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	env_init(&r->e);
	whw_test_set_caps(r->e.d->h->hw, WHW_CAPS | WHW_CAPS_DCB | WHW_CAPS_CC);
}

static int set(struct rig *r, uint8_t op, const void *in, uint32_t len)
{
	return td_cmd(r->e.d, op, NULL, 0, in, len, NULL, 0).status;
}

static int set_pfc(struct rig *r, uint8_t en)
{
	struct wren_pfc pfc;

	memset(&pfc, 0, sizeof(pfc));
	pfc.pfc_en = en;
	return set(r, WREN_AQ_OP_SET_PFC, &pfc, sizeof(pfc));
}

/* Priority @p alone in buffer 1, the rest in buffer 0. */
static int set_buf(struct rig *r, unsigned int p, uint32_t size,
		   uint32_t xoff, uint32_t xon)
{
	struct wren_buffer b;

	memset(&b, 0, sizeof(b));
	b.size[0] = 256 * 1024;
	b.xoff[0] = 128 * 1024;
	b.xon[0] = 128 * 1024;
	b.size[1] = size;
	b.xoff[1] = xoff;
	b.xon[1] = xon;
	b.prio2buffer[p] = 1;
	return set(r, WREN_AQ_OP_SET_BUFFER, &b, sizeof(b));
}

static int set_wd(struct rig *r, uint16_t timeout, uint16_t recovery)
{
	struct wren_pfc_wd wd;

	memset(&wd, 0, sizeof(wd));
	wd.timeout_ms = timeout;
	wd.recovery_ms = recovery;
	return set(r, WREN_AQ_OP_SET_PFC_WD, &wd, sizeof(wd));
}

static struct td_res drain(struct td *d, uint32_t mbps)
{
	struct wren_aq_diag_fault df;

	memset(&df, 0, sizeof(df));
	df.fault = WREN_DIAG_RX_DRAIN;
	df.arg = mbps;
	return td_cmd(d, WREN_AQ_OP_DIAG_FAULT, &df, sizeof(df), NULL, 0,
		      NULL, 0);
}

static int set_pause(struct rig *r, uint8_t pause)
{
	struct wren_set_port_in in;

	memset(&in, 0, sizeof(in));
	in.mask = WREN_SET_PORT_PAUSE;
	in.pause = pause;
	return set(r, WREN_AQ_OP_SET_PORT, &in, sizeof(in));
}

/* A priority-tagged frame (VID 0) of @len bytes, @seq in its payload. */
static uint32_t mk(uint8_t *f, unsigned int pcp, uint32_t len, uint32_t seq)
{
	memset(f, 0, len);
	memcpy(f, dev_mac, 6);
	f[6] = 0x02;
	f[11] = 0x09;
	f[12] = 0x81;
	f[14] = (uint8_t)(pcp << 5);
	f[16] = 0x88;
	f[17] = 0xb5;
	memcpy(f + 18, &seq, 4);
	return len;
}

static void rx(struct rig *r, const uint8_t *f, uint32_t len)
{
	wrenhw_rx_frame(r->e.d->h->hw, f, len);
	poll_tx(r);
}

static uint64_t pfc_cnt(struct rig *r, unsigned int p, unsigned int n)
{
	return counter(&r->e, WREN_COUNTERS_PFC, p, n);
}

static uint64_t prio_cnt(struct rig *r, unsigned int p, unsigned int n)
{
	return counter(&r->e, WREN_COUNTERS_PRIO, 0,
		       p * WREN_NUM_PRIO_COUNTERS + n);
}

static uint64_t port_cnt(struct rig *r, unsigned int n)
{
	return counter(&r->e, WREN_COUNTERS_PORT, 0, n);
}

/* ------------------------------------------------------------------ */

static void normal_drain(void)
{
	struct rig r;
	static uint8_t f[2000];

	rig_init(&r);
	tap_ok(set_pfc(&r, 0x08) == 0, "PFC on priority 3, default buffers");
	for (uint32_t i = 0; i < 2000; i++)
		rx(&r, f, mk(f, 3, 1500, i));
	run_to(&r, now(&r) + 10000000);
	tap_ok(r.nlog == 0 && r.other == 0 &&
	       prio_cnt(&r, 3, WREN_PRIO_CNT_RX_PRIO_PACKETS) == 2000,
	       "normal drain: 2000 frames go straight on, no pause sent");
	tap_ok(r.e.d->h->hw->rxbuf.count == 0 &&
	       !pfc_cnt(&r, 3, WREN_PFC_CNT_RX_BUFFER_DISCARDS) &&
	       !pfc_cnt(&r, 3, WREN_PFC_CNT_TX_PAUSE_US),
	       "... nothing buffered, discarded or paused");
	tap_ok(!r.e.d->h->hw->rxbuf.pool && !r.e.d->h->hw->rxbuf.slot &&
	       sizeof(struct wrenhw) < 256 * 1024,
	       "... and no receive pool allocated: the device is %zu bytes",
	       sizeof(struct wrenhw));
	env_fini(&r.e);
}

static void pfc_frames(void)
{
	struct wrenhw *hw;
	static uint8_t f[2000];
	struct rig r;
	uint64_t xoff_at = 0, xon_at, us;
	uint32_t before = 0;
	unsigned int n = 0;

	rig_init(&r);
	hw = r.e.d->h->hw;
	set_pfc(&r, 0x08);
	tap_ok(set_buf(&r, 3, 64 * 1024, 32 * 1024, 20 * 1024) == 0,
	       "priority 3 alone in a 64 KiB buffer, XOFF 32 KiB, XON 20 KiB");
	tap_ok(drain(r.e.d, 100).status == 0, "DIAG RX_DRAIN 100 Mb/s");
	/* Line rate until the first PFC frame: 25 Gb/s in, 0.1 out. */
	while (!r.nlog && n < 100) {
		before = hw->rxbuf.occ[1];
		rx(&r, f, mk(f, 3, 1000, n++));
		run_to(&r, now(&r) + 320);
	}
	xoff_at = r.nlog ? r.log[0].at : 0;
	tap_ok(hw->rxbuf.pool && hw->rxbuf.slot,
	       "the receive pool exists once a frame waits");
	tap_ok(r.nlog == 1 && before <= 32 * 1024 &&
	       before + 1000 > 32 * 1024 && hw->rxbuf.occ[1] > 32 * 1024,
	       "PFC sent as the buffer passes XOFF (frame %u, %u bytes before)",
	       n, before);
	tap_ok(r.nlog && r.log[0].good && r.log[0].opcode == 0x0101 &&
	       r.log[0].vector == 0x0008 && r.log[0].time[3] == 0xffff &&
	       !r.log[0].time[0] && !r.log[0].time[7],
	       "... to 01:80:C2:00:00:01, 0x8808, opcode 0x0101, vector bit 3 only, 0xffff quanta");
	/* The peer stops; the buffer drains at 100 Mb/s. */
	run_to(&r, xoff_at + 500000);
	us = pfc_cnt(&r, 3, WREN_PFC_CNT_TX_PAUSE_US);
	tap_ok(us == 500 || us == 499,
	       "TX_PAUSE_US %llu 500 us into the XOFF: the time so far",
	       (unsigned long long)us);
	run_to(&r, xoff_at + 3000000);
	tap_ok(r.nlog == 3 && r.log[1].vector == 0x0008 &&
	       r.log[1].time[3] == 0xffff &&
	       r.log[1].at - xoff_at == QUANTUM_NS(0xffff) / 2,
	       "refreshed after half the pause time (%llu ns at 25 Gb/s)",
	       (unsigned long long)(r.nlog > 1 ? r.log[1].at - xoff_at : 0));
	xon_at = r.nlog > 2 ? r.log[2].at : 0;
	tap_ok(r.nlog == 3 && r.log[2].good && r.log[2].vector == 0x0008 &&
	       r.log[2].time[3] == 0 && hw->rxbuf.occ[1] <= 20 * 1024,
	       "XON (time 0) once the buffer is at XON, %llu us after XOFF",
	       (unsigned long long)((xon_at - xoff_at) / 1000));
	/* 33 frames in at XOFF, 13 out to reach XON: 13 x 80 us. */
	tap_ok(xon_at - xoff_at > 1000000 && xon_at - xoff_at < 1100000,
	       "... as the drain rate says (13 frames at 100 Mb/s)");
	us = pfc_cnt(&r, 3, WREN_PFC_CNT_TX_PAUSE_US);
	tap_ok(us == (xon_at - xoff_at) / 1000 ||
	       us + 1 == (xon_at - xoff_at) / 1000,
	       "TX_PAUSE_US %llu: the time held XOFF", (unsigned long long)us);
	tap_ok(prio_cnt(&r, 3, WREN_PRIO_CNT_TX_PFC_FRAMES) == 3 &&
	       !prio_cnt(&r, 2, WREN_PRIO_CNT_TX_PFC_FRAMES) &&
	       !port_cnt(&r, WREN_CNT_TX_PAUSE) &&
	       !port_cnt(&r, WREN_CNT_TX_PACKETS),
	       "tx_prio3_pause 3 (XOFF, refresh, XON); not in tx_packets");
	run_to(&r, now(&r) + 20000000);
	tap_ok(r.nlog == 3 && hw->rxbuf.count == 0 &&
	       prio_cnt(&r, 3, WREN_PRIO_CNT_RX_PRIO_PACKETS) == n,
	       "drained: all %u frames handed on, nothing more sent", n);
	env_fini(&r.e);
}

/*
 * The peer sends @per frames on each of priorities 3 (lossless) and 1
 * (lossy) alternately at line rate, holding a priority while paused.
 */
static void peer_send(struct rig *r, unsigned int per, uint32_t len)
{
	static const unsigned int prios[2] = { 3, 1 };
	static uint8_t f[2000];
	unsigned int sent[2] = { 0, 0 }, turn = 0;

	while (sent[0] < per || sent[1] < per) {
		bool any = false;

		for (unsigned int k = 0; k < 2 && !any; k++) {
			unsigned int i = (turn + k) % 2, p = prios[i];

			if (sent[i] >= per || peer_paused(r, p))
				continue;
			rx(r, f, mk(f, p, len, sent[i]++));
			turn = i + 1;
			any = true;
		}
		run_to(r, now(r) + (any ? len * 8000u / LINK_MBPS : 1000));
	}
}

static void lossless_vs_lossy(void)
{
	struct wren_buffer b;
	struct rig r;
	uint64_t d3, d1, x1;
	unsigned int xoffs = 0;

	rig_init(&r);
	set_pfc(&r, 0x08);
	memset(&b, 0, sizeof(b));
	b.size[0] = 64 * 1024;
	b.size[1] = 64 * 1024;		/* priority 3: 32 KiB headroom */
	b.xoff[1] = 32 * 1024;
	b.xon[1] = 16 * 1024;
	b.size[2] = 16 * 1024;		/* priority 1, lossy */
	b.xoff[2] = 16 * 1024;
	b.xon[2] = 16 * 1024;
	b.prio2buffer[3] = 1;
	b.prio2buffer[1] = 2;
	tap_ok(set(&r, WREN_AQ_OP_SET_BUFFER, &b, sizeof(b)) == 0,
	       "buffers: priority 3 64 KiB (XOFF 32), priority 1 16 KiB");
	drain(r.e.d, 1000);
	peer_send(&r, 400, 1000);
	run_to(&r, now(&r) + 50000000);
	for (unsigned int i = 0; i < r.nlog; i++)
		if (r.log[i].time[3])
			xoffs++;
	d3 = prio_cnt(&r, 3, WREN_PRIO_CNT_RX_PRIO_PACKETS);
	d1 = prio_cnt(&r, 1, WREN_PRIO_CNT_RX_PRIO_PACKETS);
	x1 = pfc_cnt(&r, 1, WREN_PFC_CNT_RX_BUFFER_DISCARDS);
	tap_ok(xoffs >= 2 && r.log[r.nlog - 1].time[3] == 0,
	       "the peer was paused %u times and released at the end", xoffs);
	tap_ok(d3 == 400 && !pfc_cnt(&r, 3, WREN_PFC_CNT_RX_BUFFER_DISCARDS),
	       "priority 3 (lossless): 400 of 400 frames arrive, 0 discards");
	tap_ok(x1 > 100 && d1 + x1 == 400,
	       "lossy priority 1: %llu arrive, %llu discarded at a full buffer",
	       (unsigned long long)d1, (unsigned long long)x1);
	tap_ok(!prio_cnt(&r, 1, WREN_PRIO_CNT_TX_PFC_FRAMES) &&
	       port_cnt(&r, WREN_CNT_RX_DROPPED_NO_BUFFER) >= x1,
	       "no PFC for priority 1; its discards in rx_dropped_no_buffer");
	env_fini(&r.e);
}

static void expect_prio(struct rig *r, const uint8_t *f, uint32_t len,
			unsigned int prio, const char *what)
{
	uint64_t before[8];
	bool ok = true;

	for (unsigned int p = 0; p < 8; p++)
		before[p] = r->e.d->h->hw->cnt_pfc[p]
			[WREN_PFC_CNT_RX_BUFFER_DISCARDS];
	rx(r, f, len);
	for (unsigned int p = 0; p < 8; p++)
		ok &= r->e.d->h->hw->cnt_pfc[p]
			[WREN_PFC_CNT_RX_BUFFER_DISCARDS] ==
		      before[p] + (p == prio);
	tap_ok(ok, "%s -> priority %u", what, prio);
}

static void classify(void)
{
	struct wren_trust t;
	struct wren_buffer b;
	struct fspec s;
	static uint8_t f[200], g[200];
	struct rig r;
	uint32_t len;

	rig_init(&r);
	/* No room anywhere and a stuck host: each frame is a discard. */
	memset(&b, 0, sizeof(b));
	for (unsigned int p = 0; p < 8; p++)
		b.prio2buffer[p] = (uint8_t)p;
	set(&r, WREN_AQ_OP_SET_BUFFER, &b, sizeof(b));
	drain(r.e.d, WREN_DIAG_RX_DRAIN_STUCK);
	memset(&s, 0, sizeof(s));
	s.udp = true;
	s.payload = 40;
	len = build_frame(f, &s);
	f[15] = 46 << 2;		/* IPv4 DSCP 46 (EF) */
	expect_prio(&r, f, len, 0, "PCP trust: untagged IPv4 DSCP 46");
	memcpy(g, f, 12);
	g[12] = 0x81;
	g[14] = 5 << 5;
	memcpy(g + 16, f + 12, len - 12);
	expect_prio(&r, g, len + 4, 5, "PCP trust: PCP 5, DSCP 46");

	memset(&t, 0, sizeof(t));
	t.trust = WREN_TRUST_DSCP;
	t.dscp2prio[46] = 6;
	t.dscp2prio[26] = 3;
	tap_ok(set(&r, WREN_AQ_OP_SET_TRUST, &t, sizeof(t)) == 0,
	       "DSCP trust: 46 -> 6, 26 -> 3, the rest -> 0");
	expect_prio(&r, f, len, 6, "DSCP trust: untagged IPv4 DSCP 46");
	expect_prio(&r, g, len + 4, 6, "DSCP trust: PCP 5, IPv4 DSCP 46");
	f[15] = 26 << 2 | 1;		/* ECN bits are not DSCP */
	expect_prio(&r, f, len, 3, "DSCP trust: IPv4 DSCP 26, ECT(1)");
	s.ipv6 = true;
	len = build_frame(f, &s);
	f[14] = 0x60 | 26 >> 2;		/* traffic class 26 << 2 */
	f[15] = (26 & 3) << 6;
	expect_prio(&r, f, len, 3, "DSCP trust: IPv6 traffic class DSCP 26");
	f[14] = 0x60;
	f[15] = 0;
	expect_prio(&r, f, len, 0, "DSCP trust: IPv6 DSCP 0");
	mk(g, 2, 64, 0);
	expect_prio(&r, g, 64, 2, "DSCP trust: non-IP with PCP 2");
	memmove(g + 12, g + 16, 48);
	expect_prio(&r, g, 60, 0, "DSCP trust: untagged non-IP");
	tap_ok(port_cnt(&r, WREN_CNT_RX_DROPPED_NO_BUFFER) == 9 &&
	       port_cnt(&r, WREN_CNT_RX_PACKETS) == 9,
	       "discards counted as received and rx_dropped_no_buffer");
	env_fini(&r.e);
}

static void global_pause(void)
{
	static uint8_t f[2000];
	struct wren_buffer b;
	struct rig r;
	unsigned int n = 0;

	rig_init(&r);
	memset(&b, 0, sizeof(b));
	b.size[0] = 256 * 1024;
	b.xoff[0] = 32 * 1024;
	b.xon[0] = 20 * 1024;
	set(&r, WREN_AQ_OP_SET_BUFFER, &b, sizeof(b));
	drain(r.e.d, 100);
	for (n = 0; n < 60; n++) {
		rx(&r, f, mk(f, (uint8_t)(n & 7), 1000, n));
		run_to(&r, now(&r) + 320);
	}
	run_to(&r, now(&r) + 20000000);
	tap_ok(r.nlog == 0 && r.e.d->h->hw->rxbuf.count == 0 &&
	       port_cnt(&r, WREN_CNT_RX_PACKETS) == 60 &&
	       !port_cnt(&r, WREN_CNT_TX_PAUSE),
	       "no PFC, no WREN_PAUSE_TX: buffer above XOFF, nothing sent");
	tap_ok(set_pause(&r, WREN_PAUSE_TX) == 0, "SET_PORT pause TX");
	for (n = 0; n < 60 && !r.nlog; n++) {
		rx(&r, f, mk(f, (uint8_t)(n & 7), 1000, n));
		run_to(&r, now(&r) + 320);
	}
	tap_ok(r.nlog == 1 && r.log[0].good && r.log[0].opcode == 0x0001 &&
	       r.log[0].time[0] == 0xffff &&
	       r.e.d->h->hw->rxbuf.occ[0] > 32 * 1024,
	       "802.3x pause (opcode 0x0001, 0xffff quanta) above XOFF");
	run_to(&r, now(&r) + 5000000);
	tap_ok(r.nlog == 3 && r.log[1].opcode == 0x0001 &&
	       r.log[1].time[0] == 0xffff && r.log[2].opcode == 0x0001 &&
	       r.log[2].time[0] == 0 && r.log[2].good,
	       "refreshed, then pause time 0 at XON");
	tap_ok(port_cnt(&r, WREN_CNT_TX_PAUSE) == 3 &&
	       !prio_cnt(&r, 3, WREN_PRIO_CNT_TX_PFC_FRAMES) &&
	       pfc_cnt(&r, 0, WREN_PFC_CNT_TX_PAUSE_US) > 1000,
	       "tx_pause 3, no PFC frames counted");
	env_fini(&r.e);
}

static bool storm_event(struct rig *r, uint8_t data)
{
	struct wren_eqe ev;

	while (td_aeq_poll(r->e.d, &ev))
		if (ev.type == WREN_EVENT_PFC_STORM)
			return ev.sub == WREN_PFC_STORM_TX && ev.data == data;
	return false;
}

static uint8_t pfc_storm(struct rig *r)
{
	struct wren_dcb_state st;

	memset(&st, 0, sizeof(st));
	td_cmd(r->e.d, WREN_AQ_OP_QUERY_DCB, NULL, 0, NULL, 0, &st,
	       sizeof(st));
	return st.pfc_storm;
}

static void stuck_host(void)
{
	static uint8_t f[2000];
	struct rig r;
	uint64_t t0, us;
	unsigned int n, logged;

	rig_init(&r);
	set_pfc(&r, 0x08);
	set_buf(&r, 3, 64 * 1024, 32 * 1024, 16 * 1024);
	tap_ok(set_wd(&r, 100, 50) == 0, "PFC watchdog 100 ms, recovery 50 ms");
	drain(r.e.d, WREN_DIAG_RX_DRAIN_STUCK);
	for (n = 0; !r.nlog && n < 100; n++)
		rx(&r, f, mk(f, 3, 1000, n));
	t0 = r.nlog ? r.log[0].at : 0;
	run_to(&r, t0 + 49900000);
	tap_ok(!port_cnt(&r, WREN_CNT_TX_PAUSE_STORM_WARNING_EVENTS),
	       "stuck host: no warning before T/2");
	run_to(&r, t0 + 50000000);
	tap_ok(port_cnt(&r, WREN_CNT_TX_PAUSE_STORM_WARNING_EVENTS) == 1 &&
	       !port_cnt(&r, WREN_CNT_TX_PAUSE_STORM_ERROR_EVENTS),
	       "tx_pause_storm_warning_events 1 at T/2");
	run_to(&r, t0 + 99999000);
	logged = r.nlog;
	tap_ok(!pfc_storm(&r) && !storm_event(&r, 0x08) &&
	       r.log[logged - 1].time[3] == 0xffff,
	       "still pausing just before T (%u frames: XOFF and refreshes)",
	       logged);
	run_to(&r, t0 + 100000000);
	tap_ok(port_cnt(&r, WREN_CNT_TX_PAUSE_STORM_ERROR_EVENTS) == 1 &&
	       prio_cnt(&r, 3, WREN_PRIO_CNT_PFC_STORM_EVENTS) == 1 &&
	       storm_event(&r, 0x08) && pfc_storm(&r) == 0x08,
	       "at T: error event, PFC_STORM TX data 0x08, pfc_storm bit 3");
	tap_ok(r.nlog == logged + 1 && r.log[logged].vector == 0x08 &&
	       r.log[logged].time[3] == 0,
	       "... and one XON for priority 3");
	us = pfc_cnt(&r, 3, WREN_PFC_CNT_TX_PAUSE_US);
	tap_ok(us >= 99999 && us <= 100000,
	       "TX_PAUSE_US %llu: held XOFF for the timeout",
	       (unsigned long long)us);
	for (unsigned int i = 0; i < 80; i++)
		rx(&r, f, mk(f, 3, 1000, n++));
	run_to(&r, now(&r) + 10000000);
	tap_ok(r.nlog == logged + 1 &&
	       pfc_cnt(&r, 3, WREN_PFC_CNT_RX_BUFFER_DISCARDS) > 40,
	       "in the storm: no more pauses, frames drop at a full buffer (%llu)",
	       (unsigned long long)pfc_cnt(&r, 3,
					   WREN_PFC_CNT_RX_BUFFER_DISCARDS));
	tap_ok(port_cnt(&r, WREN_CNT_RX_DROPPED_NO_BUFFER) ==
	       pfc_cnt(&r, 3, WREN_PFC_CNT_RX_BUFFER_DISCARDS),
	       "... each one in rx_dropped_no_buffer");
	/* The host comes back: the buffer empties, then recovery_ms. */
	drain(r.e.d, 0);
	run_to(&r, now(&r) + 1000);
	t0 = now(&r);
	tap_ok(r.e.d->h->hw->rxbuf.count == 0, "normal drain: buffer empty");
	run_to(&r, t0 + 49000000);
	tap_ok(pfc_storm(&r) == 0x08, "still in the storm before recovery_ms");
	run_to(&r, t0 + 51000000);
	tap_ok(pfc_storm(&r) == 0 && storm_event(&r, 0),
	       "recovered after 50 ms quiet: PFC_STORM TX data 0 again");
	drain(r.e.d, 100);
	for (unsigned int i = 0; i < 60 && r.nlog == logged + 1; i++) {
		rx(&r, f, mk(f, 3, 1000, n++));
		run_to(&r, now(&r) + 320);
	}
	tap_ok(r.nlog == logged + 2 && r.log[logged + 1].time[3] == 0xffff,
	       "after recovery priority 3 is paused again above XOFF");
	env_fini(&r.e);
}

static void drain_diag(void)
{
	static uint8_t f[2000];
	struct tenv e;
	struct tq q;
	struct wren_eth_cqe c;
	uint64_t buf;
	uint32_t seq, good = 0;
	struct td *d;

	env_init(&e);
	d = e.d;
	expect(drain(d, 400001), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.diag_fault.arg), "RX_DRAIN 400001 Mb/s -> BAD_PARAM");
	expect(drain(d, 0xfffffffe), WREN_AQ_STATUS_BAD_PARAM,
	       SYND_CMD(u.diag_fault.arg), "RX_DRAIN 0xfffffffe -> BAD_PARAM");
	expect(drain(d, 400000), WREN_AQ_STATUS_OK, 0, "RX_DRAIN 400000");
	expect(drain(d, 1), WREN_AQ_STATUS_OK, 0, "RX_DRAIN 1 Mb/s");

	/* Order: frames held by a stuck host come out first, in order. */
	mk_q(&e, true, e.cq.id, 6, &q);
	buf = rx_post_n(&e, &q, 40, 2048);
	expect(drain(d, WREN_DIAG_RX_DRAIN_STUCK), WREN_AQ_STATUS_OK, 0,
	       "RX_DRAIN stuck");
	for (uint32_t i = 0; i < 20; i++)
		wrenhw_rx_frame(d->h->hw, f, mk(f, (uint8_t)(i % 3), 300, i));
	th_advance(d->h, 100000000);
	tap_ok(!cq_poll(&e, &e.cq, &c) && d->h->hw->rxbuf.count == 20,
	       "stuck: 20 frames wait, none handed on in 100 ms");
	expect(drain(d, 0), WREN_AQ_STATUS_OK, 0, "RX_DRAIN 0: normal again");
	/* One more while the 20 still wait: it queues behind them. */
	wrenhw_rx_frame(d->h->hw, f, mk(f, 1, 300, 20));
	th_advance(d->h, 0);
	th_run(d->h);
	for (seq = 0; cq_poll(&e, &e.cq, &c); seq++) {
		uint32_t v = 0;

		th_mem_read(d->h, buf + (uint64_t)whw_le16(c.desc_idx) * 2048 +
			    14, &v, 4);
		good += v == seq && whw_le16(c.len) == 296;
	}
	tap_ok(seq == 21 && good == 21 && d->h->hw->rxbuf.count == 0,
	       "all 21 handed on in arrival order (%u/%u)", good, seq);

	/* A reset gives the normal drain back and empties the buffers. */
	drain(d, WREN_DIAG_RX_DRAIN_STUCK);
	for (uint32_t i = 0; i < 5; i++)
		wrenhw_rx_frame(d->h->hw, f, mk(f, 0, 300, i));
	th_reg_write(d->h, WREN_REG_CONTROL, WREN_CONTROL_RESET);
	td_enable(d);
	tap_ok(d->h->hw->rxbuf.count == 0 && !d->h->hw->rxbuf.drain_mbps &&
	       !d->h->hw->rxbuf.drain_timer.pending,
	       "reset: buffers empty, normal drain");
	wrenhw_rx_frame(d->h->hw, f, mk(f, 4, 300, 0));
	tap_ok(d->h->hw->cnt_prio[4][WREN_PRIO_CNT_RX_PRIO_PACKETS] == 1,
	       "... a frame goes straight on again");
	env_fini(&e);
}

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

static bool consistent(const struct whw_rxbuf *rb)
{
	uint64_t sum = 0;

	for (unsigned int b = 0; b < 8; b++)
		sum += rb->occ[b];
	return sum == rb->total && rb->total <= WHW_PORT_BUFFER_BYTES &&
	       rb->count <= WHW_RXBUF_SLOTS &&
	       rb->pool_used <= WHW_PORT_BUFFER_BYTES &&
	       (rb->count || (!rb->total && !rb->pool_used));
}

/*
 * Random frames, drain rates, buffer partitions (moved under waiting
 * frames too), PFC and pause settings and time: the accounting stays
 * consistent, and once drained every frame was either handed on or
 * counted as a discard.
 */
static void rxbuf_fuzz(void)
{
	static const uint32_t rates[] = { 0, 1, 10, 100, 1000, 25000,
					  WREN_DIAG_RX_DRAIN_STUCK };
	static uint8_t f[WHW_ETH_MAX_FRAME];
	uint64_t seed = 0x5258425546465a31ull, fed = 0, disc = 0;
	unsigned int bad = 0, steps = 20000;
	struct wren_buffer b;
	struct rig r;
	struct whw_rxbuf *rb;

	rig_init(&r);
	rb = &r.e.d->h->hw->rxbuf;
	set_wd(&r, 20, 5);
	for (unsigned int i = 0; i < steps; i++) {
		uint32_t k = rnd(&seed) % 100;

		if (k < 70) {
			uint32_t len = 60 + rnd(&seed) % (WHW_ETH_MAX_FRAME - 59);

			if (rnd(&seed) & 1)
				len = 60 + rnd(&seed) % 1500;
			rx(&r, f, mk(f, rnd(&seed) & 7, len, i));
			fed++;
		} else if (k < 75) {
			drain(r.e.d, rates[rnd(&seed) % 7]);
		} else if (k < 78) {
			uint32_t left = WHW_PORT_BUFFER_BYTES;

			memset(&b, 0, sizeof(b));
			for (unsigned int j = 0; j < 8; j++) {
				uint32_t sz = left ? rnd(&seed) % (left + 1) : 0;

				b.size[j] = sz;
				b.xoff[j] = sz ? rnd(&seed) % (sz + 1) : 0;
				b.xon[j] = b.xoff[j] ? rnd(&seed) %
						       (b.xoff[j] + 1) : 0;
				b.prio2buffer[j] = rnd(&seed) & 7;
				left -= sz;
			}
			bad += set(&r, WREN_AQ_OP_SET_BUFFER, &b, sizeof(b)) != 0;
		} else if (k < 80) {
			set_pfc(&r, (uint8_t)rnd(&seed));
		} else if (k < 82) {
			set_pause(&r, rnd(&seed) & WREN_PAUSE_TX);
		} else {
			run_to(&r, now(&r) + rnd(&seed) % 200000);
		}
		bad += !consistent(rb);
	}
	drain(r.e.d, 0);
	run_to(&r, now(&r) + 1000000);
	for (unsigned int p = 0; p < 8; p++)
		disc += pfc_cnt(&r, p, WREN_PFC_CNT_RX_BUFFER_DISCARDS);
	tap_ok(!bad && rb->count == 0 && consistent(rb),
	       "fuzz: %u steps, accounting consistent throughout", steps);
	tap_ok(port_cnt(&r, WREN_CNT_RX_PACKETS) == fed && disc < fed,
	       "fuzz: %llu frames, %llu discarded, the rest handed on",
	       (unsigned long long)fed, (unsigned long long)disc);
	tap_ok(r.nctl > 0 && !rb->paused,
	       "fuzz: %u pause frames sent; none held once drained", r.nctl);
	env_fini(&r.e);
}

void test_rxbuf(void)
{
	normal_drain();
	pfc_frames();
	lossless_vs_lossy();
	classify();
	global_pause();
	stuck_host();
	drain_diag();
	rxbuf_fuzz();
}
